package apsp

import (
	"fmt"
	"math"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// InvertPivot returns A⁻¹ by Gauß-Jordan elimination with partial pivoting
// (the largest magnitude in the column below the diagonal), an algorithm
// independent of the paper's. A column without a nonzero pivot gives an
// error wrapping ErrSingular.
func InvertPivot(a *Matrix[float64]) (*Matrix[float64], error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	n := a.N
	w := 2 * n
	aug := make([]float64, n*w)
	for i := 0; i < n; i++ {
		copy(aug[i*w:i*w+n], a.Row(i))
		aug[i*w+n+i] = 1
	}
	for col := 0; col < n; col++ {
		p, best := -1, 0.0
		for r := col; r < n; r++ {
			if v := math.Abs(aug[r*w+col]); v > best {
				p, best = r, v
			}
		}
		if p < 0 {
			return nil, fmt.Errorf("partial pivoting: column %d has no nonzero pivot: %w", col+1, ErrSingular)
		}
		if p != col {
			for x := 0; x < w; x++ {
				aug[p*w+x], aug[col*w+x] = aug[col*w+x], aug[p*w+x]
			}
		}
		inv := 1 / aug[col*w+col]
		rc := aug[col*w : (col+1)*w]
		for x := range rc {
			rc[x] *= inv
		}
		for r := 0; r < n; r++ {
			if r == col {
				continue
			}
			f := aug[r*w+col]
			if f == 0 {
				continue
			}
			rr := aug[r*w : (r+1)*w]
			for x := range rr {
				rr[x] -= f * rc[x]
			}
		}
	}
	out := NewMatrix(n, 0.0)
	for i := 0; i < n; i++ {
		copy(out.Row(i), aug[i*w+n:(i+1)*w])
	}
	return out, nil
}

// BellmanFord returns the min-plus closure A* of a (a_ij the length of the
// arc i -> j, +∞ for none) by the Bellman-Ford algorithm from every source,
// in float64: d_ii = 0 for the empty path, and d_ij = -∞ where a path from i
// to j can pass a negative cycle. Arcs of weight -∞ are not supported.
func BellmanFord[T semiring.Float](a *Matrix[T]) *Matrix[T] {
	n := a.N
	inf := math.Inf(1)
	type arc struct {
		u, v int
		w    float64
	}
	var arcs []arc
	succ := make([][]int, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if w := float64(a.At(i, j)); w != inf {
				arcs = append(arcs, arc{i, j, w})
				succ[i] = append(succ[i], j)
			}
		}
	}
	out := NewMatrix(n, T(inf))
	d := make([]float64, n)
	for src := 0; src < n; src++ {
		for v := range d {
			d[v] = inf
		}
		d[src] = 0
		for round := 0; round < n-1; round++ {
			changed := false
			for _, e := range arcs {
				if d[e.u] != inf && d[e.u]+e.w < d[e.v] {
					d[e.v] = d[e.u] + e.w
					changed = true
				}
			}
			if !changed {
				break
			}
		}
		// Vertices still improvable lie on or behind a negative cycle;
		// everything reachable from them is -∞.
		var queue []int
		neg := make([]bool, n)
		for _, e := range arcs {
			if d[e.u] != inf && d[e.u]+e.w < d[e.v] && !neg[e.v] {
				neg[e.v] = true
				queue = append(queue, e.v)
			}
		}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range succ[u] {
				if !neg[v] {
					neg[v] = true
					queue = append(queue, v)
				}
			}
		}
		for v := 0; v < n; v++ {
			if neg[v] {
				out.Set(src, v, T(math.Inf(-1)))
			} else {
				out.Set(src, v, T(d[v]))
			}
		}
	}
	return out
}

// BFSClosure returns the reflexive and transitive closure of the relation a
// (a_ij: i -> j) by breadth-first search from every vertex.
func BFSClosure(a *Matrix[bool]) *Matrix[bool] {
	n := a.N
	out := NewMatrix(n, false)
	queue := make([]int, 0, n)
	for src := 0; src < n; src++ {
		row := out.Row(src)
		row[src] = true
		queue = append(queue[:0], src)
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for v, ok := range a.Row(u) {
				if ok && !row[v] {
					row[v] = true
					queue = append(queue, v)
				}
			}
		}
	}
	return out
}
