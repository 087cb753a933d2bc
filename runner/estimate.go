package runner

import (
	"fmt"
	"math"
	"slices"

	"github.com/semibench/semibench/experiments"
)

// estimator predicts a cell's milliseconds per run. Before an
// implementation has finished a cell of an experiment (or of its paper),
// from the experiment's prior (NsPerWork times the case's declared work);
// after, from this machine's measurements: one measured cell scales by
// the work (time proportional to work), two or more fit the experiment's
// cost model to them, time = c * work^b on the upper half of the cells
// measured (least squares in logs, b kept within [minExp, maxExp]), and
// scale the nearest measured cell by it. The priors are only a start:
// what this run measures replaces them.
type estimator struct {
	obs map[string][]observation // by experiment|impl and by paper|impl
}

// observation is one measured cell: its declared work, its median ms per
// run, and its parameters (for the basis text).
type observation struct {
	work, ms float64
	params   string
}

// The bounds of a fitted exponent: a cost model's declared work may be off
// by a power, not by more.
const (
	minExp = 0.3
	maxExp = 2.0
)

func newEstimator() *estimator {
	return &estimator{obs: map[string][]observation{}}
}

// keys are where an experiment's implementation looks its measurements up:
// its own, then its paper's (the same implementation on another table of
// the same paper, whose work is counted in the same units).
func keys(exp *experiments.Experiment, impl string) [2]string {
	return [2]string{exp.Name + "|" + impl, exp.Paper + "|" + impl}
}

func (e *estimator) estimate(exp *experiments.Experiment, impl string, work float64) float64 {
	ms, _ := e.explain(exp, impl, work)
	return ms
}

// explain is the estimate and what it rests on.
func (e *estimator) explain(exp *experiments.Experiment, impl string, work float64) (float64, string) {
	for i, key := range keys(exp, impl) {
		obs := e.obs[key]
		if len(obs) == 0 {
			continue
		}
		ms, basis := predict(obs, work)
		from := "this experiment's"
		if i == 1 {
			from = "this paper's"
		}
		return saturate(ms), fmt.Sprintf("%s on %s %d measured cell(s) of %s", basis, from, len(obs), impl)
	}
	return saturate(exp.NsPerWork[impl] * work / 1e6), "the experiment's prior (no cell of " + impl + " measured yet)"
}

// predict scales the measured cell nearest in work to work by the cost
// model fitted to obs.
func predict(obs []observation, work float64) (float64, string) {
	if work <= 0 {
		return 0, "no work"
	}
	near := obs[0]
	for _, o := range obs[1:] {
		if math.Abs(math.Log(o.work/work)) < math.Abs(math.Log(near.work/work)) {
			near = o
		}
	}
	b, fitted := exponent(obs)
	if work < near.work {
		b = min(b, 1) // fixed costs make a smaller cell no faster than linear
	}
	ms := near.ms * math.Pow(work/near.work, b)
	if !fitted {
		return ms, fmt.Sprintf("scaled by the work from %s", near.params)
	}
	return ms, fmt.Sprintf("fit time ∝ work^%.2f, from %s", b, near.params)
}

// exponent fits b in time = c * work^b to the upper half (by work) of the
// observations with distinct work, by least squares in logs; 1 (and
// false) with fewer than two.
func exponent(obs []observation) (float64, bool) {
	byWork := slices.Clone(obs)
	slices.SortFunc(byWork, func(a, b observation) int {
		switch {
		case a.work < b.work:
			return -1
		case a.work > b.work:
			return 1
		}
		return 0
	})
	byWork = slices.CompactFunc(byWork, func(a, b observation) bool { return a.work == b.work })
	if len(byWork) < 2 {
		return 1, false
	}
	up := byWork[len(byWork)/2:]
	if len(up) < 2 {
		up = byWork[len(byWork)-2:]
	}
	var sx, sy, sxx, sxy float64
	for _, o := range up {
		x, y := math.Log(o.work), math.Log(o.ms)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	n := float64(len(up))
	den := n*sxx - sx*sx
	if den <= 0 {
		return 1, false
	}
	b := (n*sxy - sx*sy) / den
	if math.IsNaN(b) {
		return 1, false
	}
	return min(maxExp, max(minExp, b)), true
}

// observe adds a measured cell (median ms per run) to the estimator.
func (e *estimator) observe(exp *experiments.Experiment, impl string, work, ms float64, params string) {
	if work <= 0 || ms <= 0 {
		return
	}
	for _, key := range keys(exp, impl) {
		e.obs[key] = append(e.obs[key], observation{work: work, ms: ms, params: params})
	}
}
