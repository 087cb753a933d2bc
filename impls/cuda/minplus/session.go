package cudaminplus

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/minplus"
)

// Session computes successive (min,+) powers A^k = A ⊗ A^(k-1) on the
// device, the paper's Algorithm 2, without moving the powers: A (in CSR,
// and dense for the dense implementations) and two power buffers that
// alternate stay on the device from NewSession to Close, so each Step is
// one kernel launch. Stats reduces the current power on the device to a few
// numbers; Download fetches it whole only when asked.
//
// With SessionOptions.GPUs = N > 1 the powers are split into N column
// slabs (cuda.SplitEven, boundaries on multiples of Align), slab d on
// device d: column j of A^(k+1) = A ⊗ A^k reads only column j of A^k, so
// each device holds all of A and its own columns of the two powers, and the
// slabs step in lockstep, each driven from its own goroutine (and its
// device's context thread). The statistics kernel counts positions and the
// diagonal in the whole matrix, so the slabs' Stats Add up to the whole
// power's, exactly and in any order. cuda/sparse and cuda/fast split;
// cuda/paper runs one slab on SessionOptions.Device whatever GPUs says.
//
// The device memory belongs to the Session (it is not among the device's
// shared named buffers), so other runs on the device between calls leave it
// alone. A Session is not safe for concurrent use; each call holds its
// devices only while it runs.
type Session struct {
	impl   string
	n, nnz int
	k      int
	slabs  []*slab
	cur    int // which of each slab's two power buffers holds A^k
	last   time.Duration
	total  time.Duration
	broken error
}

// slab is one column slab of the powers: the columns [lo, lo+w) of every
// power, n rows of leading dimension LeadingDim(w), on one device.
type slab struct {
	dev   *cuda.Device
	lo, w int
	kern  *kernelSet
	prod  driver.Function     // the slab form of cuda/fast's kernel (a part of the matrix only)
	a     driver.DevicePtr    // dense A (dense implementations), n x LeadingDim(n)
	csr   [3]driver.DevicePtr // ptr, idx, val
	p     [2]driver.DevicePtr // the slabs of two powers
	stats driver.DevicePtr
	owned []driver.DevicePtr
	last  time.Duration // the GPU time of its last product
}

// whole reports whether the slab is the whole matrix (one slab): its
// kernels are launched exactly as a single-device session's always were.
func (sl *slab) whole(n int) bool { return sl.lo == 0 && sl.w == n }

// ld is the slab's leading dimension.
func (sl *slab) ld() int { return LeadingDim(sl.w) }

// CheckGPUs refuses a number of GPUs (slabs on distinct devices) that is
// not positive or exceeds the count this machine has, naming --gpus and
// the count found.
func CheckGPUs(gpus, count int) error {
	if gpus < 1 {
		return fmt.Errorf("--gpus %d: the number of GPUs must be positive", gpus)
	}
	if gpus > count {
		return fmt.Errorf("--gpus %d asks for more GPUs than the %d this machine has", gpus, count)
	}
	return nil
}

// SlabPlan returns the device memory of one slab of w columns of a Session
// of the named implementation (SessionPlan is the whole matrix, w = n): A
// in CSR, the slabs of the two powers, the statistics, and for the dense
// implementations A dense (whole) as well.
func SlabPlan(name string, n, nnz, w int) (cuda.Plan, error) {
	if w == n {
		return SessionPlan(name, n, nnz)
	}
	p, err := SessionPlan(name, n, nnz)
	if err != nil {
		return p, err
	}
	if name == NamePaper {
		return cuda.Plan{}, fmt.Errorf("minplus: %s sessions run one slab (the whole matrix), not %d of %d columns", name, w, n)
	}
	slabBytes := 2 * uint64(n) * uint64(LeadingDim(w))
	p.What = fmt.Sprintf("%s session n=%d nnz=%d, slab of %d columns", name, n, nnz, w)
	for i := range p.Buffers {
		if p.Buffers[i].Name == "session.p0" || p.Buffers[i].Name == "session.p1" {
			p.Buffers[i].Bytes = slabBytes
		}
	}
	return p, nil
}

