package cudaapsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
)

// module is the kernel source (kernels/apsp.cu).
const module = "apsp"

// Block is cuda/fast's block order: the pivot blocks are Block×Block and
// the matrix is padded to a multiple of Block with isolated vertices.
const Block = 128

// Options tune a run.
type Options struct {
	// Device is the CUDA device ordinal (0 for the first).
	Device int
	// Rec, when not nil, receives the phases apsp.PhaseH2D, apsp.PhaseClosure
	// and apsp.PhaseD2H, and the window of the headline total (BeginTotal after the
	// matrix is on the device, EndTotal when its closure is there, before
	// the download).
	Rec *bench.Recorder
}

// Stats are the measured phases of a cuda/fast run.
type Stats struct {
	H2D, Closure, D2H time.Duration
	// KernelPath is how kernels/apsp.cu was loaded (cuda.PathNVRTC or
	// cuda.PathFallbackPTX).
	KernelPath string
	// NonNeg says that the products took the non-negative path of min-plus
	// float32 (sr::MinPlusNonNeg: two updates in two FADDs and one 3-way
	// minimum), taken when no input value has its sign bit set or is a NaN
	// and the build has that minimum in one instruction (Hopper).
	NonNeg bool
}

// Updates returns n³, the number of semiring updates c := c ⊕ a⊗b of the
// closure of order n, for rates in updates per second.
func Updates(n int) float64 { return float64(n) * float64(n) * float64(n) }

// kind is a semiring and element type that the kernels instantiate.
type kind struct {
	name  string // kernel suffix, e.g. "minplus32"
	bytes int    // element size on the device
}

var (
	kMinPlus32 = kind{"minplus32", 4}
	// kMinPlus32NN is min-plus float32 on values without a sign bit
	// (kernels/apsp.cu's minplus32nn: the products alone).
	kMinPlus32NN = kind{"minplus32nn", 4}
	kBool32      = kind{"bool32", 4}
	kReal64      = kind{"real64", 8}
	kMinPlus64   = kind{"minplus64", 8}
)

// fastKind returns the kernels of cuda/fast for semiring s on T.
func fastKind[T any, S semiring.Semiring[T]](s S) (kind, error) {
	switch any(s).(type) {
	case semiring.MinPlus[float32]:
		return kMinPlus32, nil
	case semiring.Boolean:
		return kBool32, nil
	case semiring.Real[float64]:
		return kReal64, nil
	}
	var z T
	return kind{}, fmt.Errorf("cuda/fast: semiring %s on %T: %w on the GPU (min-plus float32, boolean, real float64)", s.Name(), z, errors.ErrUnsupported)
}

// padded returns n rounded up to a multiple of Block.
func padded(n int) int { return (n + Block - 1) / Block * Block }

// FastPlan is the device memory of cuda/fast for order n and elements of
// elemBytes bytes: the work matrix padded to a multiple of Block (np²), the
// input as given when it is not padded already (n²), the column and row
// panels (np×Block each), the closed pivot block and a flag.
func FastPlan(n, elemBytes int) cuda.Plan {
	np := uint64(padded(n))
	e := uint64(elemBytes)
	p := cuda.Plan{What: fmt.Sprintf("cuda/fast n=%d", n), Buffers: []cuda.Buffer{
		{Name: "apsp.p", Bytes: e * np * np},
	}}
	if int(np) != n {
		p.Buffers = append(p.Buffers, cuda.Buffer{Name: "apsp.x", Bytes: e * uint64(n) * uint64(n)})
	}
	p.Buffers = append(p.Buffers,
		cuda.Buffer{Name: "apsp.pc", Bytes: e * np * Block},
		cuda.Buffer{Name: "apsp.pr", Bytes: e * np * Block},
		cuda.Buffer{Name: "apsp.d", Bytes: e * Block * Block},
		cuda.Buffer{Name: "apsp.flag", Bytes: 16},
	)
	return p
}

// checkMatrix refuses a nil or malformed matrix.
func checkMatrix[T any](impl string, c *apsp.Matrix[T]) error {
	if c == nil {
		return fmt.Errorf("%s: nil matrix", impl)
	}
	if c.N < 0 || len(c.Data) != c.N*c.N {
		return fmt.Errorf("%s: matrix of order %d holds %d elements, want %d", impl, c.N, len(c.Data), c.N*c.N)
	}
	if padded(c.N)/64 > 65535 {
		return fmt.Errorf("%s: order %d exceeds the grid's limit", impl, c.N)
	}
	return nil
}

