package runner

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
	"github.com/semibench/semibench/experiments/papers"
)

// TestEstimatorReplaysTheGoldenRun replays the committed H100 run at the
// papers' sizes (experiments/testdata/golden-run.jsonl.gz) through the
// estimator, cell by cell in the order it ran: each cell estimated from
// the cells before it, then observed. The estimates a run's planner would
// have made must lie within 3x of what the cells took for at least 90%
// of them, and none off by more than 30x (a prior alone, or a shape the
// cost model misses, shows as the worst).
func TestEstimatorReplaysTheGoldenRun(t *testing.T) {
	papers.Register()
	f, cases := experimentstest.FileCases(t, filepath.Join("..", "experiments", "testdata", "golden-run.jsonl.gz"))
	est := newEstimator()
	within, n, worst, worstCell := 0, 0, 1.0, ""
	for _, r := range f.Records {
		e := experiments.ByName(r.Experiment)
		cs := cases[r.Experiment+"|"+r.Params.String()]
		s := experiments.SamplesOf(&r, bench.TotalPhase)
		if r.Status != bench.StatusOK || r.ReusedFrom != "" || e == nil || cs == nil || len(s) == 0 {
			continue
		}
		m := bench.Median(s)
		if m <= 0 {
			continue
		}
		ms := est.estimate(e, r.Impl, cs)
		off := math.Max(ms/m, m/ms)
		n++
		if off <= 3 {
			within++
		} else if testing.Verbose() {
			t.Logf("%.1fx: %s (estimate %.3g ms, took %.3g ms)", off, r.Key(), ms, m)
		}
		if off > worst {
			worst, worstCell = off, r.Key()
		}
		est.observe(e, r.Impl, cs, m)
	}
	t.Logf("%d of %d estimates within 3x; the worst %.1fx off (%s)", within, n, worst, worstCell)
	if n == 0 || float64(within) < 0.9*float64(n) {
		t.Errorf("%d of %d estimates within 3x: want 90%%", within, n)
	}
	if worst > 30 {
		t.Errorf("an estimate %.0fx off (%s): want none beyond 30x", worst, worstCell)
	}
}

// TestEstimatePoolTie: when an experiment's own cells and its paper's are
// as near in work, the pool that can fit the cost model's exponent is
// used: one own cell would only scale linearly.
func TestEstimatePoolTie(t *testing.T) {
	prior := map[string]float64{"cpu/x": 1}
	own := &experiments.Experiment{Name: "toy/own", Paper: "toy", NsPerWork: prior}
	other := &experiments.Experiment{Name: "toy/other", Paper: "toy", NsPerWork: prior}
	at := func(w float64) *experiments.Case {
		return &experiments.Case{Params: bench.Params{{Name: "n", Value: fmt.Sprint(w)}}, Work: w}
	}
	est := newEstimator()
	est.observe(own, "cpu/x", at(4), 2)
	est.observe(other, "cpu/x", at(1), 1)
	est.observe(other, "cpu/x", at(4), 2)
	// time ∝ work^0.5 over the paper's cells: 2 ms at 4, 8 ms at 64.
	if ms, basis := est.explain(own, "cpu/x", at(64)); math.Abs(ms-8) > 0.01 || !strings.Contains(basis, "paper") {
		t.Errorf("estimate %.3g ms (%s): want 8 ms from the paper's fitted exponent (own cell alone: 32 ms)", ms, basis)
	}
}
