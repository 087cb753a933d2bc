package cudaminplus

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/minplus"
)

// Differ computes the difference matrices of the 2-domination paper's
// Algorithms 3 and 4 on the device, as its Table 5 version 3 does: for each
// pair of powers held in host memory, both are uploaded (leading dimension
// n, as they are), minplus_difference computes D = X - Y in the host's
// encoding (minplus.DiffEntry), minplus_diff_summary reduces D to a
// minplus.DiffSummary, and those few numbers come back. The device buffers
// (DiffPlan) are allocated once, by NewDiffer, and serve every pair.
// It implements minplus.Differ. A Differ is not safe for concurrent use.
type Differ struct {
	dev             *cuda.Device
	n               int
	bufs            diffBuffers
	diff, summarize driver.Function
	closed          bool
	pairs           int
}

// diffBuffers are a Differ's device buffers (DiffPlan).
type diffBuffers struct {
	X       driver.DevicePtr `buf:"diff.x"`
	Y       driver.DevicePtr `buf:"diff.y"`
	D       driver.DevicePtr `buf:"diff.d"`
	Summary driver.DevicePtr `buf:"diff.summary"`
}

// diffSummaryBytes holds the summary: the finite count (8 bytes), then
// min, max and the one-infinite flag (4 bytes each).
const diffSummaryBytes = 32

// DiffPlan returns the device memory of a Differ of order n: the two
// matrices, their difference matrix (n² int16 each) and the summary.
func DiffPlan(n int) (cuda.Plan, error) {
	if n < 1 || n > MaxN {
		return cuda.Plan{}, fmt.Errorf("minplus: difference of order n=%d outside [1, %d]", n, MaxN)
	}
	m := minplus.Bytes(n)
	return cuda.Plan{What: fmt.Sprintf("difference n=%d", n), Buffers: []cuda.Buffer{
		{Name: "diff.x", Bytes: m}, {Name: "diff.y", Bytes: m}, {Name: "diff.d", Bytes: m},
		{Name: "diff.summary", Bytes: diffSummaryBytes},
	}}, nil
}

// NewDiffer opens a Differ for n x n matrices on device opt.Device: its
// plan is checked against opt.MemoryLimit (when set) before the device is
// touched, then against the free memory, and its buffers allocated.
func NewDiffer(ctx context.Context, n int, opt minplus.SessionOptions) (*Differ, error) {
	plan, err := DiffPlan(n)
	if err != nil {
		return nil, err
	}
	if need := plan.Total(); opt.MemoryLimit > 0 && need > opt.MemoryLimit {
		return nil, fmt.Errorf("minplus: %s needs %d bytes (%s) of device memory, over the limit of %d bytes (%s)",
			plan.What, need, cuda.FormatBytes(need), opt.MemoryLimit, cuda.FormatBytes(opt.MemoryLimit))
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, fmt.Errorf("minplus: difference n=%d: %w", n, err)
	}
	d := &Differ{dev: dev, n: n}
	err = dev.Run(ctx, func(t *driver.Thread) error {
		if err := dev.Allocate(t, plan, &d.bufs); err != nil {
			return err
		}
		if d.diff, err = dev.Function(t, module, "minplus_difference"); err != nil {
			return err
		}
		d.summarize, err = dev.Function(t, module, "minplus_diff_summary")
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("minplus: difference n=%d: %w", n, err)
	}
	return d, nil
}

// Summary uploads x and y, computes their difference matrix on the device
// and returns its summary.
func (d *Differ) Summary(ctx context.Context, x, y *minplus.Dense) (minplus.DiffSummary, error) {
	if d.closed {
		return minplus.DiffSummary{}, fmt.Errorf("minplus: difference n=%d: the Differ is closed", d.n)
	}
	for _, m := range []struct {
		name string
		m    *minplus.Dense
	}{{"x", x}, {"y", y}} {
		if m.m == nil || m.m.N != d.n || len(m.m.Data) != d.n*d.n {
			return minplus.DiffSummary{}, fmt.Errorf("minplus: difference n=%d: matrix %s is not %d x %d", d.n, m.name, d.n, d.n)
		}
	}
	var s minplus.DiffSummary
	err := d.dev.Run(ctx, func(t *driver.Thread) error {
		if err := cuda.Upload(t, d.dev, d.bufs.X, x.Data); err != nil {
			return fmt.Errorf("uploading x: %w", err)
		}
		if err := cuda.Upload(t, d.dev, d.bufs.Y, y.Data); err != nil {
			return fmt.Errorf("uploading y: %w", err)
		}
		st, sum := d.dev.Stream(), d.bufs.Summary
		if err := t.MemsetD32Async(sum, 0, 2, st); err != nil { // the finite count
			return err
		}
		if err := t.MemsetD32Async(sum.Add(8), 0x7fffffff, 1, st); err != nil { // min
			return err
		}
		if err := t.MemsetD32Async(sum.Add(12), 0x80000000, 1, st); err != nil { // max
			return err
		}
		if err := t.MemsetD32Async(sum.Add(16), 0, 1, st); err != nil { // one infinite
			return err
		}
		count := int64(d.n) * int64(d.n)
		grid := driver.D1(int(min((count+255)/256, int64(d.dev.Props.SMs)*32)))
		if err := t.Launch(d.diff, grid, driver.D1(256), 0, st, d.bufs.X, d.bufs.Y, d.bufs.D, count, int(Inf)); err != nil {
			return fmt.Errorf("difference: %w", err)
		}
		if err := t.Launch(d.summarize, grid, driver.D1(256), 0, st, d.bufs.D, count, sum, sum.Add(8)); err != nil {
			return fmt.Errorf("summary: %w", err)
		}
		var raw [20]byte
		if err := driver.CopyFromDevice(t, raw[:], sum); err != nil {
			return fmt.Errorf("summary: %w", err)
		}
		s = decodeDiffSummary(raw)
		return nil
	})
	if err != nil {
		return minplus.DiffSummary{}, fmt.Errorf("minplus: difference n=%d: %w", d.n, err)
	}
	d.pairs++
	return s, nil
}

// decodeDiffSummary reads the summary buffer minplus_diff_summary fills.
func decodeDiffSummary(raw [20]byte) minplus.DiffSummary {
	le := binary.LittleEndian
	s := minplus.SummarizeDiff(nil) // the empty summary's Min and Max when no entry is finite
	s.Finite, s.OneInf = int64(le.Uint64(raw[0:])), le.Uint32(raw[16:]) != 0
	if s.Finite > 0 {
		s.Min, s.Max = int16(int32(le.Uint32(raw[8:]))), int16(int32(le.Uint32(raw[12:])))
	}
	return s
}

// ConstDiff reports whether x - y is one constant, and which (see
// minplus.DiffSummary.Constant), from the summary computed on the device.
func (d *Differ) ConstDiff(ctx context.Context, x, y *minplus.Dense) (int, bool, error) {
	s, err := d.Summary(ctx, x, y)
	if err != nil {
		return 0, false, err
	}
	c, ok := s.Constant()
	return c, ok, nil
}

// Pairs returns the number of differences computed.
func (d *Differ) Pairs() int { return d.pairs }

// Close ends the Differ; its buffers stay with the device, reused by the
// next Differ of the same order or freed when another plan needs the room
// (cuda.Device.Check). Closing twice is harmless.
func (d *Differ) Close() error {
	d.closed = true
	return nil
}
