package cudaapsp

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/apsp"
)

// PeakMinPlus32 measures the limit of cuda/fast's min-plus float32 update
// c := min(c, a + b) on the device: a kernel with no memory traffic runs
// 16 independent chains of one FADD and one FMNMX per thread on every SM
// (kernels/apsp.cu, apsp_peak_minplus32), timed with CUDA events; the best
// of five launches, in updates per second. Without CUDA the error matches
// driver.ErrUnavailable.
func PeakMinPlus32(ctx context.Context, opt Options) (float64, error) {
	return peak(ctx, opt, "apsp_peak_minplus32", 1, false)
}

// PeakMinPlus32NonNeg measures, as PeakMinPlus32, the limit of the update
// of cuda/fast's non-negative path (Stats.NonNeg): chains of two FADDs and
// one 3-way minimum, two updates each (apsp_peak_minplus32nn). Where the
// build lacks that minimum in one instruction (before Hopper, or the
// fallback PTX) the path is never taken and the error matches
// errors.ErrUnsupported.
func PeakMinPlus32NonNeg(ctx context.Context, opt Options) (float64, error) {
	return peak(ctx, opt, "apsp_peak_minplus32nn", 2, true)
}

// peak times the limit kernel fname, which does perChain updates a chain
// and iteration; with dpx it first asks apsp_signs_f32 whether the build
// has the 3-way minimum.
func peak(ctx context.Context, opt Options, fname string, perChain float64, dpx bool) (float64, error) {
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return 0, fmt.Errorf("cuda/fast peak: %w", err)
	}
	var best float64
	err = dev.Run(ctx, func(t *driver.Thread) error {
		const threads, perBlock, iters, chains = 256, 8, 1 << 14, 16
		blocks := dev.Props.SMs * perBlock
		fn, err := dev.Function(t, module, fname)
		if err != nil {
			return err
		}
		in, err := dev.Buffer(t, "peak.in", 256*4)
		if err != nil {
			return err
		}
		out, err := dev.Buffer(t, "peak.out", uint64(blocks*threads*4))
		if err != nil {
			return err
		}
		e := make([]float32, 256)
		for i := range e {
			e[i] = 0.5 + float32(i)/512
		}
		if err := cuda.Upload(t, dev, in, e); err != nil {
			return err
		}
		if dpx {
			flag, err := dev.Buffer(t, "peak.flag", 16)
			if err != nil {
				return err
			}
			if err := t.MemsetD32Async(flag, math.MaxInt32, 4, dev.Stream()); err != nil {
				return err
			}
			ok, err := nonNegative(t, dev, in, 16, flag) // 256 positive values
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("the non-negative path (%s): no 3-way minimum in one instruction in this build (%s, compute capability %s): %w",
					fname, dev.KernelPath(module), dev.Props.ComputeCapability(), errors.ErrUnsupported)
			}
		}
		updates := float64(blocks) * threads * iters * chains * perChain
		for range 6 { // the first launch warms up
			if err := dev.StartTimer(t); err != nil {
				return err
			}
			if err := t.Launch(fn, driver.D1(blocks), driver.D1(threads), 0, dev.Stream(), in, out, int32(iters)); err != nil {
				return err
			}
			d, err := dev.StopTimer(t)
			if err != nil {
				return err
			}
			if d > 0 {
				best = max(best, updates/d.Seconds())
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("cuda/fast peak: %w", err)
	}
	return best, nil
}

// ProductMinPlus32 returns A ⊗ B in min-plus float32 for matrices of one
// order n, computed on the GPU by cuda/fast's register-tiled product kernel
// (one launch over the matrices padded to a multiple of Block with +Inf).
// It serves as a certificate of a closure D of A: with every cycle
// positive, D = A* exactly when D = I ⊕ A ⊗ D, and with integer weights
// every sum is exact. The instance is checked against the device's free
// memory first; without CUDA the error matches driver.ErrUnavailable.
func ProductMinPlus32(ctx context.Context, a, b *apsp.Matrix[float32], opt Options) (*apsp.Matrix[float32], error) {
	if err := checkMatrix("cuda/fast product", a); err != nil {
		return nil, err
	}
	if err := checkMatrix("cuda/fast product", b); err != nil {
		return nil, err
	}
	if a.N != b.N {
		return nil, fmt.Errorf("cuda/fast product: orders %d and %d differ", a.N, b.N)
	}
	n, np := a.N, padded(a.N)
	c := apsp.NewMatrix(n, float32(0))
	if n == 0 {
		return c, nil
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, fmt.Errorf("cuda/fast product: %w", err)
	}
	sq := 4 * uint64(np) * uint64(np)
	plan := cuda.Plan{What: fmt.Sprintf("cuda/fast product n=%d", n), Buffers: []cuda.Buffer{
		{Name: "prod.a", Bytes: sq}, {Name: "prod.b", Bytes: sq}, {Name: "prod.c", Bytes: sq}}}
	if np != n {
		plan.Buffers = append(plan.Buffers, cuda.Buffer{Name: "prod.x", Bytes: 4 * uint64(n) * uint64(n)})
	}
	err = dev.Run(ctx, func(t *driver.Thread) error {
		if err := dev.Check(t, plan); err != nil {
			return err
		}
		fn, err := loadFast(t, dev, kMinPlus32)
		if err != nil {
			return err
		}
		bufs := make([]driver.DevicePtr, 3)
		for i, name := range []string{"prod.a", "prod.b", "prod.c"} {
			if bufs[i], err = dev.Buffer(t, name, sq); err != nil {
				return err
			}
		}
		x := bufs[2]
		if np != n {
			if x, err = dev.Buffer(t, "prod.x", 4*uint64(n)*uint64(n)); err != nil {
				return err
			}
		}
		s := dev.Stream()
		gy := min((np+7)/8, 65535)
		for i, m := range []*apsp.Matrix[float32]{a, b} {
			if np == n {
				if err := cuda.Upload(t, dev, bufs[i], m.Data); err != nil {
					return err
				}
				continue
			}
			if err := cuda.Upload(t, dev, x, m.Data); err != nil {
				return err
			}
			if err := t.Launch(fn.pad, driver.D2((np+31)/32, gy), driver.D2(32, 8), 0, s, x, n, bufs[i], np); err != nil {
				return fmt.Errorf("pad: %w", err)
			}
			if err := t.StreamSynchronize(s); err != nil { // x is reused
				return err
			}
		}
		if err := t.MemsetD32Async(bufs[2], math.Float32bits(float32(math.Inf(1))), int64(np)*int64(np), s); err != nil {
			return err
		}
		tile := mmTile(kMinPlus32)
		if err := t.Launch(fn.mmacc, driver.D2(np/tile, np/tile), driver.D1(256), restShared(kMinPlus32), s,
			bufs[0], int64(np), bufs[1], int64(np), bufs[2], int64(np), np, 0, 0, -1, driver.DevicePtr(0), driver.DevicePtr(0)); err != nil {
			return fmt.Errorf("product: %w", err)
		}
		if np != n {
			if err := t.Launch(fn.unpad, driver.D2((n+31)/32, min((n+7)/8, 65535)), driver.D2(32, 8), 0, s, bufs[2], np, x, n); err != nil {
				return fmt.Errorf("unpad: %w", err)
			}
		}
		if err := t.StreamSynchronize(s); err != nil {
			return err
		}
		return cuda.Download(t, dev, c.Data, x)
	})
	if err != nil {
		return nil, fmt.Errorf("cuda/fast product n=%d: %w", n, err)
	}
	return c, nil
}
