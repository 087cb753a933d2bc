package stats

import "math"

// The outer level (Kalibera and Jones, ISMM 2013): a benchmark's
// executions (processes, allocations, runs) vary more than its iterations
// within one, so a figure's typical value is estimated from one figure
// per execution, the draws, and its interval rests on their spread, not
// on the samples within each. OuterInterval is that interval on the log
// scale (a figure is a ratio or a time: its spread is relative).

// OuterInterval is the interval for the typical value of the draws ys (the
// log of a figure, one per execution) at level 1-alpha: their mean ±
// q sigma / sqrt(n), where sigma is the draws' standard deviation, floored
// by floorSD when floorSD > 0 (a spread between executions known from
// elsewhere: history's, estimated on floorDF degrees of freedom, or taken
// as known when floorDF is 0), and q is Student's t quantile at
// 1-alpha/2 on the draws' degrees of freedom (n-1), or where the floor
// governs on the larger of theirs and the floor's (the normal quantile
// for a known floor). One draw has an interval only with a floor. No
// draws, a draw that is not finite, or alpha outside (0, 1) give an
// infinite half-width.
func OuterInterval(ys []float64, floorSD float64, floorDF int, alpha float64) (center, half float64) {
	n := len(ys)
	if n == 0 || !(alpha > 0 && alpha < 1) {
		return math.NaN(), math.Inf(1)
	}
	mean, m2 := 0.0, 0.0
	for i, y := range ys {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return math.NaN(), math.Inf(1)
		}
		d := y - mean
		mean += d / float64(i+1)
		m2 += d * (y - mean)
	}
	sigma, df := 0.0, n-1
	if n >= 2 {
		sigma = math.Sqrt(m2 / float64(n-1))
	}
	if floorSD > 0 && floorSD >= sigma {
		if floorDF <= 0 {
			return mean, normalQuantile(1-alpha/2) * floorSD / math.Sqrt(float64(n))
		}
		sigma, df = floorSD, max(df, floorDF)
	}
	if df < 1 {
		return mean, math.Inf(1)
	}
	return mean, tQuantile(df, 1-alpha/2) * sigma / math.Sqrt(float64(n))
}

// TQuantile is Student's t distribution's quantile at p in [1/2, 1) on df
// >= 1 degrees of freedom.
func TQuantile(df int, p float64) float64 { return tQuantile(df, p) }

// NormalQuantile is the standard normal distribution's quantile at p.
func NormalQuantile(p float64) float64 { return normalQuantile(p) }
