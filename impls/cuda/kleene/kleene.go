package cudakleene

import (
	"fmt"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// Impls returns the CUDA implementations, in display order: cuda/paper
// (Paper) and cuda/fast (Fast). Both hand their results back through
// Recycle.
func Impls() []kleene.Impl {
	return []kleene.Impl{
		{Name: "cuda/paper", Run: Paper, Recycle: Recycle},
		{Name: "cuda/fast", Run: Fast, Recycle: Recycle},
	}
}

// Phase names beyond package kleene's: host-device transfers.
const (
	PhaseH2D = "h2d"
	PhaseD2H = "d2h"
)

// results hands out the matrices W that Paper and Fast return (see
// Recycle).
var results cuda.Recycler[float32]

// Recycle gives back a result of Paper or Fast that the caller will no
// longer read or write, so that a later solve writes its W into that memory
// (already mapped) instead of a fresh allocation, whose page faults made
// the download of W spike. After Recycle, w.Val may hold another solve's
// answer at any time. A result never recycled stays the caller's for good
// and is garbage collected as usual; recycling a matrix twice, or one these
// functions did not return, does nothing. It reports whether w was taken.
func Recycle(w *maxplus.Matrix) bool {
	if w == nil {
		return false
	}
	return results.Give(w.Val)
}

// module is the kernel source both implementations use.
const module = "kleene"

// PaperPlan is the device memory of cuda/paper for n nodes and m arcs: W
// (n² floats) and X's CCS values and row indices (m each).
func PaperPlan(n, m int) cuda.Plan {
	nn := uint64(n) * uint64(n)
	return cuda.Plan{What: fmt.Sprintf("cuda/paper n=%d", n), Buffers: []cuda.Buffer{
		{Name: "paper.w", Bytes: 4 * nn},
		{Name: "paper.val", Bytes: 4 * uint64(max(m, 1))},
		{Name: "paper.idx", Bytes: 4 * uint64(max(m, 1))},
	}}
}

// fastBuffers sizes the buffers of one device of cuda/fast for n nodes and
// the schedule of its column slab: X as given (reused as product scratch,
// as the packed slab, and as W), P in topological order (np²), the
// triangular solves' right-hand sides, the predecessor bit sets (device 0),
// the order and its inverse, flags and the product descriptors.
func fastBuffers(n int, sc schedule, descs int, first bool, recv int64) []cuda.Buffer {
	np := uint64(sc.NP)
	x := max(uint64(n)*uint64(n), uint64(sc.TempElems), (np-uint64(sc.Lo))*uint64(sc.Hi-sc.Lo))
	bufs := []cuda.Buffer{
		{Name: "fast.x", Bytes: 4 * x},
		{Name: "fast.p", Bytes: 4 * np * np},
		{Name: "fast.z", Bytes: 4 * uint64(max(sc.ZElems, 1))},
		{Name: "fast.perm", Bytes: 8 * uint64(max(n, 1))},
		{Name: "fast.flag", Bytes: 16},
		{Name: "fast.desc", Bytes: descSize * uint64(max(descs, 1))},
	}
	if first {
		bufs = append(bufs, cuda.Buffer{Name: "fast.bits", Bytes: 8 * uint64(n) * uint64(words64(n))})
	}
	if recv > 0 {
		bufs = append(bufs, cuda.Buffer{Name: "fast.recv", Bytes: 4 * uint64(recv)})
	}
	return bufs
}

// FastPlan is the device memory cuda/fast needs on each of gpus devices
// (the first also holds the predecessor bit sets and receives the others'
// slabs) for n nodes.
func FastPlan(n, gpus int) ([]cuda.Plan, error) {
	if gpus < 1 {
		return nil, fmt.Errorf("cuda/fast: %d GPUs", gpus)
	}
	np := padded(n)
	rs, err := cuda.SplitColumns(np, gpus, Block)
	if err != nil {
		return nil, err
	}
	var recv int64
	for _, r := range rs[1:] {
		recv += int64(np-r.Lo) * int64(r.Len())
	}
	plans := make([]cuda.Plan, 0, gpus)
	for d, r := range rs {
		p := cuda.Plan{What: fmt.Sprintf("cuda/fast n=%d (GPU %d of %d)", n, d, gpus)}
		if r.Len() > 0 {
			sc, err := slabSchedule(np, r.Lo, r.Hi)
			if err != nil {
				return nil, err
			}
			rv := int64(0)
			if d == 0 {
				rv = recv
			}
			p.Buffers = fastBuffers(n, sc, countDescs(sc), d == 0, rv)
		}
		plans = append(plans, p)
	}
	return plans, nil
}

func words64(n int) int { return max(1, (n+63)/64) }

func countDescs(sc schedule) int {
	c := 0
	for _, st := range sc.Steps {
		c += len(st.Gemms)
	}
	return c
}
