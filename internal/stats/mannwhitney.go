package stats

import (
	"fmt"
	"slices"
	"sync"
)

// CompareSamples compares two sets of timed samples (lower is faster) as
// benchstat does: with at least MinSamples on each side, by a two-sided
// Mann-Whitney U test (exact distribution); fewer samples cannot be
// tested, and their medians are then compared only beyond a 25% margin.
// It returns -1 when a is faster, 1 when b is, 0 when the difference is
// within the noise, and a note on the evidence.
func CompareSamples(a, b []float64) (int, string) {
	ma, mb := Median(a), Median(b)
	sign := 1
	if ma < mb {
		sign = -1
	}
	if len(a) < MinSamples || len(b) < MinSamples {
		if max(ma, mb) <= 1.25*min(ma, mb) {
			return 0, fmt.Sprintf("%d and %d samples, too few for a test, medians within 25%%", len(a), len(b))
		}
		return sign, fmt.Sprintf("%d and %d samples, too few for a test; medians %.3gx apart", len(a), len(b), max(ma, mb)/min(ma, mb))
	}
	p := MannWhitneyP(a, b)
	if p >= 0.05 {
		return 0, fmt.Sprintf("Mann-Whitney U p = %.2g over %d and %d samples: within the noise", p, len(a), len(b))
	}
	return sign, fmt.Sprintf("Mann-Whitney U p = %.2g over %d and %d samples", p, len(a), len(b))
}

// MinSamples is the fewest samples a side needs for a test (benchstat's
// advice for a comparison).
const MinSamples = 6

// MannWhitneyP is the two-sided p-value of the Mann-Whitney U test of a
// against b, from the exact distribution of U (ties count one half).
func MannWhitneyP(a, b []float64) float64 {
	n1, n2 := len(a), len(b)
	// U in half units, so ties stay integers.
	u2 := 0
	for _, x := range a {
		for _, y := range b {
			switch {
			case x > y:
				u2 += 2
			case x == y:
				u2++
			}
		}
	}
	// counts[u] is the number of orderings of n1 x's among n1+n2 with
	// U = u (no ties), by the recurrence over the last element.
	counts, total := uDistribution(n1, n2)
	mean2 := n1 * n2 // 2 * (n1 n2 / 2)
	dev := abs(u2 - mean2)
	tail := 0.0
	for u, c := range counts {
		if abs(2*u-mean2) >= dev {
			tail += c
		}
	}
	return min(1, tail/total)
}

// Median returns the median of xs (the mean of the two middle values for an
// even count), or 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// uDistribution is uCounts(n1, n2) and its sum, computed once per pair of
// sample counts: the settle rule runs the test thousands of times a look
// (treefix's Fig. 4 claims over 20 trees, at every corner), always on the
// same few counts. The slice is shared: read it only.
func uDistribution(n1, n2 int) ([]float64, float64) {
	key := [2]int{n1, n2}
	if d, ok := uCache.Load(key); ok {
		d := d.(uDist)
		return d.counts, d.total
	}
	d := uDist{counts: uCounts(n1, n2)}
	for _, c := range d.counts {
		d.total += c
	}
	uCache.Store(key, d)
	return d.counts, d.total
}

type uDist struct {
	counts []float64
	total  float64
}

var uCache sync.Map

// uCounts returns, for U = 0..n1*n2, the number of arrangements of n1
// and n2 items giving that U.
func uCounts(n1, n2 int) []float64 {
	// f[i][j][u]: arrangements of i x's and j y's with U = u.
	prev := make([][]float64, n2+1)
	for j := range prev {
		prev[j] = make([]float64, 1)
		prev[j][0] = 1 // no x's: U = 0
	}
	for i := 1; i <= n1; i++ {
		cur := make([][]float64, n2+1)
		cur[0] = make([]float64, 1)
		cur[0][0] = 1
		for j := 1; j <= n2; j++ {
			cur[j] = make([]float64, i*j+1)
			// Last item an x: it beats all j y's.
			for u, c := range prev[j] {
				cur[j][u+j] += c
			}
			// Last item a y: it adds nothing.
			for u, c := range cur[j-1] {
				cur[j][u] += c
			}
		}
		prev = cur
	}
	return prev[n2]
}