// NewSession uploads A (in CSR; a dense matrix converts with CSRFromDense)
// and sets the current power to A^1 = A, for the named implementation
// (cuda/paper, cuda/fast or cuda/sparse), on opt.GPUs devices (column
// slabs; see Session). The device memory of each device's slabs
// (SlabPlan) is checked against opt.MemoryLimit, when set, before any
// device is opened, and against the free memory: a refusal names the bytes
// needed and the limit or the bytes free.
func NewSession(ctx context.Context, impl string, a *minplus.CSR, opt minplus.SessionOptions) (*Session, error) {
	if err := a.Check(); err != nil {
		return nil, fmt.Errorf("%s session: %w", impl, err)
	}
	if _, err := SessionPlan(impl, a.N, a.NNZ()); err != nil {
		return nil, err
	}
	if a.N == 0 {
		return nil, fmt.Errorf("%s session: empty matrix", impl)
	}
	gpus := max(opt.GPUs, 1)
	if opt.GPUs < 0 {
		return nil, fmt.Errorf("%s session: %w", impl, CheckGPUs(opt.GPUs, 0))
	}
	if impl == NamePaper {
		gpus = 1 // the paper's kernel does not split: one slab on opt.Device
	}
	ranges, err := cuda.SplitEven(a.N, gpus, Align)
	if err != nil {
		return nil, fmt.Errorf("%s session: --gpus %d: %w", impl, gpus, err)
	}
	ordinal := func(d int) int {
		if gpus == 1 || opt.OneDevice {
			return opt.Device
		}
		return d
	}
	plans := make([]cuda.Plan, gpus)
	perDevice := map[int]uint64{}
	for d, r := range ranges {
		if plans[d], err = SlabPlan(impl, a.N, a.NNZ(), r.Len()); err != nil {
			return nil, err
		}
		perDevice[ordinal(d)] += plans[d].Total()
	}
	for dev, need := range perDevice {
		if opt.MemoryLimit > 0 && need > opt.MemoryLimit {
			return nil, fmt.Errorf("%s session: %s needs %d bytes (%s) of device memory on device %d, over the limit of %d bytes (%s)",
				impl, plans[0].What, need, cuda.FormatBytes(need), dev, opt.MemoryLimit, cuda.FormatBytes(opt.MemoryLimit))
		}
	}
	if gpus > 1 && !opt.OneDevice {
		count, err := cuda.DeviceCount()
		if err != nil {
			return nil, fmt.Errorf("%s session: %w", impl, err)
		}
		if err := CheckGPUs(gpus, count); err != nil {
			return nil, fmt.Errorf("%s session: %w", impl, err)
		}
	}
	s := &Session{impl: impl, n: a.N, nnz: a.NNZ(), k: 1}
	for d, r := range ranges {
		dev, err := cuda.Open(ordinal(d))
		if err != nil {
			return nil, fmt.Errorf("%s session: %w", impl, err)
		}
		s.slabs = append(s.slabs, &slab{dev: dev, lo: r.Lo, w: r.Len()})
	}
	err = s.each(ctx, func(d int, sl *slab, t *driver.Thread) error { return s.open(t, sl, plans[d], a) })
	if err != nil {
		s.release()
		return nil, fmt.Errorf("%s session n=%d: %w", impl, a.N, err)
	}
	return s, nil
}

// open allocates and fills one slab on its device.
func (s *Session) open(t *driver.Thread, sl *slab, plan cuda.Plan, a *minplus.CSR) error {
	if err := sl.dev.Check(t, plan); err != nil {
		return err
	}
	var err error
	if sl.kern, err = loadKernels(t, sl.dev, s.impl); err != nil {
		return err
	}
	if s.impl == NameFast && !sl.whole(s.n) {
		if sl.prod, err = sl.dev.Function(t, module, sl.kern.productName+"_slab"); err != nil {
			return err
		}
	}
	var bufs sessionBuffers
	err = cuda.BindWith(plan, &bufs, func(b cuda.Buffer) (driver.DevicePtr, error) {
		p, err := t.MemAlloc(int64(b.Bytes))
		if err != nil {
			return 0, fmt.Errorf("allocating %s (%s): %w", b.Name, cuda.FormatBytes(b.Bytes), err)
		}
		sl.owned = append(sl.owned, p)
		return p, nil
	})
	if err != nil {
		return err
	}
	sl.csr = [3]driver.DevicePtr{bufs.CSRPtr, bufs.CSRIdx, bufs.CSRVal}
	sl.p = [2]driver.DevicePtr{bufs.P0, bufs.P1}
	sl.a, sl.stats = bufs.A, bufs.Stats
	if err := uploadCSR(t, sl.dev, a, sl.csr[0], sl.csr[1], sl.csr[2]); err != nil {
		return err
	}
	return s.first(t, sl, true)
}

