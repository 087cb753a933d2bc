package cudatreefix

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/treefix"
)

// The implementations' names.
const (
	Parallel             = "cuda/parallel"
	Vectorial            = "cuda/vectorial"
	VectorialCompensated = "cuda/vectorial-compensated"
)

// names are the implementations in display order.
var names = []string{Parallel, Vectorial, VectorialCompensated}

// Impls returns the CUDA implementations in display order. They run on
// device 0 and ignore the thread count; where CUDA cannot be used, their
// runs return an error matching driver.ErrUnavailable.
func Impls() []treefix.Impl {
	out := make([]treefix.Impl, len(names))
	for i, name := range names {
		out[i] = treefix.Impl{Name: name, Int64: prepare[int64](name), Float32: prepare[float32](name), Float64: prepare[float64](name)}
	}
	return out
}

// prepare gives the Impl field of implementation name for T. The device
// keeps the work buffers between runs (by name), so the prepared run holds
// nothing itself.
func prepare[T Element](name string) func(t *treefix.Tree, threads int) treefix.Run[T] {
	return func(t *treefix.Tree, _ int) treefix.Run[T] {
		return func(ctx context.Context, op treefix.Op, w, out []T, rec *bench.Recorder) error {
			return run(ctx, name, op, t, w, out, Options{Rec: rec})
		}
	}
}

const module = "treefix"

// Element is a weight type the kernels instantiate.
type Element interface{ float32 | float64 | int64 }

// Options tune a run; Rec receives the phases treefix.PhaseH2D, PhaseEulerTour,
// PhaseCompute, PhaseWrite, PhaseScan, PhaseRead and PhaseD2H.
type Options struct {
	Device int             // CUDA device ordinal
	Rec    *bench.Recorder // receives the phases (nil: none)
}

// Kernel geometry, as in kernels/treefix.cu.
const (
	scanThreads = 256
	// tileThreads is tf_scan_tiles_f32's one block (kTileThreads).
	tileThreads = 1024
	bfsThreads  = 512
	rulerEvery  = 32 // about one tour node in rulerEvery is a ruler
)

// suffix names an element type in the kernels.
func suffix[T Element]() (string, int) {
	var z T
	switch any(z).(type) {
	case float32:
		return "f32", 4
	case float64:
		return "f64", 8
	}
	return "i64", 8
}

// scanTile is the number of entries one scan block handles.
func scanTile(elem int) int {
	if elem == 4 {
		return scanThreads * 16
	}
	return scanThreads * 8
}

// rulerCap bounds the ruling set of a tour of m nodes (the hash picks about
// m/rulerEvery; the head is added).
func rulerCap(m int) int { return min(m, m/rulerEvery*2+1024) }

// Plan is the device memory of one run of impl on n vertices with
// elements of elem bytes.
func Plan(impl string, op treefix.Op, n, elem int) cuda.Plan {
	u := func(k int) uint64 { return uint64(max(k, 4)) }
	N := uint64(n)
	p := cuda.Plan{What: fmt.Sprintf("%s %s n=%d", impl, op, n), Buffers: []cuda.Buffer{
		{Name: "treefix.R", Bytes: u(4 * (n + 1))}, {Name: "treefix.C", Bytes: u(4 * n)},
		{Name: "treefix.parent", Bytes: u(4 * n)},
		{Name: "treefix.w", Bytes: u(elem * n)}, {Name: "treefix.out", Bytes: u(elem * n)},
	}}
	add := func(name string, b uint64) { p.Buffers = append(p.Buffers, cuda.Buffer{Name: name, Bytes: max(b, 4)}) }
	if impl == Parallel {
		add("treefix.Q", 4*N)
		add("treefix.loc", 4*N)
		add("treefix.cb", 4*(N/bfsThreads+2))
		add("treefix.lev", 4*(N+2))
		add("treefix.st", 64)
		return p
	}
	m := 2 * uint64(n)
	rc := uint64(rulerCap(2 * n))
	for _, b := range []string{"treefix.open", "treefix.close", "treefix.pos"} {
		add(b, 4*N)
	}
	for _, b := range []string{"treefix.succ", "treefix.owner", "treefix.off", "treefix.cidx"} {
		add(b, 4*m)
	}
	for _, b := range []string{"treefix.list", "treefix.rn0", "treefix.rn1", "treefix.rl0", "treefix.rl1"} {
		add(b, 4*rc)
	}
	tiles := (m + uint64(scanTile(elem)) - 1) / uint64(scanTile(elem))
	add("treefix.flags", 4*tiles+4)
	add("treefix.aggs", 16*tiles)
	add("treefix.incls", 16*tiles)
	if impl == VectorialCompensated && op == treefix.Leaffix {
		add("treefix.Ein", uint64(elem)*m)
		add("treefix.E", 8*m)
		add("treefix.E2", 8*m)
	} else {
		add("treefix.E", uint64(elem)*m)
	}
	return p
}

