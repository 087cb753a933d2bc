package cudakleene

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// gemmDesc is the device's GemmDesc (kernels/kleene.cu): 64 bytes.
type gemmDesc struct {
	A, B, C       uint64
	LDA, LDB, LDC int64
	M, N, K       int32
	Flags         int32
}

const descSize = 64

var _ [descSize - unsafe.Sizeof(gemmDesc{})]byte // the layout is 64 bytes
var _ [unsafe.Sizeof(gemmDesc{}) - descSize]byte

// Tile sizes of the two product kernels.
const (
	tileLarge = 128
	tileSmall = 64
)

// Fast is cuda/fast: the closure in topological order as blocked max-plus
// products on the device. X goes to the device as it is (h2d); the device
// writes the predecessor bit sets, from which the host sorts topologically
// (topo_sort); the device permutes X into that order, P = e ⊕ X[perm,
// perm], lower triangular (init_w); then it closes P in place, 64 x 64
// diagonal blocks in shared memory first, then at each level neighbouring
// closed blocks joined by two batched register-tiled products, [A 0; C D]* =
// [A* 0; D* C A*, D*], skipping the ε halves of the triangular operands,
// and permutes the closure back to the input's order (update_w: about 14
// launches at n = 4000, no launch per node); W comes back (d2h).
//
// With opt.GPUs = N > 1 the columns (in topological order) are split over N
// devices in ranges of equal work (cuda.SplitColumns); X reaches the first
// device from the host and the others device to device; each device,
// driven by its own goroutine and context, closes its column slab (the
// diagonal block, then a blocked triangular solve below it); the slabs go
// device to device to the first, which permutes W back. N greater than the
// number of devices is an error.
//
// Its total (rec.BeginTotal ... rec.EndTotal) is the window of the paper's
// Table 3, as for Paper: from X in host memory (h2d of X is inside, as the
// paper's transfers to texture memory are inside its Update W, and its
// Convert CCS reads X on the host) to W complete in device memory; every
// per-solve buffer check, descriptor upload, launch and synchronisation is
// inside. The download of W (d2h) is outside total, inside end_to_end. W is
// copied out of the page-locked staging ring into a slice from the package's
// Recycler: reused memory when the caller gave an earlier result back
// (Recycle), else a fresh slice faulted in while the device works.
func Fast(ctx context.Context, x *maxplus.Matrix, opt kleene.Options, rec *bench.Recorder) (*maxplus.Matrix, error) {
	if err := kleene.CheckShape(x); err != nil {
		return nil, err
	}
	gpus := opt.GPUs
	if gpus == 0 {
		gpus = 1
	}
	if gpus < 0 {
		return nil, fmt.Errorf("cuda/fast: --gpus %d: the number of GPUs must be positive", gpus)
	}
	count, err := cuda.DeviceCount()
	if err != nil {
		return nil, fmt.Errorf("cuda/fast: %w", err)
	}
	if gpus > count {
		return nil, fmt.Errorf("cuda/fast: --gpus %d asks for more GPUs than the %d this machine has", gpus, count)
	}
	n := x.N
	if n == 0 {
		return maxplus.New(0), nil
	}
	np := padded(n)
	ranges, err := cuda.SplitColumns(np, gpus, Block)
	if err != nil {
		return nil, err
	}
	var fds []*fastDev
	for d, r := range ranges {
		if r.Len() == 0 {
			continue
		}
		dev, err := cuda.Open(d)
		if err != nil {
			return nil, fmt.Errorf("cuda/fast: %w", err)
		}
		sc, err := slabSchedule(np, r.Lo, r.Hi)
		if err != nil {
			return nil, err
		}
		fds = append(fds, &fastDev{dev: dev, sc: sc, n: n, first: d == 0})
	}
	// One device with columns (one GPU, or too few columns to share) closes
	// and permutes back on its own.
	fds[0].single = len(fds) == 1
	// The first device receives the others' slabs.
	for _, fd := range fds[1:] {
		fd.recvOff = fds[0].recvElems
		fds[0].recvElems += int64(np-fd.sc.Lo) * int64(fd.sc.Hi-fd.sc.Lo)
	}
	for _, fd := range fds {
		release := fd.dev.Acquire()
		defer release()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := results.Take(n * n)
	rec.BeginTotal()
	if err := enablePeers(fds); err != nil {
		results.Give(out.Wait())
		return nil, fmt.Errorf("cuda/fast: %w", err)
	}
	w, err := runFast(ctx, x, fds, out, rec)
	if err != nil {
		results.Give(out.Wait())
		return nil, fmt.Errorf("cuda/fast n=%d: %w", n, err)
	}
	return w, nil
}

// fastDev is one device's part of a cuda/fast run.
type fastDev struct {
	dev           *cuda.Device
	sc            schedule
	n             int
	first, single bool

	x, p, z, perm, flag, desc, bits driver.DevicePtr
	descs                           []gemmDesc
	fn                              map[string]driver.Function
	elapsed                         time.Duration    // the last GPU phase
	recv                            driver.DevicePtr // the first device's buffer for the others' slabs
	recvElems                       int64            // its size (first device), in floats
	recvOff                         int64            // where this device's slab goes in it, in floats
	backward                        bool             // the permutation found an arc on or above the diagonal
}

// traceStep, when set (by tests), receives the GPU time of every launch of
// the closure; the launches are then timed one by one.
var traceStep func(i int, what string, d time.Duration)

// predPool keeps the predecessor bit sets' host buffers between runs.
var predPool sync.Pool

func getPred(n int) []uint64 {
	if p, ok := predPool.Get().(*[]uint64); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]uint64, n)
}

