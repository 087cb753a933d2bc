package apsp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// The apsp experiments' calls of the implementations that are not plain
// closures (the systolic simulations, the GPU's limit and its certificate),
// through impls.APSP; the GPU's "no driver or no device" errors become
// ErrUnavailable.

// apspImpl looks the named implementation up, or says it is not built in.
func apspImpl(name string) (apsp.Impl, error) {
	im, err := impls.APSP.Lookup(name)
	if err != nil {
		return im, fmt.Errorf("%w: %w", experiments.ErrUnavailable, err)
	}
	return im, nil
}

// apspSim runs the array GJE0 or GJE1 on mats in the named semiring
// ("boolean" or one on float64 values) by the CPU simulator or, with gpu,
// by cuda/systolic (GJE0 only), which marks its window and phases on rec
// (may be nil: untimed).
func apspSim[T any](ctx context.Context, gpu bool, sr string, n int, mats [][]T, cfg systolic.Config, rec *bench.Recorder) (*systolic.Run[T], error) {
	name := "cpu/systolic"
	if gpu {
		name = "cuda/systolic"
	}
	im, err := apspImpl(name)
	if err != nil {
		return nil, err
	}
	opt := apsp.Options{Rec: rec}
	var run any
	switch m := any(mats).(type) {
	case [][]float64:
		run, err = im.SystolicFloat(ctx, sr, n, m, cfg, opt)
	case [][]bool:
		run, err = im.SystolicBool(ctx, n, m, cfg, opt)
	default:
		return nil, fmt.Errorf("%s: no simulation of %T", name, mats)
	}
	if err != nil {
		return nil, experiments.MarkUnavailable(err)
	}
	return run.(*systolic.Run[T]), nil
}

// apspPeak caches cuda/fast's Limit and LimitNonNeg: the device's limits
// are measured once per process.
var apspPeak struct {
	sync.Mutex
	pair, nonNeg float64
}

// apspGPUPeaks returns the measured limits of the min-plus float32 update
// on the GPU, in updates per second: of the pair path (FADD and FMNMX) and
// of the non-negative path (0 where the device never takes it).
func apspGPUPeaks(ctx context.Context) (pair, nonNeg float64, err error) {
	apspPeak.Lock()
	defer apspPeak.Unlock()
	if apspPeak.pair == 0 {
		im, err := apspImpl("cuda/fast")
		if err != nil {
			return 0, 0, err
		}
		v, err := im.Limit(ctx, apsp.Options{})
		if err != nil {
			return 0, 0, experiments.MarkUnavailable(err)
		}
		w, err := im.LimitNonNeg(ctx, apsp.Options{})
		if err != nil && !errors.Is(err, errors.ErrUnsupported) {
			return 0, 0, experiments.MarkUnavailable(err)
		}
		apspPeak.pair, apspPeak.nonNeg = v, w
	}
	return apspPeak.pair, apspPeak.nonNeg, nil
}

// apspGPUCertificate checks the closure D of A (min-plus float32, integer
// weights, every cycle positive) by the equation D = I ⊕ A ⊗ D, with the
// product computed on the GPU (cuda/fast's ProductMinPlus32) and compared on
// the host. An error means the GPU could not compute the product.
func apspGPUCertificate(a, d *apsp.Matrix[float32]) (bench.Check, error) {
	chk := bench.Check{Method: "certificate: D = I ⊕ A ⊗ D exactly (unique solution: every cycle positive, integer weights); A ⊗ D by cuda/fast's product kernel on the GPU"}
	im, err := apspImpl("cuda/fast")
	if err != nil {
		return chk, err
	}
	x, err := im.ProductMinPlus32(context.Background(), a, d, apsp.Options{})
	if err != nil {
		return chk, err
	}
	n := a.N
	for e, v := range x.Data {
		if e/n == e%n {
			v = min(v, 0)
		}
		if v != d.Data[e] {
			chk.Detail = fmt.Sprintf("(%d,%d): D = %v, (I ⊕ A ⊗ D) = %v", e/n+1, e%n+1, d.Data[e], v)
			return chk, nil
		}
	}
	chk.OK = true
	chk.Detail = fmt.Sprintf("all %d entries satisfy the closure equation", n*n)
	return chk, nil
}

// apspSGJE replaces c by its closure by cpu/sgje, the reference of the
// systolic checks: in the named semiring on float64 values, or in the
// Boolean semiring.
func apspSGJE[T any](ctx context.Context, sr string, c *apsp.Matrix[T]) error {
	im, err := apspImpl("cpu/sgje")
	if err != nil {
		return err
	}
	switch m := any(c).(type) {
	case *apsp.Matrix[float64]:
		_, err = im.Float(ctx, sr, m, apsp.Options{})
	case *apsp.Matrix[bool]:
		_, err = im.Bool(ctx, m, apsp.Options{})
	default:
		err = fmt.Errorf("cpu/sgje: no closure of %T", c)
	}
	return err
}
