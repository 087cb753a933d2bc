package cudaapsp

import (
	"context"
	"fmt"
	"math"

	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// Impls lists the CUDA implementations in display order: cuda/fast (Fast
// in every semiring, Inverse for --inverse, the measured limits of its
// update's two paths and its product kernel as a certificate) and cuda/systolic
// (Systolic, the array GJE0). Both mark their own window of the headline
// total on Options.Rec; without CUDA every function's error matches
// driver.ErrUnavailable.
func Impls() []apsp.Impl {
	return []apsp.Impl{
		{Name: "cuda/fast", Note: "min-plus and max-plus values in float32 on the GPU", MarksWindow: true,
			Float: fastFloat,
			Bool: func(ctx context.Context, a *apsp.Matrix[bool], opt apsp.Options) (apsp.Counts, error) {
				_, err := Fast(ctx, semiring.Boolean{}, a, options(opt))
				return apsp.Counts{}, err
			},
			MinPlus32: func(ctx context.Context, a *apsp.Matrix[float32], opt apsp.Options) (apsp.Counts, error) {
				_, err := Fast(ctx, semiring.MinPlus[float32]{}, a, options(opt))
				return apsp.Counts{}, err
			},
			Inverse: func(ctx context.Context, a *apsp.Matrix[float64], opt apsp.Options) (apsp.Counts, error) {
				_, err := Inverse(ctx, a, options(opt))
				return apsp.Counts{}, err
			},
			Limit: func(ctx context.Context, opt apsp.Options) (float64, error) {
				return PeakMinPlus32(ctx, options(opt))
			},
			LimitNonNeg: func(ctx context.Context, opt apsp.Options) (float64, error) {
				return PeakMinPlus32NonNeg(ctx, options(opt))
			},
			ProductMinPlus32: func(ctx context.Context, a, b *apsp.Matrix[float32], opt apsp.Options) (*apsp.Matrix[float32], error) {
				return ProductMinPlus32(ctx, a, b, options(opt))
			},
		},
		{Name: "cuda/systolic", MarksWindow: true, SystolicFloat: systolicFloat,
			SystolicBool: func(ctx context.Context, n int, mats [][]bool, cfg systolic.Config, opt apsp.Options) (*systolic.Run[bool], error) {
				return Systolic(ctx, semiring.Boolean{}, n, mats, cfg, options(opt))
			}},
	}
}

// options are the CUDA options of a caller's: the first device.
func options(opt apsp.Options) Options { return Options{Rec: opt.Rec} }

// fastFloat is cuda/fast on float64 values: the real semiring in float64;
// min-plus with the values rounded to float32 (exact for integers below
// 2²⁴), closed on the GPU and widened back (both conversions on the host,
// outside total, inside end_to_end); max-plus as the negation of the
// min-plus closure of -A (the zeros -inf and +inf, and the stars,
// correspond under negation).
func fastFloat(ctx context.Context, sr string, a *apsp.Matrix[float64], opt apsp.Options) (apsp.Counts, error) {
	var err error
	switch sr {
	case "min-plus", "max-plus":
		sign := 1.0
		if sr == "max-plus" {
			sign = -1
		}
		lim := apsp.PathSumBound(a.N, math.MaxFloat32)
		c := &apsp.Matrix[float32]{N: a.N, Data: make([]float32, len(a.Data))}
		for i, v := range a.Data {
			if !math.IsInf(v, 0) && math.Abs(v) > lim {
				return apsp.Counts{}, fmt.Errorf("cuda/fast computes %s in float32: weight a[%d,%d] = %g exceeds ±%.6g, the float32 bound for %d vertices (its path sums could overflow); cpu/fast computes in float64",
					sr, i/a.N+1, i%a.N+1, v, lim, a.N)
			}
			c.Data[i] = float32(sign * v)
		}
		if _, err = Fast(ctx, semiring.MinPlus[float32]{}, c, options(opt)); err != nil {
			return apsp.Counts{}, err
		}
		for i, v := range c.Data {
			a.Data[i] = sign * float64(v)
		}
	case "real":
		_, err = Fast(ctx, semiring.Real[float64]{}, a, options(opt))
	default:
		err = fmt.Errorf("cuda/fast: semiring %q is not implemented", sr)
	}
	return apsp.Counts{}, err
}

// systolicFloat is cuda/systolic in the named semiring on float64 values.
func systolicFloat(ctx context.Context, sr string, n int, mats [][]float64, cfg systolic.Config, opt apsp.Options) (*systolic.Run[float64], error) {
	switch sr {
	case "min-plus":
		return Systolic(ctx, semiring.MinPlus[float64]{}, n, mats, cfg, options(opt))
	case "max-plus":
		return Systolic(ctx, semiring.MaxPlus[float64]{}, n, mats, cfg, options(opt))
	case "real":
		return Systolic(ctx, semiring.Real[float64]{}, n, mats, cfg, options(opt))
	}
	return nil, fmt.Errorf("cuda/systolic: semiring %q is not implemented", sr)
}
