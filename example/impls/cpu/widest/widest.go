// Package widest holds the example paper's CPU implementations
// (example/), as an impls/cpu/<p> package does for a real paper:
// cpu/paper, the "paper's" repeated squaring, and cpu/fast, one
// Floyd–Warshall sweep, both in the (max,min) semiring.
package widest

import (
	"context"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/example/problems/widest"
)

// Impls lists the implementations in display order.
func Impls() []widest.Impl {
	return []widest.Impl{{Name: "cpu/paper", Solve: Squaring}, {Name: "cpu/fast", Solve: FloydWarshall}}
}

// Squaring computes the closure as the example paper does: X = I ⊕ A,
// then X ← X ⊗ X until paths of n-1 arcs are covered, ⌈log2(n-1)⌉
// products of n³ steps each.
func Squaring(ctx context.Context, g *widest.Graph, rec *bench.Recorder) (*widest.Widths, error) {
	stop := rec.Start(widest.PhaseInit)
	x := widest.Init(g)
	stop()
	for covered := 1; covered < g.N-1; covered *= 2 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		stop := rec.Start(widest.PhaseSquare)
		x = square(x)
		stop()
	}
	return x, nil
}

// square is the (max,min) product X ⊗ X, row by row.
func square(x *widest.Widths) *widest.Widths {
	n := x.N
	z := &widest.Widths{N: n, W: make([]int32, n*n)}
	for i := range n {
		zi := z.W[i*n : (i+1)*n]
		for k, a := range x.W[i*n : (i+1)*n] {
			if a == widest.None {
				continue
			}
			for j, b := range x.W[k*n : (k+1)*n] {
				if v := min(a, b); v > zi[j] {
					zi[j] = v
				}
			}
		}
	}
	return z
}

// FloydWarshall computes the closure in one sweep over the pivots: n³
// steps in all.
func FloydWarshall(ctx context.Context, g *widest.Graph, rec *bench.Recorder) (*widest.Widths, error) {
	stop := rec.Start(widest.PhaseInit)
	x := widest.Init(g)
	stop()
	defer rec.Start(widest.PhaseSweep)()
	n := x.N
	for k := range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		xk := x.W[k*n : (k+1)*n]
		for i := range n {
			a := x.W[i*n+k]
			if a == widest.None || i == k {
				continue
			}
			xi := x.W[i*n : (i+1)*n]
			for j, b := range xk {
				if v := min(a, b); v > xi[j] {
					xi[j] = v
				}
			}
		}
	}
	return x, nil
}
