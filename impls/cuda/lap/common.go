package cudalap

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/lap"
)

// lapModule is the kernel source of cuda/hungarian-n3 and cuda/fast
// (kernels/lap.cu).
const lapModule = "lap"

// Phase names of every solver of this package, outside the timed window
// (bench.Recorder.BeginTotal .. EndTotal): the upload side and the download
// side of end_to_end.
const (
	// PhaseH2D: the costs checked and converted to int32 on the host (in
	// parallel, into page-locked chunks) and copied to the device; cuda/fast
	// and the integer batch check and convert in one pass (scanUpload), to
	// int16 where a chunk's costs fit, widened on the device.
	PhaseH2D = "h2d"
	// PhaseD2H: the assignment (and duals) back.
	PhaseD2H = "d2h"
)

// costScan is what scanValues found in costs.
type costScan struct {
	lo, hi int64 // the least and the largest cost
	bad    int   // the index of the first cost beyond ±lim, -1 when none
	wide   int   // the index of the first cost beyond int32, -1 when none
}

// scanValues is one parallel pass over c that finds the least and the
// largest value, the first beyond ±lim and the first beyond int32 (lo and
// hi cover the values before the first beyond ±lim of each part only: they
// are meant for costs that passed).
func scanValues(c []int64, lim int64) costScan {
	var mu sync.Mutex
	var parts []costScan
	parallelFor(len(c), func(a, b int) {
		p := costScan{lo: math.MaxInt64, hi: math.MinInt64, bad: -1, wide: -1}
		for k := a; k < b; k++ {
			x := c[k]
			if x > lim || x < -lim {
				p.bad = k
				break
			}
			if p.wide < 0 && (x < math.MinInt32 || x > math.MaxInt32) {
				p.wide = k
			}
			p.lo, p.hi = min(p.lo, x), max(p.hi, x)
		}
		mu.Lock()
		parts = append(parts, p)
		mu.Unlock()
	})
	s := costScan{lo: math.MaxInt64, hi: math.MinInt64, bad: -1, wide: -1}
	first := func(cur, k int) int {
		if k >= 0 && (cur < 0 || k < cur) {
			return k
		}
		return cur
	}
	for _, p := range parts {
		s.bad, s.wide = first(s.bad, p.bad), first(s.wide, p.wide)
		s.lo, s.hi = min(s.lo, p.lo), max(s.hi, p.hi)
	}
	return s
}

// scanCosts checks m as lap.Matrix.Validate does (shape, and every cost
// within lap.MaxAbsCost) in one parallel pass that also finds the least and
// largest cost and the first cost beyond int32. It runs before any device
// work, so a refusal never depends on a GPU.
func scanCosts(impl string, m *lap.Matrix) (costScan, error) {
	if m == nil {
		return costScan{}, fmt.Errorf("%s: nil matrix", impl)
	}
	if err := m.CheckShape(); err != nil {
		return costScan{}, fmt.Errorf("%s: %w", impl, err)
	}
	lim := lap.MaxAbsCost(m.Cols)
	s := scanValues(m.C, lim)
	if k := s.bad; k >= 0 {
		return costScan{}, fmt.Errorf("%s: %w: cost %d at row %d, column %d exceeds ±%d for %d columns",
			impl, lap.ErrOverflow, m.C[k], k/m.Cols+1, k%m.Cols+1, lim, m.Cols)
	}
	return s, nil
}

// scanBatch checks an integer batch as lap.Batch.Validate does, and that
// every cost fits int32 (the batch kernel's cost type), in one parallel
// pass over all its costs, which also finds their least and largest;
// errors name the problem (1-based), row and column. It runs before any
// device work.
func scanBatch(impl string, b *lap.Batch) (costScan, error) {
	if err := b.CheckShape(); err != nil {
		return costScan{}, fmt.Errorf("%s: %s: %w", impl, b.Name, err)
	}
	lim, sz := lap.MaxAbsCost(b.Cols), b.Size()
	s := scanValues(b.Int, lim)
	where := func(k int) string {
		return fmt.Sprintf("problem %d, row %d, column %d", k/sz+1, k%sz/b.Cols+1, k%b.Cols+1)
	}
	switch {
	case s.bad >= 0 && (s.wide < 0 || s.bad < s.wide):
		return costScan{}, fmt.Errorf("%s: %s: %w: %s: cost %d exceeds ±%d for %d columns",
			impl, b.Name, lap.ErrOverflow, where(s.bad), b.Int[s.bad], lim, b.Cols)
	case s.wide >= 0:
		return s, fmt.Errorf("%s: %s: %w: %s: cost %d is beyond int32, the batch kernel's integer cost type",
			impl, b.Name, lap.ErrRange, where(s.wide), b.Int[s.wide])
	}
	return s, nil
}

