package impls

import (
	"context"

	"github.com/semibench/semibench/bench"
	cpulap "github.com/semibench/semibench/impls/cpu/lap"
	cudalap "github.com/semibench/semibench/impls/cuda/lap"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/lap"
)

// LAP is every linear assignment implementation, CPU first, in display
// order: cpu/paper, cpu/hungarian-n3, cpu/jv, cpu/auction, cuda/paper,
// cuda/hungarian-n3, cuda/fast.
var LAP = problems.NewRegistry(func(im lap.Impl) string { return im.Name }, cpulap.Impls(), cudalap.Impls())

// The phases of cuda/fast's batch solver (impls/cuda/lap), for the tables
// that show them.
const (
	LAPBatchCheck   = cudalap.PhaseCheck
	LAPBatchH2D     = cudalap.PhaseH2D
	LAPBatchSolve   = cudalap.PhaseSolve
	LAPBatchD2H     = cudalap.PhaseD2H
	LAPBatchResults = cudalap.PhaseResults
)

// LAPBatchFloat32 is cuda/fast's batch solver on float32 costs, on device
// 0 (cudalap.SolveBatchFloat): count problems of rows x cols, problem k at
// costs[k*rows*cols:], uploaded as they are and widened exactly to double
// on the device. lap.Impl's SolveBatch takes float64 costs; this is the
// path for costs that are float32 from the start (hungarian/batch-float).
// The costs must be finite; the results (float64 duals, costs summed in
// float64) are not certified here. Phases as SolveBatch's: h2d, solve,
// d2h. Without a CUDA driver or device the error matches ErrUnavailable.
func LAPBatchFloat32(ctx context.Context, count, rows, cols int, costs []float32, rec *bench.Recorder) ([]*lap.FloatResult, error) {
	return cudalap.SolveBatchFloat(ctx, count, rows, cols, costs, cudalap.Options{Rec: rec})
}
