package apsp

import (
	"fmt"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// The block orders of the blocked closures, whose passes over the matrix
// set their least DRAM traffic: impls/cpu/apsp's DefaultBlock and
// impls/cuda/apsp's Block (which pads the matrix to a multiple of it).
const (
	apspCPUBlock  = 64
	apspCUDABlock = 128
)

// apspClosureWork is the least work of a closure of order n by impl, with
// elements of elem bytes in the memory the solver works in and link bytes
// each way across the host link (cuda/*), doing updates semiring updates
// and other operations, besides: Gauß-Jordan elimination, sGJE or blocked,
// makes one pass over the matrix (read and write) per pivot it cannot keep
// the matrix on chip for. cpu/sgje's pivot is one row: n passes; cpu/fast's
// a block of 64: ⌈n/64⌉ passes; cuda/fast's a block of 128 on the matrix
// padded to np = 128⌈n/128⌉: np/128 passes of np² elements, its panels
// (np x 128) staying in the L2 cache. The caches that hold the whole matrix
// at small n are not counted. cuda/fast's copies: the matrix up and down.
func apspClosureWork(impl string, n, elem, link int, updates, other float64) bench.Work {
	nf, e := float64(n), float64(elem)
	w := bench.Work{Updates: updates, Flops: other}
	switch impl {
	case "cpu/sgje":
		w.DRAMBytes = nf * 2 * e * nf * nf
	case "cpu/fast":
		w.DRAMBytes = float64((n+apspCPUBlock-1)/apspCPUBlock) * 2 * e * nf * nf
	case "cuda/fast":
		np := float64((n + apspCUDABlock - 1) / apspCUDABlock * apspCUDABlock)
		w.DRAMBytes = np / apspCUDABlock * 2 * e * np * np
		w.LinkBytes = 2 * float64(link) * nf * nf
	default:
		w.DRAMBytes = 2 * e * nf * nf
	}
	return w
}

// apspBlockedWork is apsp/blocked's work: the min-plus float32 closure of
// order n, n³ updates (the record's "updates" metric), its passes as
// apspClosureWork says.
func apspBlockedWork(rec *bench.Record) (bench.Work, bool) {
	n := experiments.IntOf(rec.Params, "n")
	if n <= 0 {
		return bench.Work{}, false
	}
	nf := float64(n)
	return apspClosureWork(rec.Impl, n, 4, 4, nf*nf*nf, 0), true
}

// apspSemiringWork is apsp/semirings' work: sGJE's operations in the
// paper's counts (apsp.FormulaCounts: n(n-1)² additions, each with its
// multiplication an update, the n³-n-n(n-1)² = 2n(n-1) other
// multiplications and the n stars as other operations: integer ones in
// the Boolean semiring, floating-point ones otherwise), the same for the
// blocked elimination of cpu/fast and cuda/fast (the same operations in
// another order) and for the direct inverse. Elements: float64 on the CPU
// (Go's bool in the Boolean semiring, a byte); on the GPU float32 for
// min-plus and max-plus, float64 for the real semiring, a 32-bit word a
// Boolean, as impls/cuda/apsp runs them.
func apspSemiringWork(rec *bench.Record) (bench.Work, bool) {
	n := experiments.IntOf(rec.Params, "n")
	sr := rec.Params.Get("semiring")
	if n <= 0 || sr == "" {
		return bench.Work{}, false
	}
	nf := float64(n)
	elem := 8
	switch {
	case sr == "boolean" && strings.HasPrefix(rec.Impl, "cuda/"):
		elem = 4
	case sr == "boolean":
		elem = 1
	case (sr == "min-plus" || sr == "max-plus") && strings.HasPrefix(rec.Impl, "cuda/"):
		elem = 4
	}
	other := 2*nf*(nf-1) + nf
	w := apspClosureWork(rec.Impl, n, elem, elem, nf*(nf-1)*(nf-1), other)
	if sr == "boolean" {
		w.Flops, w.IntOps = 0, other
	}
	return w, true
}

// apspSystolicWork is apsp/systolic's work: the arrays simulated step by
// step, every one of the (n+1)² processors visited at every step (integer
// operations, one per processor-step), and the n³ computations (updates)
// of every matrix the arrays close. A single matrix takes 7n-2 steps (its
// c_nn's exit); a stream of 3p matrices on three tracks (p per track,
// systolic.SteadyState) a step from the last matrix's entry at
// (p-1)·period + 2 to its exit 7n-2 later: (p-1)·period + 7n, counted so
// for GJE1 too (approximate, within a few n). cpu/systolic simulates three
// single matrices (min-plus, Boolean, real), the GJE0 stream and the GJE1
// stream; cuda/systolic the singles and the GJE0 stream, uploading every
// matrix and downloading its closure (8n² bytes each way, float64; the
// step counts it downloads too are not counted). DRAM: every matrix read
// once and its closure written once (the simulator's registers, (n+1)²
// processors' worth, are taken to stay in cache). The sweep case's
// processor-steps are the planner's model of it (apspSweepSteps),
// approximate.
func apspSystolicWork(rec *bench.Record) (bench.Work, bool) {
	if sw := rec.Params.Get("sweep"); sw != "" {
		var maxN int
		if _, err := fmt.Sscanf(sw, "n=1..%d", &maxN); err != nil || maxN < 1 {
			return bench.Work{}, false
		}
		return bench.Work{IntOps: apspSweepSteps(maxN)}, true
	}
	n := experiments.IntOf(rec.Params, "n")
	if n <= 0 {
		return bench.Work{}, false
	}
	nf := float64(n)
	stream := func(d systolic.Design) (matrices, steps float64) {
		p, _ := systolic.SteadyState(n, d)
		return 3 * float64(p), float64((p-1)*d.Period(n) + 7*n)
	}
	matrices, steps := 3.0, 3*(7*nf-2)
	m0, s0 := stream(systolic.GJE0)
	matrices, steps = matrices+m0, steps+s0
	gpu := strings.HasPrefix(rec.Impl, "cuda/")
	if !gpu {
		m1, s1 := stream(systolic.GJE1)
		matrices, steps = matrices+m1, steps+s1
	}
	w := bench.Work{Updates: matrices * nf * nf * nf, IntOps: (nf + 1) * (nf + 1) * steps, DRAMBytes: matrices * 2 * 8 * nf * nf}
	if gpu {
		w.LinkBytes = matrices * 2 * 8 * nf * nf
	}
	return w, true
}

// apspSweepSteps is the processor-steps of the sweep over n = 1..maxN, as
// the planner models them: Σ (n+1)²(n²/2 + 40n).
func apspSweepSteps(maxN int) float64 {
	work := 0.0
	for n := 1; n <= maxN; n++ {
		work += float64((n+1)*(n+1)) * float64(n*n/2+40*n)
	}
	return work
}
