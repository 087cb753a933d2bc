package cudalap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/lap"
)

// paperModule is cuda/paper's kernel source (kernels/lap_paper.cu).
const paperModule = "lap_paper"

// PaperSteps are the phases cuda/paper reports, in order: "h2d" (the costs
// checked, converted to int32 on the host and copied to the device: before
// the timed window), "init" (the slack matrix from the costs, column-major,
// and the vectors set), the paper's "step1" .. "step6" (the same names as
// lap.PaperSteps), and "d2h" (the stars and duals back: after the window).
// h2d and d2h are host-clock phases; init and the steps are timed with CUDA
// events on the stream inside the window, each step running from the event
// recorded before its first launch to the one recorded before the next
// step's, so the host's launch and flag-reading latency between kernels
// counts in the step that waits on it; what they leave of the window (the
// workspace, the first launch) is the protocol's "other".
var PaperSteps = slices.Concat([]string{PhaseH2D}, lap.PaperSteps, []string{PhaseD2H})

// Thread-block shapes of cuda/paper.
const (
	paperThreads      = 256  // most kernels
	paperStep2Threads = 1024 // step 2: one block, the most threads a block has
	paperBlocksPerSM  = 8    // step-4 blocks per SM (256 threads each: all resident)
	paperReduceBlocks = 1024 // step 6's first reduction kernel
	paperRowSlices    = 64   // step 1's slices of columns for the row minima
	// Step-4 launches enqueued before the host reads the flags: at first
	// paperStep4Group, then the average a search needed so far, doubled
	// while a search goes on, at most the design's maxGroup.
	paperStep4Group = 1
)

// paperDesign is how the host drives step 4.
type paperDesign struct {
	impl string // the implementation's name, for errors
	// maxGroup bounds the step-4 launches enqueued before the host reads
	// the flags; launches that find no restart needed return at once.
	maxGroup int
	// linger is how long (ns) a quiet step-4 block waits for another
	// block's uncovering before it finishes (see lap_paper_step4).
	linger int
	// narrow uploads costs whose span fits int16 as int16, widened on the
	// device (uploadCosts): cuda/fast's; the paper's design uploads int32.
	narrow bool
}

// paperAsPublished drives step 4 as the paper: one launch, the host reads
// the flags, and restarts the kernel when a block may have missed a zero.
// paperTuned (cuda/fast's Hungarian strategy) queues up to 64 launches that
// skip themselves on the device when no restart is needed, and lets quiet
// blocks linger 10 us, so that a search mostly needs one launch and no
// host round trip (a variable so that the timing test can compare
// settings).
var (
	paperAsPublished = paperDesign{impl: "cuda/paper", maxGroup: 1, linger: 0}
	paperTuned       = paperDesign{impl: "cuda/fast", maxGroup: 64, linger: 10000, narrow: true}
)

// MaxPaperOrder is the largest padded order cuda/paper accepts: positions
// c*n + r in the compressed vector of zeros are int32.
const MaxPaperOrder = 46340

// PaperCounts count what one cuda/paper run did, for the experiments'
// metrics.
type PaperCounts struct {
	Step3Calls, Step5Calls, Step6Calls int
	// Step4Calls counts the searches (each ends in step 5 or step 6);
	// Step4Launches the step-4 kernels enqueued and Step4Runs those that
	// ran (the others returned at once: no restart was needed).
	Step4Calls, Step4Launches, Step4Runs int
	// MaxZeros is the largest compressed vector of zeros.
	MaxZeros int
	// Blocks and ColsPerBlock are step 4's distribution of the columns.
	Blocks, ColsPerBlock int
	// KernelPath is how kernels/lap_paper.cu was loaded.
	KernelPath string
}

// paperLayout is the shape of one cuda/paper instance.
type paperLayout struct {
	rows, cols int // the instance, rows <= cols
	n          int // the padded order (cols)
	a, nb      int // step 4: a columns per block, nb blocks
}

// newPaperLayout distributes the n columns over about sms*paperBlocksPerSM
// step-4 blocks of a columns each.
func newPaperLayout(rows, cols, sms int) paperLayout {
	target := max(1, sms*paperBlocksPerSM)
	a := max(1, (cols+target-1)/target)
	return paperLayout{rows: rows, cols: cols, n: cols, a: a, nb: (cols + a - 1) / a}
}

