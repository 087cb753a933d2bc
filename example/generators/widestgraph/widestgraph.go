// Package widestgraph generates the example paper's inputs
// (example/): seeded random digraphs, the same bytes on every
// machine, as a generators/<g> package does for a real paper.
package widestgraph

import (
	"fmt"
	"math/rand/v2"

	"github.com/semibench/semibench/example/problems/widest"
)

// Stream is the PCG stream selector (the second seed word) of the draw.
const Stream uint64 = 0x77696465 // "wide"

// MaxCapacity bounds the capacities: uniform in 1..MaxCapacity.
const MaxCapacity = 1000

// Generate returns a digraph on n nodes in which each arc i→j (i ≠ j) is
// present with probability 4/n (about four arcs out of each node), drawn
// row by row from PCG(seed, Stream): for each pair, first whether the arc
// is there, then its capacity.
func Generate(n int, seed uint64) (*widest.Graph, error) {
	if n < 1 || n > 1<<13 {
		return nil, fmt.Errorf("widestgraph: n must be in 1..8192, got %d", n)
	}
	rng := rand.New(rand.NewPCG(seed, Stream))
	g := &widest.Graph{N: n, C: make([]int32, n*n)}
	for i := range n {
		for j := range n {
			if i != j && rng.IntN(n) < 4 {
				g.C[i*n+j] = 1 + rng.Int32N(MaxCapacity)
			}
		}
	}
	return g, nil
}
