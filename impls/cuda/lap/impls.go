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
	float bool // SolveFloat (float64 costs, the lap_n3_f64 kernel) too
}{
	{"cuda/paper", Paper, false},
	{"cuda/hungarian-n3", HungarianN3, true},
	{"cuda/fast", Fast, true},
}

// Impls returns the CUDA solvers as lap.Impl values on device 0. cuda/fast
// and cuda/hungarian-n3 take float64 costs too (SolveFloat); cuda/paper
// takes integer costs only.
func Impls() []lap.Impl {
	out := make([]lap.Impl, len(registered))
	for i, r := range registered {
		solve := r.solve
		out[i] = lap.Impl{Name: r.name, Solve: func(ctx context.Context, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, error) {
			return solve(ctx, m, Options{Rec: rec})
		}}
		if r.float {
			out[i].SolveFloat = func(ctx context.Context, m *lap.FloatMatrix, rec *bench.Recorder) (*lap.FloatResult, error) {
				return SolveFloat(ctx, m, Options{Rec: rec})
			}
		}
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
