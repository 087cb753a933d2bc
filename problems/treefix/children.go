package treefix

import (
	"errors"
	"fmt"
)

// MaxN is the most vertices a tree may have: vertex ids are int32.
const MaxN = 1 << 30

// Sentinel errors of Validate, wrapped by its *ShapeError for errors.Is.
var (
	ErrNoRoot   = errors.New("no root (no vertex has parent -1)")
	ErrTwoRoots = errors.New("more than one root")
	ErrParent   = errors.New("parent out of range")
	ErrCycle    = errors.New("cycle in the parent array")
)

// ShapeError is a parent array that is not a tree, at a vertex.
type ShapeError struct {
	Vertex int   // the vertex at fault (the second root, the vertex on a cycle, ...)
	Other  int   // the first root for ErrTwoRoots, the parent for ErrParent; -1 otherwise
	Err    error // one of the sentinels
}

func (e *ShapeError) Error() string {
	switch {
	case errors.Is(e.Err, ErrTwoRoots):
		return fmt.Sprintf("vertex %d: %v (vertex %d is a root too)", e.Vertex, e.Err, e.Other)
	case errors.Is(e.Err, ErrParent):
		return fmt.Sprintf("vertex %d: %v (parent %d)", e.Vertex, e.Err, e.Other)
	case errors.Is(e.Err, ErrNoRoot):
		return e.Err.Error()
	}
	return fmt.Sprintf("vertex %d: %v", e.Vertex, e.Err)
}

func (e *ShapeError) Unwrap() error { return e.Err }

// Children is the children lists of a tree in compressed sparse row form,
// the paper's R and C arrays: the children of v are C[R[v]:R[v+1]], in
// increasing id.
type Children struct {
	Root int32
	R    []int32 // n+1 row offsets
	C    []int32 // n-1 column indices (children)
}

// BuildChildren checks the parent array (one root, parents in range) and
// builds its CSR children lists. It does not detect cycles; BFSOrder does.
func BuildChildren(parent []int32) (*Children, error) {
	n := len(parent)
	if n == 0 {
		return nil, &ShapeError{Vertex: -1, Other: -1, Err: ErrNoRoot}
	}
	c := &Children{Root: -1, R: make([]int32, n+1)}
	for v, p := range parent {
		switch {
		case p == -1:
			if c.Root >= 0 {
				return nil, &ShapeError{Vertex: v, Other: int(c.Root), Err: ErrTwoRoots}
			}
			c.Root = int32(v)
		case p < 0 || int(p) >= n || int(p) == v:
			if int(p) == v {
				return nil, &ShapeError{Vertex: v, Other: -1, Err: ErrCycle}
			}
			return nil, &ShapeError{Vertex: v, Other: int(p), Err: ErrParent}
		default:
			c.R[p+1]++
		}
	}
	if c.Root < 0 {
		return nil, &ShapeError{Vertex: -1, Other: -1, Err: ErrNoRoot}
	}
	for v := 0; v < n; v++ {
		c.R[v+1] += c.R[v]
	}
	c.C = make([]int32, n-1)
	fill := make([]int32, n)
	copy(fill, c.R[:n])
	for v, p := range parent {
		if p >= 0 {
			c.C[fill[p]] = int32(v)
			fill[p]++
		}
	}
	return c, nil
}

// Order returns the vertices in breadth-first order from the root (children
// in increasing id), or ErrCycle when some vertex is unreachable, which for
// an array with one root and n-1 in-range parents means a cycle.
func (c *Children) Order() ([]int32, error) {
	n := len(c.R) - 1
	order := make([]int32, 1, n)
	order[0] = c.Root
	for i := 0; i < len(order); i++ {
		v := order[i]
		order = append(order, c.C[c.R[v]:c.R[v+1]]...)
	}
	if len(order) != n {
		seen := make([]bool, n)
		for _, v := range order {
			seen[v] = true
		}
		for v := range seen {
			if !seen[v] {
				return nil, &ShapeError{Vertex: v, Other: -1, Err: ErrCycle}
			}
		}
	}
	return order, nil
}

// BFSOrder validates the parent array (Validate) and returns its vertices
// in breadth-first order from the root.
func BFSOrder(parent []int32) ([]int32, error) {
	c, err := BuildChildren(parent)
	if err != nil {
		return nil, err
	}
	return c.Order()
}

// Validate reports whether parent is a rooted tree: exactly one root
// (parent -1), every other parent in 0..n-1, and no cycle. The error is a
// *ShapeError naming the vertex.
func Validate(parent []int32) error {
	_, err := BFSOrder(parent)
	return err
}
