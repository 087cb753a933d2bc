package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// CompareSamples compares two sets of timed samples (lower is faster) as
// benchstat does: with at least MinSamples on each side, by a two-sided
// Mann-Whitney U test (MannWhitneyP); fewer samples cannot be tested, and
// their medians are then compared only beyond a 25% margin. It returns -1
// when a is faster, 1 when b is, 0 when the difference is within the
// noise, and a note on the evidence.
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

// ExactMax is the most samples a side for which MannWhitneyP takes U's
// exact distribution, whose table costs about n1²·n2² operations; above
// it, the normal approximation with the tie correction, as benchstat does,
// which is accurate there and costs a sort.
const ExactMax = 50

// MannWhitneyP is the two-sided p-value of the Mann-Whitney U test of a
// against b (ties count one half): from the exact distribution of U when
// neither side has more than ExactMax samples, else from the normal
// approximation with the tie correction and a continuity correction. Its
// cost is O(N log N) for N samples, plus, on the exact path, a table
// computed once per pair of counts. 1 when a side is empty.
func MannWhitneyP(a, b []float64) float64 {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	u2, ties := rankU(a, b)
	if n1 <= ExactMax && n2 <= ExactMax {
		return exactP(n1, n2, u2)
	}
	return normalP(n1, n2, u2, ties)
}

// exactP is the two-sided p-value of 2U = u2 for n1 and n2 samples from
// U's exact distribution (without ties).
func exactP(n1, n2, u2 int) float64 {
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

// normalP is the two-sided p-value of 2U = u2 for n1 and n2 samples from
// the normal approximation of U: mean n1·n2/2, variance n1·n2/12 ·
// (N + 1 - ties/(N(N-1))) for N samples and the tie term ties (rankU),
// and a continuity correction of one half.
func normalP(n1, n2, u2 int, ties float64) float64 {
	approximated.Add(1)
	n := float64(n1 + n2)
	variance := float64(n1) * float64(n2) / 12 * (n + 1 - ties/(n*(n-1)))
	if variance <= 0 {
		return 1 // every sample tied
	}
	z := (math.Abs(float64(u2-n1*n2))/2 - 0.5) / math.Sqrt(variance)
	if z <= 0 {
		return 1
	}
	return min(1, math.Erfc(z/math.Sqrt2))
}

// rankU returns 2U for a against b (the pairs x of a, y of b with x > y,
// each tie counting one half, doubled to stay an integer), from the ranks
// of the pooled samples, and the tie term Σ(t³ - t) over the groups of t
// equal samples.
func rankU(a, b []float64) (u2 int, ties float64) {
	type sample struct {
		v     float64
		fromA bool
	}
	pool := make([]sample, 0, len(a)+len(b))
	for _, x := range a {
		pool = append(pool, sample{x, true})
	}
	for _, y := range b {
		pool = append(pool, sample{y, false})
	}
	slices.SortFunc(pool, func(p, q sample) int { return cmp.Compare(p.v, q.v) })
	r2 := 0 // twice the rank sum of a: a tie group at ranks i..j (1-based) has midrank (i+j)/2
	for i := 0; i < len(pool); {
		j := i
		inA := 0
		for ; j < len(pool) && pool[j].v == pool[i].v; j++ {
			if pool[j].fromA {
				inA++
			}
		}
		r2 += inA * ((i + 1) + j)
		if t := float64(j - i); t > 1 {
			ties += t*t*t - t
		}
		i = j
	}
	n1 := len(a)
	return r2 - n1*(n1+1), ties
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
	for side := int64(max(n1, n2)); ; {
		if old := exactLargest.Load(); old >= side || exactLargest.CompareAndSwap(old, side) {
			break
		}
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

// The work of the tests so far, for Work.
var (
	exactLargest atomic.Int64 // the largest side of an exact table computed
	approximated atomic.Int64 // p-values from the normal approximation
)

// Work reports the work MannWhitneyP has done in this process: the
// largest number of samples a side for which it computed U's exact
// distribution (at most ExactMax, whatever the samples read), and how many
// p-values it took from the normal approximation. A reader's test asserts
// with it that a file of many samples costs no exact table.
func Work() (largestExact, approximate int) {
	return int(exactLargest.Load()), int(approximated.Load())
}

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
