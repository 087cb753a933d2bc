package cudalap

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
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
	// narrow uploads costs whose span fits 16 bits in 16 bits, widened on
	// the device (uploadCosts): cuda/fast's; the paper's design uploads
	// int32.
	narrow bool
	// transposed stages the row-major costs straight into the slack
	// matrix, which the kernels read column-major: they solve the
	// transposed instance (their columns are the instance's rows, the
	// padding rows whole zero columns at the end), so that no transpose
	// runs, and the download swaps the roles back (cuda/fast's; the
	// paper's design transposes in its phase init).
	transposed bool
	// fused runs step 1's column pass and the compression of the zeros as
	// one kernel (lap_paper_step1_fused), which writes the forest search's
	// 16-bit slacks itself where they fit (cuda/fast's; the paper's design
	// runs its three kernels of step 1).
	fused bool
	// forest replaces steps 3 to 6 by the forest search (forest.go).
	forest bool
	// matching lets step 2 be the maximum matching of the zeros
	// (match.go) where they are dense; match is set once the span says so
	// (setSpan).
	matching, match bool
	// slack16 has the forest search read the slacks as 16 bits, set once
	// the costs' span is known to be below 2^16 (a slack after step 1 is
	// at most the span).
	slack16 bool
	// span is the costs' span (the largest minus the least), set with
	// slack16: the forest search's block size depends on it.
	span int64
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
	paperTuned       = paperDesign{impl: "cuda/fast", maxGroup: 64, linger: 10000, narrow: true, transposed: true, fused: true, matching: true}
	// paperForest is cuda/fast's forest strategy: steps 1 and 2, then the
	// forest search.
	paperForest = paperDesign{impl: "cuda/fast", narrow: true, transposed: true, fused: true, forest: true, matching: true}
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
	// The forest search's rounds (each ends in augmentations), levels (a
	// grid barrier each) and dual updates, where it ran instead of steps 3
	// to 6.
	ForestRounds, ForestLevels, ForestDuals int
	// ForestSections is block 0's time in each section of the forest
	// kernel when it is timed (forestTimed): a level's fold, its rows'
	// joins, its barrier; a round end's flips, settling, barrier; the
	// repairs' folds after a round (with the block's barrier after the
	// level's folds).
	ForestSections [7]time.Duration
	// Where the zeros were matched in place of step 2 (match.go): the
	// rounds that flipped paths, the levels, and the columns left free.
	MatchRounds, MatchLevels, MatchFree int
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
func checkPaper(m *lap.Matrix) (hostcost.Scan, error) {
	sc, err := hostcost.ScanMatrix("cuda/paper", m)
	if err != nil {
		return sc, err
	}
	return sc, checkPaperSpan(m, sc)
}