// each runs f on every slab, each on its own goroutine holding the slab's
// device (slabs sharing a device take turns), and joins their errors. A
// sticky error marks the session broken.
func (s *Session) each(ctx context.Context, f func(d int, sl *slab, t *driver.Thread) error) error {
	errs := make([]error, len(s.slabs))
	if len(s.slabs) == 1 {
		errs[0] = s.slabs[0].dev.Run(ctx, func(t *driver.Thread) error { return f(0, s.slabs[0], t) })
	} else {
		var wg sync.WaitGroup
		for d, sl := range s.slabs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := sl.dev.Run(ctx, func(t *driver.Thread) error { return f(d, sl, t) }); err != nil {
					errs[d] = fmt.Errorf("slab %d (columns %d..%d, device %d): %w", d, sl.lo, sl.lo+sl.w-1, sl.dev.Ordinal, err)
				}
			}()
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil && driver.Sticky(err) {
			s.broken = err
		}
	}
	return errors.Join(errs...)
}

// fillLaunch fills count entries at p with Inf.
func fillLaunch(t *driver.Thread, sl *slab, p driver.DevicePtr, count int64) error {
	return t.Launch(sl.kern.fill, driver.D1(int(min((count+255)/256, int64(sl.dev.Props.SMs)*32))), driver.D1(256), 0, sl.dev.Stream(),
		p, count, int(Inf))
}

// scatterLaunch writes the columns [lo, lo+w) of the CSR A into dst
// (leading dimension ld), filled with Inf beforehand.
func scatterLaunch(t *driver.Thread, sl *slab, n int, dst driver.DevicePtr, ld, lo, w int) error {
	return t.Launch(sl.kern.scatter, driver.D1((n+255)/256), driver.D1(256), 0, sl.dev.Stream(),
		sl.csr[0], sl.csr[1], sl.csr[2], n, dst, int64(ld), lo, w)
}

// first scatters the CSR A's slab into the slab's first power buffer, the
// current power becoming A^1 (and, with dense, sets up the dense A: a copy
// of the whole first power, or its own scatter for a part).
func (s *Session) first(t *driver.Thread, sl *slab, dense bool) error {
	ld := sl.ld()
	total := int64(s.n) * int64(ld)
	if err := fillLaunch(t, sl, sl.p[0], total); err != nil {
		return fmt.Errorf("filling A^1: %w", err)
	}
	if err := scatterLaunch(t, sl, s.n, sl.p[0], ld, sl.lo, sl.w); err != nil {
		return fmt.Errorf("scattering A^1: %w", err)
	}
	st := sl.dev.Stream()
	if dense && sl.a != 0 {
		if sl.whole(s.n) {
			if err := t.CopyDeviceAsync(sl.a, sl.p[0], 2*total, st); err != nil {
				return fmt.Errorf("copying A: %w", err)
			}
		} else {
			lda := LeadingDim(s.n)
			if err := fillLaunch(t, sl, sl.a, int64(s.n)*int64(lda)); err != nil {
				return fmt.Errorf("filling A: %w", err)
			}
			if err := scatterLaunch(t, sl, s.n, sl.a, lda, 0, s.n); err != nil {
				return fmt.Errorf("scattering A: %w", err)
			}
		}
	}
	return t.StreamSynchronize(st)
}

// Restart makes A^1 = A the current power again (A stays on the device), to
// recompute earlier powers; the step times go on adding to Total.
func (s *Session) Restart(ctx context.Context) error {
	err := s.do(ctx, "restart", func(_ int, sl *slab, t *driver.Thread) error { return s.first(t, sl, false) })
	if err == nil {
		s.cur, s.k = 0, 1
	}
	return err
}

// release frees what NewSession allocated, after a failure.
func (s *Session) release() {
	for _, sl := range s.slabs {
		if len(sl.owned) == 0 {
			continue
		}
		_ = sl.dev.Run(context.Background(), func(t *driver.Thread) error {
			for _, p := range sl.owned {
				_ = t.MemFree(p)
			}
			return nil
		})
		sl.owned = nil
	}
	s.slabs = nil
}

// N returns the order of A.
func (s *Session) N() int { return s.n }

// Impl returns the implementation's name.
func (s *Session) Impl() string { return s.impl }

// Slabs returns the column ranges of the slabs, in order.
func (s *Session) Slabs() []cuda.Range {
	out := make([]cuda.Range, len(s.slabs))
	for d, sl := range s.slabs {
		out[d] = cuda.Range{Lo: sl.lo, Hi: sl.lo + sl.w}
	}
	return out
}