// PaperPlan is the device memory of cuda/paper for an r x c instance on a
// device of sms multiprocessors: the slack matrix (c x c int32, the rows
// padded with zero costs), the compressed vector of zeros twice (c x c
// int32 positions, rounded up to whole step-4 segments: step 6 rebuilds it
// from the other copy; the first is also the staging area of the costs),
// the per-block zero counts of both, seven
// int32 vectors (the last holds step 1's row minima, then step 6's partial
// minima) and the two int64 duals of c entries, and the flags.
func PaperPlan(rows, cols, sms int) cuda.Plan {
	l := newPaperLayout(rows, cols, sms)
	n := uint64(l.n)
	return cuda.Plan{What: fmt.Sprintf("cuda/paper %dx%d", rows, cols), Buffers: []cuda.Buffer{
		{Name: "lap.paper.slack", Bytes: 4 * n * n},
		{Name: "lap.paper.zeros0", Bytes: 4 * uint64(l.nb) * uint64(l.a) * n},
		{Name: "lap.paper.zeros1", Bytes: 4 * uint64(l.nb) * uint64(l.a) * n},
		{Name: "lap.paper.zerosSize", Bytes: 2 * 4 * uint64(l.nb)},
		{Name: "lap.paper.vectors", Bytes: 4 * 7 * n},
		{Name: "lap.paper.duals", Bytes: 8 * 2 * n},
		{Name: "lap.paper.flags", Bytes: 64},
	}}
}

// paperBuffers are cuda/paper's device buffers (PaperPlan).
type paperBuffers struct {
	Slack     driver.DevicePtr `buf:"lap.paper.slack"`
	Zeros0    driver.DevicePtr `buf:"lap.paper.zeros0"`
	Zeros1    driver.DevicePtr `buf:"lap.paper.zeros1"`
	ZerosSize driver.DevicePtr `buf:"lap.paper.zerosSize"`
	Vectors   driver.DevicePtr `buf:"lap.paper.vectors"`
	Duals     driver.DevicePtr `buf:"lap.paper.duals"`
	Flags     driver.DevicePtr `buf:"lap.paper.flags"`
}

// checkPaper refuses what cuda/paper cannot solve, before any device work,
// and returns the scan of the costs. Slacks stay below (n+1)·R for a cost
// spread R (see kernels/lap_paper.cu), which must fit int32.
func checkPaper(m *lap.Matrix) (costScan, error) {
	sc, err := scanCosts("cuda/paper", m)
	if err != nil {
		return sc, err
	}
	return sc, checkPaperSpan(m, sc)
}

// checkPaperSpan refuses a cost span the int32 slacks cannot hold, and an
// order beyond MaxPaperOrder.
func checkPaperSpan(m *lap.Matrix, sc costScan) error {
	if m.Cols > MaxPaperOrder {
		return fmt.Errorf("cuda/paper: %w: %d columns; the zeros are int32 positions in a padded %dx%d matrix, at most %d columns",
			lap.ErrShape, m.Cols, m.Cols, m.Cols, MaxPaperOrder)
	}
	spread := sc.hi - sc.lo
	n := int64(m.Cols)
	if limit := int64(math.MaxInt32-1) / (n + 1); spread > limit {
		return fmt.Errorf("cuda/paper: %w: costs span %d (from %d to %d); with %d columns the int32 slacks hold a span of at most %d ((n+1)·span < 2^31-1)",
			lap.ErrRange, spread, sc.lo, sc.hi, m.Cols, limit)
	}
	return nil
}

// Paper is cuda/paper: m solved by the Hungarian algorithm in the paper's
// GPU design (section 4): a column-major int32 slack matrix; the compressed
// vector of its zeros, rebuilt after steps 1 and 6; steps 1 and 6 as
// parallel reductions; step 2's atomic initial matching in one block; step
// 3's covering and counting; step 4 distributed over blocks by columns with
// volatile covers and a device fence, restarted only when a block may have
// missed a column uncovered after it finished (the host reads the flags
// after every step-4 launch); step 5 applying at once every alternating
// path found, through the green marks (5a forward, 5b back). Step 6 keeps
// the surviving zeros and scans only the slacks it changes instead of the
// whole matrix. cuda/fast's Hungarian strategy is the same code with step 4
// driven for speed (paperTuned). A rectangular r x c instance is padded
// to c x c with zero-cost rows. The result has the duals of the final
// slacks (slack = c - u - v), so lap.Certify certifies it; opt.Rec gets
// the phases of PaperSteps. Without a CUDA driver or device the error
// matches driver.ErrUnavailable; an instance whose cost span does not fit
// the int32 slacks wraps lap.ErrRange.
func Paper(ctx context.Context, m *lap.Matrix, opt Options) (*lap.Result, error) {
	res, _, err := PaperWithCounts(ctx, m, opt)
	return res, err
}

