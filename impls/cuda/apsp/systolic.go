package cudaapsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// sysKind returns the kernels of cuda/systolic for semiring s on T.
func sysKind[T any, S semiring.Semiring[T]](s S) (kind, error) {
	switch any(s).(type) {
	case semiring.Real[float64]:
		return kReal64, nil
	case semiring.MinPlus[float64]:
		return kMinPlus64, nil
	case semiring.Boolean:
		return kBool32, nil
	}
	var z T
	return kind{}, fmt.Errorf("cuda/systolic: semiring %s on %T: %w on the GPU (real float64, min-plus float64, boolean)", s.Name(), z, errors.ErrUnsupported)
}

// regBytes is the size of the device's Reg<T>: value, id and flag.
func regBytes(k kind) uint64 {
	if k.bytes == 8 {
		return 16
	}
	return 12
}

// SystolicPlan is the device memory of cuda/systolic for matrices of order
// n, a stream of m of them, elements of elemBytes bytes and steps steps:
// two register sets (three registers per processor), the inputs, the
// outputs with their steps, the active counts per step and counters.
func SystolicPlan(n, m, elemBytes, steps int) cuda.Plan {
	k := kind{bytes: elemBytes}
	procs := uint64(n+1) * uint64(n+1)
	el := uint64(m) * uint64(n) * uint64(n)
	e := uint64(elemBytes)
	return cuda.Plan{What: fmt.Sprintf("cuda/systolic n=%d, %d matrices", n, m), Buffers: []cuda.Buffer{
		{Name: "sys.regs", Bytes: 2 * 3 * procs * regBytes(k)},
		{Name: "sys.mats", Bytes: e * max(el, 1)},
		{Name: "sys.in", Bytes: 4 * uint64(max(m, 1))},
		{Name: "sys.out", Bytes: 4 * max(el, 1)},
		{Name: "sys.result", Bytes: e * max(el, 1)},
		{Name: "sys.active", Bytes: 4 * uint64(steps+2)},
		{Name: "sys.counters", Bytes: 48},
	}}
}

// systolicBuffers are cuda/systolic's device buffers (SystolicPlan).
type systolicBuffers struct {
	Regs     driver.DevicePtr `buf:"sys.regs"`
	Mats     driver.DevicePtr `buf:"sys.mats"`
	In       driver.DevicePtr `buf:"sys.in"`
	Out      driver.DevicePtr `buf:"sys.out"`
	Result   driver.DevicePtr `buf:"sys.result"`
	Active   driver.DevicePtr `buf:"sys.active"`
	Counters driver.DevicePtr `buf:"sys.counters"`
}

// conflictText names the device's conflict codes as systolic.Simulate
// words them.
var conflictText = map[uint64]string{
	1:  "two data for one upward register",
	2:  "a and b meet without a c of the matching flag",
	3:  "b arrives at the bottom-left edge without a diagonal element a",
	4:  "a datum leaves the array down-left",
	5:  "c reflected at the top-left edge without a diagonal element b",
	6:  "two data for one down-right register",
	7:  "two data for one down-left register",
	8:  "a datum leaves the array down-right",
	9:  "an element reaches the top corner with flag 1",
	10: "unexpected data at the left corner",
	11: "two inputs for one line",
}

