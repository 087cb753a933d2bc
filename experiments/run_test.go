package experiments

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// runCases runs the cases of experiment name once per implementation, as
// the runner does (input and metrics from the instance, the check beside
// the phases), and returns the records. A CUDA implementation without a
// GPU is recorded unavailable; any other error stops the test, and a
// failed check fails it.
func runCases(t *testing.T, name string, cases []Case) []bench.Record {
	t.Helper()
	ctx := context.Background()
	exps, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	e := exps[0]
	var run []bench.Record
	for _, c := range cases {
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
				run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusUnavailable, Error: err.Error()})
				continue
			}
			if err != nil {
				t.Fatalf("%s %s %s: %v", name, impl, c.Params, err)
			}
			if !chk.OK {
				t.Errorf("%s %s %s: check failed: %s (%s)", name, impl, c.Params, chk.Detail, chk.Method)
			}
			run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusOK,
				Statistic: bench.StatMedian, Phases: phases, Input: inst.Input, Metrics: maps.Clone(inst.Metrics), Check: &chk})
		}
		if inst.Release != nil {
			inst.Release()
		}
	}
	return run
}