// Fast is cuda/fast: it replaces c by its closure c* on the GPU, by
// Gauß-Jordan elimination over Block×Block blocks (Remark 2.2), the
// algorithm of cpu/fast: for each diagonal block K in turn
//
//	D    := C_KK*                  (one thread block, in shared memory)
//	P_c  := C_:K ⊗ D, P_r := D ⊗ C_K:  (the panels, one launch of products)
//	C_ij := C_ij ⊕ (P_c)_iK ⊗ C_Kj  for i, j ∉ K  (register-tiled, the bulk)
//	C_iK := (P_c)_iK, C_Kj := (P_r)_Kj for i, j ∉ K; C_KK := D
//
// four launches per block, all on one stream; for the 4-byte kinds from
// order fuseMin on the bulk update of step K also closes block K+1 (the block that updates that
// tile, scheduled first, closes it while the others go on), so after the
// first step the pivot block takes no launch of its own. The bulk update
// reads each C tile into shared memory while its product runs. Min-plus
// float32 input with no value below +0 (no sign bit set, no NaN: tested on
// the device after the upload, inside total) takes, where the build has
// Hopper's 3-way minimum in one instruction, the products of the
// non-negative path, two updates in two FADDs and one minimum instead of
// four instructions, with the same result bit for bit (Stats.NonNeg).
// Semirings: min-plus float32
// (+Inf no arc, -Inf where a negative cycle reaches, exactly as cpu/sgje
// defines them), Boolean, and the real semiring in float64 (its bulk
// update uses fused multiply-adds). The diagonal block is closed with
// cpu/fast's very operations; the result equals cpu/sgje exactly for
// Boolean and for min-plus on integer weights (every sum exact) and is
// within apsp.FloatBound of it for other float weights.
//
// The instance is checked against the device's free memory first
// (FastPlan); an undefined star (real semiring, a pivot equal to 1 after
// elimination) gives an error wrapping apsp.ErrStar and semiring.ErrNoStar
// that names the pivot, and c is then left as it was. Without CUDA the
// error matches driver.ErrUnavailable.
//
// Timing (opt.Rec): the matrix goes to the device first (h2d, outside
// total); total then covers the whole solve with the data on the device,
// padding, the closure (its GPU time is the phase closure), the check of
// the pivots' flag (a small download the solve needs) and the unpadding,
// up to the closure complete in device memory; the download of the closure
// (d2h) is outside total. The Rote paper gives no times, so the window is
// the protocol's: input and output in device memory. The device buffers
// are held between solves (cuda.Device.Buffer), so after the first solve
// taking them before the upload is a lookup.
func Fast[T any, S semiring.Semiring[T]](ctx context.Context, s S, c *apsp.Matrix[T], opt Options) (Stats, error) {
	var st Stats
	if err := checkMatrix("cuda/fast", c); err != nil {
		return st, err
	}
	k, err := fastKind[T](s)
	if err != nil {
		return st, err
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return st, fmt.Errorf("cuda/fast: %w", err)
	}
	n := c.N
	if n == 0 {
		return st, nil
	}
	err = dev.Run(ctx, func(t *driver.Thread) error {
		return runFast(ctx, t, dev, k, c, opt, &st)
	})
	if err != nil {
		return st, fmt.Errorf("cuda/fast n=%d: %w", n, err)
	}
	return st, nil
}

// fastFns are the kernels of one semiring.
type fastFns struct {
	pad, unpad, diag, panels, mmacc, writeback driver.Function
}

func loadFast(t *driver.Thread, dev *cuda.Device, k kind) (fastFns, error) {
	var f fastFns
	var err error
	for _, x := range []struct {
		fn   *driver.Function
		name string
	}{{&f.pad, "apsp_pad_"}, {&f.unpad, "apsp_unpad_"}, {&f.diag, "apsp_diag_"}, {&f.panels, "apsp_panels_"}, {&f.mmacc, "apsp_mmacc_"}, {&f.writeback, "apsp_writeback_"}} {
		if *x.fn, err = dev.Function(t, module, x.name+k.name); err != nil {
			return f, err
		}
	}
	// The pivot block lives in dynamic shared memory, beyond the default
	// 48 KiB for 4-byte elements.
	if err := t.FuncSetAttribute(f.diag, driver.FuncMaxDynamicSharedSize, diagShared(k)); err != nil {
		return f, fmt.Errorf("apsp_diag_%s: shared memory of %d bytes: %w", k.name, diagShared(k), err)
	}
	if err := t.FuncSetAttribute(f.mmacc, driver.FuncMaxDynamicSharedSize, restShared(k)); err != nil {
		return f, fmt.Errorf("apsp_mmacc_%s: shared memory of %d bytes: %w", k.name, restShared(k), err)
	}
	return f, nil
}

