package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestMannWhitneyP(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6}
	b := []float64{7, 8, 9, 10, 11, 12}
	// Fully separated, 6 and 6: 2 of the C(12,6) = 924 orderings are as
	// extreme.
	if p := MannWhitneyP(a, b); math.Abs(p-2.0/924) > 1e-12 {
		t.Errorf("separated: p = %g, want %g", p, 2.0/924)
	}
	if p := MannWhitneyP(a, a); p != 1 {
		t.Errorf("identical: p = %g, want 1", p)
	}
	interleaved := []float64{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}
	if p := MannWhitneyP(a, interleaved); p < 0.5 {
		t.Errorf("interleaved: p = %g, want large", p)
	}
}

func TestCompareSamples(t *testing.T) {
	fast := []float64{10, 11, 10, 12, 11, 10}
	slow := []float64{20, 21, 22, 20, 21, 23}
	if got, _ := CompareSamples(fast, slow); got != -1 {
		t.Errorf("fast vs slow: %d, want -1", got)
	}
	if got, _ := CompareSamples(slow, fast); got != 1 {
		t.Errorf("slow vs fast: %d, want 1", got)
	}
	noisy := []float64{10, 12, 11, 10.5, 11.5, 12.5}
	if got, note := CompareSamples(fast, noisy); got != 0 || !strings.Contains(note, "within the noise") {
		t.Errorf("within the noise: %d (%s), want 0", got, note)
	}
	// One sample each: only a difference beyond 25% counts.
	if got, _ := CompareSamples([]float64{100}, []float64{110}); got != 0 {
		t.Errorf("one sample, 10%% apart: %d, want 0", got)
	}
	if got, _ := CompareSamples([]float64{100}, []float64{200}); got != -1 {
		t.Errorf("one sample, 2x apart: %d, want -1", got)
	}
}

// TestRankU: the rank-sum U equals the count over all pairs, ties
// included, and the tie term is Σ(t³ - t).
func TestRankU(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		a, b := make([]float64, 1+rng.IntN(30)), make([]float64, 1+rng.IntN(30))
		for i := range a {
			a[i] = float64(rng.IntN(12)) // few values: many ties
		}
		for i := range b {
			b[i] = float64(rng.IntN(12))
		}
		want, count := 0, map[float64]int{}
		for _, x := range a {
			count[x]++
			for _, y := range b {
				switch {
				case x > y:
					want += 2
				case x == y:
					want++
				}
			}
		}
		for _, y := range b {
			count[y]++
		}
		wantTies := 0.0
		for _, c := range count {
			wantTies += float64(c*c*c - c)
		}
		if u2, ties := rankU(a, b); u2 != want || ties != wantTies {
			t.Fatalf("trial %d: rankU = %d, %g; want %d, %g", trial, u2, ties, want, wantTies)
		}
	}
}

// TestNormalNearExact: at the threshold the normal approximation agrees
// with the exact distribution to within 0.01 (the verdicts read p against
// 0.05), over U from the centre to the tail.
func TestNormalNearExact(t *testing.T) {
	for _, n := range []int{30, ExactMax} {
		for u2 := n * n; u2 >= 0; u2 -= max(1, n*n/40) {
			e, a := exactP(n, n, u2), normalP(n, n, u2, 0)
			if math.Abs(e-a) > 0.01 {
				t.Errorf("n=%d, 2U=%d: exact p %.4g, normal %.4g", n, u2, e, a)
			}
		}
	}
}

// TestMannWhitneyLarge (issue 56, item 27): 1,000 samples a side take the
// normal approximation, never the exact table (about n⁴ operations and
// n³ memory, which ran past 40 s and 3 GB); a clear difference is
// significant, identical sets are not, and all-tied sets give p = 1.
func TestMannWhitneyLarge(t *testing.T) {
	a, b := make([]float64, 1000), make([]float64, 1000)
	for i := range a {
		a[i] = 10 + float64(i%37)/10
		b[i] = 10.5 + float64(i%41)/10
	}
	if p := MannWhitneyP(a, b); p > 1e-6 {
		t.Errorf("shifted by 0.5 of a 3.6 spread, 1000 a side: p = %g, want tiny", p)
	}
	if p := MannWhitneyP(a, a); p < 0.9 {
		t.Errorf("identical: p = %g, want about 1", p)
	}
	tied := make([]float64, 1000)
	if p := MannWhitneyP(tied, tied); p != 1 {
		t.Errorf("all tied: p = %g, want 1", p)
	}
	if got, _ := Work(); got > ExactMax {
		t.Errorf("an exact distribution of %d samples a side was computed, beyond ExactMax = %d", got, ExactMax)
	}
}

func BenchmarkMannWhitneyP1000(b *testing.B) {
	x, y := make([]float64, 1000), make([]float64, 1000)
	for i := range x {
		x[i], y[i] = float64(i%97), float64(i%89)+0.5
	}
	for b.Loop() {
		MannWhitneyP(x, y)
	}
}