// check refuses a bad implementation name or mismatched lengths.
func check[T Element](impl string, t *treefix.Tree, w, out []T) error {
	if !slices.Contains(names, impl) {
		return fmt.Errorf("unknown treefix implementation %q (valid: %s)", impl, strings.Join(names, ", "))
	}
	if t == nil {
		return fmt.Errorf("%s: nil tree", impl)
	}
	n := t.N()
	if len(w) != n || len(out) != n {
		return fmt.Errorf("%s: %d weights and %d outputs for %d vertices", impl, len(w), len(out), n)
	}
	if n > math.MaxInt32/2-1 {
		return fmt.Errorf("%s: %d vertices exceed the tour's int32 positions", impl, n)
	}
	return nil
}

// run computes op of the weights w on tree t into out with the named CUDA
// implementation; opt.Rec receives the phases.
//
// The timing follows the paper (section IV: "total execution time"
// decoupled into "data transfer time" and "computation time", with the data
// transferred once and the algorithm then run on the device). The tree and
// the weights are uploaded first (phase h2d, outside total); the window of
// total (Recorder.BeginTotal .. EndTotal) then holds everything the solve
// does with its input on the device: the allocation of the work buffers
// (reused across runs, so a lookup after the first), the GPU build of the
// Euler tour (cuda/vectorial*, phase euler_tour: the paper builds the
// vector representation on the host and transfers it, outside its timing),
// every launch and the final synchronisation; the results are then
// downloaded (phase d2h, outside total). The paper's computation time is
// phase compute: the one cooperative BFS launch of cuda/parallel (a part of
// total's breakdown), and write + scan + read of the vectorial ones (a
// summary of those three phases, not counted twice).
func run[T Element](ctx context.Context, impl string, op treefix.Op, t *treefix.Tree, w, out []T, opt Options) error {
	if err := check(impl, t, w, out); err != nil {
		return err
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return fmt.Errorf("%s: %w", impl, err)
	}
	err = dev.Run(ctx, func(th *driver.Thread) error {
		r := &runner{th: th, dev: dev, s: dev.Stream(), rec: opt.Rec}
		return runOn(ctx, r, impl, op, t, w, out)
	})
	if err != nil {
		return fmt.Errorf("%s %s n=%d: %w", impl, op, t.N(), err)
	}
	return nil
}