// tracePhase, when set (by tests), receives the parts of host phases.
var tracePhase func(what string, d time.Duration)

// smallTilesOnly, when set (by tests), makes every product use the 64 x 64
// tiles.
var smallTilesOnly bool

// enablePeers lets the first device and each other device access each
// other's memory where the hardware allows (NVLink, PCIe P2P), so that
// their copies go directly; elsewhere the driver stages them.
func enablePeers(fds []*fastDev) error {
	d0 := fds[0].dev
	for _, fd := range fds[1:] {
		d := fd.dev
		if ok, err := driver.CanAccessPeer(d0.Ctx.Device(), d.Ctx.Device()); err == nil && ok {
			if err := d0.Do(func(t *driver.Thread) error { return t.EnablePeerAccess(d.Ctx) }); err != nil {
				return fmt.Errorf("peer access from GPU %d to %d: %w", d0.Ordinal, d.Ordinal, err)
			}
		}
		if ok, err := driver.CanAccessPeer(d.Ctx.Device(), d0.Ctx.Device()); err == nil && ok {
			if err := d.Do(func(t *driver.Thread) error { return t.EnablePeerAccess(d0.Ctx) }); err != nil {
				return fmt.Errorf("peer access from GPU %d to %d: %w", d.Ordinal, d0.Ordinal, err)
			}
		}
	}
	return nil
}

