package cudalap

// The steps of a cuda/paper solve (and of cuda/fast's Hungarian and the
// start of its forest search), each enqueued on the solve's stream by a
// method of paperRun: init, the paper's steps 1 to 6 (kernels/lap_paper.cu).

import (
	"context"
	"fmt"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// initSlack is the phase "init": the slack matrix (the costs transposed to
// column-major, the rows padded; a transposed design staged them there
// and pads the columns that stand for the missing rows) and the vectors
// set.
func (r *paperRun) initSlack() error {
	n, rows, zeros := r.l.n, r.l.rows, r.zerosBuf[0] // the staged costs (paperCosts)
	if err := r.st.mark("init"); err != nil {
		return err
	}
	if !r.d.transposed {
		if err := r.launch("transpose", r.fn.transpose, driver.D2((n+31)/32, (n+31)/32), driver.D2(32, 8), n, rows, zeros, r.slack); err != nil {
			return err
		}
	} else if rows < n {
		if err := r.t.MemsetD32Async(r.slack.Add(4*int64(rows)*int64(n)), 0, int64(n-rows)*int64(n), r.s); err != nil {
			return fmt.Errorf("padding: %w", err)
		}
	}
	return r.launch("init", r.fn.init, r.g1, r.b1, n, r.rowOfStarAtCol, r.colOfStarAtRow, r.colOfPrimeAtRow, r.rowOfGreenAtCol, r.coveredRow, r.coveredCol, r.rowMin, r.flags)
}

// step1 is the paper's step 1: row and column reductions, then the
// compressed zeros.
func (r *paperRun) step1() error {
	n := r.l.n
	zeros, zerosSize := r.zeros()
	if err := r.st.mark("step1"); err != nil {
		return err
	}
	slices1 := min(paperRowSlices, n)
	colsPerSlice := (n + slices1 - 1) / slices1
	rowmin, perThread := r.fn.rowmin, 1
	if r.d.fused && n%4 == 0 {
		rowmin, perThread = r.fn.rows4, 4
	}
	threads := (n + perThread - 1) / perThread
	if err := r.launch("step 1 rows", rowmin, driver.D2((threads+paperThreads-1)/paperThreads, (n+colsPerSlice-1)/colsPerSlice), r.b1, n, colsPerSlice, r.slack, r.rowMin); err != nil {
		return err
	}
	if r.d.fused {
		return r.step1Fused(zeros, zerosSize)
	}
	if err := r.launch("step 1 columns", r.fn.colmin, driver.D1(min(n, 65535)), r.b1, n, r.slack, r.rowMin, r.u, r.v); err != nil {
		return err
	}
	return r.launch("step 1 compression", r.fn.compress, driver.D1(r.l.nb), r.b1, n, r.l.a, r.slack, r.flags, zeros, zerosSize)
}

// step1Fused is step 1's column pass and compression in one kernel, a
// block per step-4 block (lap_paper_step1_fused): the reduced slacks go
// back in place, or, where the forest search reads 16 bits, to its 16-bit
// copy (r.slack16) and nowhere else: after step 1 only the forest reads
// the slacks. Where lap_match follows and the kernel holds columns in
// registers, the slacks are written after the matching, and only where it
// left a column free (step1Write): at range 0.1n no step reads them.
func (r *paperRun) step1Fused(zeros, zerosSize driver.DevicePtr) error {
	n := r.l.n
	out, narrow := r.slack, r.d.forest && r.d.slack16 && forestSlack16
	if narrow {
		var err error
		if out, err = r.slack16Buffer(); err != nil {
			return err
		}
	}
	fused, write := step1FusedKernel(n, narrow)
	kernel, err := r.dev.Function(r.t, paperModule, fused)
	if err != nil {
		return err
	}
	args := []any{n, r.l.a, r.slack, r.rowMin, r.u, r.v, out, r.flags, zeros, zerosSize}
	if write != "" {
		now := int32(1)
		if r.d.match {
			now, r.deferred = 0, deferredWrite{kernel: write, out: out}
		}
		args = append(args, now)
	}
	return r.launch("step 1 columns and compression", kernel, driver.D1(r.l.nb), driver.D1(paperThreads), args...)
}

// deferredWrite is step 1's write of the slacks left for after lap_match:
// its kernel and the slacks it writes.
type deferredWrite struct {
	kernel string
	out    driver.DevicePtr
}

// step1Write is step 1's deferred write of the slacks (phase step1), after
// lap_match: lap_paper_step1_write{,16}_rPER returns at once where the
// matching left no column free.
func (r *paperRun) step1Write() error {
	if r.deferred.kernel == "" {
		return nil
	}
	kernel, err := r.dev.Function(r.t, paperModule, r.deferred.kernel)
	if err != nil {
		return err
	}
	if err := r.st.mark("step1"); err != nil {
		return err
	}
	return r.launch("step 1's slacks", kernel, driver.D1(r.l.nb), driver.D1(paperThreads), r.l.n, r.l.a, r.slack, r.rowMin, r.v, r.deferred.out,
		r.matchCtl.Add(8*matchFree))
}

// step1FusedKernel names step 1's fused column pass for order n, writing
// the 16-bit copy where narrow: up to order 8192 the kernel that holds a
// column in its 256 threads' registers (8, 16 or 32 slacks a thread,
// lap_paper_step1_fused_rPER, whose slacks can be written later by write,
// lap_paper_step1_write_rPER), beyond it the loop over a column's rows
// (write "").
func step1FusedKernel(n int, narrow bool) (fused, write string) {
	w := ""
	if narrow {
		w = "16"
	}
	for _, per := range []int{8, 16, 32} {
		if n <= per*paperThreads {
			return fmt.Sprintf("lap_paper_step1_fused%s_r%d", w, per), fmt.Sprintf("lap_paper_step1_write%s_r%d", w, per)
		}
	}
	return "lap_paper_step1_fused" + w, ""
}

// slack16Buffer is the forest search's 16-bit copy of the slacks, made by
// step 1 where the costs' span is below 2^16 (a slack after step 1 is at
// most the span): half the bytes a fold reads.
func (r *paperRun) slack16Buffer() (driver.DevicePtr, error) {
	if r.slack16 == 0 {
		n := uint64(r.l.n)
		var b struct {
			Slack16 driver.DevicePtr `buf:"lap.forest.slack16"`
		}
		plan := cuda.Plan{What: fmt.Sprintf("cuda/fast forest %dx%d, 16-bit slacks", n, n), Buffers: []cuda.Buffer{
			{Name: "lap.forest.slack16", Bytes: 2 * n * n},
		}}
		if err := r.dev.Allocate(r.t, plan, &b); err != nil {
			return 0, err
		}
		r.slack16 = b.Slack16
	}
	return r.slack16, nil
}

// step2 is the paper's step 2: the initial matching, in one block.
func (r *paperRun) step2() error {
	zeros, zerosSize := r.zeros()
	if err := r.st.mark("step2"); err != nil {
		return err
	}
	return r.launch("step 2", r.fn.step2, driver.D1(1), driver.D1(paperStep2Threads), r.l.n, r.l.a, r.l.nb, zeros, zerosSize, r.coveredRow, r.coveredCol, r.rowOfStarAtCol, r.colOfStarAtRow)
}

// step3 is the paper's step 3: cover the starred columns and count the
// stars.
func (r *paperRun) step3() error {
	n := r.l.n
	r.cnt.Step3Calls++
	if r.cnt.Step3Calls > n+1 {
		return fmt.Errorf("step 3 ran %d times for %d rows (internal error)", r.cnt.Step3Calls, n)
	}
	if err := r.st.mark("step3"); err != nil {
		return err
	}
	if err := r.launch("step 3 init", r.fn.step3init, r.g1, r.b1, n, r.coveredRow, r.coveredCol, r.colOfPrimeAtRow, r.rowOfGreenAtCol, r.flags); err != nil {
		return err
	}
	return r.launch("step 3", r.fn.step3, r.g1, r.b1, n, r.rowOfStarAtCol, r.coveredCol, r.flags)
}

// search is step 4 after a step 3, and step 6 whenever step 4 ends
// without a path, until step 4 finds paths for step 5; done reports that
// every row has a star, and nothing is left to search.
func (r *paperRun) search(ctx context.Context) (done bool, err error) {
	n := r.l.n
	if err := r.step4(); err != nil {
		return false, err
	}
	if r.cnt.Step3Calls == 1 {
		r.cnt.MaxZeros = int(r.hflags[paperFlagZeros])
	}
	if int(r.hflags[paperFlagStars]) == n {
		r.cnt.Step4Calls--
		return true, nil
	}
	stage6, restarts := 0, 0
	for r.hflags[paperFlagGoto5] == 0 {
		if r.hflags[paperFlagMissed+r.epoch%3] != 0 {
			// A block may have missed an uncovered zero: restart.
			if restarts++; restarts > n+2 {
				return false, fmt.Errorf("step 4 restarted in %d groups for %d rows (internal error)", restarts, n)
			}
			r.group = min(2*r.group, r.d.maxGroup)
			if err := r.step4Group(false); err != nil {
				return false, err
			}
			continue
		}
		if err := r.step6(ctx, &stage6); err != nil {
			return false, err
		}
		if err := r.step4(); err != nil {
			return false, err
		}
		r.cnt.MaxZeros = max(r.cnt.MaxZeros, int(r.hflags[paperFlagZeros]))
	}
	// The next groups start from the launches this search needed.
	ran := int(r.hflags[paperFlagLaunches])
	r.group = max(paperStep4Group, min(r.d.maxGroup, (ran+r.cnt.Step4Calls-1)/r.cnt.Step4Calls))
	return false, nil
}

// step4 starts a call of the paper's step 4 (after step 3 or step 6): its
// first group of launches.
func (r *paperRun) step4() error {
	r.cnt.Step4Calls++
	if err := r.st.mark("step4"); err != nil {
		return err
	}
	return r.step4Group(true)
}

// step4Group enqueues a group of step-4 launches (the first of a call
// with first set), then reads the flags and the step times.
func (r *paperRun) step4Group(first bool) error {
	zeros, zerosSize := r.zeros()
	for k := range r.group {
		r.epoch++
		r.cnt.Step4Launches++
		f := int32(0)
		if first && k == 0 {
			f = 1
		}
		if err := r.launch("step 4", r.fn.step4, driver.D1(r.l.nb), r.b1, r.l.n, r.l.a, zeros, zerosSize, r.coveredRow, r.coveredCol, r.colOfPrimeAtRow, r.colOfStarAtRow, r.flags, r.epoch, f, int32(r.d.linger)); err != nil {
			return err
		}
	}
	if err := r.readFlags(); err != nil {
		return err
	}
	if err := paperError(r.hflags[paperFlagError]); err != nil {
		return err
	}
	return r.st.flush()
}

// step6 is the paper's step 6: the minimum uncovered slack, the dual
// update, and the compressed zeros rebuilt into the other copy, which
// becomes the current one. stage6 counts the step 6s since the last step
// 3, at most n+1.
func (r *paperRun) step6(ctx context.Context, stage6 *int) error {
	n := r.l.n
	r.cnt.Step6Calls++
	if *stage6++; *stage6 > n+1 {
		return fmt.Errorf("step 6 ran %d times between two step 3s for %d rows (internal error)", *stage6, n)
	}
	if r.cnt.Step6Calls&1023 == 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if err := r.st.mark("step6"); err != nil {
		return err
	}
	if err := r.launch("step 6 reduction 1", r.fn.reduce1, driver.D1(r.reduceBlocks), r.b1, n, r.slack, r.coveredRow, r.coveredCol, r.partial); err != nil {
		return err
	}
	if err := r.launch("step 6 reduction 2", r.fn.reduce2, driver.D1(1), driver.D1(1024), r.reduceBlocks, r.partial, r.flags); err != nil {
		return err
	}
	zeros, zerosSize := r.zeros()
	if err := r.launch("step 6 update", r.fn.step6update, driver.D1(r.l.nb), r.b1, n, r.l.a, r.slack, r.coveredRow, r.coveredCol, r.flags,
		zeros, zerosSize, r.zerosBuf[1-r.cur], r.sizeBuf[1-r.cur], r.u, r.v); err != nil {
		return err
	}
	r.cur = 1 - r.cur
	return nil
}

// step5 is the paper's step 5: apply the alternating paths found, forward
// through the green marks (5a) and back (5b).
func (r *paperRun) step5() error {
	n := r.l.n
	r.cnt.Step5Calls++
	if err := r.st.mark("step5"); err != nil {
		return err
	}
	if err := r.launch("step 5a", r.fn.step5a, r.g1, r.b1, n, r.colOfPrimeAtRow, r.colOfStarAtRow, r.rowOfStarAtCol, r.rowOfGreenAtCol, r.flags); err != nil {
		return err
	}
	return r.launch("step 5b", r.fn.step5b, r.g1, r.b1, n, r.rowOfGreenAtCol, r.colOfStarAtRow, r.rowOfStarAtCol, r.flags)
}
