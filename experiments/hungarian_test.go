package experiments

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cpu/lap"

	"github.com/semibench/semibench/bench"
)

// TestHungarianQuick runs every case of the Hungarian experiments at quick
// scale once per implementation, checks every output, and renders the
// tables and plots from the records.
func TestHungarianQuick(t *testing.T) {
	ctx := context.Background()
	var run []bench.Record
	for _, name := range []string{"hungarian/table1", "hungarian/fig4", "hungarian/fig5", "hungarian/fig6"} {
		exps, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		e := exps[0]
		for _, c := range e.Cases(Quick, Options{}) {
			inst, err := c.Setup(ctx)
			if err != nil {
				t.Fatalf("%s %s: setup: %v", name, c.Params, err)
			}
			for _, impl := range e.ImplsFor(c, "") {
				phases, err := bench.Measure(ctx, bench.Protocol{Reps: 1, Statistic: bench.StatMedian},
					func(ctx context.Context, rec *bench.Recorder) error {
						out, err := inst.Run(ctx, impl, rec)
						if err == nil {
							if chk := inst.Check(impl, out); !chk.OK {
								t.Errorf("%s %s %s: check failed: %s", name, impl, c.Params, chk.Detail)
							}
						}
						return err
					})
				if errors.Is(err, ErrUnavailable) && strings.HasPrefix(impl, "cuda/") {
					run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusUnavailable, Error: err.Error()})
					continue
				}
				if err != nil {
					t.Fatalf("%s %s %s: %v", name, impl, c.Params, err)
				}
				run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusOK,
					Statistic: bench.StatMedian, Phases: phases, Check: &bench.Check{OK: true}})
			}
			if inst.Release != nil {
				inst.Release()
			}
		}
		tables := e.Tables(run)
		if len(tables) == 0 || len(tables[0].Rows) == 0 {
			t.Errorf("%s: no table rows", name)
		}
		if name == "hungarian/table1" {
			// table1's cells also render Tables 2-4 and Fig. 6.
			var titles []string
			for _, tb := range tables {
				titles = append(titles, tb.Title)
			}
			for _, want := range hungarianDerived {
				if !slices.ContainsFunc(titles, func(s string) bool { return strings.HasPrefix(s, want+" ") }) {
					t.Errorf("table1's records render no %s table: %q", want, titles)
				}
			}
		}
		for _, p := range e.Plots(run) {
			if len(p.Series) == 0 {
				t.Errorf("%s: plot %s has no series", name, p.Name)
			}
		}
	}
	// A wrong answer must fail its check.
	exps, _ := Lookup("hungarian/fig4")
	inst, err := exps[0].Cases(Quick, Options{})[0].Setup(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := inst.Run(ctx, "cpu/jv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if chk := inst.Check("cpu/jv", out); !chk.OK {
		t.Fatalf("cpu/jv failed its check: %s", chk.Detail)
	}
	res := out.(*lap.Result)
	wrongCost := &lap.Result{Assignment: res.Assignment, Cost: res.Cost + 1, U: res.U, V: res.V}
	if chk := inst.Check("cpu/jv", wrongCost); chk.OK {
		t.Error("a misreported cost passed its check")
	}
	dup := &lap.Result{Assignment: slices.Clone(res.Assignment)}
	dup.Assignment[1] = dup.Assignment[0]
	if chk := inst.Check("cpu/auction", dup); chk.OK {
		t.Error("a column assigned twice passed its check")
	}
	if chk := inst.Check("cpu/jv", nil); chk.OK {
		t.Error("a missing result passed its check")
	}
}

func TestHungarianWorkGrows(t *testing.T) {
	prev := 0.0
	for _, r := range hungarianFig5Ranges {
		w := hungarianWork(2048, r)
		if w <= prev {
			t.Errorf("work at range %s = %g, not above %g", r, w, prev)
		}
		prev = w
	}
}