// Power returns k, the exponent of the current power A^k.
func (s *Session) Power() int { return s.k }

// Updates returns the (min,+) updates of one Step (all slabs together):
// n³ for the dense implementations, nnz(A)·n for cuda/sparse.
func (s *Session) Updates() float64 {
	if s.impl == NameSparse {
		return minplus.SparseUpdates(s.n, s.nnz)
	}
	return minplus.DenseUpdates(s.n)
}

// LastStep returns the GPU time of the last Step (CUDA events): with
// several slabs, the largest over the devices of the sum of the times of
// that device's slabs (the devices run in parallel, a device's slabs one
// after the other). Total is that of all Steps.
func (s *Session) LastStep() time.Duration { return s.last }

// Total returns the GPU time of all Steps so far.
func (s *Session) Total() time.Duration { return s.total }

// do runs f on every slab, refusing once the session is closed or broken.
func (s *Session) do(ctx context.Context, what string, f func(d int, sl *slab, t *driver.Thread) error) error {
	if s.broken != nil {
		return fmt.Errorf("%s session: %s: %w", s.impl, what, s.broken)
	}
	if s.slabs == nil {
		return fmt.Errorf("%s session: %s: the session is closed", s.impl, what)
	}
	if err := s.each(ctx, f); err != nil {
		return fmt.Errorf("%s session n=%d, A^%d: %s: %w", s.impl, s.n, s.k, what, err)
	}
	return nil
}

// product enqueues the slab's next power into its other buffer.
func (s *Session) product(t *driver.Thread, sl *slab) error {
	b, c := sl.p[s.cur], sl.p[1-s.cur]
	if sl.whole(s.n) {
		return sl.kern.launchProduct(t, sl.dev, s.impl, s.n, sl.a, b, c, sl.csr)
	}
	ld, st, inf := sl.ld(), sl.dev.Stream(), int(Inf)
	switch s.impl {
	case NameSparse:
		return t.Launch(sl.kern.product, driver.D2(s.n, (ld/8+127)/128), driver.D1(128), 0, st,
			sl.csr[0], sl.csr[1], sl.csr[2], b, c, s.n, int64(ld), inf)
	case NameFast:
		bm := 128
		if sl.kern.productName == "minplus_fast256" {
			bm = 256
		}
		return t.Launch(sl.prod, driver.D2((ld+255)/256, (s.n+bm-1)/bm), driver.D1(256), 0, st,
			sl.a, b, c, s.n, int64(LeadingDim(s.n)), int64(ld), inf)
	}
	return fmt.Errorf("minplus: %s does not split into slabs", s.impl)
}

// Step computes the next power, A^(k+1) = A ⊗ A^k, on the devices, every
// slab in lockstep.
func (s *Session) Step(ctx context.Context) error {
	err := s.do(ctx, "product", func(_ int, sl *slab, t *driver.Thread) error {
		if err := sl.dev.StartTimer(t); err != nil {
			return err
		}
		if err := s.product(t, sl); err != nil {
			return err
		}
		d, err := sl.dev.StopTimer(t)
		sl.last = d
		return err
	})
	if err != nil {
		return err
	}
	perDevice := map[int]time.Duration{}
	for _, sl := range s.slabs {
		perDevice[sl.dev.Ordinal] += sl.last
	}
	s.last = 0
	for _, d := range perDevice {
		s.last = max(s.last, d)
	}
	s.cur = 1 - s.cur
	s.k++
	s.total += s.last
	return nil
}

// Stats reduces the current power A^k on the devices (see Stats): each
// slab's statistics, Added.
func (s *Session) Stats(ctx context.Context) (minplus.Stats, error) {
	parts := make([]minplus.Stats, len(s.slabs))
	err := s.do(ctx, "statistics", func(d int, sl *slab, t *driver.Thread) error {
		var err error
		parts[d], err = sl.kern.readStats(t, sl.dev, s.n, sl.w, sl.lo, sl.ld(), sl.p[s.cur], sl.stats)
		return err
	})
	if err != nil {
		return minplus.Stats{}, err
	}
	st := parts[0]
	for _, p := range parts[1:] {
		st = st.Add(p)
	}
	st.Power = s.k
	return st, nil
}

// chunkBytes bounds the host buffer through which a slab's rows travel.
const chunkBytes = 64 << 20

