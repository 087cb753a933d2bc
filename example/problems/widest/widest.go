// Package widest is the example paper's problem (example/): the
// widest-path widths of a small directed graph, the closure of its
// capacity matrix in the (max,min) semiring. Like a problems/<p> package
// it holds what every backend shares: the types, a reference solver
// written for clarity, the check, the phase names and the Impl type.
package widest

import (
	"context"
	"fmt"
	"math"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/digest"
)

// None is the capacity of a missing arc, the (max,min) semiring's zero;
// Inf, the width of the empty path from a node to itself, its one.
const (
	None int32 = 0
	Inf  int32 = math.MaxInt32
)

// The phases of the implementations, in the example paper's words.
const (
	PhaseInit   = "init"   // X = I ⊕ A
	PhaseSquare = "square" // one (max,min) product X ⊗ X
	PhaseSweep  = "sweep"  // one Floyd–Warshall sweep over every pivot
)

// Graph is a directed graph on N nodes: C[i*N+j] is the capacity of the
// arc i→j, None when there is none.
type Graph struct {
	N int
	C []int32
}

// Arcs counts the arcs.
func (g *Graph) Arcs() int {
	m := 0
	for i, c := range g.C {
		if c != None && i/g.N != i%g.N {
			m++
		}
	}
	return m
}

// Hash is the digest of the capacities, as result files record inputs.
func (g *Graph) Hash() string { return digest.Of(g.C) }

// Widths is the answer: W[i*N+j] is the largest bottleneck capacity of a
// path from i to j (Inf on the diagonal, None where j is unreachable).
type Widths struct {
	N int
	W []int32
}

// Impl is one implementation: Solve reports its phases to rec, which may
// be nil.
type Impl struct {
	Name  string
	Solve func(ctx context.Context, g *Graph, rec *bench.Recorder) (*Widths, error)
}

// Init is X = I ⊕ A: the capacities with Inf on the diagonal.
func Init(g *Graph) *Widths {
	w := &Widths{N: g.N, W: append([]int32(nil), g.C...)}
	for i := range g.N {
		w.W[i*g.N+i] = Inf
	}
	return w
}

// Reference relaxes X ← X ⊕ X ⊗ A from X = I ⊕ A until nothing changes:
// paths one arc longer each round, at most N rounds.
func Reference(g *Graph) *Widths {
	n := g.N
	x := Init(g)
	for changed := true; changed; {
		changed = false
		for i := range n {
			for j := range n {
				for k := range n {
					if v := min(x.W[i*n+k], g.C[k*n+j]); v > x.W[i*n+j] {
						x.W[i*n+j], changed = v, true
					}
				}
			}
		}
	}
	return x
}

// Verify compares an answer with the reference: widths are integers, so
// every implementation must agree exactly.
func Verify(got, ref *Widths) bench.Check {
	c := bench.Check{Method: "equal to the reference (max,min) closure"}
	switch {
	case got == nil:
		c.Detail = "no answer"
	case got.N != ref.N || len(got.W) != len(ref.W):
		c.Detail = fmt.Sprintf("%d nodes, want %d", got.N, ref.N)
	default:
		for i := range ref.W {
			if got.W[i] != ref.W[i] {
				c.Detail = fmt.Sprintf("width %d→%d is %d, want %d", i/ref.N, i%ref.N, got.W[i], ref.W[i])
				return c
			}
		}
		c.OK = true
	}
	return c
}
