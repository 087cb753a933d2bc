package impls

import (
	"context"

	"github.com/semibench/semibench/bench"
	cputreefix "github.com/semibench/semibench/impls/cpu/treefix"
	cudatreefix "github.com/semibench/semibench/impls/cuda/treefix"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/treefix"
)

// Treefix is every implementation of +Rootfix and +Leaffix (paper 004), the
// CPU ones first, in display order.
var Treefix = problems.NewRegistry(func(im treefix.Impl) string { return im.Name }, cputreefix.Impls(), cudatreefix.Impls())

// The treefix implementations' names (impls/cpu/treefix, impls/cuda/treefix),
// for experiments that single one out.
const (
	TreefixCPUSequential            = cputreefix.Sequential
	TreefixCPUParallel              = cputreefix.Parallel
	TreefixCPUVectorial             = cputreefix.Vectorial
	TreefixCPUVectorialCompensated  = cputreefix.VectorialCompensated
	TreefixCUDAParallel             = cudatreefix.Parallel
	TreefixCUDAVectorial            = cudatreefix.Vectorial
	TreefixCUDAVectorialCompensated = cudatreefix.VectorialCompensated
)

// TreefixBuildVector builds the vector representation (the Euler tour) of t
// on the GPU, reporting its phases to rec (treefix/table1's cuda/build).
func TreefixBuildVector(ctx context.Context, t *treefix.Tree, rec *bench.Recorder) (*treefix.Vector, error) {
	return cudatreefix.BuildVector(ctx, t, cudatreefix.Options{Rec: rec})
}

// TreefixCUDACompensatedBound is the error bound of cuda/vectorial-compensated
// on a tree of n vertices (cudatreefix.Bound).
func TreefixCUDACompensatedBound(op treefix.Op, n int, exact, sumAbs float64) float64 {
	return cudatreefix.Bound(op, n, exact, sumAbs)
}