// need32 refuses an instance with a cost beyond int32, the device's cost
// type when the costs are uploaded as they are.
func (s costScan) need32(impl string, m *lap.Matrix) error {
	if k := s.wide; k >= 0 {
		return fmt.Errorf("%s: %w: cost %d at row %d, column %d is beyond int32, the device's integer cost type",
			impl, lap.ErrRange, m.C[k], k/m.Cols+1, k%m.Cols+1)
	}
	return nil
}

// convertCosts writes src minus shift to dst as int32 or int16, in
// parallel; the caller has checked that every difference fits.
func convertCosts[T int16 | int32](dst []T, src []int64, shift int64) {
	parallelFor(len(src), func(a, b int) {
		d, s := dst[a:b], src[a:b]
		for k, x := range s {
			d[k] = T(x - shift)
		}
	})
}

// fits16 reports whether every cost of a scan minus shift fits int16, so
// that the upload can move half the bytes (uploadCosts' narrow form).
func (s costScan) fits16(shift int64) bool {
	return s.lo <= s.hi && s.lo-shift >= math.MinInt16 && s.hi-shift <= math.MaxInt16
}

// parallelFor runs f over [0, n) in a few goroutines.
func parallelFor(n int, f func(a, b int)) {
	const grain = 1 << 18
	w := min(runtime.GOMAXPROCS(0), (n+grain-1)/grain)
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + w - 1) / w
	for a := 0; a < n; a += step {
		wg.Add(1)
		go func(a, b int) {
			defer wg.Done()
			f(a, b)
		}(a, min(n, a+step))
	}
	wg.Wait()
}

// workspace is what the solvers of this package keep on a device between
// solves, so that no solve pays for it again: a ring of page-locked chunks
// the costs are converted into and copied from, the page-locked flags word
// cuda/paper reads after its step-4 launches, and the CUDA events its step
// timer records. It is used only inside Device.Run, which holds the device.
type workspace struct {
	stage  cuda.Staging
	flags  *driver.HostBuffer
	events []driver.Event
}

// Costs move to the device through stageSlots page-locked chunks of
// stageBytes: the host converts chunk k+1 while the copy engine moves chunk
// k, and a chunk is refilled once its copy has completed.
const (
	stageBytes = 32 << 20
	stageSlots = 4
)

var workspaces struct {
	mu sync.Mutex
	m  map[*cuda.Device]*workspace
}

// workspaceOf returns dev's workspace, creating it on first use (and
// forgetting those of devices no longer open: their contexts and memory are
// gone).
func workspaceOf(t *driver.Thread, dev *cuda.Device) (*workspace, error) {
	workspaces.mu.Lock()
	defer workspaces.mu.Unlock()
	if ws, ok := workspaces.m[dev]; ok {
		return ws, nil
	}
	if workspaces.m == nil {
		workspaces.m = map[*cuda.Device]*workspace{}
	}
	open := cuda.Opened()
	for d := range workspaces.m {
		if !slices.Contains(open, d) {
			delete(workspaces.m, d)
		}
	}
	ws := &workspace{}
	var err error
	if ws.flags, err = t.HostAlloc(64, 0); err != nil {
		return nil, err
	}
	workspaces.m[dev] = ws
	return ws, nil
}

// ensureStage grows the ring to the chunks a transfer of bytes uses.
func (ws *workspace) ensureStage(t *driver.Thread, bytes int) error {
	ws.stage.Chunk = stageBytes
	return ws.stage.Grow(t, min(stageSlots, max(1, (bytes+stageBytes-1)/stageBytes)))
}

