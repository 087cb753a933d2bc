package widest

import (
	"math/rand/v2"
	"testing"
)

// brute is the widest width from i to j over every simple path, by depth-first search.
func brute(g *Graph, i, j int) int32 {
	if i == j {
		return Inf
	}
	best := None
	seen := make([]bool, g.N)
	var walk func(u int, width int32)
	walk = func(u int, width int32) {
		if u == j {
			best = max(best, width)
			return
		}
		seen[u] = true
		for v := range g.N {
			if c := g.C[u*g.N+v]; c != None && !seen[v] {
				walk(v, min(width, c))
			}
		}
		seen[u] = false
	}
	walk(i, Inf)
	return best
}

func TestReferenceAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 30 {
		n := 1 + rng.IntN(7)
		g := &Graph{N: n, C: make([]int32, n*n)}
		for k := range g.C {
			if rng.IntN(3) == 0 {
				g.C[k] = 1 + rng.Int32N(9)
			}
		}
		ref := Reference(g)
		for i := range n {
			for j := range n {
				if got, want := ref.W[i*n+j], brute(g, i, j); got != want {
					t.Fatalf("trial %d: width %d→%d = %d, brute force %d", trial, i, j, got, want)
				}
			}
		}
	}
}

func TestVerifyRejects(t *testing.T) {
	g := &Graph{N: 3, C: []int32{0, 5, 0, 0, 0, 2, 7, 0, 0}}
	ref := Reference(g)
	if c := Verify(ref, ref); !c.OK {
		t.Fatalf("the reference fails its own check: %s", c.Detail)
	}
	if want := int32(2); ref.W[0*3+2] != want {
		t.Errorf("width 0→2 = %d, want %d (the path 0→1→2)", ref.W[2], want)
	}
	bad := &Widths{N: 3, W: append([]int32(nil), ref.W...)}
	bad.W[2]++
	if c := Verify(bad, ref); c.OK || c.Detail == "" {
		t.Errorf("a corrupted answer passed: %+v", c)
	}
	if c := Verify(nil, ref); c.OK {
		t.Error("no answer passed")
	}
	if g.Arcs() != 3 {
		t.Errorf("Arcs() = %d, want 3", g.Arcs())
	}
}
