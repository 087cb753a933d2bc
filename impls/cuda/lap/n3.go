package cudalap

import (
	"context"
	"fmt"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
	"github.com/semibench/semibench/problems/lap"
)

// PhaseAugment is cuda/hungarian-n3's solve phase: every row's shortest
// augmenting path, timed with CUDA events.
const PhaseAugment = "augment"

// n3Threads is the one block of lap_n3; n3Chunk the rows per launch (the
// host checks ctx between launches).
const (
	n3Threads = 1024
	n3Chunk   = 256
)

// N3Plan is the device memory of cuda/hungarian-n3 for an r x c instance.
func N3Plan(r, c int) cuda.Plan {
	return cuda.Plan{What: fmt.Sprintf("cuda/hungarian-n3 %dx%d", r, c), Buffers: []cuda.Buffer{
		{Name: "lap.c", Bytes: 4 * uint64(r) * uint64(c)},
		{Name: "lap.n3.u", Bytes: 8 * uint64(r+1)},
		{Name: "lap.n3.v", Bytes: 8 * uint64(c+1)},
		{Name: "lap.n3.p", Bytes: 4 * uint64(c+1)},
		{Name: "lap.n3.way", Bytes: 4 * uint64(c+1)},
		{Name: "lap.n3.minv", Bytes: 8 * uint64(c+1)},
		{Name: "lap.n3.used", Bytes: uint64(c + 1)},
	}}
}

// n3Buffers are lap_n3's device buffers (N3Plan, floatN3Plan), and the
// rows cuda/fast's augmenting strategy adds (fastAugmentPlan; 0 otherwise).
type n3Buffers struct {
	C     driver.DevicePtr `buf:"lap.c"`
	U     driver.DevicePtr `buf:"lap.n3.u"`
	V     driver.DevicePtr `buf:"lap.n3.v"`
	P     driver.DevicePtr `buf:"lap.n3.p"`
	Way   driver.DevicePtr `buf:"lap.n3.way"`
	MinV  driver.DevicePtr `buf:"lap.n3.minv"`
	Used  driver.DevicePtr `buf:"lap.n3.used"`
	Order driver.DevicePtr `buf:"lap.fast.order,optional"`
}

// clear zeroes lap_n3's duals and columns on stream s, before the first
// row is added (0 is all zero bits for the float duals too).
func (b *n3Buffers) clear(t *driver.Thread, s driver.Stream, r, c int) error {
	for _, z := range []struct {
		ptr   driver.DevicePtr
		words int64
	}{{b.U, 2 * int64(r+1)}, {b.V, 2 * int64(c+1)}, {b.P, int64(c + 1)}} {
		if err := t.MemsetD32Async(z.ptr, 0, z.words, s); err != nil {
			return err
		}
	}
	return nil
}

// HungarianN3 is cuda/hungarian-n3: the O(n^3) Hungarian algorithm of
// impls/cpu/lap's SolveN3 on the GPU, in one thread block. Rows are added
// one at a time, each by a shortest augmenting path grown with an array of
// slacks; every step of a path scans the newly reached row with all the
// block's threads, finds the least slack outside the tree by a block-wide
// reduction, and updates the duals and slacks of all columns in parallel.
// The matrix stays on the device (int32); the steps of a path are
// inherently sequential, which is the point of the paper's Fig. 6. The
// result has the duals, so lap.Certify certifies it. Phases: h2d (before
// the timed window), augment (CUDA events, inside it), d2h (after it). Without a CUDA driver or device the error matches
// driver.ErrUnavailable.
func HungarianN3(ctx context.Context, m *lap.Matrix, opt Options) (*lap.Result, error) {
	const impl = "cuda/hungarian-n3"
	stop := opt.Rec.Start(PhaseH2D)
	sc, err := hostcost.ScanMatrix(impl, m)
	if err != nil {
		return nil, err
	}
	if err := sc.Need32(impl, m); err != nil {
		return nil, err
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", impl, err)
	}
	r, c := m.Rows, m.Cols
	res := &lap.Result{Assignment: make([]int, r), U: make([]int64, r+1), V: make([]int64, c+1)}
	err = dev.Run(ctx, func(t *driver.Thread) error {
		plan := N3Plan(r, c)
		if err := stageInput(t, dev, plan, "lap.c", m, 0, hostcost.Int32); err != nil {
			return err
		}
		stop()
		opt.Rec.BeginTotal()
		var b n3Buffers
		if err := n3Solve(ctx, t, dev, "lap_n3", plan, &b, r, c, opt); err != nil {
			return err
		}
		return n3Download(t, dev, &b, res, opt)
	})
	if err != nil {
		return nil, fmt.Errorf("%s %dx%d: %w", impl, r, c, err)
	}
	res.U, res.V = res.U[1:], res.V[1:]
	res.Cost = m.CostOf(res.Assignment)
	return res, nil
}

