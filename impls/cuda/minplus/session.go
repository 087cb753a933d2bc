package cudaminplus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/minplus"
)

// Session computes successive (min,+) powers A^k = A ⊗ A^(k-1) on one
// device, the paper's Algorithm 2, without moving the powers: A (in CSR,
// and dense for the dense implementations) and two power buffers that
// alternate stay on the device from NewSession to Close, so each Step is
// one kernel launch. Stats reduces the current power on the device to a few
// numbers; Download fetches it whole only when asked.
//
// The device memory belongs to the Session (it is not among the device's
// shared named buffers), so other runs on the device between calls leave it
// alone. A Session is not safe for concurrent use; each call holds the
// device only while it runs.
type Session struct {
	dev    *cuda.Device
	impl   string
	n, nnz int
	k      int
	kern   *kernelSet
	a      driver.DevicePtr    // dense A (dense implementations)
	csr    [3]driver.DevicePtr // ptr, idx, val
	p      [2]driver.DevicePtr // the powers; cur holds A^k
	cur    int
	stats  driver.DevicePtr
	owned  []driver.DevicePtr
	last   time.Duration
	total  time.Duration
	broken error
}

// NewSession uploads A (in CSR; a dense matrix converts with CSRFromDense)
// and sets the current power to A^1 = A, for the named implementation
// (cuda/paper, cuda/fast or cuda/sparse). The device memory of
// SessionPlan is checked against opt.MemoryLimit, when set, before the
// device is opened, and against the free memory: a refusal names the bytes
// needed and the limit or the bytes free.
func NewSession(ctx context.Context, impl string, a *minplus.CSR, opt minplus.SessionOptions) (*Session, error) {
	if err := a.Check(); err != nil {
		return nil, fmt.Errorf("%s session: %w", impl, err)
	}
	plan, err := SessionPlan(impl, a.N, a.NNZ())
	if err != nil {
		return nil, err
	}
	if a.N == 0 {
		return nil, fmt.Errorf("%s session: empty matrix", impl)
	}
	if opt.MemoryLimit > 0 && plan.Total() > opt.MemoryLimit {
		return nil, fmt.Errorf("%s session: %s needs %d bytes (%s) of device memory, over the limit of %d bytes (%s)",
			impl, plan.What, plan.Total(), cuda.FormatBytes(plan.Total()), opt.MemoryLimit, cuda.FormatBytes(opt.MemoryLimit))
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, fmt.Errorf("%s session: %w", impl, err)
	}
	s := &Session{dev: dev, impl: impl, n: a.N, nnz: a.NNZ(), k: 1}
	err = dev.Run(ctx, func(t *driver.Thread) error {
		if err := dev.Check(t, plan); err != nil {
			return err
		}
		if s.kern, err = loadKernels(t, dev, impl); err != nil {
			return err
		}
		var bufs sessionBuffers
		err := cuda.BindWith(plan, &bufs, func(b cuda.Buffer) (driver.DevicePtr, error) {
			p, err := t.MemAlloc(int64(b.Bytes))
			if err != nil {
				return 0, fmt.Errorf("allocating %s (%s): %w", b.Name, cuda.FormatBytes(b.Bytes), err)
			}
			s.owned = append(s.owned, p)
			return p, nil
		})
		if err != nil {
			return err
		}
		s.csr = [3]driver.DevicePtr{bufs.CSRPtr, bufs.CSRIdx, bufs.CSRVal}
		s.p = [2]driver.DevicePtr{bufs.P0, bufs.P1}
		s.a, s.stats = bufs.A, bufs.Stats
		if err := uploadCSR(t, dev, a, s.csr[0], s.csr[1], s.csr[2]); err != nil {
			return err
		}
		return s.first(t, true)
	})
	if err != nil {
		s.release()
		return nil, fmt.Errorf("%s session n=%d: %w", impl, a.N, err)
	}
	return s, nil
}

// first scatters the CSR A into the first power buffer, the current power
// becoming A^1 (and, with dense, copies it to the dense A).
func (s *Session) first(t *driver.Thread, dense bool) error {
	ld := LeadingDim(s.n)
	total := int64(s.n) * int64(ld)
	st := s.dev.Stream()
	if err := t.Launch(s.kern.fill, driver.D1(int(min((total+255)/256, int64(s.dev.Props.SMs)*32))), driver.D1(256), 0, st,
		s.p[0], total, int(Inf)); err != nil {
		return fmt.Errorf("filling A^1: %w", err)
	}
	if err := t.Launch(s.kern.scatter, driver.D1((s.n+255)/256), driver.D1(256), 0, st,
		s.csr[0], s.csr[1], s.csr[2], s.n, s.p[0], int64(ld)); err != nil {
		return fmt.Errorf("scattering A^1: %w", err)
	}
	if dense && s.a != 0 {
		if err := t.CopyDeviceAsync(s.a, s.p[0], 2*total, st); err != nil {
			return fmt.Errorf("copying A: %w", err)
		}
	}
	if err := t.StreamSynchronize(st); err != nil {
		return err
	}
	s.cur, s.k = 0, 1
	return nil
}

