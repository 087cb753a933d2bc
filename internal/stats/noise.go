package stats

import (
	"fmt"
	"math"
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
		first, second := Median(p[0]), Median(p[1]) // 0 for none: skipped
		if !(first > 0 && second > 0) || math.IsInf(first, 1) || math.IsInf(second, 1) {
			continue
		}
		d = append(d, math.Abs(math.Log(second/first)))
	}
	if len(d) == 0 {
		return NoiseFloor, 0
	}
	sigma = Median(d) / (normalQuantile(0.75) * math.Sqrt2)
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

// LogSD is the standard deviation of the log of positive samples: a
// cell's spread as the settle rule reads it (0 for fewer than two, or a
// sample that is not positive).
func LogSD(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	mean := 0.0
	for _, v := range xs {
		if !(v > 0) {
			return 0
		}
		mean += math.Log(v)
	}
	mean /= float64(len(xs))
	ss := 0.0
	for _, v := range xs {
		d := math.Log(v) - mean
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// GeoMean is the geometric mean of positive samples, the location
// CellBounds bounds.
func GeoMean(xs []float64) float64 {
	sum := 0.0
	for _, v := range xs {
		sum += math.Log(v)
	}
	return math.Exp(sum / float64(len(xs)))
}