// checkPaperSpan refuses a cost span the int32 slacks cannot hold, and an
// order beyond MaxPaperOrder.
func checkPaperSpan(m *lap.Matrix, sc hostcost.Scan) error {
	if m.Cols > MaxPaperOrder {
		return fmt.Errorf("cuda/paper: %w: %d columns; the zeros are int32 positions in a padded %dx%d matrix, at most %d columns",
			lap.ErrShape, m.Cols, m.Cols, m.Cols, MaxPaperOrder)
	}
	spread := sc.Hi - sc.Lo
	n := int64(m.Cols)
	if limit := int64(math.MaxInt32-1) / (n + 1); spread > limit {
		return fmt.Errorf("cuda/paper: %w: costs span %d (from %d to %d); with %d columns the int32 slacks hold a span of at most %d ((n+1)·span < 2^31-1)",
			lap.ErrRange, spread, sc.Lo, sc.Hi, m.Cols, limit)
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
	sc, err := hostcost.ScanMatrix(d.impl, m)
	if err != nil {
		return nil, PaperCounts{}, err
	}
	return solvePaperScanned(ctx, m, sc, opt, d, stop)
}

// solvePaperScanned is solvePaper once the costs are scanned; stop ends the
// h2d phase, which goes on through the conversion and the upload. The
// costs, minus their least, go to the device as int32 (in 16 bits widened
// there where d says so and they fit), then solvePaperStaged solves.
func solvePaperScanned(ctx context.Context, m *lap.Matrix, sc hostcost.Scan, opt Options, d paperDesign, stop func()) (*lap.Result, PaperCounts, error) {
	if err := checkPaperSpan(m, sc); err != nil {
		return nil, PaperCounts{}, err
	}
	return solvePaperStaged(ctx, m, opt, d, stop, func(t *driver.Thread, dev *cuda.Device, plan cuda.Plan, d *paperDesign) (int64, error) {
		d.setSpan(m.Rows, m.Cols, paperSpan(m, sc.Lo, sc.Hi))
		w := hostcost.Int32
		if d.narrow {
			w = sc.Width(sc.Lo)
		}
		return sc.Lo, stageInput(t, dev, plan, d.costsBuffer(), m, sc.Lo, w)
	})
}

// paperCosts is the buffer of PaperPlan the costs are uploaded into for
// the transpose (the first buffer of zeros, free until step 1 ends);
// paperSlack is the slack matrix, where a transposed design stages them.
const (
	paperCosts = "lap.paper.zeros0"
	paperSlack = "lap.paper.slack"
)

// costsBuffer is the buffer of PaperPlan design d stages the costs in.
func (d paperDesign) costsBuffer() string {
	if d.transposed {
		return paperSlack
	}
	return paperCosts
}

// solvePaperStaged runs the Hungarian of design d on m once stage has put
// its costs, minus the shift it returns, as int32 into plan's buffer
// paperCosts (and checked them; it may change the design, e.g. once the
// costs' span is known); stop ends the h2d phase. In the timed
// window the rest of the plan is allocated (reused from the last solve of
// the size) and the solve runs to a synchronised stream; the stars and
// duals come back after it (d2h).
func solvePaperStaged(ctx context.Context, m *lap.Matrix, opt Options, d paperDesign, stop func(),
	stage func(t *driver.Thread, dev *cuda.Device, plan cuda.Plan, d *paperDesign) (shift int64, err error)) (*lap.Result, PaperCounts, error) {
	var cnt PaperCounts
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, cnt, fmt.Errorf("%s: %w", d.impl, err)
	}
	l := newPaperLayout(m.Rows, m.Cols, dev.Props.SMs)
	var res *lap.Result
	err = dev.Run(ctx, func(t *driver.Thread) error {
		shift, err := stage(t, dev, PaperPlan(l.rows, l.cols, dev.Props.SMs), &d)
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
	transpose, init, rowmin, rows4, colmin, compress, step6update, step2, step3init, step3, step4, step5a, step5b, reduce1, reduce2 driver.Function
}

func loadPaper(t *driver.Thread, dev *cuda.Device) (paperFns, error) {
	var f paperFns
	for _, x := range []struct {
		fn   *driver.Function
		name string
	}{
		{&f.transpose, "transpose"}, {&f.init, "init"}, {&f.rowmin, "step1_rowmin"}, {&f.rows4, "step1_rows4"}, {&f.colmin, "step1_colmin"},
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
	return kernelError("", int64(code), "step 6 found no uncovered slack", "step 5 followed a path longer than n")
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
	r, err := newPaperRun(t, dev, l, d, cnt)
	if err != nil {
		return nil, err
	}
	defer r.st.close()
	if err := r.initSlack(); err != nil {
		return nil, err
	}
	if err := r.step1(); err != nil {
		return nil, err
	}
	step2 := r.step2
	if d.match {
		step2 = r.match
	}
	if err := step2(); err != nil {
		return nil, err
	}
	if err := r.step1Write(); err != nil {
		return nil, err
	}
	if d.forest {
		if err := r.forest(); err != nil {
			return nil, err
		}
	}
	// The loop of steps 3 to 6. The host waits on the device only to read
	// the flags after a group of step-4 launches (see lap_paper_step4):
	// step 3 goes ahead unread (when every row has a star the step-4
	// launches behind it return at once and the flags say so), and step 5
	// and step 6 need nothing from the host.
	for !d.forest {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := r.step3(); err != nil {
			return nil, err
		}
		done, err := r.search(ctx)
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
		if err := r.step5(); err != nil {
			return nil, err
		}
	}
	if !d.forest {
		cnt.Step4Runs = int(r.hflags[paperFlagLaunches])
	}
	if err := r.endWindow(opt); err != nil {
		return nil, err
	}
	return r.download(opt, shift)
}

// paperRun is one cuda/paper solve in flight: the device's buffers and
// kernels, the stream and its step timer, the host's copy of the flags,
// and how step 4 is being driven.
type paperRun struct {
	t   *driver.Thread
	dev *cuda.Device
	l   paperLayout
	d   paperDesign
	cnt *PaperCounts
	fn  paperFns
	s   driver.Stream
	st  *stepTimer

	host   *driver.HostBuffer // the flags, read back
	hflags []int32            // host as int32 words

	slack, flags driver.DevicePtr
	// slack16 is the forest search's 16-bit slacks (slack16Buffer), once
	// step 1 has made them.
	slack16 driver.DevicePtr
	// matchCtl and forestCtl are lap_match's and the forest search's
	// control words, where they ran, read after the window.
	matchCtl, forestCtl driver.DevicePtr
	// deferred is step 1's write of the slacks, where it waits for
	// lap_match (step1Fused).
	deferred deferredWrite
	// The compressed zeros: step 6 builds the other copy from the current
	// one, zerosBuf[cur] with its sizes sizeBuf[cur].
	zerosBuf, sizeBuf [2]driver.DevicePtr
	cur               int

	rowOfStarAtCol, colOfStarAtRow, colOfPrimeAtRow, rowOfGreenAtCol driver.DevicePtr
	coveredRow, coveredCol, rowMin                                   driver.DevicePtr
	u, v                                                             driver.DevicePtr
	// Step 6's partial minima live in rowMin, free after step 1.
	partial      driver.DevicePtr
	reduceBlocks int

	g1, b1 driver.Dim3 // one thread per row or column

	epoch int32 // the last step-4 launch's
	group int   // step-4 launches enqueued before the host reads the flags
}

// newPaperRun allocates cuda/paper's buffers (reused from the last solve
// of the size), loads its kernels and readies the step timer; the caller
// closes the timer (r.st.close).
func newPaperRun(t *driver.Thread, dev *cuda.Device, l paperLayout, d paperDesign, cnt *PaperCounts) (*paperRun, error) {
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
	r := &paperRun{t: t, dev: dev, l: l, d: d, cnt: cnt, fn: fn, s: dev.Stream(),
		slack: buf.Slack, flags: buf.Flags,
		zerosBuf: [2]driver.DevicePtr{buf.Zeros0, buf.Zeros1},
		sizeBuf:  [2]driver.DevicePtr{buf.ZerosSize, buf.ZerosSize.Add(int64(4 * l.nb))},
		u:        buf.Duals,
		v:        buf.Duals.Add(int64(8 * n)),
		g1:       driver.D1((n + paperThreads - 1) / paperThreads),
		b1:       driver.D1(paperThreads),
		group:    paperStep4Group,
	}
	vec := func(k int) driver.DevicePtr { return buf.Vectors.Add(int64(4 * k * n)) }
	r.rowOfStarAtCol, r.colOfStarAtRow, r.colOfPrimeAtRow, r.rowOfGreenAtCol = vec(0), vec(1), vec(2), vec(3)
	r.coveredRow, r.coveredCol, r.rowMin = vec(4), vec(5), vec(6)
	r.partial, r.reduceBlocks = r.rowMin, min(paperReduceBlocks, n)
	ws, err := workspaceOf(t, dev)
	if err != nil {
		return nil, err
	}
	r.host = ws.flags
	r.hflags = r.host.Int32s()
	r.st = &stepTimer{t: t, s: r.s, sums: map[string]time.Duration{}, ws: ws,
		free: slices.Clone(ws.events), all: slices.Clone(ws.events)}
	return r, nil
}

// zeros is the current compressed vector of zeros and its per-block sizes.
func (r *paperRun) zeros() (zeros, zerosSize driver.DevicePtr) {
	return r.zerosBuf[r.cur], r.sizeBuf[r.cur]
}

// launch enqueues kernel f on the stream; what names it in an error.
func (r *paperRun) launch(what string, f driver.Function, grid, block driver.Dim3, args ...any) error {
	if err := r.t.Launch(f, grid, block, 0, r.s, args...); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// readFlags copies the flags to the host and waits for them.
func (r *paperRun) readFlags() error {
	if err := r.t.CopyFromDeviceAsync(r.host, 0, r.flags, 64, r.s); err != nil {
		return err
	}
	return r.t.StreamSynchronize(r.s)
}

// endWindow synchronises the stream, gives the recorder every step's time
// and ends the timed window.
func (r *paperRun) endWindow(opt Options) error {
	if err := r.st.mark("end"); err != nil {
		return err
	}
	if err := r.t.StreamSynchronize(r.s); err != nil {
		return err
	}
	if err := r.st.flush(); err != nil {
		return err
	}
	for _, name := range append(PaperSteps, PhaseMatch, PhaseForest) {
		if d, ok := r.st.sums[name]; ok {
			opt.Rec.Add(name, d)
		}
	}
	opt.Rec.EndTotal()
	return nil
}

// download is the phase d2h: the stars and the duals back to the host,
// the row duals shifted back by the costs' shift.
func (r *paperRun) download(opt Options, shift int64) (*lap.Result, error) {
	defer opt.Rec.Start(PhaseD2H)()
	if r.d.match {
		if err := r.matchCounts(); err != nil {
			return nil, err
		}
	}
	if r.d.forest {
		if err := r.forestCounts(); err != nil {
			return nil, err
		}
	}
	star := make([]int32, r.l.n)
	uv := make([]int64, 2*r.l.n)
	stars := r.colOfStarAtRow
	if r.d.transposed {
		stars = r.rowOfStarAtCol // the kernels' columns are the rows
	}
	if err := cuda.Download(r.t, r.dev, star, stars); err != nil {
		return nil, err
	}
	if err := cuda.Download(r.t, r.dev, uv, r.u); err != nil {
		return nil, err
	}
	return paperResult(r.l, star, uv, shift, r.d.transposed), nil
}

// paperResult is the result of an instance of layout l from the kernels'
// stars (star[i], the instance's row i's column: colOfStarAtRow, or
// rowOfStarAtCol where the kernels solved the transposed instance) and
// duals (uv: u then v, n each; transposed, u is the columns' and v the
// rows'), the row duals shifted back by shift.
func paperResult(l paperLayout, star []int32, uv []int64, shift int64, transposed bool) *lap.Result {
	n := l.n
	u, v := uv[:n], uv[n:]
	if transposed {
		u, v = v, u
	}
	res := &lap.Result{Assignment: make([]int, l.rows), U: make([]int64, l.rows), V: v[:l.cols]}
	for i := range l.rows {
		res.Assignment[i] = int(star[i])
		res.U[i] = u[i] + shift
	}
	return res
}

// strategy names the design as one of cuda/fast's strategies.
func (d paperDesign) strategy() string {
	if d.forest {
		return StrategyForest
	}
	return StrategyHungarian
}

// paperSpan is the span of the costs cuda/paper's slack matrix starts from:
// the costs from lo to hi, with the zero costs of the rows that pad an
// r x c instance (r < c).
func paperSpan(m *lap.Matrix, lo, hi int64) int64 {
	if m.Rows < m.Cols {
		lo, hi = min(lo, 0), max(hi, 0)
	}
	return hi - lo
}
