package trees

import (
	"fmt"
	"math/rand/v2"

	"github.com/semibench/semibench/problems/treefix"
)

// Numbering is a vertex numbering of a tree; it changes the memory access
// pattern of every implementation.
type Numbering string

// The numberings Renumber applies.
const (
	BreadthFirst Numbering = "bfs"    // root 0, then level by level
	DepthFirst   Numbering = "dfs"    // preorder, children in increasing old id
	RandomOrder  Numbering = "random" // a uniform random permutation
)

// ParseNumbering validates a numbering name.
func ParseNumbering(s string) (Numbering, error) {
	switch Numbering(s) {
	case BreadthFirst, DepthFirst, RandomOrder:
		return Numbering(s), nil
	}
	return "", fmt.Errorf("unknown numbering %q (valid: bfs, dfs, random)", s)
}

// Renumber returns the tree with its vertices renumbered (weights move with
// their vertices); seed drives the random numbering only.
func Renumber(t *Tree, how Numbering, seed uint64) (*Tree, error) {
	c, err := treefix.BuildChildren(t.Parent)
	if err != nil {
		return nil, err
	}
	n := t.N()
	var order []int32 // order[new] = old
	switch how {
	case BreadthFirst:
		if order, err = c.Order(); err != nil {
			return nil, err
		}
	case DepthFirst:
		order = make([]int32, 0, n)
		stack := []int32{c.Root}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			order = append(order, v)
			ch := c.C[c.R[v]:c.R[v+1]]
			for i := len(ch) - 1; i >= 0; i-- {
				stack = append(stack, ch[i])
			}
		}
		if len(order) != n {
			return nil, &treefix.ShapeError{Vertex: -1, Other: -1, Err: treefix.ErrCycle}
		}
	case RandomOrder:
		if _, err := c.Order(); err != nil {
			return nil, err
		}
		order = make([]int32, n)
		for i := range order {
			order[i] = int32(i)
		}
		rng := rand.New(rand.NewPCG(seed, StreamNumber))
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	default:
		return nil, fmt.Errorf("unknown numbering %q", how)
	}
	newID := make([]int32, n)
	for nw, old := range order {
		newID[old] = int32(nw)
	}
	out := &Tree{Parent: make([]int32, n), Weight: make([]float64, n)}
	for nw, old := range order {
		if p := t.Parent[old]; p >= 0 {
			out.Parent[nw] = newID[p]
		} else {
			out.Parent[nw] = -1
		}
		out.Weight[nw] = t.Weight[old]
	}
	return out, nil
}
