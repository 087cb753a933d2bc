package history

import (
	"math"
	"slices"
)

// The step detector.
//
// A timeline here is short (tens of commits, a few hundred runs at most),
// its commits unevenly measured (one run at most commits, a dozen at an
// A/B), its runs' noise far from normal: a lease on a throttled GPU, a
// busy host. The choice was between asv's detector (a piecewise-constant
// fit, each level the median of its points, the fit's L1 distance plus a
// penalty per step minimised: the Potts problem that Friedrich et al.
// solve by dynamic programming) and a Mann-Whitney or CUSUM test between
// neighbouring stretches. A rank test needs several runs on each side
// before it can reject anything (at two and two, Mann-Whitney's smallest
// two-sided p is 1/3), and most commits here have one run: it would miss
// the steps that matter. The penalised L1 fit pools every run of a
// stretch, whatever commit made it, is robust to a few wild runs (a
// median moves little), and its exact solution over a few hundred points
// costs milliseconds. So it is asv's fit, with three changes:
//
//   - it works on log times, so a step is a ratio and the noise relative;
//   - the penalty comes from the noise the replicates show (runs of one
//     commit on one machine kind: their spread is the noise between runs,
//     as Kalibera and Jones measure it), with a floor, instead of asv's
//     information criterion, which has no replicates to learn from;
//   - a step may fall only between commits (replicates are never split),
//     and every step the fit finds must then exceed the noise: the
//     difference of the two stretches' medians must lie beyond its 99%
//     interval from that noise, else the stretches merge.

// NoiseFloor is the least noise between runs the detector assumes (as a
// relative spread, 2%): below it, runs of one lease agree more closely
// than runs of different leases do.
const NoiseFloor = 0.02

// penaltyNoises is the penalty of one step in the fit, in units of the
// noise. An L1 fit of pure noise gains about 0.63 sigma times a squared
// normal deviate from its best split, some 6 sigma in the tail over a few
// dozen commits; a true step of ratio r gains about log r times the runs
// of its shorter side. On 2000 synthetic timelines of 30 commits (1 to 3
// runs each, 5% noise), a penalty of 6 gave a false step in 2.6% of the
// step-free ones, 8 in 0.7%, 10 in 0.15% and 12 in 0.1%, and missed a
// 1.3x step in 0.6%, 0.6%, 0.8% and 1.1% of trials: 8, the least penalty
// whose false steps stay under 1%.
const penaltyNoises = 8.0

// stepZ is the normal quantile the ratio's interval is drawn at (99%,
// two-sided): a step stands only where that interval excludes 1.
const stepZ = 2.576

// medianEfficiency is the standard error of a normal sample's median
// over its mean's (sqrt(pi/2)).
const medianEfficiency = 1.2533

// Step is a change in a timeline beyond the noise: between group Index-1
// (the last before it) and group Index (the first after it).
type Step struct {
	Index int
	// Before and After are the medians of the stretches on each side (in
	// the timeline's units).
	Before, After float64
	// Ratio is After / Before, and Lo and Hi its 99% interval from the
	// noise between runs.
	Ratio, Lo, Hi float64
	// RunsBefore and RunsAfter count the runs of each stretch.
	RunsBefore, RunsAfter int
}

// Noise is the noise between runs a timeline shows, as a relative spread
// (the standard deviation of log times).
type Noise struct {
	Sigma float64
	// Measured is the spread the data gave before the floor; From says
	// what it came from: "replicates" (pairs of runs of one commit),
	// "neighbours" (successive commits, where too few replicates exist)
	// or "none" (a timeline too short to say).
	Measured float64
	From     string
	Pairs    int
}

// minPairs is how many replicate pairs the noise needs before it rests on
// them alone.
const minPairs = 3

// EstimateNoise estimates the noise between runs from groups of log
// values (one group a commit): the robust spread (1.4826 times the median
// absolute difference over root 2) of every pair of runs within a group;
// with fewer than minPairs pairs, of successive groups' medians (robust to
// the few steps among them); floored at NoiseFloor.
func EstimateNoise(logs [][]float64) Noise {
	var diffs []float64
	for _, g := range logs {
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				diffs = append(diffs, math.Abs(g[i]-g[j])/math.Sqrt2)
			}
		}
	}
	n := Noise{From: "replicates", Pairs: len(diffs)}
	if len(diffs) < minPairs {
		n.From = "neighbours"
		diffs = diffs[:0]
		for i := 1; i < len(logs); i++ {
			diffs = append(diffs, math.Abs(median(logs[i])-median(logs[i-1]))/math.Sqrt2)
		}
	}
	if len(diffs) == 0 {
		n.From = "none"
		n.Sigma = NoiseFloor
		return n
	}
	n.Measured = 1.4826 * median(diffs)
	n.Sigma = max(n.Measured, NoiseFloor)
	return n
}

