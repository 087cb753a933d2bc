package impls

import (
	"slices"
	"testing"

	"github.com/semibench/semibench/problems/minplus"
)

// inf is the (min,+) infinity of the 2-domination paper.
const inf = minplus.Inf

// minplusCases are (min,+) products C = A ⊗ B, row-major, with their
// product; C[i,j] = min over k of A[i,k] + B[k,j], ∞ (minplus.Inf) where
// every term has an ∞, and clamped to ∞ at or above it. With n and the
// factors' orders differing, Mul must refuse.
var minplusCases = []struct {
	name    string
	n       int // the order of C
	a, b    []int16
	want    []int16
	refuses bool
}{
	{name: "empty", n: 0, a: []int16{}, b: []int16{}, want: []int16{}},
	{name: "1x1", n: 1, a: []int16{3}, b: []int16{4}, want: []int16{7}},
	{name: "1x1 zeros", n: 1, a: []int16{0}, b: []int16{0}, want: []int16{0}},
	{name: "1x1 infinite factor", n: 1, a: []int16{inf}, b: []int16{4}, want: []int16{inf}},
	// C[0,1] and C[1,1] are ties: 1+1 = 2+0 and 3+1 = 4+0.
	{name: "2x2 ties", n: 2, a: []int16{1, 2, 3, 4}, b: []int16{0, 1, 2, 0}, want: []int16{1, 2, 3, 4}},
	{name: "identity", n: 2, a: []int16{0, inf, inf, 0}, b: []int16{5, inf, 7, 1}, want: []int16{5, inf, 7, 1}},
	{name: "all infinite", n: 2, a: []int16{inf, inf, inf, inf}, b: []int16{0, 0, 0, 0}, want: []int16{inf, inf, inf, inf}},
	// Sums at and beyond ∞ clamp to it; one below stays finite.
	{name: "near infinity", n: 2, a: []int16{5000, 9998, inf, 0}, b: []int16{5000, 1, inf, 0},
		want: []int16{inf, 5001, inf, 0}},
	// A path graph's arcs squared: the two-step paths.
	{name: "3x3 sparse", n: 3,
		a: []int16{
			inf, 1, inf,
			inf, inf, 2,
			3, inf, inf},
		b: []int16{
			inf, 1, inf,
			inf, inf, 2,
			3, inf, inf},
		want: []int16{
			inf, inf, 3,
			5, inf, inf,
			inf, 4, inf}},
	{name: "orders differ", n: 3, a: make([]int16, 4), b: make([]int16, 4), refuses: true},
}

// TestMinplusCases runs minplusCases against every implementation in
// impls.Minplus, at one and several threads; every entry of C must be
// written.
func TestMinplusCases(t *testing.T) {
	for _, im := range Minplus.All() {
		t.Run(im.Name, func(t *testing.T) {
			skipWithoutDevice(t, im.Name)
			for _, tc := range minplusCases {
				k := isqrt(len(tc.a))
				a := &minplus.Dense{N: k, Data: slices.Clone(tc.a)}
				b := &minplus.Dense{N: k, Data: slices.Clone(tc.b)}
				for _, threads := range []int{1, 3} {
					c := &minplus.Dense{N: tc.n, Data: make([]int16, tc.n*tc.n)}
					c.Fill(-5)
					err := im.Mul(t.Context(), c, minplus.NewOperand(a), b, threads, nil)
					switch {
					case tc.refuses:
						if err == nil {
							t.Errorf("%s: a %dx%d product into a %dx%d C accepted", tc.name, k, k, tc.n, tc.n)
						}
					case err != nil:
						t.Errorf("%s threads %d: %v", tc.name, threads, err)
					case !slices.Equal(c.Data, tc.want):
						t.Errorf("%s threads %d: C = %v, want %v", tc.name, threads, c.Data, tc.want)
					}
				}
			}
		})
	}
}

// isqrt is the order of a square matrix of n entries.
func isqrt(n int) int {
	k := 0
	for (k+1)*(k+1) <= n {
		k++
	}
	return k
}
