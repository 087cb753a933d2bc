package kleene

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/maxplus"
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
	// convert_ccs, topo_sort, init_w and update_w.
	Run func(ctx context.Context, x *maxplus.Matrix, opt Options, rec *bench.Recorder) (*maxplus.Matrix, error)
}

// CPU lists the CPU implementations.
var CPU = []Impl{{Name: "cpu/paper", Run: Paper}, {Name: "cpu/fast", Run: Fast}}

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
// does. An entry is an arc when it is above ε. X must have N <= MaxN.
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
	order, err := finishingOrder(c.N, c.Ptr, c.Idx)
	if err != nil {
		return nil, err
	}
	slices.Reverse(order)
	return order, nil
}

// finishingOrder runs an iterative depth-first search over the adjacency
// lists idx[ptr[v]:ptr[v+1]], starting from the nodes in increasing order,
// and returns the nodes in the order the search finishes them, or a
// *CycleError naming a node on a cycle. Over successor lists the reverse of
// that order is topological; over predecessor lists the order itself is.
func finishingOrder(n int, ptr, idx []int32) ([]int32, error) {
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

// inputInfo is what checkInput learns about X.
type inputInfo struct {
	maxWeight float32 // the largest arc weight (ε when there are no arcs)
	integral  bool    // every arc weight is an integer
}

// checkInput refuses what no implementation handles: a malformed matrix, a
// size beyond MaxN, NaN or +Inf entries. Entries at or below ε (-Inf
// included) are not arcs.
func checkInput(x *maxplus.Matrix) (inputInfo, error) {
	return checkInputParallel(x, 1)
}

// checkInputParallel is checkInput scanning row bands on threads goroutines.
func checkInputParallel(x *maxplus.Matrix, threads int) (inputInfo, error) {
	info := inputInfo{maxWeight: maxplus.Epsilon, integral: true}
	if x == nil {
		return info, fmt.Errorf("kleene: nil matrix")
	}
	n := x.N
	if n < 0 || len(x.Val) != n*n {
		return info, fmt.Errorf("kleene: matrix claims n=%d but holds %d entries", n, len(x.Val))
	}
	if n > MaxN {
		return info, fmt.Errorf("kleene: n=%d exceeds the supported maximum %d", n, MaxN)
	}
	bands := max(1, min(threads, n/64))
	type scan struct {
		maxW float32
		bad  bool
		frac uint32
	}
	res := make([]scan, bands)
	var next atomic.Int64
	parallel(bands, func() {
		for {
			b := int(next.Add(1) - 1)
			if b >= bands {
				return
			}
			r := scan{maxW: maxplus.Epsilon}
			for _, v := range x.Val[b*n/bands*n : (b+1)*n/bands*n] {
				if v > r.maxW { // rarely true once the maximum is near
					r.maxW = v
				}
				if v != v {
					r.bad = true
				}
				// Branch-free integrality: every float32 with |v| >= 2^23
				// is an integer; below that, v must survive a round trip
				// through int32. (-0 counts as fractional here, which only
				// costs pruning.)
				bits := math.Float32bits(v)
				small := uint32((int64(bits&^(1<<31)) - 0x4b000000) >> 63) // all ones when |v| < 2^23
				r.frac |= small & (bits ^ math.Float32bits(float32(int32(v))))
			}
			res[b] = r
		}
	})
	bad, frac := false, uint32(0)
	for _, r := range res {
		info.maxWeight = max(info.maxWeight, r.maxW)
		bad = bad || r.bad
		frac |= r.frac
	}
	if bad || info.maxWeight > math.MaxFloat32 {
		for k, v := range x.Val {
			if v != v || v > math.MaxFloat32 {
				return info, fmt.Errorf("kleene: X[%d,%d] is %v: weights must be finite", k/n+1, k%n+1, v)
			}
		}
	}
	info.integral = frac == 0
	return info, nil
}