// DetectSteps finds the steps of a timeline: groups of positive values in
// order (one group a commit's runs; an empty group is skipped), with the
// noise between runs sigma (EstimateNoise of the logs; 0 estimates it).
func DetectSteps(groups [][]float64, sigma float64) ([]Step, Noise) {
	var logs [][]float64
	var index []int // logs[k] is groups[index[k]]
	for i, g := range groups {
		var l []float64
		for _, v := range g {
			if v > 0 && !math.IsInf(v, 0) {
				l = append(l, math.Log(v))
			}
		}
		if len(l) > 0 {
			logs = append(logs, l)
			index = append(index, i)
		}
	}
	noise := EstimateNoise(logs)
	if sigma > 0 {
		noise.Sigma = sigma
	}
	if len(logs) < 2 {
		return nil, noise
	}
	bounds := potts(logs, penaltyNoises*noise.Sigma)
	bounds = settle(logs, bounds, noise.Sigma)
	var steps []Step
	for k := 1; k < len(bounds)-1; k++ {
		a := flatten(logs[bounds[k-1]:bounds[k]])
		b := flatten(logs[bounds[k]:bounds[k+1]])
		d, se := median(b)-median(a), stepSE(len(a), len(b), noise.Sigma)
		steps = append(steps, Step{Index: index[bounds[k]], Before: math.Exp(median(a)), After: math.Exp(median(b)),
			Ratio: math.Exp(d), Lo: math.Exp(d - stepZ*se), Hi: math.Exp(d + stepZ*se), RunsBefore: len(a), RunsAfter: len(b)})
	}
	return steps, noise
}

// stepSE is the standard error of the difference of two stretches'
// medians, of na and nb runs, at noise sigma.
func stepSE(na, nb int, sigma float64) float64 {
	return medianEfficiency * sigma * math.Sqrt(1/float64(na)+1/float64(nb))
}

// potts fits groups with a piecewise-constant function, each piece the
// median of its points, minimising the L1 distance plus gamma per step,
// exactly, by dynamic programming over the boundaries between groups. It
// returns the pieces' bounds: 0, the first group of each piece after the
// first, len(groups).
func potts(groups [][]float64, gamma float64) []int {
	n := len(groups)
	best := make([]float64, n+1) // best[j]: the least cost of groups[:j]
	from := make([]int, n+1)
	best[0] = -gamma
	for j := 1; j <= n; j++ {
		best[j] = math.Inf(1)
	}
	// cost of groups[i:j] for every i, growing j from i: a sorted run of
	// values kept as the stretch grows
	for i := range n {
		var vals []float64
		for j := i + 1; j <= n; j++ {
			for _, v := range groups[j-1] {
				k, _ := slices.BinarySearch(vals, v)
				vals = slices.Insert(vals, k, v)
			}
			c := best[i] + gamma + l1(vals)
			if c < best[j] {
				best[j], from[j] = c, i
			}
		}
	}
	var bounds []int
	for j := n; j > 0; j = from[j] {
		bounds = append(bounds, j)
	}
	bounds = append(bounds, 0)
	slices.Reverse(bounds)
	return bounds
}

// settle merges the pieces of a fit whose step does not exceed the noise
// (the difference of the medians within stepZ standard errors), the
// weakest first, until every step that is left does.
func settle(groups [][]float64, bounds []int, sigma float64) []int {
	for len(bounds) > 2 {
		weakest, weakestZ := -1, math.Inf(1)
		for k := 1; k < len(bounds)-1; k++ {
			a := flatten(groups[bounds[k-1]:bounds[k]])
			b := flatten(groups[bounds[k]:bounds[k+1]])
			z := math.Abs(median(b)-median(a)) / stepSE(len(a), len(b), sigma)
			if z < weakestZ {
				weakest, weakestZ = k, z
			}
		}
		if weakestZ >= stepZ {
			break
		}
		bounds = slices.Delete(bounds, weakest, weakest+1)
	}
	return bounds
}

// l1 is the L1 distance of sorted values from their median.
func l1(sorted []float64) float64 {
	m := medianSorted(sorted)
	var s float64
	for _, v := range sorted {
		s += math.Abs(v - m)
	}
	return s
}

func flatten(groups [][]float64) []float64 {
	var out []float64
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// median is the median of values (the mean of the middle two of an even
// count); NaN for none. values is not changed.
func median(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	s := slices.Clone(values)
	slices.Sort(s)
	return medianSorted(s)
}

func medianSorted(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
