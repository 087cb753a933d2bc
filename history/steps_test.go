package history

import (
	"math"
	"math/rand/v2"
	"testing"
)

// synthetic is a timeline of commits, each measured by 1 to 3 runs (half
// of them once, as most commits are), every run's time base times the
// step where the commit is at or after at (none when at is 0), times a
// log-normal noise of spread sigma.
func synthetic(rng *rand.Rand, commits, at int, step, sigma float64) [][]float64 {
	groups := make([][]float64, commits)
	for i := range groups {
		runs := 1
		switch u := rng.Float64(); {
		case u > 0.8:
			runs = 3
		case u > 0.5:
			runs = 2
		}
		level := 10.0
		if at > 0 && i >= at {
			level *= step
		}
		for range runs {
			groups[i] = append(groups[i], level*math.Exp(sigma*rng.NormFloat64()))
		}
	}
	return groups
}

// trials is how many synthetic timelines each rate is counted over.
func trials() int {
	if testing.Short() {
		return 400
	}
	return 2000
}

// TestStepsFound: a 1.3x step (up or down) under 5% noise, at a random
// commit with at least three commits on each side of a 30-commit
// timeline, is found at its commit in at least 95% of trials, its
// interval holds 1.3 in at least 95% of those, and no other step comes
// with it in at least 95%.
func TestStepsFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 1))
	n := trials()
	var missed, outside, extra int
	for k := range n {
		const commits = 30
		at := 3 + rng.IntN(commits-5)
		step := 1.3
		if k%2 == 1 {
			step = 1 / 1.3
		}
		steps, _ := DetectSteps(synthetic(rng, commits, at, step, 0.05), 0)
		found := false
		for _, s := range steps {
			if s.Index != at {
				extra++
				continue
			}
			found = true
			if !(s.Lo <= step && step <= s.Hi) {
				outside++
			}
		}
		if !found {
			missed++
		}
	}
	t.Logf("%d trials: %d missed, %d found with an interval that misses the step, %d false steps beside the true one", n, missed, outside, extra)
	if float64(missed) > 0.05*float64(n) {
		t.Errorf("missed %d of %d 1.3x steps (want at most 5%%)", missed, n)
	}
	if float64(outside) > 0.05*float64(n-missed) {
		t.Errorf("%d of %d steps found have an interval without the true ratio (want at most 5%%)", outside, n-missed)
	}
	if float64(extra) > 0.05*float64(n) {
		t.Errorf("%d false steps in %d timelines with one step (want at most 5%%)", extra, n)
	}
}

// TestNoFalseSteps: timelines without a step under 5% noise give no step
// in at least 95% of trials; and replicates alone (one commit measured
// many times) never give one.
func TestNoFalseSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 2))
	n := trials()
	var flagged int
	for range n {
		if steps, _ := DetectSteps(synthetic(rng, 30, 0, 1, 0.05), 0); len(steps) > 0 {
			flagged++
		}
	}
	t.Logf("%d step-free timelines: %d with a false step", n, flagged)
	if float64(flagged) > 0.05*float64(n) {
		t.Errorf("%d of %d step-free timelines gave a step (want at most 5%%)", flagged, n)
	}
	one := [][]float64{{10, 10.5, 9.8, 14, 10.1, 7, 10.2}}
	if steps, _ := DetectSteps(one, 0); len(steps) != 0 {
		t.Errorf("one commit's replicates gave steps %+v", steps)
	}
}
