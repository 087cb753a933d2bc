package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOuterIntervalCoverage: on normal draws the interval holds the
// typical value in about 1-alpha of trials, with and without a floor
// that is the true spread; with one draw only a floor gives an interval.
func TestOuterIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 57))
	const sigma, alpha = 0.2, 0.05
	trials := 4000
	if testing.Short() {
		trials = 1000
	}
	for _, tc := range []struct {
		n       int
		floor   float64
		floorDF int
	}{{3, 0, 0}, {5, 0, 0}, {2, sigma, 12}, {4, sigma, 12}, {1, sigma, 12}, {1, sigma, 0}, {3, sigma, 0}} {
		miss := 0
		for range trials {
			ys := make([]float64, tc.n)
			for i := range ys {
				ys[i] = 1 + sigma*rng.NormFloat64()
			}
			c, h := OuterInterval(ys, tc.floor, tc.floorDF, alpha)
			if math.Abs(c-1) > h {
				miss++
			}
		}
		rate := float64(miss) / float64(trials)
		// binomial slack: 4 standard errors of the rate at alpha
		if slack := 4 * math.Sqrt(alpha*(1-alpha)/float64(trials)); rate > alpha+slack || rate < alpha/3 {
			t.Errorf("n = %d, floor %g on %d df: missed in %.3f of %d trials, want about %g", tc.n, tc.floor, tc.floorDF, rate, trials, alpha)
		}
	}
	if _, h := OuterInterval([]float64{1}, 0, 0, alpha); !math.IsInf(h, 1) {
		t.Errorf("one draw without a floor: half-width %g, want +Inf", h)
	}
	if _, h := OuterInterval([]float64{1, math.NaN()}, 0, 0, alpha); !math.IsInf(h, 1) {
		t.Errorf("a draw that is not a number: half-width %g", h)
	}
}
