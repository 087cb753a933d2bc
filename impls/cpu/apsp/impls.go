package apsp

import (
	"context"
	"fmt"
	"time"

	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// Impls lists the CPU implementations in display order: cpu/sgje (SGJE,
// and Inverse for --inverse), cpu/fast (Fast, with the in-cache limit of
// its update) and cpu/systolic (package systolic's simulator).
func Impls() []apsp.Impl {
	return []apsp.Impl{
		{Name: "cpu/sgje", Counted: true, InverseNote: "the direct variant of sGJE (A, B_I, B_O, C'')",
			Float: sgje.float, Bool: sgje.boolean, MinPlus32: sgje.minPlus32,
			Inverse: func(ctx context.Context, a *apsp.Matrix[float64], _ apsp.Options) (apsp.Counts, error) {
				return Inverse(ctx, a)
			}},
		{Name: "cpu/fast", Float: fast.float, Bool: fast.boolean, MinPlus32: fast.minPlus32,
			Limit: func(ctx context.Context, opt apsp.Options) (float64, error) {
				return PeakMinPlus32(opt.Threads, LimitTime), nil
			}},
		{Name: "cpu/systolic", SystolicFloat: systolicFloat, SystolicBool: systolicBool},
	}
}

// LimitTime is how long cpu/fast's Limit measures (PeakMinPlus32).
const LimitTime = 200 * time.Millisecond

// method is an elimination: cpu/sgje or cpu/fast.
type method int

const (
	sgje method = iota
	fast
)

// closure runs the method on c in place in the semiring s.
func closure[T any, S semiring.Semiring[T]](ctx context.Context, m method, s S, c *apsp.Matrix[T], opt apsp.Options) (apsp.Counts, error) {
	if m == sgje {
		return SGJE(ctx, s, c)
	}
	return apsp.Counts{}, Fast(ctx, s, c, FastOptions{Threads: opt.Threads})
}

func (m method) float(ctx context.Context, sr string, a *apsp.Matrix[float64], opt apsp.Options) (apsp.Counts, error) {
	switch sr {
	case "min-plus":
		return closure(ctx, m, semiring.MinPlus[float64]{}, a, opt)
	case "max-plus":
		return closure(ctx, m, semiring.MaxPlus[float64]{}, a, opt)
	case "real":
		return closure(ctx, m, semiring.Real[float64]{}, a, opt)
	}
	return apsp.Counts{}, fmt.Errorf("semiring %q has no float64 closure", sr)
}

func (m method) boolean(ctx context.Context, a *apsp.Matrix[bool], opt apsp.Options) (apsp.Counts, error) {
	return closure(ctx, m, semiring.Boolean{}, a, opt)
}

func (m method) minPlus32(ctx context.Context, a *apsp.Matrix[float32], opt apsp.Options) (apsp.Counts, error) {
	return closure(ctx, m, semiring.MinPlus[float32]{}, a, opt)
}

func systolicFloat(ctx context.Context, sr string, n int, mats [][]float64, cfg systolic.Config, _ apsp.Options) (*systolic.Run[float64], error) {
	switch sr {
	case "min-plus":
		return systolic.Simulate(ctx, n, systolic.SemiringOps(semiring.MinPlus[float64]{}), mats, cfg)
	case "max-plus":
		return systolic.Simulate(ctx, n, systolic.SemiringOps(semiring.MaxPlus[float64]{}), mats, cfg)
	case "real":
		return systolic.Simulate(ctx, n, systolic.SemiringOps(semiring.Real[float64]{}), mats, cfg)
	}
	return nil, fmt.Errorf("cpu/systolic: semiring %q has no float64 simulation", sr)
}

func systolicBool(ctx context.Context, n int, mats [][]bool, cfg systolic.Config, _ apsp.Options) (*systolic.Run[bool], error) {
	return systolic.Simulate(ctx, n, systolic.SemiringOps(semiring.Boolean{}), mats, cfg)
}