// loadNonNeg replaces the products of f, min-plus float32's, by those of
// the non-negative path.
func loadNonNeg(t *driver.Thread, dev *cuda.Device, f *fastFns) error {
	var err error
	if f.panels, err = dev.Function(t, module, "apsp_panels_"+kMinPlus32NN.name); err != nil {
		return err
	}
	if f.mmacc, err = dev.Function(t, module, "apsp_mmacc_"+kMinPlus32NN.name); err != nil {
		return err
	}
	if err := t.FuncSetAttribute(f.mmacc, driver.FuncMaxDynamicSharedSize, restShared(kMinPlus32NN)); err != nil {
		return fmt.Errorf("apsp_mmacc_%s: shared memory of %d bytes: %w", kMinPlus32NN.name, restShared(kMinPlus32NN), err)
	}
	return nil
}

// nonNegative launches the test of the non-negative path on the np² values
// at p (kernels/apsp.cu's apsp_signs_f32) and waits for its answer in
// flag[1] and flag[2], which must hold MaxInt32 before: true when no value
// has its sign bit set or is a NaN and the build has the 3-way minimum in
// one instruction.
func nonNegative(t *driver.Thread, dev *cuda.Device, p driver.DevicePtr, np int, flag driver.DevicePtr) (bool, error) {
	fn, err := dev.Function(t, module, "apsp_signs_f32")
	if err != nil {
		return false, err
	}
	s := dev.Stream()
	if err := t.Launch(fn, driver.D1(dev.Props.SMs*4), driver.D1(256), 0, s, p, int64(np)*int64(np)/4, flag); err != nil {
		return false, fmt.Errorf("signs: %w", err)
	}
	f := make([]int32, 4)
	if err := cuda.Download(t, dev, f, flag); err != nil {
		return false, err
	}
	return f[1] != 0 && f[2] == 1, nil
}

// allowNonNeg lets min-plus float32 take the non-negative path; tests and
// benchmarks turn it off to measure the other path on the same input.
var allowNonNeg = true

// fusesDiag says whether the bulk update of a kind also closes the next
// pivot block (kernels/apsp.cu's rest: the 4-byte kinds, whose 128x128
// pivot block fits beside the update's own shared memory).
func fusesDiag(k kind) bool { return k.bytes == 4 }

// fuseMin is the least padded order at which the bulk update closes the
// next pivot block. The block of 256 threads that does it takes about
// twice as long as the pivot block's own launch of 1024 (measured on the
// H100: 0.42 against 0.19 ms), which an update of 4096 (0.21 ms a launch)
// waits for and one of 8192 (0.76 ms) hides. A variable so that the tests
// take the fused path at small orders too.
var fuseMin = 8192

// restShared is the dynamic shared memory of the bulk update: the C tile
// read ahead of the product, or the pivot block when it closes one.
func restShared(k kind) int {
	t := mmTile(k)
	b := t * t * k.bytes
	if fusesDiag(k) {
		b = max(b, diagShared(k))
	}
	return b
}

// diagShared is the shared memory of the pivot-block kernel: Block rows of
// Block+1 elements, and a column and a row set aside.
func diagShared(k kind) int { return (Block*(Block+1) + 2*Block) * k.bytes }

// mmTile is the tile order of the product kernel of a kind.
func mmTile(k kind) int {
	if k.bytes == 8 {
		return 64
	}
	return 128
}