// PaperWithCounts is Paper returning its counts as well.
func PaperWithCounts(ctx context.Context, m *lap.Matrix, opt Options) (*lap.Result, PaperCounts, error) {
	return solvePaper(ctx, m, opt, paperAsPublished)
}

// solvePaper runs the block-distributed Hungarian with step 4 driven as d
// says.
func solvePaper(ctx context.Context, m *lap.Matrix, opt Options, d paperDesign) (*lap.Result, PaperCounts, error) {
	stop := opt.Rec.Start(PhaseH2D)
	sc, err := scanCosts(d.impl, m)
	if err != nil {
		return nil, PaperCounts{}, err
	}
	return solvePaperScanned(ctx, m, sc, opt, d, stop)
}

// solvePaperScanned is solvePaper once the costs are scanned; stop ends the
// h2d phase, which goes on through the conversion and the upload. The
// costs, minus their least, go to the device as int32 (as int16 widened
// there where d says so and they fit), then solvePaperStaged solves.
func solvePaperScanned(ctx context.Context, m *lap.Matrix, sc costScan, opt Options, d paperDesign, stop func()) (*lap.Result, PaperCounts, error) {
	if err := checkPaperSpan(m, sc); err != nil {
		return nil, PaperCounts{}, err
	}
	return solvePaperStaged(ctx, m, opt, d, stop, func(t *driver.Thread, dev *cuda.Device, plan cuda.Plan) (int64, error) {
		return sc.lo, stageInput(t, dev, plan, paperCosts, m, sc.lo, d.narrow && sc.fits16(sc.lo))
	})
}

// paperCosts is the buffer of PaperPlan the costs are uploaded into (the
// first buffer of zeros, free until step 1 ends).
const paperCosts = "lap.paper.zeros0"

// solvePaperStaged runs the Hungarian of design d on m once stage has put
// its costs, minus the shift it returns, as int32 into plan's buffer
// paperCosts (and checked them); stop ends the h2d phase. In the timed
// window the rest of the plan is allocated (reused from the last solve of
// the size) and the solve runs to a synchronised stream; the stars and
// duals come back after it (d2h).
func solvePaperStaged(ctx context.Context, m *lap.Matrix, opt Options, d paperDesign, stop func(),
	stage func(t *driver.Thread, dev *cuda.Device, plan cuda.Plan) (shift int64, err error)) (*lap.Result, PaperCounts, error) {
	var cnt PaperCounts
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, cnt, fmt.Errorf("%s: %w", d.impl, err)
	}
	l := newPaperLayout(m.Rows, m.Cols, dev.Props.SMs)
	var res *lap.Result
	err = dev.Run(ctx, func(t *driver.Thread) error {
		shift, err := stage(t, dev, PaperPlan(l.rows, l.cols, dev.Props.SMs))
		if err != nil {
			return err
		}
		stop()
		opt.Rec.BeginTotal()
		res, err = runPaper(ctx, t, dev, l, shift, opt, d, &cnt)
		return err
	})
	if err != nil {
		return nil, cnt, fmt.Errorf("%s %dx%d: %w", d.impl, m.Rows, m.Cols, err)
	}
	res.Cost = m.CostOf(res.Assignment)
	return res, cnt, nil
}

// paperFns are the kernels of kernels/lap_paper.cu.
type paperFns struct {
	transpose, init, rowmin, colmin, compress, step6update, step2, step3init, step3, step4, step5a, step5b, reduce1, reduce2 driver.Function
}

func loadPaper(t *driver.Thread, dev *cuda.Device) (paperFns, error) {
	var f paperFns
	for _, x := range []struct {
		fn   *driver.Function
		name string
	}{
		{&f.transpose, "transpose"}, {&f.init, "init"}, {&f.rowmin, "step1_rowmin"}, {&f.colmin, "step1_colmin"},
		{&f.compress, "compress"}, {&f.step6update, "step6_update"}, {&f.step2, "step2"}, {&f.step3init, "step3_init"}, {&f.step3, "step3"},
		{&f.step4, "step4"}, {&f.step5a, "step5a"}, {&f.step5b, "step5b"},
		{&f.reduce1, "step6_reduce1"}, {&f.reduce2, "step6_reduce2"},
	} {
		var err error
		if *x.fn, err = dev.Function(t, paperModule, "lap_paper_"+x.name); err != nil {
			return f, err
		}
	}
	return f, nil
}

