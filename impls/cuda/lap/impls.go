package cudalap

import (
	"context"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cpu/lap"
)

// solverFunc is the shape every solver of this package has.
type solverFunc func(context.Context, *lap.Matrix, Options) (*lap.Result, error)

// registered lists the solvers by name, in display order.
var registered = []struct {
	name  string
	solve solverFunc
}{
	{"cuda/paper", Paper},
	{"cuda/hungarian-n3", HungarianN3},
	{"cuda/fast", Fast},
}

// Impls returns the CUDA solvers as lap.Impl values on device 0 (integer
// costs only: SolveFloat is nil).
func Impls() []lap.Impl {
	out := make([]lap.Impl, len(registered))
	for i, r := range registered {
		solve := r.solve
		out[i] = lap.Impl{Name: r.name, Solve: func(ctx context.Context, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, error) {
			return solve(ctx, m, Options{Rec: rec})
		}}
	}
	return out
}

// Lookup returns the named CUDA solver.
func Lookup(name string) (func(context.Context, *lap.Matrix, Options) (*lap.Result, error), bool) {
	for _, r := range registered {
		if r.name == name {
			return r.solve, true
		}
	}
	return nil, false
}
