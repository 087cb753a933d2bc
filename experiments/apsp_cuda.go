package experiments

import (
	"context"
	"fmt"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cpu/apsp"
	cudaapsp "github.com/semibench/semibench/impls/cuda/apsp"
	"github.com/semibench/semibench/semiring"
)

// The CUDA implementations of the apsp experiments and of `semibench solve
// apsp`: thin calls of package cudaapsp whose "no driver or no device"
// errors become ErrUnavailable.

// apspCUDAFast runs cuda/fast on c in place; rec (may be nil) receives the
// phases h2d, closure (CUDA events) and d2h.
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
// widened back. With negate it computes the max-plus closure instead, as
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
