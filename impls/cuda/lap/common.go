package cudalap

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
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

// chunkCosts is how many costs each chunk of an upload of n costs holds:
// an eighth of them, so that every copy but the last runs under the next
// chunk's conversion and the last, which nothing hides, is short; at
// least 2^20 (a chunk's fixed costs, a goroutine a core, an event and a
// launch, stay small beside its conversion) and at most the ring's
// stageBytes/4. (Chunks of stageBytes/4 made an upload of up to 8M costs,
// n = 2048 for one, a conversion then a copy one after the other.)
func chunkCosts(n int) int { return min(stageBytes/4, max(1<<20, (n+7)/8)) }

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

// ensureStage grows the ring to the slots a transfer of chunks uses.
func (ws *workspace) ensureStage(t *driver.Thread, chunks int) error {
	ws.stage.Chunk = stageBytes
	return ws.stage.Grow(t, min(stageSlots, max(1, chunks)))
}

// uploadCosts converts m's costs minus shift to width w (every cost minus
// shift fits it: hostcost.Scan.Width) and copies them to dst as int32,
// pipelined through the page-locked ring (streamCosts); 16-bit widths are
// widened to int32 on the device, so half the bytes cross the bus. It
// returns when the costs are on the device.
func uploadCosts(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, m *lap.Matrix, shift int64, w hostcost.Width) error {
	return streamCosts(t, dev, dst, len(m.C), func(b *driver.HostBuffer, off, k int) (hostcost.Width, error) {
		if w == hostcost.Int32 {
			hostcost.Convert(b.Int32s()[:k], m.C[off:off+k], shift)
		} else {
			hostcost.Convert(b.Int16s()[:k], m.C[off:off+k], shift)
		}
		return w, nil
	})
}

// errUnfused stops a fused upload (scanUpload) whose costs it cannot send
// as they are: the caller goes the long way (scan, then upload), which also
// words any refusal.
var errUnfused = errors.New("costs not fit for the fused upload")

// scanUpload is hostcost.ScanMatrix and uploadCosts (shift 0) in one pass
// over the costs c: each chunk is checked and converted by a crew of
// goroutines kept awake for the whole upload (hostcost.Crew; an upload of
// one chunk, which it would only slow, by fresh goroutines) straight
// into page-locked memory, in the narrowest width
// that holds all its costs as they are (hostcost.FuseChunk, starting from
// the previous chunk's width: once a chunk needed int32 the rest go so),
// and copied while the next chunk is read. It returns errUnfused, with
// the device buffer's contents undefined, at the first chunk with a cost
// beyond ±lim or beyond int32, or once the costs span more than maxSpan.
func scanUpload(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, c []int64, lim, maxSpan int64) (hostcost.Scan, error) {
	all := hostcost.Empty()
	next := hostcost.Int16
	var crew *hostcost.Crew // fresh goroutines for an upload of one chunk
	if len(c) > chunkCosts(len(c)) {
		crew = hostcost.StartCrew()
		defer crew.Stop()
	}
	err := streamCosts(t, dev, dst, len(c), func(b *driver.HostBuffer, off, k int) (hostcost.Width, error) {
		s, w := crew.FuseChunk(b.Int16s()[:k], b.Int32s()[:k], c[off:off+k], lim, next)
		if s.Bad >= 0 || s.Wide >= 0 {
			return w, errUnfused
		}
		all.Lo, all.Hi = min(all.Lo, s.Lo), max(all.Hi, s.Hi)
		if all.Hi-all.Lo > maxSpan {
			return w, errUnfused
		}
		next = w
		return w, nil
	})
	return all, err
}

// streamCosts moves n int32 costs to dst through the workspace's ring of
// page-locked chunks of chunkCosts(n) costs: fill converts costs [off,
// off+k) into a chunk and says in which width it wrote them (16-bit
// chunks are copied into a device chunk buffer and widened to int32 at
// dst there, lap_widen16; int32 chunks are copied to dst); the host fills
// chunk k+1 while the copy engine moves chunk k, and a chunk is refilled
// once its copy has completed. A fill error stops the upload (after the
// copies queued so far). It returns when the costs are on the device.
func streamCosts(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, n int, fill func(b *driver.HostBuffer, off, k int) (hostcost.Width, error)) error {
	ws, err := workspaceOf(t, dev)
	if err != nil {
		return err
	}
	per := chunkCosts(n)
	if err := ws.ensureStage(t, (n+per-1)/per); err != nil {
		return err
	}
	var widen driver.Function
	var chunk driver.DevicePtr
	s := dev.Stream()
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
		w, err := fill(buf, off, k)
		narrow := w != hostcost.Int32
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
			if err := t.Launch(widen, driver.D1(widenBlocks(k)), driver.D1(256), 0, s, chunk, int64(k), dst.Add(4*int64(off)), w.Mask()); err != nil {
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
func stageInput(t *driver.Thread, dev *cuda.Device, plan cuda.Plan, name string, m *lap.Matrix, shift int64, w hostcost.Width) error {
	dst, err := planBuffer(t, dev, plan, name)
	if err != nil {
		return err
	}
	return uploadCosts(t, dev, dst, m, shift, w)
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

// kernelError turns a kernel's error word into an error: nil for 0, known[k-1]
// for code k, else the code; each an internal error, after prefix.
func kernelError(prefix string, code int64, known ...string) error {
	switch {
	case code == 0:
		return nil
	case code > 0 && code <= int64(len(known)):
		return fmt.Errorf("%s%s (internal error)", prefix, known[code-1])
	}
	return fmt.Errorf("%skernel error %d (internal error)", prefix, code)
}