// Words of the flags buffer (kernels/lap_paper.cu).
const (
	paperFlagGoto5    = 0
	paperFlagLaunches = 1
	paperFlagStars    = 2
	paperFlagError    = 3
	paperFlagZeros    = 5
	paperFlagMissed   = 9 // 9 + the launch's epoch mod 3
)

// paperError turns the kernels' error word into an error.
func paperError(code int32) error {
	switch code {
	case 0:
		return nil
	case 1:
		return errors.New("step 6 found no uncovered slack (internal error)")
	case 2:
		return errors.New("step 5 followed a path longer than n (internal error)")
	}
	return fmt.Errorf("kernel error %d (internal error)", code)
}

// stepTimer attributes the stream's time to steps with CUDA events: mark
// records an event starting the named step (ending the previous one);
// after the host has waited on the stream, flush adds the finished
// intervals to their steps.
type stepTimer struct {
	t      *driver.Thread
	s      driver.Stream
	ev     []driver.Event // recorded since the last flush; ev[0] starts labels[0]
	labels []string
	free   []driver.Event
	all    []driver.Event // every event it holds: its workspace's pool and those it created
	sums   map[string]time.Duration
	ws     *workspace // the events go back to its pool
}

func (st *stepTimer) mark(label string) error {
	var e driver.Event
	if k := len(st.free); k > 0 {
		e, st.free = st.free[k-1], st.free[:k-1]
	} else {
		var err error
		if e, err = st.t.EventCreate(driver.EventDefault); err != nil {
			return err
		}
		st.all = append(st.all, e)
	}
	if err := st.t.EventRecord(e, st.s); err != nil {
		return err
	}
	st.ev = append(st.ev, e)
	st.labels = append(st.labels, label)
	return nil
}

// flush must follow a wait on the stream.
func (st *stepTimer) flush() error {
	for i := 0; i+1 < len(st.ev); i++ {
		d, err := st.t.EventElapsed(st.ev[i], st.ev[i+1])
		if err != nil {
			return err
		}
		st.sums[st.labels[i]] += d
		st.free = append(st.free, st.ev[i])
	}
	if k := len(st.ev); k > 1 {
		st.ev = append(st.ev[:0], st.ev[k-1])
		st.labels = append(st.labels[:0], st.labels[k-1])
	}
	return nil
}

// close hands every event back to the workspace's pool for the next solve.
func (st *stepTimer) close() { st.ws.events = st.all }

