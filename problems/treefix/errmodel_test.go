package treefix

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestErrModel checks the error model on random float32 series of mixed
// signs and magnitudes: the float32 recursive sum, a pairwise sum (height
// log2 n) and two rounded operations on a rounded sum are within
// SeqErrBound, TreeErrBound and OpErrBound of the exact values; the
// running bound is u·Σ|s_k| to first order; and a float32 sum perturbed by
// twice the bound is not.
func TestErrModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 50; trial++ {
		n := 2 + rng.IntN(4096)
		x := make([]float32, n)
		var sumAbs, first float64
		for i := range x {
			x[i] = float32((2*rng.Float64() - 1) * math.Ldexp(1, rng.IntN(30)-15))
			sumAbs += math.Abs(float64(x[i]))
		}
		exact, bound := SeqErrBound(U32, x)
		var s float32
		acc := new(big.Float).SetPrec(512)
		for i, v := range x {
			s += v
			acc.Add(acc, big.NewFloat(float64(v)))
			if i > 0 {
				sk, _ := acc.Float64()
				first += U32 * math.Abs(sk)
			}
		}
		if e := math.Abs(float64(s) - exact); e > bound {
			t.Fatalf("n=%d: recursive sum error %g above its bound %g", n, e, bound)
		}
		if bound < first || bound > first*(1+2*float64(n)*U32)+1e-300 {
			t.Fatalf("n=%d: running bound %g, first order %g", n, bound, first)
		}
		if e := math.Abs(float64(s+float32(2*bound)) - exact); e <= bound && bound > 0 {
			t.Fatalf("n=%d: a sum moved by twice the bound is within it", n)
		}
		h := 0
		for 1<<h < n {
			h++
		}
		if e := math.Abs(float64(pairwise(x)) - exact); e > TreeErrBound(U32, h, sumAbs) {
			t.Fatalf("n=%d: pairwise error %g above γ_%d·Σ|x| = %g", n, e, h, TreeErrBound(U32, h, sumAbs))
		}
		// the vectorial Leaffix read: fl(fl(ŝ - x0) + x0)
		r := (s - x[0]) + x[0]
		if e := math.Abs(float64(r) - exact); e > OpErrBound(U32, OpErrBound(U32, bound, 0, exact-float64(x[0])), 0, exact) {
			t.Fatalf("n=%d: read error %g above its bound", n, e)
		}
	}
}

func pairwise(x []float32) float32 {
	if len(x) == 1 {
		return x[0]
	}
	m := len(x) / 2
	return pairwise(x[:m]) + pairwise(x[m:])
}