// uploadCosts converts m's costs minus shift to int32 and copies them to
// dst, pipelined through the page-locked ring (streamCosts). narrow (every
// cost minus shift fits int16: fits16) converts to int16 instead, widened
// to int32 on the device, so half the bytes cross the bus. It returns when
// the costs are on the device.
func uploadCosts(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, m *lap.Matrix, shift int64, narrow bool) error {
	return streamCosts(t, dev, dst, len(m.C), func(b *driver.HostBuffer, off, k int) (bool, error) {
		if narrow {
			convertCosts(b.Int16s()[:k], m.C[off:off+k], shift)
		} else {
			convertCosts(b.Int32s()[:k], m.C[off:off+k], shift)
		}
		return narrow, nil
	})
}

// errUnfused stops a fused upload (scanUpload) whose costs it cannot send
// as they are: the caller goes the long way (scan, then upload), which also
// words any refusal.
var errUnfused = errors.New("costs not fit for the fused upload")

// scanUpload is scanCosts and uploadCosts (shift 0) in one pass over the
// costs c: each chunk is checked and converted by several goroutines
// straight into page-locked memory, as int16 where every cost of the chunk
// fits, as int32 otherwise, and copied while the next chunk is read. It
// returns errUnfused, with the device buffer's contents undefined, at the
// first chunk with a cost beyond ±lim or beyond int32, or once the costs
// span more than maxSpan.
func scanUpload(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, c []int64, lim, maxSpan int64) (costScan, error) {
	all := costScan{lo: math.MaxInt64, hi: math.MinInt64, bad: -1, wide: -1}
	wide := false // once a chunk needed int32, the next ones start there
	err := streamCosts(t, dev, dst, len(c), func(b *driver.HostBuffer, off, k int) (bool, error) {
		s, narrow := fuseChunk(b.Int16s()[:k], b.Int32s()[:k], c[off:off+k], lim, !wide)
		if s.bad >= 0 || s.wide >= 0 {
			return false, errUnfused
		}
		all.lo, all.hi = min(all.lo, s.lo), max(all.hi, s.hi)
		if all.hi-all.lo > maxSpan {
			return false, errUnfused
		}
		wide = wide || !narrow
		return narrow, nil
	})
	return all, err
}

// fuseChunk scans src and converts it in one parallel pass: into d16 when
// try16 and every cost fits int16 (narrow true), otherwise (a second pass,
// only when the int16 one failed) into d32. d16 and d32 are views of the
// same page-locked chunk, each at least as long as src. The scan's bad and
// wide are set (to some index of src) when a cost is beyond ±lim or beyond
// int32; the chunk's contents are then undefined.
func fuseChunk(d16 []int16, d32 []int32, src []int64, lim int64, try16 bool) (s costScan, narrow bool) {
	if try16 {
		if s = fusedPass(d16[:len(src)], src, lim, math.MinInt16, math.MaxInt16); s.wide < 0 {
			return s, true
		}
	}
	return fusedPass(d32[:len(src)], src, lim, math.MinInt32, math.MaxInt32), false
}

// fusedPass writes src to dst while it finds their least and largest, in
// parallel; a part stops at its first cost beyond ±lim (bad) or outside
// [lo, hi] (wide), and the scan names one such index.
func fusedPass[T int16 | int32](dst []T, src []int64, lim, lo, hi int64) costScan {
	var mu sync.Mutex
	s := costScan{lo: math.MaxInt64, hi: math.MinInt64, bad: -1, wide: -1}
	parallelFor(len(src), func(a, b int) {
		p := costScan{lo: math.MaxInt64, hi: math.MinInt64, bad: -1, wide: -1}
		d := dst[a:b]
		for k, x := range src[a:b] {
			if x > lim || x < -lim {
				p.bad = a + k
				break
			}
			if x < lo || x > hi {
				p.wide = a + k
				break
			}
			d[k] = T(x)
			p.lo, p.hi = min(p.lo, x), max(p.hi, x)
		}
		mu.Lock()
		s.lo, s.hi = min(s.lo, p.lo), max(s.hi, p.hi)
		s.bad, s.wide = max(s.bad, p.bad), max(s.wide, p.wide)
		mu.Unlock()
	})
	return s
}