// runPaper is the timed window of cuda/paper (its costs, minus shift, are
// on the device in lap.paper.zeros0; the caller has called BeginTotal): it
// ends the window once the stream is synchronised and the step times are
// recorded, then downloads the stars and duals (d2h).
func runPaper(ctx context.Context, t *driver.Thread, dev *cuda.Device, l paperLayout, shift int64, opt Options, d paperDesign, cnt *PaperCounts) (*lap.Result, error) {
	n := l.n
	var buf paperBuffers
	if err := dev.Allocate(t, PaperPlan(l.rows, l.cols, dev.Props.SMs), &buf); err != nil {
		return nil, err
	}
	fn, err := loadPaper(t, dev)
	if err != nil {
		return nil, err
	}
	cnt.KernelPath = dev.KernelPath(paperModule)
	cnt.Blocks, cnt.ColsPerBlock = l.nb, l.a
	slack, flags := buf.Slack, buf.Flags
	// The compressed zeros: step 6 builds the other copy from the current
	// one; zeros and zerosSize are the current one.
	zerosBuf := [2]driver.DevicePtr{buf.Zeros0, buf.Zeros1}
	sizeBuf := [2]driver.DevicePtr{buf.ZerosSize, buf.ZerosSize.Add(int64(4 * l.nb))}
	cur := 0
	zeros, zerosSize := zerosBuf[0], sizeBuf[0]
	vec := func(k int) driver.DevicePtr { return buf.Vectors.Add(int64(4 * k * n)) }
	rowOfStarAtCol, colOfStarAtRow, colOfPrimeAtRow, rowOfGreenAtCol := vec(0), vec(1), vec(2), vec(3)
	coveredRow, coveredCol, rowMin := vec(4), vec(5), vec(6)
	u, v := buf.Duals, buf.Duals.Add(int64(8*n))
	// Step 6's partial minima live in rowMin, free after step 1.
	partial, reduceBlocks := rowMin, min(paperReduceBlocks, n)
	s := dev.Stream()
	ws, err := workspaceOf(t, dev)
	if err != nil {
		return nil, err
	}
	host := ws.flags
	hflags := host.Int32s()
	readFlags := func() error {
		if err := t.CopyFromDeviceAsync(host, 0, flags, 64, s); err != nil {
			return err
		}
		return t.StreamSynchronize(s)
	}
	st := &stepTimer{t: t, s: s, sums: map[string]time.Duration{}, ws: ws,
		free: slices.Clone(ws.events), all: slices.Clone(ws.events)}
	defer st.close()
	launch := func(what string, f driver.Function, grid, block driver.Dim3, args ...any) error {
		if err := t.Launch(f, grid, block, 0, s, args...); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	g1 := driver.D1((n + paperThreads - 1) / paperThreads)
	b1 := driver.D1(paperThreads)

	// init: the slack matrix and the vectors.
	if err := st.mark("init"); err != nil {
		return nil, err
	}
	if err := launch("transpose", fn.transpose, driver.D2((n+31)/32, (n+31)/32), driver.D2(32, 8), n, l.rows, zeros, slack); err != nil {
		return nil, err
	}
	if err := launch("init", fn.init, g1, b1, n, rowOfStarAtCol, colOfStarAtRow, colOfPrimeAtRow, rowOfGreenAtCol, coveredRow, coveredCol, rowMin, flags); err != nil {
		return nil, err
	}

	// step 1: row and column reductions, then the compressed zeros.
	if err := st.mark("step1"); err != nil {
		return nil, err
	}
	slices1 := min(paperRowSlices, n)
	colsPerSlice := (n + slices1 - 1) / slices1
	if err := launch("step 1 rows", fn.rowmin, driver.D2((n+paperThreads-1)/paperThreads, (n+colsPerSlice-1)/colsPerSlice), b1, n, colsPerSlice, slack, rowMin); err != nil {
		return nil, err
	}
	if err := launch("step 1 columns", fn.colmin, driver.D1(min(n, 65535)), b1, n, slack, rowMin, u, v); err != nil {
		return nil, err
	}
	if err := launch("step 1 compression", fn.compress, driver.D1(l.nb), b1, n, l.a, slack, flags, zeros, zerosSize); err != nil {
		return nil, err
	}

	// step 2: the initial matching.
	if err := st.mark("step2"); err != nil {
		return nil, err
	}
	if err := launch("step 2", fn.step2, driver.D1(1), driver.D1(paperStep2Threads), n, l.a, l.nb, zeros, zerosSize, coveredRow, coveredCol, rowOfStarAtCol, colOfStarAtRow); err != nil {
		return nil, err
	}

	// The loop of steps 3 to 6. The host waits on the device only to read
	// the flags after a group of step-4 launches (see lap_paper_step4):
	// step 3 goes ahead unread (when every row has a star the step-4
	// launches behind it return at once and the flags say so), and step 5
	// and step 6 need nothing from the host.
	var epoch int32
	group := paperStep4Group
	enqueueStep4 := func(first bool) error {
		for k := range group {
			epoch++
			cnt.Step4Launches++
			f := int32(0)
			if first && k == 0 {
				f = 1
			}
			if err := launch("step 4", fn.step4, driver.D1(l.nb), b1, n, l.a, zeros, zerosSize, coveredRow, coveredCol, colOfPrimeAtRow, colOfStarAtRow, flags, epoch, f, int32(d.linger)); err != nil {
				return err
			}
		}
		if err := readFlags(); err != nil {
			return err
		}
		if err := paperError(hflags[paperFlagError]); err != nil {
			return err
		}
		return st.flush()
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// step 3: cover the starred columns and count the stars.
		cnt.Step3Calls++
		if cnt.Step3Calls > n+1 {
			return nil, fmt.Errorf("step 3 ran %d times for %d rows (internal error)", cnt.Step3Calls, n)
		}
		if err := st.mark("step3"); err != nil {
			return nil, err
		}
		if err := launch("step 3 init", fn.step3init, g1, b1, n, coveredRow, coveredCol, colOfPrimeAtRow, rowOfGreenAtCol, flags); err != nil {
			return nil, err
		}
		if err := launch("step 3", fn.step3, g1, b1, n, rowOfStarAtCol, coveredCol, flags); err != nil {
			return nil, err
		}
		// step 4, and step 6 whenever step 4 ends without a path.
		cnt.Step4Calls++
		if err := st.mark("step4"); err != nil {
			return nil, err
		}
		if err := enqueueStep4(true); err != nil {
			return nil, err
		}
		if cnt.Step3Calls == 1 {
			cnt.MaxZeros = int(hflags[paperFlagZeros])
		}
		if int(hflags[paperFlagStars]) == n {
			cnt.Step4Calls--
			break
		}
		stage6, restarts := 0, 0
		for hflags[paperFlagGoto5] == 0 {
			if hflags[paperFlagMissed+epoch%3] != 0 {
				// A block may have missed an uncovered zero: restart.
				if restarts++; restarts > n+2 {
					return nil, fmt.Errorf("step 4 restarted in %d groups for %d rows (internal error)", restarts, n)
				}
				group = min(2*group, d.maxGroup)
				if err := enqueueStep4(false); err != nil {
					return nil, err
				}
				continue
			}
			// step 6: the minimum uncovered slack, the dual update and the
			// compressed zeros; then step 4 again.
			cnt.Step6Calls++
			if stage6++; stage6 > n+1 {
				return nil, fmt.Errorf("step 6 ran %d times between two step 3s for %d rows (internal error)", stage6, n)
			}
			if cnt.Step6Calls&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			if err := st.mark("step6"); err != nil {
				return nil, err
			}
			if err := launch("step 6 reduction 1", fn.reduce1, driver.D1(reduceBlocks), b1, n, slack, coveredRow, coveredCol, partial); err != nil {
				return nil, err
			}
			if err := launch("step 6 reduction 2", fn.reduce2, driver.D1(1), driver.D1(1024), reduceBlocks, partial, flags); err != nil {
				return nil, err
			}
			if err := launch("step 6 update", fn.step6update, driver.D1(l.nb), b1, n, l.a, slack, coveredRow, coveredCol, flags,
				zeros, zerosSize, zerosBuf[1-cur], sizeBuf[1-cur], u, v); err != nil {
				return nil, err
			}
			cur = 1 - cur
			zeros, zerosSize = zerosBuf[cur], sizeBuf[cur]
			cnt.Step4Calls++
			if err := st.mark("step4"); err != nil {
				return nil, err
			}
			if err := enqueueStep4(true); err != nil {
				return nil, err
			}
			cnt.MaxZeros = max(cnt.MaxZeros, int(hflags[paperFlagZeros]))
		}
		// The next groups start from the launches this search needed.
		ran := int(hflags[paperFlagLaunches])
		group = max(paperStep4Group, min(d.maxGroup, (ran+cnt.Step4Calls-1)/cnt.Step4Calls))
		// step 5: apply the alternating paths found.
		cnt.Step5Calls++
		if err := st.mark("step5"); err != nil {
			return nil, err
		}
		if err := launch("step 5a", fn.step5a, g1, b1, n, colOfPrimeAtRow, colOfStarAtRow, rowOfStarAtCol, rowOfGreenAtCol, flags); err != nil {
			return nil, err
		}
		if err := launch("step 5b", fn.step5b, g1, b1, n, rowOfGreenAtCol, colOfStarAtRow, rowOfStarAtCol, flags); err != nil {
			return nil, err
		}
	}
	cnt.Step4Runs = int(hflags[paperFlagLaunches])
	if err := st.mark("end"); err != nil {
		return nil, err
	}
	if err := t.StreamSynchronize(s); err != nil {
		return nil, err
	}
	if err := st.flush(); err != nil {
		return nil, err
	}
	for _, name := range PaperSteps {
		if d, ok := st.sums[name]; ok {
			opt.Rec.Add(name, d)
		}
	}
	opt.Rec.EndTotal()

	// d2h: the stars and the duals.
	defer opt.Rec.Start(PhaseD2H)()
	star := make([]int32, n)
	uv := make([]int64, 2*n)
	if err := cuda.Download(t, dev, star, colOfStarAtRow); err != nil {
		return nil, err
	}
	if err := cuda.Download(t, dev, uv, u); err != nil {
		return nil, err
	}
	res := &lap.Result{Assignment: make([]int, l.rows), U: make([]int64, l.rows), V: uv[n : n+l.cols]}
	for i := range l.rows {
		res.Assignment[i] = int(star[i])
		res.U[i] = uv[i] + shift
	}
	return res, nil
}
