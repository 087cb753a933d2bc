package kleene

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// Fast is cpu/fast: the paper's recursion reorganised for a multi-core CPU
// (see the package documentation); opt.Threads goroutines (0: GOMAXPROCS).
// Its result is bit-identical to Paper's.
//
// Phases, in the paper's names:
//   - convert_ccs: X to compressed form. Fast needs predecessor lists, so it
//     builds compressed row storage (the CCS of X's transpose), in parallel
//     and branch-free.
//   - topo_sort: depth-first search over the predecessors.
//   - init_w: allocate W and its work copy in topological order, fill both
//     with ε (so no page is first touched later).
//   - update_w: the rest: predecessor lists in topological coordinates, the
//     pruning margin, the closure (see closure) and the gather of W back
//     into the caller's node labels.
func Fast(ctx context.Context, x *maxplus.Matrix, opt kleene.Options, rec *bench.Recorder) (*maxplus.Matrix, error) {
	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	info, err := checkInputParallel(x, threads)
	if err != nil {
		return nil, err
	}
	n := x.N
	// Below a few hundred nodes, goroutines cost more than they save.
	threads = max(1, min(threads, n/128))

	stop := rec.Start(kleene.PhaseConvertCCS)
	r := convertCRS(x, threads)
	stop()

	stop = rec.Start(kleene.PhaseTopoSort)
	order, err := r.topoSort()
	stop()
	if err != nil {
		return nil, err
	}

	stop = rec.Start(kleene.PhaseInitW)
	out := &maxplus.Matrix{N: n, Val: make([]float32, n*n)}
	work := make([]float32, n*n) // W in topological coordinates, row-major
	parallelRows(n, threads, func(i int) {
		fillEps(work[i*n : i*n+n])
		fillEps(out.Val[i*n : i*n+n])
	})
	stop()

	stop = rec.Start(kleene.PhaseUpdateW)
	defer stop()
	p := topoPredecessors(x, r.ptr, order, threads)
	if err := p.closure(ctx, work, info, threads); err != nil {
		return nil, err
	}
	pos := make([]int32, n)
	for t, v := range order {
		pos[v] = int32(t)
	}
	gather(out.Val, work, pos, threads)
	return out, nil
}

// parallel runs f on k goroutines and waits for them; for k <= 1 it calls f
// itself.
func parallel(k int, f func()) {
	if k <= 1 {
		f()
		return
	}
	var wg sync.WaitGroup
	for range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
}

// parallelRows calls f(i) for every row i in [0, n) on threads goroutines,
// in bands of 16 rows taken in turn.
func parallelRows(n, threads int, f func(i int)) {
	var next atomic.Int64
	const rows = 16
	parallel(min(threads, (n+rows-1)/rows), func() {
		for {
			i0 := int(next.Add(rows) - rows)
			if i0 >= n {
				return
			}
			for i := i0; i < min(i0+rows, n); i++ {
				f(i)
			}
		}
	})
}

// crs is X in compressed row storage: the arcs into node i come from the
// nodes idx[ptr[i]:ptr[i+1]] (ascending) with weights val[ptr[i]:ptr[i+1]].
// It is the CCS of X's transpose: the pull formulation needs predecessors.
type crs struct {
	n   int
	ptr []int32
	idx []int32
	val []float32
}

// convertCRS converts X to compressed row storage, in row bands on threads
// goroutines: one pass counts each row's arcs, one compacts them. Both are
// branch-free: the arcs of a random DAG are a coin toss each, which a branch
// predictor cannot learn.
func convertCRS(x *maxplus.Matrix, threads int) *crs {
	n := x.N
	r := &crs{n: n, ptr: make([]int32, n+1)}
	parallelRows(n, threads, func(i int) {
		cnt := int32(0)
		for _, v := range x.Val[i*n : i*n+n] {
			cnt += isArc(v)
		}
		r.ptr[i+1] = cnt
	})
	for i := 0; i < n; i++ {
		r.ptr[i+1] += r.ptr[i]
	}
	m := r.ptr[n]
	idx := make([]int32, int(m)+n)
	val := make([]float32, int(m)+n)
	parallelRows(n, threads, func(i int) {
		compact(idx, val, r.ptr[i], r.ptr[i+1], m+int32(i), x.Val[i*n:i*n+n], nil)
	})
	r.idx, r.val = idx[:m:m], val[:m:m]
	return r
}

// compact writes the arcs among row[cols[b]] (row[b] when cols is nil), b
// ascending, as (b, weight) into idx/val[k:end], branch-free: every entry
// is written at the next free slot, which only an arc advances; once the
// row's arcs are all in place, the remaining non-arcs go to the row's own
// spare slot.
func compact(idx []int32, val []float32, k, end, spare int32, row []float32, cols []int32) {
	put := func(b int, v float32) {
		t := k
		if k == end { // predictable: false until the row's last arc
			t = spare
		}
		idx[t], val[t] = int32(b), v
		k += isArc(v)
	}
	if cols == nil {
		for b, v := range row {
			put(b, v)
		}
		return
	}
	for b, l := range cols {
		put(b, row[l])
	}
}

// isArc is 1 when v is above ε (an arc), else 0, without a branch. It
// relies on the IEEE order of the bit patterns: every float32 above
// -FLT_MAX (NaN aside, which checkInput refuses) has bits below those of
// -FLT_MAX, 0xff7fffff, read as an unsigned integer.
func isArc(v float32) int32 {
	return int32(uint64(int64(math.Float32bits(v))-0xff7fffff) >> 63)
}

// topoSort returns a topological order by iterative depth-first search over
// the predecessors (a node is finished after all of its predecessors, so the
// finishing order is topological), or a *kleene.CycleError naming a node on a
// cycle.
func (r *crs) topoSort() ([]int32, error) {
	return kleene.FinishingOrder(r.n, r.ptr, r.idx)
}

// preds is X in topological coordinates as predecessor lists: the arcs into
// position a come from positions idx[ptr[a]:ptr[a+1]] (ascending, all below
// a) with weights val[ptr[a]:ptr[a+1]].
type preds struct {
	n   int
	ptr []int32
	idx []int32
	val []float32
}

// topoPredecessors builds the predecessor lists in topological coordinates
// by gathering, for each position a, row order[a] of X at the columns
// order[0..a-1] (one row of X stays in cache), compacting branch-free.
// rowPtr are the CRS row offsets: the in-degrees.
func topoPredecessors(x *maxplus.Matrix, rowPtr, order []int32, threads int) *preds {
	n := x.N
	p := &preds{n: n, ptr: make([]int32, n+1)}
	for a, i := range order {
		p.ptr[a+1] = p.ptr[a] + rowPtr[i+1] - rowPtr[i]
	}
	m := p.ptr[n]
	idx := make([]int32, int(m)+n)
	val := make([]float32, int(m)+n)
	parallelRows(n, threads, func(a int) {
		i := int(order[a])
		compact(idx, val, p.ptr[a], p.ptr[a+1], m+int32(a), x.Val[i*n:i*n+n], order[:a])
	})
	p.idx, p.val = idx[:m:m], val[:m:m]
	return p
}

// gather writes W back in the caller's labels: W[i,j] = work[pos i, pos j].
func gather(dst, work []float32, pos []int32, threads int) {
	n := len(pos)
	parallelRows(n, threads, func(i int) {
		a := int(pos[i])
		src := work[a*n : a*n+n]
		d := dst[i*n : i*n+n]
		d = d[:len(pos)]
		for j, pj := range pos {
			d[j] = src[pj]
		}
	})
}
