package experiments_test

import (
	"math"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
)

// TestPriorsAgainstTheGoldenRun holds each experiment's prior
// (Experiment.Prior: its fixed cost and NsPerWork times the case's work) to the golden run's measured cells, a
// committed H100 run at the papers' sizes (testdata/golden-run.jsonl.gz): the
// priors only start a run's estimates, which this machine's cells then
// replace, but a prior far off decides what the first cell of each
// implementation costs, and which claims the plan takes first. It logs
// every prior off by more than 30x and fails when fewer than 80% of the
// cells lie within 10x of theirs.
func TestPriorsAgainstTheGoldenRun(t *testing.T) {
	f, cases := experimentstest.FileCases(t, goldenRun)
	within, n := 0, 0
	for _, r := range f.Records {
		e := experiments.ByName(r.Experiment)
		if r.Status != bench.StatusOK || r.ReusedFrom != "" || e == nil {
			continue
		}
		cs, ok := cases[r.Experiment+"|"+r.Params.String()]
		if !ok {
			continue
		}
		prior := e.Prior(r.Impl, cs)
		s := experiments.SamplesOf(&r, bench.TotalPhase)
		if prior <= 0 || len(s) == 0 || bench.Median(s) <= 0 {
			continue
		}
		off := math.Max(prior/bench.Median(s), bench.Median(s)/prior)
		n++
		if off <= 10 {
			within++
		}
		if off > 30 {
			t.Logf("%s %s %s: prior %.3g ms, measured %.3g ms (%.0fx off)", r.Experiment, r.Impl, r.Params, prior, bench.Median(s), off)
		}
	}
	t.Logf("%d of %d cells within 10x of their prior", within, n)
	if n == 0 || float64(within) < 0.8*float64(n) {
		t.Errorf("%d of %d cells within 10x of their prior: want 80%%", within, n)
	}
}