func runFast[T any](ctx context.Context, t *driver.Thread, dev *cuda.Device, k kind, c *apsp.Matrix[T], opt Options, st *Stats) error {
	n, np := c.N, padded(c.N)
	if err := dev.Check(t, FastPlan(n, k.bytes)); err != nil {
		return err
	}
	fn, err := loadFast(t, dev, k)
	if err != nil {
		return err
	}
	st.KernelPath = dev.KernelPath(module)
	e := uint64(k.bytes)
	p, err := dev.Buffer(t, "apsp.p", e*uint64(np)*uint64(np))
	if err != nil {
		return err
	}
	x := p
	if np != n {
		if x, err = dev.Buffer(t, "apsp.x", e*uint64(n)*uint64(n)); err != nil {
			return err
		}
	}
	pc, err := dev.Buffer(t, "apsp.pc", e*uint64(np)*Block)
	if err != nil {
		return err
	}
	pr, err := dev.Buffer(t, "apsp.pr", e*uint64(np)*Block)
	if err != nil {
		return err
	}
	d, err := dev.Buffer(t, "apsp.d", e*Block*Block)
	if err != nil {
		return err
	}
	flag, err := dev.Buffer(t, "apsp.flag", 16)
	if err != nil {
		return err
	}
	s := dev.Stream()

	// h2d (Upload returns when the data is on the device)
	t0 := time.Now()
	if err := uploadElems(t, dev, x, c.Data); err != nil {
		return err
	}
	st.H2D = time.Since(t0)
	opt.Rec.Add(apsp.PhaseH2D, st.H2D)

	opt.Rec.BeginTotal()
	if err := t.MemsetD32Async(flag, math.MaxInt32, 4, s); err != nil {
		return err
	}
	if np != n {
		gy := min((np+7)/8, 65535)
		if err := t.Launch(fn.pad, driver.D2((np+31)/32, gy), driver.D2(32, 8), 0, s, x, n, p, np); err != nil {
			return fmt.Errorf("pad: %w", err)
		}
	}

	// Min-plus float32 on values without a sign bit takes the products of
	// the non-negative path where the build has them in one instruction.
	if k == kMinPlus32 && allowNonNeg {
		if st.NonNeg, err = nonNegative(t, dev, p, np, flag); err != nil {
			return err
		}
		if st.NonNeg {
			if err := loadNonNeg(t, dev, &fn); err != nil {
				return err
			}
		}
	}

	// closure
	if err := dev.StartTimer(t); err != nil {
		return err
	}
	tile := mmTile(k)
	row := e * uint64(np) // bytes per row of P
	tr, err := newTracer(t, s)
	if err != nil {
		return err
	}
	defer tr.close(t)
	for k0 := 0; k0 < np; k0 += Block {
		if k0%(16*Block) == 0 {
			if err := ctx.Err(); err != nil {
				_, _ = dev.StopTimer(t)
				return err
			}
		}
		colK := p.Add(int64(uint64(k0) * e))
		rowK := p.Add(int64(uint64(k0) * row))
		// The pivot block: by its own launch at the first step (and for
		// every step of a kind whose update does not close the next one),
		// else already closed by the previous step's update.
		fuse := fusesDiag(k) && np >= fuseMin
		if k0 == 0 || !fuse {
			if err := t.Launch(fn.diag, driver.D1(1), driver.D1(1024), diagShared(k), s, p, np, k0, d, flag); err != nil {
				return fmt.Errorf("pivot block %d: %w", k0/Block, err)
			}
			if err := tr.mark(t, s, "pivot block"); err != nil {
				return err
			}
		}
		next := -1 // the pivot block the update closes, in blocks
		if fuse && k0+Block < np {
			next = k0/Block + 1
		}
		// P_c := C_:K ⊗ D and P_r := D ⊗ C_K:, in one launch.
		if err := t.Launch(fn.panels, driver.D2(np*Block/(tile*tile), 2), driver.D1(256), 0, s,
			colK, rowK, int64(np), d, pc, pr); err != nil {
			return fmt.Errorf("panels %d: %w", k0/Block, err)
		}
		if err := tr.mark(t, s, "panels"); err != nil {
			return err
		}
		// C_ij ⊕= (P_c)_iK ⊗ C_Kj for i, j outside K.
		if np > Block {
			if err := t.Launch(fn.mmacc, driver.D2(np/tile, np/tile), driver.D1(256), restShared(k), s,
				pc, int64(Block), rowK, int64(np), p, int64(np), Block, k0, Block, next, d, flag); err != nil {
				return fmt.Errorf("update %d: %w", k0/Block, err)
			}
		}
		if err := tr.mark(t, s, "update (and the next pivot block)"); err != nil {
			return err
		}
		if err := t.Launch(fn.writeback, driver.D1((np*Block+255)/256), driver.D1(256), 0, s, p, np, k0, pc, pr); err != nil {
			return fmt.Errorf("write-back %d: %w", k0/Block, err)
		}
		if err := tr.mark(t, s, "write-back"); err != nil {
			return err
		}
	}
	if st.Closure, err = dev.StopTimer(t); err != nil {
		return err
	}
	opt.Rec.Add(apsp.PhaseClosure, st.Closure)
	bad := make([]int32, 4)
	if err := cuda.Download(t, dev, bad, flag); err != nil {
		return err
	}
	if bad[0] != math.MaxInt32 {
		_, serr := semiring.Real[float64]{}.Star(1)
		return fmt.Errorf("pivot (%d,%d): %w: %w", bad[0]+1, bad[0]+1, apsp.ErrStar, serr)
	}

	if np != n {
		gy := min((n+7)/8, 65535)
		if err := t.Launch(fn.unpad, driver.D2((n+31)/32, gy), driver.D2(32, 8), 0, s, p, np, x, n); err != nil {
			return fmt.Errorf("unpad: %w", err)
		}
	}
	if err := t.StreamSynchronize(s); err != nil {
		return err
	}
	opt.Rec.EndTotal() // the closure is complete in device memory

	// d2h
	t1 := time.Now()
	if err := downloadElems(t, dev, c.Data, x); err != nil {
		return err
	}
	st.D2H = time.Since(t1)
	opt.Rec.Add(apsp.PhaseD2H, st.D2H)
	return nil
}

