package dag

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// The PCG stream selectors (the second PCG seed word) of the two draws.
const (
	StreamPerm uint64 = 0x7065726d // "perm"
	StreamArcs uint64 = 0x61726373 // "arcs"
)

// MaxN is the largest size Generate accepts (a 16 GiB dense matrix).
const MaxN = 1 << 16

// IntWeightMax bounds the integer weights: they are uniform in
// [-IntWeightMax, IntWeightMax].
const IntWeightMax = 8

// Generate returns the paper's random DAG on n nodes as a max-plus matrix,
// with N(0,1) weights or, when intWeights, integers uniform in [-8, 8] (so
// that every path sum is exact in float32 up to 2^24 / 8 arcs). The package
// documentation gives the exact draw order.
func Generate(n int, seed uint64, intWeights bool) (*maxplus.Matrix, error) {
	return GenerateContext(context.Background(), n, seed, intWeights)
}

// GenerateContext is Generate, stopping with ctx's error (wrapped) within a
// row of the matrix once ctx is done.
func GenerateContext(ctx context.Context, n int, seed uint64, intWeights bool) (*maxplus.Matrix, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("dag: n must be in 1..%d, got %d", MaxN, n)
	}
	perm := Permutation(n, seed)
	x := maxplus.New(n)
	src := rand.NewPCG(seed, StreamArcs)
	for i := 1; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("dag: %w", err)
		}
		row := x.Val[perm[i]*n : perm[i]*n+n]
		for j := 0; j < i; j++ {
			if j != i-1 && src.Uint64()>>63 == 0 {
				continue
			}
			var w float32
			if intWeights {
				w = float32(int(Uintn(src, 2*IntWeightMax+1)) - IntWeightMax)
			} else {
				w = float32(Normal(src))
			}
			row[perm[j]] = w
		}
	}
	return x, nil
}

// Permutation returns the node labels p of Generate(n, seed, ·): topological
// node t (0-based) is node p[t] of the matrix.
func Permutation(n int, seed uint64) []int {
	src := rand.NewPCG(seed, StreamPerm)
	p := make([]int, n)
	for k := range p {
		p[k] = k
	}
	for k := n - 1; k > 0; k-- {
		r := int(Uintn(src, uint64(k+1)))
		p[k], p[r] = p[r], p[k]
	}
	return p
}

// Uintn returns a uniform integer in [0, b) from src (b > 0), by Lemire's
// multiply-shift method with rejection.
func Uintn(src *rand.PCG, b uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), b)
	if lo < b {
		thresh := -b % b
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), b)
		}
	}
	return hi
}

// Normal returns a standard normal deviate from src by Marsaglia's polar
// method (one deviate per accepted pair; the second is discarded).
func Normal(src *rand.PCG) float64 {
	for {
		u := float64(src.Uint64()>>11)*0x1p-52 - 1
		v := float64(src.Uint64()>>11)*0x1p-52 - 1
		s := float64(u*u) + float64(v*v)
		if s > 0 && s < 1 {
			return u * math.Sqrt(-2*math.Log(s)/s)
		}
	}
}
