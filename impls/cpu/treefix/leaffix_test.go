package cputreefix

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/problems/treefix"
)

// exactLeaffix returns every vertex's subtree sum of w, exactly (math/big)
// and rounded once to float64.
func exactLeaffix(parent []int32, w []float64) []float64 {
	n := len(w)
	sums := make([]*big.Float, n)
	for v := range n {
		sums[v] = new(big.Float).SetPrec(2048)
	}
	for v, x := range w {
		var t big.Float
		t.SetFloat64(x)
		for u := int32(v); u >= 0; u = parent[u] {
			sums[u].Add(sums[u], &t)
		}
	}
	out := make([]float64, n)
	for v := range n {
		out[v], _ = sums[v].Float64()
	}
	return out
}

// TestVectorialLeaffixFloat64: on random float64 trees (400 vertices,
// weights uniform in [0, 1): parents drawn among the earlier vertices)
// both vectorial implementations solve every tree through Compute and
// its check; the plain one's error, measured against the exact sums,
// exceeds the bound of a recursive sum (2n·u·S_v + u·|L_v|) on some tree,
// which is why it has a bound of its own, and stays within that bound;
// the compensated one is never less accurate than the plain one, and
// within 2u·|L_v| + u·w_v of the exact sum. With small grains the scans
// run in parts, as on large trees.
func TestVectorialLeaffixFloat64(t *testing.T) {
	for _, grain := range []int{arrayGrain, 64} {
		old := arrayGrain
		arrayGrain = grain
		beyondRecursive := 0
		for seed := range 34 {
			rng := rand.New(rand.NewPCG(uint64(seed), 9))
			const n = 400
			in := &treefix.Input{Parent: make([]int32, n), W: make([]float64, n), Line: make([]int, n)}
			in.Parent[0] = -1
			for v := range n {
				if v > 0 {
					in.Parent[v] = int32(rng.IntN(v))
				}
				in.W[v], in.Line[v] = rng.Float64(), v+1
			}
			exact := exactLeaffix(in.Parent, in.W)
			var worst [2]float64
			for k, name := range []string{Vectorial, VectorialCompensated} {
				im, err := treefix.ResolveImpl(registry(), name)
				if err != nil {
					t.Fatal(err)
				}
				s, err := treefix.Compute(context.Background(), in, "tree.txt", treefix.Leaffix, im, false)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Check(); err != nil {
					t.Errorf("grain %d, seed %d, %s: %v", grain, seed, name, err)
				}
				for v, x := range s.F64 {
					e := math.Abs(x - exact[v])
					worst[k] = max(worst[k], e/exact[v])
					if k == 0 && e > 2*n*treefix.U64*exact[v]+treefix.U64*exact[v] {
						beyondRecursive++
					}
					if k == 1 && e > 2*treefix.U64*exact[v]+treefix.U64*in.W[v] {
						t.Errorf("grain %d, seed %d, %s: vertex %d off by %.3g, %.3g ulp of its sum", grain, seed, name, v, e, e/(exact[v]*treefix.U64*2))
					}
				}
			}
			if worst[1] > worst[0] {
				t.Errorf("grain %d, seed %d: cpu/vectorial-compensated's worst relative error %.3g exceeds cpu/vectorial's %.3g", grain, seed, worst[1], worst[0])
			}
		}
		arrayGrain = old
		if beyondRecursive == 0 {
			t.Errorf("grain %d: cpu/vectorial met the recursive sum's bound on every vertex of 34 trees: the test no longer shows why it has a bound of its own", grain)
		}
	}
}
