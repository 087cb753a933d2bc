package stats

import (
	"math"
	"sync"
)

// The settle rule decides when a cell has enough samples for the claims
// that read it. Each cell's typical time gets an interval (CellBounds);
// the claim's rule is evaluated with every cell at the low or the high end
// of its interval (Corners); the claim is settled when every corner gives
// the same class. With probability at least 1-alpha every cell's interval
// holds at every look, so a settled class is the true one whenever the
// rule's class is monotone in each cell's time over the box (a figure
// monotone in each cell, as ratios and differences of times are, read
// against a band as below, inside or above it). "Outside" is not such a
// class when it joins both sides of a band: a figure's interval can reach
// below and above the band at two corners; Settle decides a figure's
// interval against a band with the sides kept apart.
//
// Model. Log time is the cell's typical log time plus independent noise
// of standard deviation sigma at each sample: normal noise (log-normal
// times) is the case the intervals are exact for; the simulation test
// shows their error rate with a one-sided heavy tail too (a few samples
// delayed by much more than sigma), as machines give. The location is the
// geometric mean of the cell's times, exp(E[log t]): the median as well
// when log time is symmetric about it, as under log-normal noise.
//
// Looks. The runner looks after every sample and stops as soon as the
// claims are settled, so the intervals must hold at every look at once.
// With at most maxLooks looks (6 or 10), splitting alpha evenly over them
// (Bonferroni) costs little: the normal quantile for alpha = 0.05 moves
// from 1.96 to 2.64 over 6 looks and 2.81 over 10, while a confidence
// sequence valid for unbounded looks (a mixture martingale) is wider at
// these few samples.
// Since the intervals hold at every look together, their running
// intersection holds too, so the interval never widens with a sample.

// CellBounds returns an interval [lo, hi] for a cell's typical time (the
// geometric mean of its times; see the model above) that holds with
// probability at least 1-alpha at every look n = 1..maxLooks together,
// given the samples in the order they were taken. noise is the machine's
// relative noise, the standard deviation of log time between samples of
// one cell (NoiseFromPairs); it is the spread assumed at one sample, where
// none can be estimated, and a floor for the spread at more.
//
// At look n the interval is mean(log t) ± max(t_{n-1} s, z noise)/sqrt(n)
// in log time, where s is the sample standard deviation of log time and
// t_{n-1} and z are Student's t and the normal quantiles at 1 - a/2, with
// a = alpha/maxLooks. From two samples on, the t interval alone is exact
// for log-normal times whatever their sigma, and the wider of the two
// contains it; the first look relies on the cell's sigma being at most
// noise. A claim reading k cells gets 1-alpha overall when each cell's
// bounds take alpha/k.
//
// More samples than maxLooks count as that many looks. Intervals of two
// looks that do not meet (a drift, or the alpha case) give the latest
// look's interval. No samples, a sample that is not a positive finite
// time, or alpha outside (0, 1) give (0, +Inf): nothing can be settled.
func CellBounds(samples []float64, noise, alpha float64, maxLooks int) (lo, hi float64) {
	if len(samples) == 0 || !(alpha > 0 && alpha < 1) {
		return 0, math.Inf(1)
	}
	a := alpha / float64(max(maxLooks, len(samples)))
	lo, hi = math.Inf(-1), math.Inf(1)
	var mean, m2 float64 // Welford's running mean and sum of squares of log time
	for i, x := range samples {
		if !(x > 0) || math.IsInf(x, 1) {
			return 0, math.Inf(1)
		}
		l, h := lookBounds(math.Log(x), i+1, &mean, &m2, noise, a)
		if l > hi || h < lo {
			lo, hi = l, h
		} else {
			lo, hi = max(lo, l), min(hi, h)
		}
	}
	return math.Exp(lo), math.Exp(hi)
}

// lookBounds adds the n-th log time y to the running mean and m2 and
// returns the log-time interval of look n at level 1-a.
func lookBounds(y float64, n int, mean, m2 *float64, noise, a float64) (lo, hi float64) {
	d := y - *mean
	*mean += d / float64(n)
	*m2 += d * (y - *mean)
	w := math.Inf(1)
	if noise > 0 {
		w = normalQuantile(1-a/2) * noise
	}
	if n >= 2 {
		s := math.Sqrt(*m2 / float64(n-1))
		if noise > 0 {
			w = max(w, tQuantile(n-1, 1-a/2)*s)
		} else {
			w = tQuantile(n-1, 1-a/2) * s
		}
	}
	w /= math.Sqrt(float64(n))
	return *mean - w, *mean + w
}