// Inverse replaces a by A⁻¹ on the GPU, as the real closure of I - A:
// (I - (I - A))⁻¹ = A⁻¹, by Fast in float64 (Gauß-Jordan elimination
// without pivoting, so meant for well-conditioned matrices, e.g. diagonally
// dominant ones). A pivot that vanishes gives an error wrapping
// apsp.ErrStar.
func Inverse(ctx context.Context, a *apsp.Matrix[float64], opt Options) (Stats, error) {
	if err := checkMatrix("cuda/fast inverse", a); err != nil {
		return Stats{}, err
	}
	n := a.N
	m := a.Clone()
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := -a.Data[i*n+j]
			if i == j {
				v = 1 - a.Data[i*n+j]
			}
			m.Data[i*n+j] = v
		}
	}
	st, err := Fast(ctx, semiring.Real[float64]{}, m, opt)
	if err != nil {
		return st, err
	}
	copy(a.Data, m.Data)
	return st, nil
}

// traceFast, when set (by tests), receives the GPU time of each kind of
// launch of a cuda/fast run, summed over the blocks; the launches are then
// timed one by one (with a wait after each), so the run is slower.
var traceFast func(what string, d time.Duration)

// tracer times consecutive launches with events when traceFast is set.
type tracer struct {
	on   bool
	ev   [2]driver.Event
	last int
	sums map[string]time.Duration
	keys []string
}

func newTracer(t *driver.Thread, s driver.Stream) (*tracer, error) {
	tr := &tracer{on: traceFast != nil, sums: map[string]time.Duration{}}
	if !tr.on {
		return tr, nil
	}
	for i := range tr.ev {
		var err error
		if tr.ev[i], err = t.EventCreate(driver.EventDefault); err != nil {
			return nil, err
		}
	}
	return tr, t.EventRecord(tr.ev[0], s)
}

// mark ends the interval that began at the previous mark (or at
// newTracer) and attributes it to what.
func (tr *tracer) mark(t *driver.Thread, s driver.Stream, what string) error {
	if !tr.on {
		return nil
	}
	cur := tr.ev[tr.last^1]
	if err := t.EventRecord(cur, s); err != nil {
		return err
	}
	if err := t.EventSynchronize(cur); err != nil {
		return err
	}
	if !slices.Contains(tr.keys, what) {
		tr.keys = append(tr.keys, what)
	}
	d, err := t.EventElapsed(tr.ev[tr.last], cur)
	if err != nil {
		return err
	}
	tr.sums[what] += d
	tr.last ^= 1
	return nil
}

func (tr *tracer) close(t *driver.Thread) {
	if !tr.on {
		return
	}
	for _, k := range tr.keys {
		traceFast(k, tr.sums[k])
	}
	for _, e := range tr.ev {
		_ = t.EventDestroy(e)
	}
}
