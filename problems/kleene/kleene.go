package kleene

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// Options tune an implementation; zero values mean defaults.
type Options struct {
	Threads int // CPU threads (0: GOMAXPROCS)
	GPUs    int // GPUs, for implementations that split their work (0: one)
}

// Impl is one named implementation of the Kleene star X* of a DAG.
type Impl struct {
	Name string // "cpu/paper", "cpu/fast", ...
	// Run computes X* of x. rec (which may be nil) receives the phases
	// convert_ccs, topo_sort, init_w and update_w (and, on a GPU, h2d and
	// d2h).
	Run func(ctx context.Context, x *maxplus.Matrix, opt Options, rec *bench.Recorder) (*maxplus.Matrix, error)
	// Recycle, where not nil, takes back a result of Run that the caller
	// will no longer read or write, so that a later Run writes its W into
	// that memory instead of a fresh allocation, and reports whether it took
	// w. A result it did not hand out (or nil) is refused. Implementations
	// that allocate W afresh every time leave it nil.
	Recycle func(w *maxplus.Matrix) bool
}

// MaxN is the largest n the implementations accept: the compressed forms
// index arcs with int32, and even a full MaxN x MaxN matrix has fewer than
// 2^31 entries.
const MaxN = 46340

// Phase names reported to the bench.Recorder, in the paper's words.
const (
	PhaseConvertCCS = "convert_ccs"
	PhaseTopoSort   = "topo_sort"
	PhaseInitW      = "init_w"
	PhaseUpdateW    = "update_w"
)

// CCS is X in compressed column storage, the paper's three arrays, 0-based:
// the arcs leaving node l (the entries of column l above ε, the diagonal
// included) go to the nodes Idx[Ptr[l]:Ptr[l+1]] (ascending) with weights
// Val[Ptr[l]:Ptr[l+1]].
type CCS struct {
	N   int
	Val []float32
	Idx []int32
	Ptr []int32
}

// ConvertCCS converts X to CCS, scanning it column by column as the paper
// does (cpu/paper and cuda/paper both start so). An entry is an arc when it is above ε. X must have N <= MaxN.
func ConvertCCS(x *maxplus.Matrix) *CCS {
	n := x.N
	c := &CCS{N: n, Ptr: make([]int32, n+1)}
	arcs := 0
	for _, v := range x.Val {
		if v > maxplus.Epsilon {
			arcs++
		}
	}
	c.Val = make([]float32, 0, arcs)
	c.Idx = make([]int32, 0, arcs)
	for l := 0; l < n; l++ {
		for i := 0; i < n; i++ {
			if v := x.Val[i*n+l]; v > maxplus.Epsilon {
				c.Val = append(c.Val, v)
				c.Idx = append(c.Idx, int32(i))
			}
		}
		c.Ptr[l+1] = int32(len(c.Idx))
	}
	return c
}

// CycleError reports that the graph has a cycle, so it is not a DAG.
type CycleError struct {
	Node int // a node on the cycle, 0-based
}

// Error names the node 1-based, as users number nodes in Matrix Market.
func (e *CycleError) Error() string {
	return fmt.Sprintf("kleene: node %d lies on a cycle: the graph is not a DAG, so the Kleene star X* diverges "+
		"(it does whenever a cycle has positive weight) and these DAG algorithms do not apply", e.Node+1)
}

// TopoSort returns the nodes in a topological order (every arc goes from an
// earlier to a later node), by iterative depth-first search from the nodes in
// increasing order, successors in CCS order, reversing the finishing order.
// A cycle (a self-loop included) gives a *CycleError naming a node on it.
func TopoSort(c *CCS) ([]int32, error) {
	order, err := FinishingOrder(c.N, c.Ptr, c.Idx)
	if err != nil {
		return nil, err
	}
	slices.Reverse(order)
	return order, nil
}

// FinishingOrder runs an iterative depth-first search over the adjacency
// lists idx[ptr[v]:ptr[v+1]], starting from the nodes in increasing order,
// and returns the nodes in the order the search finishes them, or a
// *CycleError naming a node on a cycle. Over successor lists the reverse of
// that order is topological; over predecessor lists the order itself is.
func FinishingOrder(n int, ptr, idx []int32) ([]int32, error) {
	const (
		white = iota
		grey
		black
	)
	state := make([]uint8, n)
	order := make([]int32, 0, n)
	type frame struct{ v, k int32 }
	stack := make([]frame, 0, 64)
	for s := 0; s < n; s++ {
		if state[s] != white {
			continue
		}
		state[s] = grey
		stack = append(stack, frame{int32(s), ptr[s]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.k < ptr[top.v+1] {
				w := idx[top.k]
				top.k++
				switch state[w] {
				case grey:
					return nil, &CycleError{Node: int(w)}
				case white:
					state[w] = grey
					stack = append(stack, frame{w, ptr[w]})
				}
				continue
			}
			state[top.v] = black
			order = append(order, top.v)
			stack = stack[:len(stack)-1]
		}
	}
	return order, nil
}

// MemoryBytes estimates the peak working set of one Kleene-star case of size
// n, in bytes: X, W and cpu/fast's work copy of W in topological order (4n²
// each), the float64 reference held for checking (8n²), and the compressed
// forms: cpu/fast's row storage, topological predecessor lists and
// essential-arc lists (8 bytes per arc each; a DAG has at most n²/2 arcs, so
// 4n² each). cpu/paper and Reference need less. 32n² bytes in all, plus
// O(n).
func MemoryBytes(n int) uint64 {
	if n <= 0 {
		return 0
	}
	nn := uint64(n) * uint64(n)
	return 32*nn + 64*uint64(n)
}

// CheckShape refuses the matrices no implementation handles, before any
// work: nil, a length that is not N², or N beyond MaxN. The weights are
// CheckWeights' business.
func CheckShape(x *maxplus.Matrix) error {
	if x == nil {
		return fmt.Errorf("kleene: nil matrix")
	}
	if x.N < 0 || len(x.Val) != x.N*x.N {
		return fmt.Errorf("kleene: matrix claims n=%d but holds %d entries", x.N, len(x.Val))
	}
	if x.N > MaxN {
		return fmt.Errorf("kleene: n=%d exceeds the supported maximum %d", x.N, MaxN)
	}
	return nil
}

// CheckWeights refuses NaN and +Inf entries, naming the first in row-major
// order (BadWeight). Entries at or below ε (-Inf included) are not arcs and
// are fine. x must have passed CheckShape.
func CheckWeights(x *maxplus.Matrix) error {
	for k, v := range x.Val {
		if v != v || v > math.MaxFloat32 {
			return BadWeight(x, k)
		}
	}
	return nil
}

// BadWeight describes the entry at row-major index k of x, which is NaN or
// +Inf, 1-based as users number rows and columns in Matrix Market.
func BadWeight(x *maxplus.Matrix, k int) error {
	return fmt.Errorf("kleene: X[%d,%d] is %v: weights must be finite", k/x.N+1, k%x.N+1, x.Val[k])
}
