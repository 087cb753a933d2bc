package treefix

import (
	"fmt"
)

// Op selects the treefix operation.
type Op int

// The two treefix operations.
const (
	Rootfix Op = iota // ⊕ over the ancestors, v included
	Leaffix           // ⊕ over the descendants, v included
)

func (o Op) String() string {
	if o == Leaffix {
		return "leaffix"
	}
	return "rootfix"
}

// ParseOp reads "rootfix" or "leaffix".
func ParseOp(s string) (Op, error) {
	switch s {
	case "rootfix":
		return Rootfix, nil
	case "leaffix":
		return Leaffix, nil
	}
	return 0, fmt.Errorf("unknown treefix operation %q (valid: rootfix, leaffix)", s)
}

// Tree is a validated tree with the representations the implementations
// read: the paper's CSR children lists (R, C) for sequential and parallel,
// and the vector tree representation for the vectorial ones.
type Tree struct {
	Parent []int32
	CSR    *Children
	Vec    *Vector // nil until BuildVector
	bfs    []int32 // the breadth-first order, computed once (BFS)
}

// NewTree validates the parent array (one root, parents in range, no
// cycle) and builds the CSR children lists.
func NewTree(parent []int32) (*Tree, error) {
	c, err := BuildChildren(parent)
	if err != nil {
		return nil, fmt.Errorf("treefix: %w", err)
	}
	order, err := c.Order()
	if err != nil {
		return nil, fmt.Errorf("treefix: %w", err)
	}
	return &Tree{Parent: parent, CSR: c, bfs: order}, nil
}

// BFS returns the vertices in breadth-first order from the root (the CSR
// order), computed once by NewTree: the Euler tour, the reference and the overflow
// bound all walk it, and on a tree of millions of randomly numbered
// vertices each walk costs about a second.
func (t *Tree) BFS() []int32 {
	if t.bfs != nil {
		return t.bfs
	}
	order, _ := t.CSR.Order() // a Tree is validated by NewTree
	return order
}

// N returns the number of vertices.
func (t *Tree) N() int { return len(t.Parent) }

// Vector is the vector tree representation of the paper's Fig. 2: the
// Euler tour E visits every vertex twice, "(v" when it enters v and "v)"
// when it leaves, the root included, so E has 2n entries; Open[v] is the
// index of "(v" in E and Close[v] that of "v)". Children are toured in
// increasing id (the CSR order).
type Vector struct {
	Open, Close []int32
}

// BuildVector computes the Euler-tour positions (Fig. 2) in two passes over
// the breadth-first order: subtree sizes bottom-up, then Open[child] =
// Open[parent] + 1 + twice the sizes of its earlier siblings, and
// Close[v] = Open[v] + 2·size(v) - 1. It stores and returns t.Vec.
func (t *Tree) BuildVector() *Vector {
	if t.Vec != nil {
		return t.Vec
	}
	n := t.N()
	c := t.CSR
	order := t.BFS()
	size := make([]int32, n)
	for i := n - 1; i >= 0; i-- {
		v := order[i]
		size[v]++
		if p := t.Parent[v]; p >= 0 {
			size[p] += size[v]
		}
	}
	vec := &Vector{Open: make([]int32, n), Close: make([]int32, n)}
	vec.Open[c.Root] = 0
	for _, v := range order {
		pos := vec.Open[v] + 1
		for _, ch := range c.C[c.R[v]:c.R[v+1]] {
			vec.Open[ch] = pos
			pos += 2 * size[ch]
		}
		vec.Close[v] = vec.Open[v] + 2*size[v] - 1
	}
	t.Vec = vec
	return vec
}
