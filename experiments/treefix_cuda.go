package experiments

import (
	"context"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cpu/treefix"
	cudatreefix "github.com/semibench/semibench/impls/cuda/treefix"
)

// The CUDA implementations of the treefix experiments and of `semibench
// solve treefix`: thin calls of package cudatreefix whose "no driver or no
// device" errors become ErrUnavailable.

// treefixCUDA runs a CUDA implementation; rec (may be nil) receives its
// phases.
func treefixCUDA[T cudatreefix.Element](ctx context.Context, impl string, op treefix.Op, t *treefix.Tree, w, out []T, rec *bench.Recorder) error {
	return markUnavailable(cudatreefix.Run(ctx, impl, op, t, w, out, cudatreefix.Options{Rec: rec}))
}

// TreefixBackends are the GPU implementations that `semibench solve
// treefix` runs beside the CPU ones (treefix.SolveWith).
func TreefixBackends() []treefix.Backend {
	return []treefix.Backend{{
		Impls: cudatreefix.Impls,
		Int64: func(ctx context.Context, impl string, op treefix.Op, t *treefix.Tree, w, out []int64) error {
			return treefixCUDA(ctx, impl, op, t, w, out, nil)
		},
		Float32: func(ctx context.Context, impl string, op treefix.Op, t *treefix.Tree, w, out []float32) error {
			return treefixCUDA(ctx, impl, op, t, w, out, nil)
		},
		Float64: func(ctx context.Context, impl string, op treefix.Op, t *treefix.Tree, w, out []float64) error {
			return treefixCUDA(ctx, impl, op, t, w, out, nil)
		},
	}}
}