// Restart makes A^1 = A the current power again (A stays on the device), to
// recompute earlier powers; the step times go on adding to Total.
func (s *Session) Restart(ctx context.Context) error {
	return s.do(ctx, "restart", func(t *driver.Thread) error { return s.first(t, false) })
}

// release frees what NewSession allocated, after a failure.
func (s *Session) release() {
	if len(s.owned) == 0 {
		return
	}
	_ = s.dev.Run(context.Background(), func(t *driver.Thread) error {
		for _, p := range s.owned {
			_ = t.MemFree(p)
		}
		return nil
	})
	s.owned = nil
}

// N returns the order of A.
func (s *Session) N() int { return s.n }

// Impl returns the implementation's name.
func (s *Session) Impl() string { return s.impl }

// Power returns k, the exponent of the current power A^k.
func (s *Session) Power() int { return s.k }

// Updates returns the (min,+) updates of one Step: n³ for the dense
// implementations, nnz(A)·n for cuda/sparse.
func (s *Session) Updates() float64 {
	if s.impl == NameSparse {
		return minplus.SparseUpdates(s.n, s.nnz)
	}
	return minplus.DenseUpdates(s.n)
}

// LastStep returns the GPU time of the last Step (CUDA events), and Total
// that of all Steps.
func (s *Session) LastStep() time.Duration { return s.last }

// Total returns the GPU time of all Steps so far.
func (s *Session) Total() time.Duration { return s.total }

// do runs f on the device, refusing once the session is closed or broken.
func (s *Session) do(ctx context.Context, what string, f func(t *driver.Thread) error) error {
	if s.broken != nil {
		return fmt.Errorf("%s session: %s: %w", s.impl, what, s.broken)
	}
	if s.owned == nil {
		return fmt.Errorf("%s session: %s: the session is closed", s.impl, what)
	}
	err := s.dev.Run(ctx, f)
	if err != nil {
		if driver.Sticky(err) {
			s.broken = err
		}
		return fmt.Errorf("%s session n=%d, A^%d: %s: %w", s.impl, s.n, s.k, what, err)
	}
	return nil
}

// Step computes the next power, A^(k+1) = A ⊗ A^k, on the device.
func (s *Session) Step(ctx context.Context) error {
	return s.do(ctx, "product", func(t *driver.Thread) error {
		if err := s.dev.StartTimer(t); err != nil {
			return err
		}
		if err := s.kern.launchProduct(t, s.dev, s.impl, s.n, s.a, s.p[s.cur], s.p[1-s.cur], s.csr); err != nil {
			return err
		}
		d, err := s.dev.StopTimer(t)
		if err != nil {
			return err
		}
		s.cur = 1 - s.cur
		s.k++
		s.last = d
		s.total += d
		return nil
	})
}

// Stats reduces the current power A^k on the device (see Stats).
func (s *Session) Stats(ctx context.Context) (minplus.Stats, error) {
	var st minplus.Stats
	err := s.do(ctx, "statistics", func(t *driver.Thread) error {
		var err error
		st, err = s.kern.readStats(t, s.dev, s.n, s.p[s.cur], s.stats)
		st.Power = s.k
		return err
	})
	return st, err
}

// Download copies the current power A^k, n x n row-major, into dst.
func (s *Session) Download(ctx context.Context, dst []int16) error {
	if len(dst) != s.n*s.n {
		return fmt.Errorf("%s session: download into %d entries, want n² = %d", s.impl, len(dst), s.n*s.n)
	}
	return s.do(ctx, "download", func(t *driver.Thread) error {
		// The other power buffer is free until the next Step.
		scratch := s.p[1-s.cur]
		if err := s.kern.unpadTo(t, s.dev, s.n, s.p[s.cur], scratch); err != nil {
			return err
		}
		return cuda.Download(t, s.dev, dst, scratch)
	})
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
	if s.owned == nil {
		return nil
	}
	if s.broken != nil { // the context, and its memory, went with the error
		s.owned = nil
		return nil
	}
	var errs []error
	err := s.dev.Run(context.Background(), func(t *driver.Thread) error {
		for _, p := range s.owned {
			if err := t.MemFree(p); err != nil {
				errs = append(errs, err)
			}
		}
		return nil
	})
	s.owned = nil
	if err = errors.Join(append(errs, err)...); err != nil {
		return fmt.Errorf("%s session: closing: %w", s.impl, err)
	}
	return nil
}