// chunkRows is the rows of a slab per host chunk.
func (sl *slab) chunkRows(n int) int { return max(1, min(n, chunkBytes/(2*sl.ld()))) }

// Download copies the current power A^k, n x n row-major, into dst: each
// slab its own columns.
func (s *Session) Download(ctx context.Context, dst []int16) error {
	if len(dst) != s.n*s.n {
		return fmt.Errorf("%s session: download into %d entries, want n² = %d", s.impl, len(dst), s.n*s.n)
	}
	return s.do(ctx, "download", func(_ int, sl *slab, t *driver.Thread) error {
		if sl.whole(s.n) {
			// The other power buffer is free until the next Step.
			scratch := sl.p[1-s.cur]
			if err := sl.kern.unpadTo(t, sl.dev, s.n, sl.p[s.cur], scratch); err != nil {
				return err
			}
			return cuda.Download(t, sl.dev, dst, scratch)
		}
		ld, rows := sl.ld(), sl.chunkRows(s.n)
		buf := make([]int16, rows*ld)
		for r0 := 0; r0 < s.n; r0 += rows {
			r1 := min(s.n, r0+rows)
			if err := cuda.Download(t, sl.dev, buf[:(r1-r0)*ld], sl.p[s.cur].Add(2*int64(r0)*int64(ld))); err != nil {
				return err
			}
			for i := r0; i < r1; i++ {
				copy(dst[i*s.n+sl.lo:i*s.n+sl.lo+sl.w], buf[(i-r0)*ld:])
			}
		}
		return nil
	})
}

// SetPower makes src (n x n row-major) the current power A^k: each slab
// uploads its columns, padded, into its current buffer. Entries at or
// above Inf are stored as Inf; a negative entry is refused.
func (s *Session) SetPower(ctx context.Context, k int, src []int16) error {
	if len(src) != s.n*s.n {
		return fmt.Errorf("%s session: power of %d entries, want n² = %d", s.impl, len(src), s.n*s.n)
	}
	if k < 1 {
		return fmt.Errorf("%s session: power A^%d: the exponent must be at least 1", s.impl, k)
	}
	err := s.do(ctx, "setting the power", func(_ int, sl *slab, t *driver.Thread) error {
		ld, rows := sl.ld(), sl.chunkRows(s.n)
		buf := make([]int16, rows*ld)
		for r0 := 0; r0 < s.n; r0 += rows {
			r1 := min(s.n, r0+rows)
			for i := r0; i < r1; i++ {
				row, out := src[i*s.n+sl.lo:i*s.n+sl.lo+sl.w], buf[(i-r0)*ld:(i-r0+1)*ld]
				for j, v := range row {
					if v < 0 {
						return fmt.Errorf("entry (%d, %d) = %d is negative", i, sl.lo+j, v)
					}
					out[j] = min(v, Inf)
				}
				for j := sl.w; j < ld; j++ {
					out[j] = Inf
				}
			}
			if err := cuda.Upload(t, sl.dev, sl.p[s.cur].Add(2*int64(r0)*int64(ld)), buf[:(r1-r0)*ld]); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		s.k = k
	}
	return err
}

// Powers runs Algorithm 2's loop up to A^K: it calls each with the Stats of
// the current power, then steps and calls it again after every power until
// A^K. each may Download the power it is given; an error from it stops the
// loop and is returned. The context is checked between powers.
func (s *Session) Powers(ctx context.Context, K int, each func(minplus.Stats) error) error {
	if K < s.k {
		return fmt.Errorf("%s session: powers up to %d asked, but A^%d is already computed", s.impl, K, s.k)
	}
	for {
		st, err := s.Stats(ctx)
		if err != nil {
			return err
		}
		if each != nil {
			if err := each(st); err != nil {
				return err
			}
		}
		if s.k >= K {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.Step(ctx); err != nil {
			return err
		}
	}
}

// Close frees the session's device memory. A closed session refuses every
// call; closing twice is harmless.
func (s *Session) Close() error {
	if s.slabs == nil {
		return nil
	}
	slabs := s.slabs
	s.slabs = nil
	if s.broken != nil { // the context, and its memory, went with the error
		return nil
	}
	var errs []error
	for _, sl := range slabs {
		err := sl.dev.Run(context.Background(), func(t *driver.Thread) error {
			for _, p := range sl.owned {
				if err := t.MemFree(p); err != nil {
					errs = append(errs, err)
				}
			}
			return nil
		})
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s session: closing: %w", s.impl, err)
	}
	return nil
}
