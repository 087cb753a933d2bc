package bench

import (
	"testing"
)

func TestParseWhere(t *testing.T) {
	w, err := ParseWhere(" n=8192, range=n|10n ")
	if err != nil {
		t.Fatal(err)
	}
	p := func(n, r string) Params {
		return Params{{Name: "n", Value: n}, {Name: "range", Value: r}}
	}
	for _, c := range []struct {
		p    Params
		want bool
	}{{p("8192", "n"), true}, {p("8192", "10n"), true}, {p("8192", "0.1n"), false}, {p("4096", "n"), false}, {Params{{Name: "range", Value: "n"}}, false}} {
		if got := w.Match(c.p); got != c.want {
			t.Errorf("%v: Match = %v", c.p, got)
		}
	}
	if w, err := ParseWhere(""); err != nil || !w.Match(p("1", "x")) {
		t.Errorf("empty: %v %v", w, err)
	}
	for _, bad := range []string{"n", "=5", "n=", "n=1,n=2", "n=1|", "n=1,,m=2"} {
		if _, err := ParseWhere(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
