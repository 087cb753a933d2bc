package experiments

import (
	"context"
	"fmt"
	"sync"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cpu/apsp"
	cudaapsp "github.com/semibench/semibench/impls/cuda/apsp"
	"github.com/semibench/semibench/semiring"
	"github.com/semibench/semibench/systolic"
)

// The CUDA implementations of the apsp experiments and of `semibench solve
// apsp`: thin calls of package cudaapsp whose "no driver or no device"
// errors become ErrUnavailable.

// apspCUDAFast runs cuda/fast on c in place; rec (may be nil) receives the
// phases h2d (outside total), closure (CUDA events, inside) and d2h
// (outside), and the window of total: the solve with the matrix in device
// memory.
func apspCUDAFast[T any, S semiring.Semiring[T]](ctx context.Context, s S, c *apsp.Matrix[T], rec *bench.Recorder) error {
	_, err := cudaapsp.Fast(ctx, s, c, cudaapsp.Options{Rec: rec})
	return markUnavailable(err)
}

// apspCUDAInverse replaces a by A⁻¹ with cudaapsp.Inverse.
func apspCUDAInverse(ctx context.Context, a *apsp.Matrix[float64], rec *bench.Recorder) error {
	_, err := cudaapsp.Inverse(ctx, a, cudaapsp.Options{Rec: rec})
	return markUnavailable(err)
}

// apspMinPlus32 runs cuda/fast in min-plus on float64 values: they are
// rounded to float32 (exact for integers below 2²⁴), closed on the GPU and
// widened back (both conversions on the host, outside total, inside
// end_to_end). With negate it computes the max-plus closure instead, as
// the negation of the min-plus closure of -A (the zeros -inf and +inf, and
// the stars, correspond under negation).
func apspMinPlus32(ctx context.Context, a *apsp.Matrix[float64], negate bool, rec *bench.Recorder) error {
	sign := 1.0
	if negate {
		sign = -1
	}
	c := &apsp.Matrix[float32]{N: a.N, Data: make([]float32, len(a.Data))}
	for i, v := range a.Data {
		c.Data[i] = float32(sign * v)
	}
	if err := apspCUDAFast(ctx, semiring.MinPlus[float32]{}, c, rec); err != nil {
		return err
	}
	for i, v := range c.Data {
		a.Data[i] = sign * float64(v)
	}
	return nil
}

// APSPBackends are the GPU implementations that `semibench solve apsp`
// runs beside the CPU ones (apsp.SolveWith): cuda/fast in every semiring
// (min-plus and max-plus in float32, Boolean, real in float64) and its
// --inverse by cudaapsp.Inverse.
func APSPBackends() []apsp.Backend {
	return []apsp.Backend{{
		Name: "cuda/fast",
		Note: "min-plus and max-plus values in float32 on the GPU",
		Float: func(ctx context.Context, sr string, a *apsp.Matrix[float64]) error {
			switch sr {
			case "min-plus", "max-plus":
				return apspMinPlus32(ctx, a, sr == "max-plus", nil)
			case "real":
				return apspCUDAFast(ctx, semiring.Real[float64]{}, a, nil)
			}
			return fmt.Errorf("cuda/fast: semiring %q is not implemented", sr)
		},
		Bool: func(ctx context.Context, a *apsp.Matrix[bool]) error {
			return apspCUDAFast(ctx, semiring.Boolean{}, a, nil)
		},
		Inverse: func(ctx context.Context, a *apsp.Matrix[float64]) error {
			return apspCUDAInverse(ctx, a, nil)
		},
	}}
}

// apspSim runs the array GJE0 or GJE1 on mats by the CPU simulator or,
// with gpu, by cuda/systolic (GJE0 only), which marks its window and phases
// on rec (may be nil: untimed).
func apspSim[T any, S semiring.Semiring[T]](ctx context.Context, gpu bool, s S, n int, mats [][]T, cfg systolic.Config, rec *bench.Recorder) (*systolic.Run[T], error) {
	if gpu {
		r, err := cudaapsp.Systolic(ctx, s, n, mats, cfg, cudaapsp.Options{Rec: rec})
		return r, markUnavailable(err)
	}
	return systolic.Simulate(ctx, n, systolic.SemiringOps(s), mats, cfg)
}

// apspPeak caches cudaapsp.PeakMinPlus32: the device's limit is measured
// once per process.
var apspPeak struct {
	sync.Mutex
	v float64
}

// apspGPUPeak returns the measured limit of the min-plus float32 update on
// the GPU, in updates per second.
func apspGPUPeak(ctx context.Context) (float64, error) {
	apspPeak.Lock()
	defer apspPeak.Unlock()
	if apspPeak.v == 0 {
		v, err := cudaapsp.PeakMinPlus32(ctx, cudaapsp.Options{})
		if err != nil {
			return 0, markUnavailable(err)
		}
		apspPeak.v = v
	}
	return apspPeak.v, nil
}

// apspGPUCertificate checks the closure D of A (min-plus float32, integer
// weights, every cycle positive) by the equation D = I ⊕ A ⊗ D, with the
// product computed on the GPU (cudaapsp.ProductMinPlus32) and compared on
// the host. An error means the GPU could not compute the product.
func apspGPUCertificate(a, d *apsp.Matrix[float32]) (bench.Check, error) {
	chk := bench.Check{Method: "certificate: D = I ⊕ A ⊗ D exactly (unique solution: every cycle positive, integer weights); A ⊗ D by cuda/fast's product kernel on the GPU"}
	x, err := cudaapsp.ProductMinPlus32(context.Background(), a, d, cudaapsp.Options{})
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