// MaxCornerCells is the most cells Corners enumerates: 2^16 corners.
const MaxCornerCells = 16

// Corners lists the corners of k cells' intervals: 2^k rows of k values,
// true where the cell takes the high end of its interval. Beyond
// MaxCornerCells cells it returns nil: a claim reading that many cells
// cannot be settled by its corners and keeps the full repetitions.
func Corners(k int) [][]bool {
	if k < 0 || k > MaxCornerCells {
		return nil
	}
	rows := make([][]bool, 1<<k)
	for r := range rows {
		rows[r] = make([]bool, k)
		for c := range k {
			rows[r][c] = r>>c&1 == 1
		}
	}
	return rows
}

// Verdict is where a figure's interval lies against a tolerance band.
type Verdict int

const (
	// Undecided: the interval reaches past an edge of the band.
	Undecided Verdict = iota
	// Inside: the whole interval lies within the band.
	Inside
	// Below: the whole interval lies below the band.
	Below
	// Above: the whole interval lies above the band.
	Above
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case Inside:
		return "inside"
	case Below:
		return "below"
	case Above:
		return "above"
	}
	return "undecided"
}

// Outside reports whether the verdict puts the figure outside the band.
func (v Verdict) Outside() bool { return v == Below || v == Above }

// Settle decides a figure whose interval is [lo, hi] against the band
// [low, high] (edges inside the band): Inside, Below or Above when the
// whole interval is, Undecided when it reaches past an edge.
func Settle(lo, hi, low, high float64) Verdict {
	switch {
	case lo >= low && hi <= high:
		return Inside
	case hi < low:
		return Below
	case lo > high:
		return Above
	}
	return Undecided
}

// normalQuantile is the standard normal distribution's quantile at p.
func normalQuantile(p float64) float64 {
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// tQuantiles caches tQuantile: the runner asks for the same few.
var tQuantiles = struct {
	sync.Mutex
	m map[tKey]float64
}{m: map[tKey]float64{}}

type tKey struct {
	df int
	p  float64
}

// tQuantile is Student's t distribution's quantile at p in [1/2, 1) for
// df >= 1 degrees of freedom, by bisection on tAbsCDF.
func tQuantile(df int, p float64) float64 {
	k := tKey{df, p}
	tQuantiles.Lock()
	q, ok := tQuantiles.m[k]
	tQuantiles.Unlock()
	if ok {
		return q
	}
	target := 2*p - 1 // P(|T| <= q)
	lo, hi := 0.0, 1.0
	for tAbsCDF(hi, df) < target {
		lo, hi = hi, 2*hi
	}
	for range 100 {
		mid := (lo + hi) / 2
		if tAbsCDF(mid, df) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	q = (lo + hi) / 2
	tQuantiles.Lock()
	tQuantiles.m[k] = q
	tQuantiles.Unlock()
	return q
}

// tAbsCDF is P(|T| <= t) for Student's t with an integer df >= 1, by the
// closed form in theta = atan(t/sqrt(df)): for odd df,
// (2/pi)(theta + sin(theta) sum_{j<(df-1)/2} c_j cos^(2j+1)(theta)) with
// c_0 = 1, c_j = c_{j-1} 2j/(2j+1); for even df,
// sin(theta) sum_{j<df/2} d_j cos^(2j)(theta) with d_0 = 1,
// d_j = d_{j-1} (2j-1)/(2j).
func tAbsCDF(t float64, df int) float64 {
	theta := math.Atan(t / math.Sqrt(float64(df)))
	sin, cos := math.Sincos(theta)
	c2 := cos * cos
	if df%2 == 1 {
		sum, term := 0.0, cos
		for j := 0; j < (df-1)/2; j++ {
			if j > 0 {
				term *= c2 * float64(2*j) / float64(2*j+1)
			}
			sum += term
		}
		return 2 / math.Pi * (theta + sin*sum)
	}
	sum, term := 0.0, 1.0
	for j := 0; j < df/2; j++ {
		if j > 0 {
			term *= c2 * float64(2*j-1) / float64(2*j)
		}
		sum += term
	}
	return sin * sum
}
