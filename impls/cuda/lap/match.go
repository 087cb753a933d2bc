package cudalap

import (
	"fmt"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// matchModule is the matching of the zeros' kernel source
// (kernels/lap_match.cu).
const matchModule = "lap_match"

// PhaseMatch is the maximum matching of the zeros after step 1 (one
// cooperative launch, CUDA events), in place of step 2 where the zeros are
// dense (matchDense).
const PhaseMatch = "match"

// Words of lap_match's control buffer (int64, kernels/lap_match.cu).
const (
	matchError  = 1
	matchRounds = 2
	matchLevels = 3
	matchFree   = 4
	matchWords  = 48 // the barrier's passage word is word 32
)

// matchThreads is lap_match's block size (one block a multiprocessor).
const matchThreads = 1024

// matchDense reports whether cuda/fast matches the zeros of an r x c
// instance whose costs span span with lap_match instead of step 2: square
// instances (the padding rows of a rectangular one are whole zero
// columns) whose span is at most c/4, so that a row has about four zeros
// or more after step 1. There step 2's one block walks tens of thousands
// of zeros a thread at a time (0.13 ms at n = 8192, range 0.1n) and leaves
// about 7% of the columns to steps 3 to 5, where the zeros alone hold a
// perfect matching and lap_match finds it.
func matchDense(r, c int, span int64) bool {
	return r == c && 4*span <= int64(c)
}

// setSpan records the costs' span and what depends on it: the forest's
// 16-bit slacks (a slack after step 1 is at most the span) and its block
// size, and whether the zeros are matched in place of step 2.
func (d *paperDesign) setSpan(rows, cols int, span int64) {
	d.span = span
	d.slack16 = d.forest && span < 1<<16
	d.match = d.matching && matchDense(rows, cols, span)
}

// MatchPlan is the device memory lap_match adds to PaperPlan: its control
// words (its other vectors are steps 3 to 5's covers, primes and greens,
// and its list of zeros the second copy of the compressed zeros, all free
// until step 3).
func MatchPlan() cuda.Plan {
	return cuda.Plan{What: "cuda/fast matching of the zeros", Buffers: []cuda.Buffer{
		{Name: "lap.match.ctl", Bytes: 8 * matchWords},
	}}
}

// matchErr turns lap_match's error word into an error.
func matchErr(code int64) error {
	return kernelError("matching of the zeros: ", code, "a round ran more than n+1 levels",
		"more than n+1 rounds", "a path ran longer than n")
}

// match is step 2 as a maximum matching of step 1's zeros
// (kernels/lap_match.cu), one cooperative launch of a block per
// multiprocessor; its counts are read after the timed window
// (matchCounts).
func (r *paperRun) match() error {
	n := r.l.n
	var b struct {
		Ctl driver.DevicePtr `buf:"lap.match.ctl"`
	}
	if err := r.dev.Allocate(r.t, MatchPlan(), &b); err != nil {
		return err
	}
	fn, err := r.dev.Function(r.t, matchModule, "lap_match")
	if err != nil {
		return err
	}
	zeros, zerosSize := r.zeros()
	edges := r.zerosBuf[1-r.cur]
	if err := r.st.mark(PhaseMatch); err != nil {
		return err
	}
	if err := r.t.MemsetD32Async(b.Ctl, 0, 2*matchWords, r.s); err != nil {
		return err
	}
	// The segments' offsets: an int each in shared memory.
	if err := r.t.LaunchCooperative(fn, driver.D1(r.dev.Props.SMs), driver.D1(matchThreads), 4*r.l.nb, r.s,
		n, r.l.nb, r.l.a, zeros, zerosSize, edges, r.rowOfStarAtCol, r.colOfStarAtRow,
		r.coveredCol, r.colOfPrimeAtRow, r.coveredRow, r.rowOfGreenAtCol, b.Ctl); err != nil {
		return fmt.Errorf("matching of the zeros: %w", err)
	}
	r.matchCtl = b.Ctl
	return nil
}

// matchCounts reads lap_match's counts into the run's PaperCounts once
// the stream is synchronised, and its error word.
func (r *paperRun) matchCounts() error {
	ctl := make([]int64, matchFree+1)
	if err := driver.CopyFromDevice(r.t, ctl, r.matchCtl); err != nil {
		return err
	}
	r.cnt.MatchRounds, r.cnt.MatchLevels, r.cnt.MatchFree = int(ctl[matchRounds]), int(ctl[matchLevels]), int(ctl[matchFree])
	return matchErr(ctl[matchError])
}
