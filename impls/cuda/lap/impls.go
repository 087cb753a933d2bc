package cudalap

import (
	"context"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/lap"
)

// Impls returns the CUDA solvers in display order, as lap.Impl values on
// device 0. cuda/fast and cuda/hungarian-n3 take float64 costs too
// (SolveFloat, the lap_n3_f64 kernel); cuda/paper takes integer costs only.
// A caller that needs another device calls Paper, HungarianN3, Fast or
// SolveFloat with its Options.
func Impls() []lap.Impl {
	float := func(ctx context.Context, m *lap.FloatMatrix, rec *bench.Recorder) (*lap.FloatResult, error) {
		return SolveFloat(ctx, m, Options{Rec: rec})
	}
	return []lap.Impl{
		{Name: "cuda/paper", Solve: onDevice0(Paper)},
		{Name: "cuda/hungarian-n3", Solve: onDevice0(HungarianN3), SolveFloat: float},
		{Name: "cuda/fast", Solve: onDevice0(Fast), SolveFloat: float, SolveBatch: batchOnDevice0},
	}
}

// onDevice0 adapts a solver of this package to lap.Impl's Solve: device 0,
// phases to rec.
func onDevice0(solve func(context.Context, *lap.Matrix, Options) (*lap.Result, error)) func(context.Context, *lap.Matrix, *bench.Recorder) (*lap.Result, error) {
	return func(ctx context.Context, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, error) {
		return solve(ctx, m, Options{Rec: rec})
	}
}

// batchOnDevice0 is cuda/fast's SolveBatch: the batch kernel on device 0.
func batchOnDevice0(ctx context.Context, b *lap.Batch, _ int, rec *bench.Recorder) (*lap.BatchOutput, error) {
	return SolveBatch(ctx, b, Options{Rec: rec})
}