// n3Augment adds count rows with lap_n3 (rows 1..count, or order[0..count)
// when order is not 0) in launches of n3Chunk rows, checking ctx between
// them; the GPU time goes to the phase augment.
func n3Augment(ctx context.Context, t *driver.Thread, dev *cuda.Device, fn driver.Function, b *n3Buffers,
	r, c, count int, order driver.DevicePtr, opt Options) error {
	for lo := 1; lo <= count; lo += n3Chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(count, lo+n3Chunk-1)
		if err := dev.StartTimer(t); err != nil {
			return err
		}
		if err := t.Launch(fn, driver.D1(1), driver.D1(n3Threads), 0, dev.Stream(),
			b.C, r, c, lo, hi, b.U, b.V, b.P, b.Way, b.MinV, b.Used, order); err != nil {
			return err
		}
		d, err := dev.StopTimer(t)
		if err != nil {
			return err
		}
		opt.Rec.Add(PhaseAugment, d)
	}
	return nil
}

// n3Solve is the window of an O(n^3) solve of one r x c problem whose
// costs are on the device: the kernel fn's module function, the plan's
// buffers bound into b, u, v and p zeroed (0.0 is all zero bits, so float
// duals too), every row added, the stream synchronised, and total's window
// closed.
func n3Solve(ctx context.Context, t *driver.Thread, dev *cuda.Device, kernel string, plan cuda.Plan, b *n3Buffers, r, c int, opt Options) error {
	fn, err := dev.Function(t, lapModule, kernel)
	if err != nil {
		return err
	}
	if err := dev.Allocate(t, plan, b); err != nil {
		return err
	}
	s := dev.Stream()
	if err := b.clear(t, s, r, c); err != nil {
		return err
	}
	if err := n3Augment(ctx, t, dev, fn, b, r, c, r, 0, opt); err != nil {
		return err
	}
	if err := t.StreamSynchronize(s); err != nil {
		return err
	}
	opt.Rec.EndTotal()
	return nil
}

// n3Download brings back lap_n3's columns and duals (d2h) into res, whose
// U and V have a leading slot for row and column 0.
func n3Download(t *driver.Thread, dev *cuda.Device, b *n3Buffers, res *lap.Result, opt Options) error {
	defer opt.Rec.Start(PhaseD2H)()
	p := make([]int32, len(res.V))
	if err := cuda.Download(t, dev, p, b.P); err != nil {
		return err
	}
	if err := cuda.Download(t, dev, res.U, b.U); err != nil {
		return err
	}
	if err := cuda.Download(t, dev, res.V, b.V); err != nil {
		return err
	}
	return assignFromColumns(p, res.Assignment)
}

// assignFromColumns turns p (p[j] the 1-based row of column j, 0 when free,
// p[0] unused) into the column of each row, checking that every row got
// exactly one.
func assignFromColumns(p []int32, assign []int) error {
	for i := range assign {
		assign[i] = -1
	}
	for j := 1; j < len(p); j++ {
		i := int(p[j]) - 1
		if i < -1 || i >= len(assign) {
			return fmt.Errorf("column %d holds row %d, not in 1..%d", j, i+1, len(assign))
		}
		if i < 0 {
			continue
		}
		if assign[i] >= 0 {
			return fmt.Errorf("row %d holds columns %d and %d", i+1, assign[i]+1, j)
		}
		assign[i] = j - 1
	}
	for i, j := range assign {
		if j < 0 {
			return fmt.Errorf("row %d was not assigned", i+1)
		}
	}
	return nil
}