// each runs f on every device's context thread at once and returns the
// first error.
func each(fds []*fastDev, f func(fd *fastDev, t *driver.Thread) error) error {
	if len(fds) == 1 {
		return fds[0].dev.Do(func(t *driver.Thread) error { return f(fds[0], t) })
	}
	errs := make([]error, len(fds))
	var wg sync.WaitGroup
	for i, fd := range fds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fd.dev.Do(func(t *driver.Thread) error { return f(fd, t) })
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// slowest returns the longest GPU phase of the devices.
func slowest(fds []*fastDev) time.Duration {
	var d time.Duration
	for _, fd := range fds {
		d = max(d, fd.elapsed)
	}
	return d
}

func runFast(ctx context.Context, x *maxplus.Matrix, fds []*fastDev, out *cuda.Pending[float32], rec *bench.Recorder) (*maxplus.Matrix, error) {
	n := x.N
	// Buffers, after checking that they fit.
	if err := each(fds, func(fd *fastDev, t *driver.Thread) error { return fd.setup(t) }); err != nil {
		return nil, err
	}

	// h2d: X as it is, to the first device, and from there to the others
	// device to device.
	stop := rec.Start(PhaseH2D)
	d0 := fds[0]
	if err := d0.dev.Do(func(t *driver.Thread) error {
		if err := cuda.Upload(t, d0.dev, d0.x, x.Val); err != nil {
			return err
		}
		for _, fd := range fds[1:] {
			if err := t.CopyPeerAsync(fd.x, fd.dev.Ctx, d0.x, d0.dev.Ctx, 4*int64(n)*int64(n), d0.dev.Stream()); err != nil {
				return fmt.Errorf("copying X to GPU %d: %w", fd.dev.Ordinal, err)
			}
		}
		return t.StreamSynchronize(d0.dev.Stream())
	}); err != nil {
		return nil, err
	}
	stop()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// topo_sort: predecessor bit sets on the first device, order on the host.
	stop = rec.Start(kleene.PhaseTopoSort)
	t0 := time.Now()
	words := words64(n)
	pred := getPred(n * words)
	defer predPool.Put(&pred)
	flags := make([]int32, 4)
	if err := fds[0].dev.Do(func(t *driver.Thread) error { return fds[0].predBits(t, pred, flags) }); err != nil {
		return nil, err
	}
	if flags[1] != 0x7fffffff {
		return nil, kleene.BadWeight(x, int(flags[1]))
	}
	t1 := time.Now()
	order, err := topoFromPred(n, words, pred, false)
	if err != nil {
		return nil, err
	}
	perm := append(order, inverse(order)...) // perm, then pos
	t2 := time.Now()
	if err := each(fds, func(fd *fastDev, t *driver.Thread) error {
		return cuda.Upload(t, fd.dev, fd.perm, perm)
	}); err != nil {
		return nil, err
	}
	stop()
	if tracePhase != nil {
		tracePhase("topo_sort: bit sets on the device and back", t1.Sub(t0))
		tracePhase("topo_sort: depth-first search on the host", t2.Sub(t1))
		tracePhase("topo_sort: order to the device", time.Since(t2))
	}

	// init_w: P = e ⊕ X in topological order.
	if err := each(fds, func(fd *fastDev, t *driver.Thread) error { return fd.permute(t) }); err != nil {
		return nil, err
	}
	rec.Add(kleene.PhaseInitW, slowest(fds))
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// update_w: the closure, then the permutation back on the first device;
	// with several GPUs the others' column slabs first travel to it. With one
	// GPU the phase is timed with events; with several, on the host clock
	// (from the first launch to the closure assembled on the first device).
	t3 := time.Now()
	if err := each(fds, func(fd *fastDev, t *driver.Thread) error { return fd.close(t) }); err != nil {
		return nil, err
	}
	if len(fds) == 1 {
		rec.Add(kleene.PhaseUpdateW, fds[0].elapsed)
	} else {
		if err := each(fds[1:], func(fd *fastDev, t *driver.Thread) error { return fd.send(t, d0) }); err != nil {
			return nil, err
		}
		if err := d0.dev.Do(func(t *driver.Thread) error { return d0.gather(t, fds[1:]) }); err != nil {
			return nil, err
		}
		rec.Add(kleene.PhaseUpdateW, time.Since(t3))
	}
	for _, fd := range fds {
		if fd.backward {
			// An arc goes backwards in the order: X has a cycle. Search
			// again, checking, to name a node on it.
			if _, err := topoFromPred(n, words, pred, true); err != nil {
				return nil, err
			}
			return nil, errors.New("internal error: X is not lower triangular in the computed topological order")
		}
	}
	// close waited for the closure (StopTimer, then the flag's download) and
	// gather for the slabs: W is complete in the first device's memory.
	rec.EndTotal()

	// d2h
	stop = rec.Start(PhaseD2H)
	defer stop()
	w := &maxplus.Matrix{N: n, Val: out.Wait()}
	if err := d0.dev.Do(func(t *driver.Thread) error { return cuda.Download(t, d0.dev, w.Val, d0.x) }); err != nil {
		return nil, err
	}
	return w, nil
}

// setup checks the device's memory, takes its buffers and kernels, and
// resolves and uploads the schedule's product descriptors.
func (fd *fastDev) setup(t *driver.Thread) error {
	d := fd.dev
	bufs := fastBuffers(fd.n, fd.sc, countDescs(fd.sc), fd.first, fd.recvElems)
	if err := d.Check(t, cuda.Plan{What: fmt.Sprintf("cuda/fast n=%d", fd.n), Buffers: bufs}); err != nil {
		return err
	}
	ptr := map[string]*driver.DevicePtr{"fast.x": &fd.x, "fast.p": &fd.p, "fast.z": &fd.z, "fast.perm": &fd.perm,
		"fast.flag": &fd.flag, "fast.desc": &fd.desc, "fast.bits": &fd.bits, "fast.recv": &fd.recv}
	for _, b := range bufs {
		p, err := d.Buffer(t, b.Name, b.Bytes)
		if err != nil {
			return err
		}
		*ptr[b.Name] = p
	}
	fd.fn = map[string]driver.Function{}
	for _, name := range []string{"kleene_pred_bits", "kleene_permute", "kleene_unpermute", "kleene_diag_closure",
		"kleene_gemm128", "kleene_gemm64", "kleene_copy2d"} {
		f, err := d.Function(t, module, name)
		if err != nil {
			return err
		}
		fd.fn[name] = f
	}
	base := map[int]driver.DevicePtr{bufP: fd.p, bufT: fd.x, bufZ: fd.z}
	addr := func(o operand) uint64 { return uint64(base[o.Buf]) + 4*uint64(o.Off) }
	fd.descs = fd.descs[:0]
	for _, st := range fd.sc.Steps {
		for _, g := range st.Gemms {
			fd.descs = append(fd.descs, gemmDesc{A: addr(g.A), B: addr(g.B), C: addr(g.C),
				LDA: g.A.LD, LDB: g.B.LD, LDC: g.C.LD, M: int32(g.M), N: int32(g.N), K: int32(g.K), Flags: g.Flags})
		}
	}
	if len(fd.descs) > 0 {
		if err := cuda.Upload(t, fd.dev, fd.desc, fd.descs); err != nil {
			return fmt.Errorf("product descriptors: %w", err)
		}
	}
	return nil
}

// predBits writes the predecessor bit sets and the input check on the
// device and copies both to the host.
func (fd *fastDev) predBits(t *driver.Thread, pred []uint64, flags []int32) error {
	s, n := fd.dev.Stream(), fd.n
	if err := t.MemsetD32Async(fd.flag, 0, 4, s); err != nil {
		return err
	}
	if err := t.MemsetD32Async(fd.flag.Add(4), 0x7fffffff, 1, s); err != nil {
		return err
	}
	words32 := 2 * words64(n)
	warps := n * words32
	blocks := min((warps*32+255)/256, fd.dev.Props.SMs*16)
	if err := t.Launch(fd.fn["kleene_pred_bits"], driver.D1(blocks), driver.D1(256), 0, s,
		fd.x, n, int64(n), fd.bits, words32, fd.flag); err != nil {
		return fmt.Errorf("predecessor sets: %w", err)
	}
	if err := cuda.Download(t, fd.dev, pred, fd.bits); err != nil {
		return fmt.Errorf("predecessor sets: %w", err)
	}
	return cuda.Download(t, fd.dev, flags, fd.flag)
}

// permute writes P = e ⊕ X in topological order, timed.
func (fd *fastDev) permute(t *driver.Thread) error {
	s, n, np := fd.dev.Stream(), fd.n, fd.sc.NP
	if err := fd.dev.StartTimer(t); err != nil {
		return err
	}
	gy := min((np+31)/32, 65535)
	if err := t.Launch(fd.fn["kleene_permute"], driver.D2((np+31)/32, gy), driver.D2(32, 8), 0, s,
		fd.x, n, int64(n), fd.perm, fd.p, np, int64(np), fd.flag); err != nil {
		return fmt.Errorf("permute: %w", err)
	}
	d, err := fd.dev.StopTimer(t)
	fd.elapsed = d
	return err
}

// close runs the closure schedule, timed; on a single GPU it also permutes
// the closure back into fd.x (as W). It reads the permutation's flag: an arc
// that went backwards (fd.backward).
func (fd *fastDev) close(t *driver.Thread) error {
	s, np := fd.dev.Stream(), fd.sc.NP
	if err := fd.dev.StartTimer(t); err != nil {
		return err
	}
	next := 0
	var ev [2]driver.Event
	if traceStep != nil {
		for k := range ev {
			e, err := t.EventCreate(driver.EventDefault)
			if err != nil {
				return err
			}
			defer t.EventDestroy(e)
			ev[k] = e
		}
	}
	for i, st := range fd.sc.Steps {
		if traceStep != nil {
			if err := t.EventRecord(ev[0], s); err != nil {
				return err
			}
		}
		what := ""
		if st.DiagCount > 0 {
			what = fmt.Sprintf("diagonal %d blocks", st.DiagCount)
			if err := t.Launch(fd.fn["kleene_diag_closure"], driver.D1(st.DiagCount), driver.D1(256), 0, s,
				fd.p, int64(np), st.DiagFirst); err != nil {
				return fmt.Errorf("step %d (diagonal blocks): %w", i, err)
			}
		}
		if len(st.Gemms) > 0 {
			name, tile := fd.pickGemm(st.Gemms)
			tiles := 0
			for _, g := range st.Gemms {
				tiles = max(tiles, ((g.M+tile-1)/tile)*((g.N+tile-1)/tile))
			}
			grid := driver.D3(tiles, 1, len(st.Gemms))
			if err := t.Launch(fd.fn[name], grid, driver.D1(256), 0, s, fd.desc.Add(int64(next)*descSize)); err != nil {
				return fmt.Errorf("step %d (%d products): %w", i, len(st.Gemms), err)
			}
			next += len(st.Gemms)
			what = fmt.Sprintf("%s x%d %dx%dx%d flags %d", name, len(st.Gemms), st.Gemms[0].M, st.Gemms[0].N, st.Gemms[0].K, st.Gemms[0].Flags)
		}
		if traceStep != nil {
			if err := t.EventRecord(ev[1], s); err != nil {
				return err
			}
			if err := t.EventSynchronize(ev[1]); err != nil {
				return err
			}
			d, err := t.EventElapsed(ev[0], ev[1])
			if err != nil {
				return err
			}
			traceStep(i, what, d)
		}
	}
	if fd.single {
		if err := fd.unpermute(t); err != nil {
			return err
		}
	}
	d, err := fd.dev.StopTimer(t)
	if err != nil {
		return err
	}
	fd.elapsed = d
	f := make([]int32, 4)
	if err := cuda.Download(t, fd.dev, f, fd.flag); err != nil {
		return err
	}
	fd.backward = f[0] != 0
	return nil
}

// pickGemm takes the 128 x 128 tiles when they give every multiprocessor
// four tiles or more (the triangular products' tiles differ in length, and
// several waves balance them), else the 64 x 64 ones. Measured on an H100 at
// n = 4000, the 64 x 64 tiles were faster at every level.
func (fd *fastDev) pickGemm(gs []gemmOp) (string, int) {
	if smallTilesOnly {
		return "kleene_gemm64", tileSmall
	}
	tiles := 0
	for _, g := range gs {
		tiles += ((g.M + tileLarge - 1) / tileLarge) * ((g.N + tileLarge - 1) / tileLarge)
	}
	if tiles >= 4*fd.dev.Props.SMs {
		return "kleene_gemm128", tileLarge
	}
	return "kleene_gemm64", tileSmall
}

// send packs the device's column slab, rows lo..np of columns lo..hi of P,
// into fd.x and copies it into the first device's receive buffer.
func (fd *fastDev) send(t *driver.Thread, d0 *fastDev) error {
	np, lo, hi := fd.sc.NP, fd.sc.Lo, fd.sc.Hi
	w, rows := hi-lo, np-lo
	gy := min((rows+31)/32, 65535)
	s := fd.dev.Stream()
	if err := t.Launch(fd.fn["kleene_copy2d"], driver.D2((w+31)/32, gy), driver.D2(32, 8), 0, s,
		fd.p.Add(4*(int64(lo)*int64(np)+int64(lo))), int64(np), fd.x, int64(w), rows, w); err != nil {
		return fmt.Errorf("packing the slab of GPU %d: %w", fd.dev.Ordinal, err)
	}
	if err := t.CopyPeerAsync(d0.recv.Add(4*fd.recvOff), d0.dev.Ctx, fd.x, fd.dev.Ctx, 4*int64(rows)*int64(w), s); err != nil {
		return fmt.Errorf("slab of GPU %d to GPU %d: %w", fd.dev.Ordinal, d0.dev.Ordinal, err)
	}
	return t.StreamSynchronize(s)
}

// gather writes the other devices' slabs, received in fd.recv, into place
// in P, and permutes the whole closure back into fd.x (as W).
func (fd *fastDev) gather(t *driver.Thread, others []*fastDev) error {
	np, s := fd.sc.NP, fd.dev.Stream()
	for _, o := range others {
		lo, hi := o.sc.Lo, o.sc.Hi
		w, rows := hi-lo, np-lo
		gy := min((rows+31)/32, 65535)
		if err := t.Launch(fd.fn["kleene_copy2d"], driver.D2((w+31)/32, gy), driver.D2(32, 8), 0, s,
			fd.recv.Add(4*o.recvOff), int64(w), fd.p.Add(4*(int64(lo)*int64(np)+int64(lo))), int64(np), rows, w); err != nil {
			return fmt.Errorf("placing the slab of GPU %d: %w", o.dev.Ordinal, err)
		}
	}
	if err := fd.unpermute(t); err != nil {
		return err
	}
	return t.StreamSynchronize(s)
}

// unpermute writes W[i,j] = P[pos[i], pos[j]] into fd.x.
func (fd *fastDev) unpermute(t *driver.Thread) error {
	n, np := fd.n, fd.sc.NP
	gy := min((n+31)/32, 65535)
	if err := t.Launch(fd.fn["kleene_unpermute"], driver.D2((n+31)/32, gy), driver.D2(32, 8), 0, fd.dev.Stream(),
		fd.p, int64(np), fd.perm.Add(4*int64(n)), n, fd.x, int64(n)); err != nil {
		return fmt.Errorf("unpermute: %w", err)
	}
	return nil
}
