package runner

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

func TestParseWhere(t *testing.T) {
	w, err := ParseWhere(" n=8192, range=n|10n ")
	if err != nil {
		t.Fatal(err)
	}
	p := func(n, r string) bench.Params {
		return bench.Params{{Name: "n", Value: n}, {Name: "range", Value: r}}
	}
	for _, c := range []struct {
		p    bench.Params
		want bool
	}{{p("8192", "n"), true}, {p("8192", "10n"), true}, {p("8192", "0.1n"), false}, {p("4096", "n"), false}, {bench.Params{{Name: "range", Value: "n"}}, false}} {
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

// TestCheckWhere: a condition on a parameter no case has, or one no case
// matches, fails before any work; a condition some case meets passes.
func TestCheckWhere(t *testing.T) {
	exps := []*experiments.Experiment{toy(newTrace(), "w", []string{"cpu/a"}, map[string]float64{"cpu/a": 1}, 1, 2, 3)}
	for _, c := range []struct {
		where, err string
	}{
		{"n=1|3", ""},
		{"size=1", `no case has a parameter "size" (they have: n)`},
		{"n=4", "no case at scale quick matches"},
		{"", ""},
	} {
		w, err := ParseWhere(c.where)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckWhere(exps, experiments.Quick, experiments.Options{}, w)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: %v", c.where, err)
		}
	}
}