// Systolic is cuda/systolic: the array GJE0 for n×n matrices simulated on
// the GPU with package systolic's geometry and rules, one thread per
// processor P(p, q) and one kernel launch per step (each thread reads its
// neighbours' registers of the previous step and writes its own, so a
// launch boundary is the step's clock edge). The matrices mats (row-major,
// mats[m][i*n+j] the weight of the arc i+1 -> j+1) enter on cfg.Tracks
// tracks as in systolic.Simulate; the result has the same outputs, output
// steps, active processors per step, operation counts and conflicts
// (Snapshot pictures are not drawn: the CPU simulator draws them).
// Semirings: real and min-plus in float64, Boolean. Only GJE0 is
// simulated. An undefined star stops it with an error wrapping
// semiring.ErrNoStar that names the matrix, the pivot and the step.
// Without CUDA the error matches driver.ErrUnavailable.
//
// Timing (opt.Rec): the matrices and the entry steps go to the device
// first (h2d, outside total); total covers the simulation with its data on
// the device: clearing the registers, every step's launch and the periodic
// reads of the counters that decide the end (phase steps, host clock, also
// Run.Elapsed), up to the last output in device memory; the outputs, their
// steps and the active counts come back after it (d2h, outside total).
func Systolic[T any, S semiring.Semiring[T]](ctx context.Context, s S, n int, mats [][]T, cfg systolic.Config, opt Options) (*systolic.Run[T], error) {
	if n < 1 {
		return nil, fmt.Errorf("cuda/systolic: matrix order %d, want at least 1", n)
	}
	if cfg.Design != systolic.GJE0 {
		return nil, fmt.Errorf("cuda/systolic: design %v is not simulated on the GPU (GJE0 only)", cfg.Design)
	}
	if cfg.Tracks < 1 || cfg.Tracks > 3 {
		return nil, fmt.Errorf("cuda/systolic: %d tracks, want 1 to 3", cfg.Tracks)
	}
	if len(mats) == 0 {
		return nil, fmt.Errorf("cuda/systolic: no matrices")
	}
	for m, x := range mats {
		if len(x) != n*n {
			return nil, fmt.Errorf("cuda/systolic: matrix %d has %d elements, want %d", m, len(x), n*n)
		}
	}
	if uint64(len(mats))*uint64(n)*uint64(n) >= 1<<31 || (n+1)*(n+1) >= 1<<27 {
		return nil, fmt.Errorf("cuda/systolic: %d matrices of order %d are too many elements", len(mats), n)
	}
	k, err := sysKind[T](s)
	if err != nil {
		return nil, err
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, fmt.Errorf("cuda/systolic: %w", err)
	}
	var r *systolic.Run[T]
	err = dev.Run(ctx, func(t *driver.Thread) error {
		var err error
		r, err = runSystolic(ctx, t, dev, k, n, mats, cfg, opt.Rec)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cuda/systolic n=%d: %w", n, err)
	}
	return r, nil
}

func runSystolic[T any](ctx context.Context, t *driver.Thread, dev *cuda.Device, k kind, n int, mats [][]T, cfg systolic.Config, rec *bench.Recorder) (*systolic.Run[T], error) {
	nm, nn := len(mats), n*n
	s := n + 1
	P := s * s
	period := cfg.Design.Period(n)
	in := make([]int32, nm)
	last := 0
	for m := range in {
		in[m] = int32(m%cfg.Tracks + (m/cfg.Tracks)*period)
		last = max(last, int(in[m])+systolic.EntryStep(n, n)+1)
	}
	// systolic.Simulate gives up after this step; so does the GPU.
	bound := last + 8*n + 8
	plan := SystolicPlan(n, nm, k.bytes, bound)
	var bufs systolicBuffers
	if err := dev.Allocate(t, plan, &bufs); err != nil {
		return nil, err
	}
	step, err := dev.Function(t, module, "apsp_sys_step_"+k.name)
	if err != nil {
		return nil, err
	}
	clear, err := dev.Function(t, module, "apsp_sys_clear_"+k.name)
	if err != nil {
		return nil, err
	}
	str := dev.Stream()

	// Inputs, as the device's element type.
	stop := rec.Start(apsp.PhaseH2D)
	flat := make([]T, 0, nm*nn)
	for _, x := range mats {
		flat = append(flat, x...)
	}
	if err := uploadElems(t, dev, bufs.Mats, flat); err != nil {
		return nil, err
	}
	if err := cuda.Upload(t, dev, bufs.In, in); err != nil {
		return nil, err
	}
	counters := bufs.Counters
	if err := cuda.Upload(t, dev, counters, []int32{int32(nm * nn), 0, 0, 0, 0, 0, 0, 0}); err != nil {
		return nil, err
	}
	stop()

	rec.BeginTotal()
	regs := bufs.Regs
	half := regs.Add(int64(3 * uint64(P) * regBytes(k)))
	if err := t.Launch(clear, driver.D1((6*P+255)/256), driver.D1(256), 0, str, regs, 6*P); err != nil {
		return nil, fmt.Errorf("clearing the registers: %w", err)
	}
	if err := t.MemsetD32Async(bufs.Active, 0, int64(bound+2), str); err != nil {
		return nil, err
	}
	keys := counters.Add(32)
	if err := t.MemsetD32Async(keys, math.MaxUint32, 4, str); err != nil {
		return nil, err
	}
	if err := t.StreamSynchronize(str); err != nil {
		return nil, err
	}

	// The steps, checking for the end every 64 steps and at the step the
	// paper's formula gives for the last output.
	start := time.Now()
	expected := int(in[nm-1]) + 7*n - 2
	cur, next := regs, half
	ctr := make([]int32, 8)
	kv := make([]uint64, 2)
	blocks := (P + 127) / 128
	tt := 0
	for {
		tt++
		if tt > bound {
			return nil, fmt.Errorf("%d elements never left the array (step %d)", ctr[0], tt)
		}
		if err := t.Launch(step, driver.D1(blocks), driver.D1(128), 0, str, cur, next, bufs.Mats, bufs.In,
			bufs.Out, bufs.Result, bufs.Active, counters, keys, n, nm, tt); err != nil {
			return nil, fmt.Errorf("step %d: %w", tt, err)
		}
		cur, next = next, cur
		if tt%64 != 0 && tt != expected && tt != bound {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := cuda.Download(t, dev, ctr, counters); err != nil {
			return nil, err
		}
		if err := cuda.Download(t, dev, kv, keys); err != nil {
			return nil, err
		}
		if kv[1] != math.MaxUint64 {
			st, id := int(kv[1]>>32), int(kv[1]&0xffffffff)
			m, e := id/nn, id%nn
			_, serr := semiring.Real[float64]{}.Star(1)
			return nil, fmt.Errorf("matrix %d, pivot (%d,%d), step %d: %w", m, e/n+1, e%n+1, st, serr)
		}
		if ctr[0] == 0 {
			break
		}
	}
	elapsed := time.Since(start)
	rec.Add(apsp.PhaseSteps, elapsed)
	rec.EndTotal() // the counters' download waited for the last step

	stop = rec.Start(apsp.PhaseD2H)
	defer stop()

	r := &systolic.Run[T]{N: n, Matrices: nm, Design: cfg.Design, Tracks: cfg.Tracks, Processors: P,
		Window: cfg.Window, In: make([]int, nm), Out: make([][]int, nm), Result: make([][]T, nm), Elapsed: elapsed}
	outStep := make([]int32, nm*nn)
	if err := cuda.Download(t, dev, outStep, bufs.Out); err != nil {
		return nil, err
	}
	res := make([]T, nm*nn)
	if err := downloadElems(t, dev, res, bufs.Result); err != nil {
		return nil, err
	}
	for m := range nm {
		r.In[m] = int(in[m])
		r.Out[m] = make([]int, nn)
		for e := range nn {
			r.Out[m][e] = int(outStep[m*nn+e])
			r.Steps = max(r.Steps, r.Out[m][e])
		}
		r.Result[m] = res[m*nn : (m+1)*nn : (m+1)*nn]
	}
	active := make([]int32, bound+2)
	if err := cuda.Download(t, dev, active, bufs.Active); err != nil {
		return nil, err
	}
	r.Active = make([]int, r.Steps+1)
	for i := range r.Active {
		a := int(active[i])
		r.Active[i] = a
		r.Ops += int64(a)
		if i >= cfg.Window[0] && i < cfg.Window[0]+cfg.Window[1] {
			r.WindowOps += int64(a)
		}
	}
	r.Conflicts = int(ctr[1])
	if r.Conflicts > 0 {
		key := kv[0]
		st, proc, code := int(key>>32), int(key>>4&0xfffffff), key&15
		arr, err := systolic.NewArray(n)
		if err != nil {
			return nil, err
		}
		p, q := proc/s, proc%s
		r.FirstConflict = fmt.Sprintf("step %d, P(%d,%d) %v: %s", st, p, q, arr.Kind(p, q), conflictText[code])
	}
	return r, nil
}

// words keeps the 32-bit words through which Boolean matrices move, so
// that a solve converts into memory that is already mapped. The slices
// never leave this package's transfers (they are scratch: copied from or
// into the caller's bools within one call), so handing them back at once
// is safe.
var words cuda.Recycler[uint32]

// uploadElems copies elements to the device as the kernels store them:
// bool as 32-bit words, others as they are.
func uploadElems[T any](t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, xs []T) error {
	if b, ok := any(xs).([]bool); ok {
		w := words.Take(len(b)).Wait()
		defer words.Give(w)
		for i, v := range b {
			w[i] = 0
			if v {
				w[i] = 1
			}
		}
		return cuda.Upload(t, dev, dst, w)
	}
	return cuda.Upload(t, dev, dst, xs)
}

// downloadElems is uploadElems' inverse.
func downloadElems[T any](t *driver.Thread, dev *cuda.Device, xs []T, src driver.DevicePtr) error {
	if b, ok := any(xs).([]bool); ok {
		w := words.Take(len(b)).Wait()
		defer words.Give(w)
		if err := cuda.Download(t, dev, w, src); err != nil {
			return err
		}
		for i, v := range w {
			b[i] = v != 0
		}
		return nil
	}
	return cuda.Download(t, dev, xs, src)
}
