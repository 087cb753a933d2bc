package experiments

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestAPSPQuick runs every case of the apsp experiments at quick scale once
// per implementation, requires every check to pass, and renders the tables.
// Without a GPU the CUDA implementations must report unavailable (and only
// they); with one they run and are checked like the others.
func TestAPSPQuick(t *testing.T) {
	ctx := context.Background()
	var run []bench.Record
	for _, name := range []string{"apsp/semirings", "apsp/systolic", "apsp/blocked"} {
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
					// No GPU here: the CUDA cells say so and the CPU ones run.
					run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusUnavailable, Error: err.Error()})
					continue
				}
				if err != nil {
					t.Fatalf("%s %s %s: %v", name, impl, c.Params, err)
				}
				if !chk.OK {
					t.Errorf("%s %s %s: check failed: %s (%s)", name, impl, c.Params, chk.Detail, chk.Method)
				}
				metrics := map[string]float64{}
				for k, v := range inst.Metrics {
					metrics[k] = v
				}
				run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusOK,
					Statistic: bench.StatMedian, Phases: phases, Check: &chk, Metrics: metrics})
			}
		}
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
		}
		if e.Plots != nil {
			for _, p := range e.Plots(run) {
				if len(p.Series) == 0 {
					t.Errorf("%s: plot %s has no series", name, p.Name)
				}
			}
		}
		if testing.Verbose() {
			for _, tb := range tables {
				t.Logf("%s\n%v\n%v\n%s", tb.Title, tb.Header, tb.Rows, strings.Join(tb.Notes, "\n"))
			}
		}
	}
}