// streamCosts moves n int32 costs to dst through the workspace's ring of
// page-locked chunks of stageBytes/4 costs: fill converts costs [off,
// off+k) into a chunk and says whether it wrote them as int16 (copied into
// a device chunk buffer and widened to int32 at dst there, lap_widen16) or
// as int32 (copied to dst); the host fills chunk k+1 while the copy engine
// moves chunk k, and a chunk is refilled once its copy has completed. A
// fill error stops the upload (after the copies queued so far). It returns
// when the costs are on the device.
func streamCosts(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, n int, fill func(b *driver.HostBuffer, off, k int) (narrow bool, err error)) error {
	ws, err := workspaceOf(t, dev)
	if err != nil {
		return err
	}
	if err := ws.ensureStage(t, 4*n); err != nil {
		return err
	}
	var widen driver.Function
	var chunk driver.DevicePtr
	s := dev.Stream()
	per := stageBytes / 4
	var ferr error
	for c, off := 0, 0; off < n; c, off = c+1, off+per {
		slot := c % len(ws.stage.Bufs)
		if c >= len(ws.stage.Bufs) {
			if err := t.EventSynchronize(ws.stage.Events[slot]); err != nil {
				return fmt.Errorf("costs upload: %w", err)
			}
		}
		k := min(per, n-off)
		buf := ws.stage.Bufs[slot]
		narrow, err := fill(buf, off, k)
		if err != nil {
			ferr = err
			break
		}
		at, elem := dst.Add(4*int64(off)), 4
		if narrow {
			if chunk == 0 {
				if widen, err = dev.Function(t, lapModule, "lap_widen16"); err != nil {
					return err
				}
				if chunk, err = dev.Buffer(t, "lap.stage16", stageBytes/2); err != nil {
					return fmt.Errorf("costs upload: %w", err)
				}
			}
			at, elem = chunk, 2
		}
		if err := t.CopyToDeviceAsync(at, buf, 0, int64(elem*k), s); err != nil {
			return fmt.Errorf("costs upload: %w", err)
		}
		if err := t.EventRecord(ws.stage.Events[slot], s); err != nil {
			return fmt.Errorf("costs upload: %w", err)
		}
		if narrow {
			// The next chunk's copy into the same device buffer follows
			// this launch on the stream.
			if err := t.Launch(widen, driver.D1(widenBlocks(k)), driver.D1(256), 0, s, chunk, int64(k), dst.Add(4*int64(off))); err != nil {
				return fmt.Errorf("costs upload: %w", err)
			}
		}
	}
	if err := t.StreamSynchronize(s); err != nil {
		return fmt.Errorf("costs upload: %w", err)
	}
	return ferr
}

// widenBlocks is lap_widen16's grid for k costs: 256-thread blocks, each
// thread widening up to 8 (grid-stride), at most 65,535 blocks.
func widenBlocks(k int) int { return max(1, min(65535, (k+2047)/2048)) }

// stageInput uploads the costs minus shift into plan's buffer name
// (planBuffer).
func stageInput(t *driver.Thread, dev *cuda.Device, plan cuda.Plan, name string, m *lap.Matrix, shift int64, narrow bool) error {
	dst, err := planBuffer(t, dev, plan, name)
	if err != nil {
		return err
	}
	return uploadCosts(t, dev, dst, m, shift, narrow)
}

// planBuffer checks plan against the device (freeing other plans' buffers
// if it does not fit otherwise) and returns the plan's buffer name (the
// costs' destination, reused from the last solve of the size). The rest of
// the plan is allocated (reused) by the solve itself, inside the timed
// window.
func planBuffer(t *driver.Thread, dev *cuda.Device, plan cuda.Plan, name string) (driver.DevicePtr, error) {
	if err := dev.Check(t, plan); err != nil {
		return 0, err
	}
	i := slices.IndexFunc(plan.Buffers, func(b cuda.Buffer) bool { return b.Name == name })
	if i < 0 {
		return 0, fmt.Errorf("plan %s has no buffer %s (internal error)", plan.What, name)
	}
	return dev.Buffer(t, name, plan.Buffers[i].Bytes)
}