// BuildVector builds the vector tree representation of t on the GPU and
// returns it (for checks against treefix.Tree.BuildVector); opt.Rec
// receives the phases h2d (the CSR lists and the parent array, outside
// total), euler_tour (CUDA events, inside total) and d2h (outside). The
// window of total holds the allocation of the tour's buffers, the tour's
// launches and its synchronisation.
func BuildVector(ctx context.Context, t *treefix.Tree, opt Options) (*treefix.Vector, error) {
	if t == nil {
		return nil, fmt.Errorf("cuda euler tour: nil tree")
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, fmt.Errorf("cuda euler tour: %w", err)
	}
	n := t.N()
	v := &treefix.Vector{Open: make([]int32, n), Close: make([]int32, n)}
	err = dev.Run(ctx, func(th *driver.Thread) error {
		r := &runner{th: th, dev: dev, s: dev.Stream(), rec: opt.Rec}
		plan := Plan(Vectorial, treefix.Rootfix, n, 4)
		if err := r.upload(plan, t, true, func() error { return nil }); err != nil {
			return err
		}
		r.rec.BeginTotal()
		if err := r.dev.Allocate(th, plan, &r.vec); err != nil {
			return err
		}
		if err := r.timed(treefix.PhaseEulerTour, func() error { return r.eulerTour(n, int(t.CSR.Root)) }); err != nil {
			return err
		}
		r.rec.EndTotal() // timed synchronised on its end event
		t0 := time.Now()
		if err := cuda.Download(th, dev, v.Open, r.vec.Open); err != nil {
			return err
		}
		if err := cuda.Download(th, dev, v.Close, r.vec.Close); err != nil {
			return err
		}
		r.rec.Add(treefix.PhaseD2H, time.Since(t0))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cuda euler tour n=%d: %w", n, err)
	}
	return v, nil
}

// inputNames are the buffers a run uploads into before its window
// (inputBuffers).
var inputNames = []string{"treefix.R", "treefix.C", "treefix.parent", "treefix.w"}

// inputBuffers are the buffers of InputPlan.
type inputBuffers struct {
	R      driver.DevicePtr `buf:"treefix.R"`
	C      driver.DevicePtr `buf:"treefix.C"`
	Parent driver.DevicePtr `buf:"treefix.parent"`
	W      driver.DevicePtr `buf:"treefix.w"`
}

// parallelBuffers are the buffers of cuda/parallel's Plan.
type parallelBuffers struct {
	inputBuffers
	Out driver.DevicePtr `buf:"treefix.out"`
	Q   driver.DevicePtr `buf:"treefix.Q"`
	Loc driver.DevicePtr `buf:"treefix.loc"`
	CB  driver.DevicePtr `buf:"treefix.cb"`
	Lev driver.DevicePtr `buf:"treefix.lev"`
	St  driver.DevicePtr `buf:"treefix.st"`
}

// vectorialBuffers are the buffers of the Plan of cuda/vectorial and
// cuda/vectorial-compensated; Ein and E2 are those of the compensated
// leaffix only.
type vectorialBuffers struct {
	inputBuffers
	Out   driver.DevicePtr `buf:"treefix.out"`
	Open  driver.DevicePtr `buf:"treefix.open"`
	Close driver.DevicePtr `buf:"treefix.close"`
	Pos   driver.DevicePtr `buf:"treefix.pos"`
	Succ  driver.DevicePtr `buf:"treefix.succ"`
	Owner driver.DevicePtr `buf:"treefix.owner"`
	Off   driver.DevicePtr `buf:"treefix.off"`
	CIdx  driver.DevicePtr `buf:"treefix.cidx"`
	List  driver.DevicePtr `buf:"treefix.list"`
	RN0   driver.DevicePtr `buf:"treefix.rn0"`
	RN1   driver.DevicePtr `buf:"treefix.rn1"`
	RL0   driver.DevicePtr `buf:"treefix.rl0"`
	RL1   driver.DevicePtr `buf:"treefix.rl1"`
	Flags driver.DevicePtr `buf:"treefix.flags"`
	Aggs  driver.DevicePtr `buf:"treefix.aggs"`
	Incls driver.DevicePtr `buf:"treefix.incls"`
	E     driver.DevicePtr `buf:"treefix.E"`
	Ein   driver.DevicePtr `buf:"treefix.Ein,optional"`
	E2    driver.DevicePtr `buf:"treefix.E2,optional"`
}

// InputPlan is the part of plan p that holds the run's input (the CSR
// lists, the parent array and the weights): allocated and uploaded before
// the window of total opens. The rest of p is allocated inside it.
func InputPlan(p cuda.Plan) cuda.Plan {
	in := cuda.Plan{What: p.What + " (input)"}
	for _, b := range p.Buffers {
		if slices.Contains(inputNames, b.Name) {
			in.Buffers = append(in.Buffers, b)
		}
	}
	return in
}

// runner carries one run's device state.
type runner struct {
	th  *driver.Thread
	dev *cuda.Device
	s   driver.Stream
	rec *bench.Recorder
	in  inputBuffers     // InputPlan's, allocated by upload
	par parallelBuffers  // Plan's of cuda/parallel
	vec vectorialBuffers // Plan's of cuda/vectorial*
}

func (r *runner) fn(name string) (driver.Function, error) { return r.dev.Function(r.th, module, name) }

// launch runs kernel name over a grid covering items threads.
func (r *runner) launch(name string, items int, args ...any) error {
	return r.launchGrid(name, max(1, min((items+255)/256, 1<<20)), 256, args...)
}

// launchGrid runs kernel name on blocks blocks of threads threads.
func (r *runner) launchGrid(name string, blocks, threads int, args ...any) error {
	f, err := r.fn(name)
	if err != nil {
		return err
	}
	if err := r.th.Launch(f, driver.D1(blocks), driver.D1(threads), 0, r.s, args...); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// timed runs f between two events and reports the GPU time as phase.
func (r *runner) timed(phase string, f func() error) error {
	if err := r.dev.StartTimer(r.th); err != nil {
		return err
	}
	if err := f(); err != nil {
		_, _ = r.dev.StopTimer(r.th)
		return err
	}
	d, err := r.dev.StopTimer(r.th)
	if err != nil {
		return err
	}
	r.rec.Add(phase, d)
	return nil
}

// upload allocates the input buffers of plan p (InputPlan) and copies the
// CSR lists (and the parent array when parent is set) to the device, then
// runs more (the weights' upload); phase h2d covers all of it.
func (r *runner) upload(p cuda.Plan, t *treefix.Tree, parent bool, more func() error) error {
	if err := r.dev.Allocate(r.th, InputPlan(p), &r.in); err != nil {
		return err
	}
	defer r.rec.Start(treefix.PhaseH2D)()
	c := t.CSR
	if err := cuda.Upload(r.th, r.dev, r.in.R, c.R); err != nil {
		return err
	}
	if len(c.C) > 0 {
		if err := cuda.Upload(r.th, r.dev, r.in.C, c.C); err != nil {
			return err
		}
	}
	if parent {
		if err := cuda.Upload(r.th, r.dev, r.in.Parent, t.Parent); err != nil {
			return err
		}
	}
	return more()
}

// eulerTour ranks the tour's linked list into treefix.open and
// treefix.close: link it (tf_pos, tf_succ), pick the rulers, walk their
// sublists, rank the rulers by pointer jumping, then every node.
func (r *runner) eulerTour(n, root int) error {
	b := &r.vec
	m := 2 * n
	if err := r.launch("tf_pos", n-1, b.C, n-1, b.Pos); err != nil {
		return err
	}
	if err := r.launch("tf_succ", n, b.R, b.C, b.Parent, b.Pos, n, b.Succ); err != nil {
		return err
	}
	count := b.Flags // the ruler count borrows the scan's counter word
	if err := r.th.MemsetD32Async(count, 0, 1, r.s); err != nil {
		return err
	}
	head := 2 * root
	if err := r.launch("tf_rulers", m, m, head, count, b.List, b.CIdx); err != nil {
		return err
	}
	cnt := make([]int32, 1)
	if err := driver.CopyFromDevice(r.th, cnt, count); err != nil {
		return err
	}
	k := int(cnt[0])
	if k < 1 || k > rulerCap(m) {
		return fmt.Errorf("euler tour: %d rulers for %d tour nodes (at most %d)", k, m, rulerCap(m))
	}
	nx, ln := [2]driver.DevicePtr{b.RN0, b.RN1}, [2]driver.DevicePtr{b.RL0, b.RL1}
	if err := r.launch("tf_walk", k, b.Succ, b.List, b.CIdx, count, head, b.Owner, b.Off, nx[0], ln[0]); err != nil {
		return err
	}
	cur := 0
	for range bits.Len(uint(k - 1)) {
		if err := r.launch("tf_jump", k, k, nx[cur], ln[cur], nx[cur^1], ln[cur^1]); err != nil {
			return err
		}
		cur ^= 1
	}
	return r.launch("tf_rank", m, m, b.Owner, b.Off, ln[cur], b.Open, b.Close)
}

func runOn[T Element](ctx context.Context, r *runner, impl string, op treefix.Op, t *treefix.Tree, w, out []T) error {
	sfx, elem := suffix[T]()
	n := t.N()
	plan := Plan(impl, op, n, elem)
	leaf := 0
	if op == treefix.Leaffix {
		leaf = 1
	}
	err := r.upload(plan, t, impl != Parallel || op == treefix.Leaffix, func() error {
		return cuda.Upload(r.th, r.dev, r.in.W, w)
	})
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r.rec.BeginTotal()
	// the input buffers are reused by name
	dst, outBuf := any(&r.vec), &r.vec.Out
	if impl == Parallel {
		dst, outBuf = &r.par, &r.par.Out
	}
	if err := r.dev.Allocate(r.th, plan, dst); err != nil {
		return err
	}
	if impl == Parallel {
		// timed synchronises on its end event
		if err := r.timed(treefix.PhaseCompute, func() error { return r.parallel(sfx, n, int(t.CSR.Root), leaf) }); err != nil {
			return err
		}
	} else {
		if err := r.timed(treefix.PhaseEulerTour, func() error { return r.eulerTour(n, int(t.CSR.Root)) }); err != nil {
			return err
		}
		// vectorial synchronises on its last event
		if err := r.vectorial(impl == VectorialCompensated, sfx, elem, n, leaf); err != nil {
			return err
		}
	}
	r.rec.EndTotal()
	t1 := time.Now()
	if err := cuda.Download(r.th, r.dev, out, *outBuf); err != nil {
		return err
	}
	r.rec.Add(treefix.PhaseD2H, time.Since(t1))
	return nil
}

// parallel launches the cooperative BFS kernel: one block per SM.
func (r *runner) parallel(sfx string, n, root, leaf int) error {
	b := &r.par
	f, err := r.fn("tf_bfs_" + sfx)
	if err != nil {
		return err
	}
	if err := r.th.MemsetD32Async(b.St, 0, 16, r.s); err != nil {
		return err
	}
	bar := b.St.Add(32)
	return r.th.LaunchCooperative(f, driver.D1(r.dev.Props.SMs), driver.D1(bfsThreads), 0, r.s,
		b.R, b.C, b.Parent, b.W, b.Out, b.Q, b.Loc, b.CB, b.Lev, b.St, bar, root, leaf)
}

// vectorial runs write, scan and read, each timed with events (phases of
// total's breakdown), their sum reported as the summary phase compute (the
// paper's computation time, not counted twice).
func (r *runner) vectorial(comp bool, sfx string, elem, n, leaf int) error {
	b := &r.vec
	th, s := r.th, r.s
	var ev [4]driver.Event
	for i := range ev {
		e, err := th.EventCreate(driver.EventDefault)
		if err != nil {
			return err
		}
		ev[i] = e
		defer th.EventDestroy(e)
	}
	m := 2 * n
	wide := comp && leaf == 1 && sfx != "i64"
	ein := b.E
	if wide {
		ein = b.Ein
	}
	if err := th.EventRecord(ev[0], s); err != nil {
		return err
	}
	if err := r.launch("tf_write_"+sfx, n, b.Open, b.Close, b.W, ein, n, leaf); err != nil {
		return err
	}
	if err := th.EventRecord(ev[1], s); err != nil {
		return err
	}
	tiles := (m + scanTile(elem) - 1) / scanTile(elem)
	var err error
	if sfx == "f32" && !comp {
		err = r.scanTwoPass(tiles, m, ev[2], leaf, n)
	} else {
		err = r.scanOnePass(comp, wide, sfx, tiles, m, ein, ev[2], leaf, n)
	}
	if err != nil {
		return err
	}
	if err := th.EventRecord(ev[3], s); err != nil {
		return err
	}
	if err := th.EventSynchronize(ev[3]); err != nil {
		return err
	}
	var total time.Duration
	for i, ph := range []string{treefix.PhaseWrite, treefix.PhaseScan, treefix.PhaseRead} {
		d, err := th.EventElapsed(ev[i], ev[i+1])
		if err != nil {
			return err
		}
		r.rec.Add(ph, d)
		total += d
	}
	r.rec.AddSummary(treefix.PhaseCompute, total)
	return nil
}

// scanTwoPass is vectorial's scan and read for cuda/vectorial's float32,
// the scan's end recorded at scanned: two passes in place on E (each
// tile's local prefixes, then the tiles' totals in Aggs made exclusive
// prefixes), and reads that add a tile's prefix to each entry they read.
func (r *runner) scanTwoPass(tiles, m int, scanned driver.Event, leaf, n int) error {
	b := &r.vec
	if err := r.launchGrid("tf_scan_local_f32", tiles, scanThreads, b.E, int64(m), b.Aggs); err != nil {
		return err
	}
	if err := r.launchGrid("tf_scan_tiles_f32", 1, tileThreads, b.Aggs, tiles); err != nil {
		return err
	}
	if err := r.th.EventRecord(scanned, r.s); err != nil {
		return err
	}
	if leaf == 0 {
		return r.launch("tf_read_root_tiled_f32", (n+3)/4, b.Open, b.E, b.Aggs, b.Out, n) // four vertices a thread
	}
	return r.launch("tf_read_leaf_tiled_f32", n, b.Open, b.Close, b.E, b.Aggs, b.W, b.Out, n)
}

// scanOnePass is vectorial's scan and read where the scan is the single
// pass with decoupled look-back (every carrier but cuda/vectorial's
// float32), the scan's end recorded at scanned: in place on E (a tile is
// loaded whole before it is stored), except the wide one: Ein to the hi
// and lo prefixes in E2 and E.
func (r *runner) scanOnePass(comp, wide bool, sfx string, tiles, m int, ein driver.DevicePtr, scanned driver.Event, leaf, n int) error {
	b := &r.vec
	th, s := r.th, r.s
	counter := b.Flags
	flags := counter.Add(4)
	if err := th.MemsetD32Async(counter, 0, int64(tiles+1), s); err != nil {
		return err
	}
	name := "tf_scan_" + sfx
	if comp && sfx != "i64" {
		name = "tf_scan_dd_" + sfx
		if wide {
			name = "tf_scan_ddw_" + sfx
		}
	}
	f, err := r.fn(name)
	if err != nil {
		return err
	}
	args := []any{b.E, int64(m), b.E}
	if wide {
		args = []any{ein, int64(m), b.E2, b.E}
	}
	args = append(args, counter, flags, b.Aggs, b.Incls)
	if err := th.Launch(f, driver.D1(tiles), driver.D1(scanThreads), 0, s, args...); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := th.EventRecord(scanned, s); err != nil {
		return err
	}
	switch {
	case leaf == 0:
		return r.launch("tf_read_root_"+sfx, (n+3)/4, b.Open, b.E, b.Out, n) // four vertices a thread
	case wide:
		return r.launch("tf_read_leaf_dd_"+sfx, n, b.Open, b.Close, b.E2, b.E, b.W, b.Out, n)
	default:
		return r.launch("tf_read_leaf_"+sfx, n, b.Open, b.Close, b.E, b.W, b.Out, n)
	}
}
