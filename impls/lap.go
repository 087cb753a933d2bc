package impls

import (
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
