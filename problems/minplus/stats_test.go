package minplus

import (
	"math/rand/v2"
	"testing"
)

func TestStatsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const n = 40
	m := Random(r, n, 0.2)
	s := StatsOf(n, m)
	if s.Min != 0 && s.Min >= Inf {
		t.Fatalf("min %d", s.Min)
	}
	shifted := make([]int16, len(m))
	for i, v := range m {
		shifted[i] = v
		if v < Inf {
			shifted[i] = v + 17
		}
	}
	s2 := StatsOf(n, shifted)
	if s2.Min != s.Min+17 {
		t.Errorf("shifted min %d, want %d", s2.Min, s.Min+17)
	}
	if s.Fingerprint() != s2.Fingerprint() {
		t.Error("a constant shift changed the fingerprint")
	}
	for _, k := range []int{0, 5, n*n - 1} {
		c := append([]int16(nil), shifted...)
		if c[k] < Inf {
			c[k]++
		} else {
			c[k] = 3
		}
		if StatsOf(n, c).Fingerprint() == s2.Fingerprint() {
			t.Errorf("changing entry %d kept the fingerprint", k)
		}
	}
	all := make([]int16, 9)
	for i := range all {
		all[i] = Inf
	}
	if s := StatsOf(3, all); s.Min != Inf || s.DiagMin != Inf || s.DiagArg != -1 || s.Finite != 0 {
		t.Errorf("all-infinite stats %+v", s)
	}
	diag := []int16{5, 1, 1, 1, 4, 1, 1, 1, 4}
	if s := StatsOf(3, diag); s.Min != 1 || s.DiagMin != 4 || s.DiagArg != 1 || s.Finite != 9 {
		t.Errorf("stats %+v", s)
	}
	// Bands of rows add up to the whole, in either order.
	for _, cut := range []int{0, 1, 17, n} {
		a, b := StatsRows(n, m, 0, cut), StatsRows(n, m, cut, n)
		if got := a.Add(b); got != s {
			t.Errorf("rows [0,%d) + [%d,%d): %+v, want %+v", cut, cut, n, got, s)
		}
		if got := b.Add(a); got != s {
			t.Errorf("rows [%d,%d) + [0,%d): %+v, want %+v", cut, n, cut, got, s)
		}
	}
}

// TestStatsColsCombine: the Stats of column slabs that partition a random
// matrix Add up to the whole matrix's, in every order tried, with the
// diagonal's argmin the first row where the whole diagonal is least (ties
// placed in different slabs included).
func TestStatsColsCombine(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 7, 33, 64, 100} {
		for _, inf := range []float64{0, 0.3, 1} {
			m := Random(r, n, inf)
			if n > 4 && inf < 1 { // a tie of the diagonal minimum in two slabs
				m[1*n+1], m[(n-2)*n+n-2] = 0, 0
			}
			whole := StatsOf(n, m)
			for parts := 1; parts <= min(n, 5); parts++ {
				cuts := []int{0}
				for d := 1; d < parts; d++ {
					cuts = append(cuts, d*n/parts)
				}
				cuts = append(cuts, n)
				var slabs []Stats
				for d := 0; d < parts; d++ {
					slabs = append(slabs, StatsCols(n, m, cuts[d], cuts[d+1]))
				}
				for trial := 0; trial < 4; trial++ {
					r.Shuffle(len(slabs), func(i, j int) { slabs[i], slabs[j] = slabs[j], slabs[i] })
					got := slabs[0]
					for _, s := range slabs[1:] {
						got = got.Add(s)
					}
					if got != whole {
						t.Fatalf("n=%d inf=%.1f %d slabs %v: combined %+v, whole %+v", n, inf, parts, cuts, got, whole)
					}
				}
			}
		}
	}
}
