package placement

import (
	"bytes"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/papers"
)

func TestMain(m *testing.M) {
	papers.Register()
	m.Run()
}

// TestMisplaced: a record of the catalogue is placed, a published code's
// beside it too; an unknown experiment, implementation, parameter or value
// is named with why, and LeaveOut sets those aside, naming each.
func TestMisplaced(t *testing.T) {
	rec := func(exp, impl, name, value string) bench.Record {
		return bench.Record{Experiment: exp, Impl: impl, Params: bench.Params{{Name: name, Value: value}, {Name: "weights", Value: "normal"}}, Status: bench.StatusSkipped}
	}
	cases := []struct {
		r    bench.Record
		want string
	}{
		{rec("kleene/table2", "cpu/paper", "n", "60"), ""},
		{rec("kleene/table2", "cpu/paper", "n", "500"), ""},
		{rec("kleene/table9", "cpu/paper", "n", "60"), `experiment "kleene/table9"`},
		{rec("kleene/table2", "cpu/quantum", "n", "60"), `no implementation "cpu/quantum"`},
		{rec("kleene/table2", "cpu/paper", "m", "60"), `no parameter "m"`},
		{rec("kleene/table2", "cpu/paper", "n", "12345"), "no case with n=12345"},
	}
	f := &bench.File{}
	for _, c := range cases {
		got := Misplaced(&c.r)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("Misplaced(%s) = %q, want %q", c.r.Key(), got, c.want)
		}
		f.Records = append(f.Records, c.r)
	}
	var w bytes.Buffer
	if n := LeaveOut(&w, "f.jsonl", f); n != 4 || len(f.Records) != 2 || len(f.LeftOut) != 4 || strings.Count(w.String(), "f.jsonl: record ") != 4 {
		t.Errorf("LeaveOut: %d left out, %d kept, %q named, stderr %q", n, len(f.Records), f.LeftOut, w.String())
	}
}
