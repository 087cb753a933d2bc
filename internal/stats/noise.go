package stats

import (
	"fmt"
	"math"
	"slices"
)

// NoiseFloor is the least noise NoiseFromPairs reports, 1% in log time:
// below it a few quiet A/A pairs would promise more than a machine keeps.
const NoiseFloor = 0.01

// NoiseFromPairs estimates the machine's noise, the standard deviation of
// log time between samples of one cell, from A/A pairs: the same cheap
// cell measured twice, apart in time (pair[0] the first measurement's
// samples, pair[1] the second's). Each pair gives d = log(median(second) /
// median(first)), which under the model of CellBounds is normal with
// standard deviation sigma*sqrt(2) when each side is one sample; a drift
// between the two times widens it, as it should, since a cell's samples
// are apart in time too. The estimate is robust to a pair hit by a
// hiccup: median(|d|) / (z_0.75 sqrt(2)), at least NoiseFloor. n is the
// number of pairs it rests on (pairs with a side empty or not positive
// times are left out); with none, sigma is NoiseFloor.
func NoiseFromPairs(pairs [][2][]float64) (sigma float64, n int) {
	var d []float64
	for _, p := range pairs {
		first, second := median(p[0]), median(p[1])
		if !(first > 0 && second > 0) || math.IsInf(first, 1) || math.IsInf(second, 1) {
			continue
		}
		d = append(d, math.Abs(math.Log(second/first)))
	}
	if len(d) == 0 {
		return NoiseFloor, 0
	}
	sigma = median(d) / (normalQuantile(0.75) * math.Sqrt2)
	return max(sigma, NoiseFloor), len(d)
}

// NoiseString states a noise estimate and what it rests on, e.g.
// "2.3% (6 A/A pairs)", or "1.0% (the floor; 4 A/A pairs measured less)".
func NoiseString(sigma float64, n int) string {
	pct := fmt.Sprintf("%.1f%%", 100*sigma)
	switch {
	case n == 0:
		return pct + " (the floor: no A/A pairs)"
	case sigma <= NoiseFloor:
		return fmt.Sprintf("%s (the floor; %s measured less)", pct, plural(n, "A/A pair"))
	}
	return fmt.Sprintf("%s (%s)", pct, plural(n, "A/A pair"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// median is the median of xs (the mean of the middle two for an even
// count), NaN for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
