package apsp

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/problems/apsp/semiring"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// apspSystolicPlots draws the active processors per step (the paper's
// Fig. 8, not idealized) for the largest n of the run: one matrix in GJE0,
// and streams on three tracks in GJE0 and GJE1. The curves come from fresh
// simulations (a few seconds at most), not from the records.
func apspSystolicPlots(run []bench.Record) []report.Plot {
	own := experiments.OfExperiment(run, "apsp/systolic")
	n := 0
	for _, r := range own {
		if v, err := strconv.Atoi(r.Params.Get("n")); err == nil && experiments.Ran(&r) {
			n = max(n, v)
		}
	}
	if n == 0 {
		return nil
	}
	n = min(n, 64)
	pl := report.Plot{Name: "apsp-systolic-active", Title: experiments.PlotTitle(fmt.Sprintf("systolic array: share of the processors computing at each step, n = %d (simulated)", n), Paper.Source+", Fig. 8"),
		XLabel: "step / n", YLabel: "computing processors / (n+1)²"}
	ops := systolic.SemiringOps(semiring.Boolean{})
	for _, v := range []struct {
		name   string
		design systolic.Design
		tracks int
	}{{"GJE0, one matrix", systolic.GJE0, 1}, {"GJE0, three tracks", systolic.GJE0, 3}, {"GJE1, three tracks", systolic.GJE1, 3}} {
		count := 1
		if v.tracks == 3 {
			per, _ := systolic.SteadyState(n, v.design)
			count = 3 * per
		}
		mats := make([][]bool, count)
		for m := range mats {
			mats[m] = make([]bool, n*n)
		}
		res, err := systolic.Simulate(context.Background(), n, ops, mats, systolic.Config{Design: v.design, Tracks: v.tracks})
		if err != nil {
			continue
		}
		s := report.Series{Name: v.name}
		for t, a := range res.Active {
			s.X = append(s.X, float64(t)/float64(n))
			s.Y = append(s.Y, float64(a)/float64(res.Processors))
		}
		pl.Series = append(pl.Series, s)
	}
	return []report.Plot{pl}
}

// apspFig4 draws the array as the paper's Fig. 4: n = 4 after 11 steps.
func apspFig4() string {
	pic, err := systolic.Picture(4, 11)
	if err != nil {
		return ""
	}
	return pic
}

// ---- apsp/blocked ----------------------------------------------------------

func apspBlockedPlots(run []bench.Record) []report.Plot {
	const exp = "apsp/blocked"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	impls := []string{"cpu/sgje", "cpu/fast", "cuda/fast"}
	pl := report.Plot{Name: "apsp-blocked", Title: experiments.PlotTitle("all-pairs shortest paths, (min,+) float32 closure: total time vs nodes", Paper.Source+", block decomposition"),
		XLabel: "nodes n", YLabel: "total time (ms)", LogX: true, LogY: true,
		Notes: experiments.AvailabilityNotes(own, exp, impls...)}
	for _, impl := range impls {
		s := report.Series{Name: impl, Impl: impl}
		for _, n := range apspBlockedRows(own) {
			if v := experiments.PhaseMS(rc.Get(exp, impl, apspBlockedParams(n)), "total"); !math.IsNaN(v) {
				s.X, s.Y = append(s.X, float64(n)), append(s.Y, v)
			}
		}
		if len(s.X) > 0 {
			pl.Series = append(pl.Series, s)
		}
	}
	return experiments.PlotsWithNotes(pl)
}
