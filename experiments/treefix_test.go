package experiments

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestTreefixQuick runs every treefix experiment at quick scale once per
// implementation, requires every check to pass, and renders the tables and
// plots.
func TestTreefixQuick(t *testing.T) {
	ctx := context.Background()
	var run []bench.Record
	names := []string{"treefix/table1", "treefix/fig4", "treefix/fig5", "treefix/fig7", "treefix/accuracy"}
	for _, name := range names {
		exps, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		e := exps[0]
		for _, c := range e.Cases(Quick, Options{Threads: 2}) {
			inst, err := c.Setup(ctx)
			if err != nil {
				t.Fatalf("%s %s: setup: %v", name, c.Params, err)
			}
			for _, impl := range e.ImplsFor(c, "") {
				var chk bench.Check
				phases, err := bench.Measure(ctx, bench.Protocol{Reps: 1, Statistic: bench.StatMedian},
					func(ctx context.Context, rec *bench.Recorder) error {
						out, err := inst.Run(ctx, impl, rec)
						if err == nil {
							chk = inst.Check(impl, out)
						}
						return err
					})
				if errors.Is(err, ErrUnavailable) && strings.HasPrefix(impl, "cuda/") {
					continue // no GPU here: the CPU cells still run
				}
				if err != nil {
					t.Fatalf("%s %s %s: %v", name, impl, c.Params, err)
				}
				if !chk.OK {
					t.Errorf("%s %s %s: check failed: %s (%s)", name, impl, c.Params, chk.Detail, chk.Method)
				}
				run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusOK,
					Statistic: bench.StatMedian, Phases: phases, Check: &chk, Metrics: inst.Metrics, Input: inst.Input})
			}
		}
	}
	for _, name := range names {
		exps, _ := Lookup(name)
		e := exps[0]
		tables := e.Tables(run)
		if len(tables) == 0 || len(tables[0].Rows) == 0 {
			t.Errorf("%s: no table rows", name)
		}
		for _, tb := range tables {
			for _, n := range tb.Notes {
				if strings.Contains(n, "CHECK FAILED") {
					t.Errorf("%s: %s", name, n)
				}
			}
			if testing.Verbose() {
				var sb strings.Builder
				tb.Render(&sb, bench.FormatText)
				t.Log("\n" + sb.String())
			}
		}
		if e.Plots != nil {
			for _, p := range e.Plots(run) {
				if len(p.Series) == 0 {
					t.Errorf("%s: plot %s has no series", name, p.Name)
				}
			}
		}
	}
}
