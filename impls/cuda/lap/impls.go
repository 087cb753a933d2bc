package cudalap

import (
	"context"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/lap"
)

// Impls returns the CUDA solvers in display order, as lap.Impl values on
// device 0 (integer costs only: SolveFloat is nil). A caller that needs
// another device calls Paper, HungarianN3 or Fast with its Options.
func Impls() []lap.Impl {
	return []lap.Impl{
		{Name: "cuda/paper", Solve: onDevice0(Paper)},
		{Name: "cuda/hungarian-n3", Solve: onDevice0(HungarianN3)},
		{Name: "cuda/fast", Solve: onDevice0(Fast)},
	}
}

// onDevice0 adapts a solver of this package to lap.Impl's Solve: device 0,
// phases to rec.
func onDevice0(solve func(context.Context, *lap.Matrix, Options) (*lap.Result, error)) func(context.Context, *lap.Matrix, *bench.Recorder) (*lap.Result, error) {
	return func(ctx context.Context, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, error) {
		return solve(ctx, m, Options{Rec: rec})
	}
}
