package kleene

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// graph is X as successor lists in topological positions, for the reference
// and the verifier: node order[t] sits at position t, and the arcs leaving
// position t go to positions succ[ptr[t]:ptr[t+1]] (all later than t) with
// weights wt[ptr[t]:ptr[t+1]].
type graph struct {
	n     int
	order []int32 // position -> node
	pos   []int32 // node -> position
	ptr   []int32
	succ  []int32
	wt    []float32
}

// kahn builds the graph with Kahn's algorithm (independent of TopoSort's
// depth-first search, so that the reference does not share its code with
// the implementations it checks). A cycle gives a *CycleError.
func kahn(x *maxplus.Matrix) (*graph, error) {
	if err := CheckShape(x); err != nil {
		return nil, err
	}
	if err := CheckWeights(x); err != nil {
		return nil, err
	}
	n := x.N
	indeg := make([]int32, n)
	outdeg := make([]int32, n+1)
	for i := 0; i < n; i++ {
		for l, v := range x.Val[i*n : i*n+n] {
			if v > maxplus.Epsilon {
				indeg[i]++
				outdeg[l]++
			}
		}
	}
	// Successor lists by node label, built by rows.
	start := make([]int32, n+1)
	for l := 0; l < n; l++ {
		start[l+1] = start[l] + outdeg[l]
	}
	heads := make([]int32, start[n])
	fill := append([]int32(nil), start[:n]...)
	for i := 0; i < n; i++ {
		for l, v := range x.Val[i*n : i*n+n] {
			if v > maxplus.Epsilon {
				heads[fill[l]] = int32(i)
				fill[l]++
			}
		}
	}
	g := &graph{n: n, order: make([]int32, 0, n), pos: make([]int32, n)}
	left := append([]int32(nil), indeg...)
	for v := 0; v < n; v++ {
		if left[v] == 0 {
			g.order = append(g.order, int32(v))
		}
	}
	for q := 0; q < len(g.order); q++ {
		l := g.order[q]
		for _, i := range heads[start[l]:start[l+1]] {
			if left[i]--; left[i] == 0 {
				g.order = append(g.order, i)
			}
		}
	}
	if len(g.order) < n {
		return nil, &CycleError{Node: nodeOnCycle(x, left)}
	}
	for t, v := range g.order {
		g.pos[v] = int32(t)
	}
	g.ptr = make([]int32, n+1)
	g.succ = make([]int32, 0, start[n])
	g.wt = make([]float32, 0, start[n])
	for t, l := range g.order {
		for _, i := range heads[start[l]:start[l+1]] {
			g.succ = append(g.succ, g.pos[i])
			g.wt = append(g.wt, x.Val[int(i)*n+int(l)])
		}
		g.ptr[t+1] = int32(len(g.succ))
	}
	return g, nil
}

// nodeOnCycle finds a node on a cycle among the nodes Kahn's algorithm could
// not remove (left[v] > 0): each has a predecessor among them, so walking
// predecessors must revisit a node, and the first revisited node is on a
// cycle.
func nodeOnCycle(x *maxplus.Matrix, left []int32) int {
	n := x.N
	v := 0
	for left[v] == 0 {
		v++
	}
	seen := make([]bool, n)
	for !seen[v] {
		seen[v] = true
		for l, w := range x.Val[v*n : v*n+n] {
			if w > maxplus.Epsilon && left[l] > 0 {
				v = l
				break
			}
		}
	}
	return v
}

// refBlock is how many sources Reference carries through one sweep.
const refBlock = 32

// Reference returns X* in float64, row-major like maxplus.Matrix, with -Inf
// for ε: the heaviest path weights from every source j by the textbook
// dynamic programme over Kahn's topological order,
//
//	d[j] = 0, d[i] = max over arcs l -> i of d[l] + X[i,l],
//
// pushing along the arcs in topological order. It carries refBlock sources
// (consecutive in topological order) through one sweep, from the first of
// them on, with the distances of one node to all of them side by side, and
// spreads the blocks over threads goroutines (0: GOMAXPROCS). A cycle gives
// a *CycleError.
func Reference(ctx context.Context, x *maxplus.Matrix, threads int) ([]float64, error) {
	g, err := kahn(x)
	if err != nil {
		return nil, err
	}
	n := g.n
	out := make([]float64, n*n)
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	blocks := (n + refBlock - 1) / refBlock
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(threads, max(blocks, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// d[t*refBlock+k]: the distance from the block's k-th source to
			// the node at position t.
			d := make([]float64, n*refBlock)
			for {
				blk := int(next.Add(1) - 1)
				if blk >= blocks || ctx.Err() != nil {
					return
				}
				t0 := blk * refBlock
				width := min(refBlock, n-t0)
				for k := t0 * refBlock; k < len(d); k++ {
					d[k] = math.Inf(-1)
				}
				for k := 0; k < width; k++ {
					d[(t0+k)*refBlock+k] = 0
				}
				for t := t0; t < n; t++ {
					src := (*[refBlock]float64)(d[t*refBlock:])
					for k := g.ptr[t]; k < g.ptr[t+1]; k++ {
						w := float64(g.wt[k])
						dst := (*[refBlock]float64)(d[int(g.succ[k])*refBlock:])
						for s := range dst {
							dst[s] = max(dst[s], src[s]+w)
						}
					}
				}
				for k := 0; k < width; k++ {
					j := int(g.order[t0+k])
					for t := 0; t < n; t++ {
						v := math.Inf(-1)
						if t >= t0 {
							v = d[t*refBlock+k]
						}
						out[int(g.order[t])*n+j] = v
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("kleene reference: %w", err)
	}
	return out, nil
}
