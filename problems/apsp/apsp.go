package apsp

import (
	"context"
	"errors"
	"math"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// Impl is one implementation of the algebraic path problem, as a backend
// package lists it (func Impls() []apsp.Impl). Each function covers one
// case; a nil function means the implementation does not cover it, and
// Resolve and the experiments say so. Every closure function replaces its
// matrix in place and returns the operations it performed when Counted
// (zero Counts otherwise).
type Impl struct {
	// Name is the implementation's name: "cpu/sgje", "cuda/fast", ...
	Name string
	// Note, when not empty, is added to the comment line of Solve's output
	// (how the implementation represents the values).
	Note string
	// InverseNote, when not empty, names how Inverse computes A⁻¹ in the
	// comment line of Solve's --inverse output, in place of Name.
	InverseNote string
	// Counted: the Counts the functions return are the semiring
	// operations performed, which the paper's formulas (FormulaCounts)
	// predict; otherwise they are zero.
	Counted bool
	// MarksWindow: the implementation marks the window of the headline
	// total and the phase PhaseClosure on Options.Rec itself (the GPU ones:
	// the solve with the matrix in device memory, PhaseH2D and PhaseD2H
	// outside it). Otherwise it marks nothing and its caller times the
	// whole call.
	MarksWindow bool

	// Float replaces a by A* in the named semiring on float64 values
	// ("min-plus", "max-plus" or "real").
	Float func(ctx context.Context, semiring string, a *Matrix[float64], opt Options) (Counts, error)
	// Bool replaces a by its reflexive and transitive closure (the
	// Boolean semiring).
	Bool func(ctx context.Context, a *Matrix[bool], opt Options) (Counts, error)
	// MinPlus32 replaces a by A* in min-plus float32.
	MinPlus32 func(ctx context.Context, a *Matrix[float32], opt Options) (Counts, error)
	// Inverse replaces a by A⁻¹ (the real semiring's --inverse).
	Inverse func(ctx context.Context, a *Matrix[float64], opt Options) (Counts, error)

	// Limit measures the ceiling of the implementation's min-plus float32
	// update c := min(c, a + b) on this machine, in updates per second.
	Limit func(ctx context.Context, opt Options) (float64, error)
	// LimitNonNeg, where the implementation has a path of its own for
	// min-plus float32 on non-negative values (no sign bit set), measures
	// that path's ceiling as Limit does; its error matches
	// errors.ErrUnsupported where this machine never takes it.
	LimitNonNeg func(ctx context.Context, opt Options) (float64, error)
	// ProductMinPlus32 returns A ⊗ B in min-plus float32 (a certificate of
	// a closure D of A: D = I ⊕ A ⊗ D).
	ProductMinPlus32 func(ctx context.Context, a, b *Matrix[float32], opt Options) (*Matrix[float32], error)

	// SystolicFloat simulates the array of cfg (package systolic) on mats,
	// each n×n, in the named semiring on float64 values ("min-plus",
	// "max-plus" or "real"), with package systolic's outputs and step
	// counts.
	SystolicFloat func(ctx context.Context, semiring string, n int, mats [][]float64, cfg systolic.Config, opt Options) (*systolic.Run[float64], error)
	// SystolicBool is SystolicFloat in the Boolean semiring.
	SystolicBool func(ctx context.Context, n int, mats [][]bool, cfg systolic.Config, opt Options) (*systolic.Run[bool], error)
}

// Options are what a caller passes to every implementation.
type Options struct {
	// Threads is the number of goroutines of a CPU implementation; 0 means
	// runtime.GOMAXPROCS(0).
	Threads int
	// Rec (may be nil) receives the phases the implementation marks
	// itself (see Impl.MarksWindow).
	Rec *bench.Recorder
}

// Phase names reported to Options.Rec.
const (
	PhaseH2D     = "h2d"     // the matrix to the device (host clock)
	PhaseClosure = "closure" // the elimination (on a device: CUDA events)
	PhaseD2H     = "d2h"     // the closure back (host clock)
	PhaseSteps   = "steps"   // a systolic simulation's steps on the device (host clock)
)

// Counts are the semiring operations an elimination performed: the paper
// counts n stars, n³-n multiplications and n(n-1)² additions for sGJE.
type Counts struct {
	Stars, Mults, Adds int64
}

// FormulaCounts returns the paper's operation counts for order n: n stars,
// n³-n multiplications, n(n-1)² additions.
func FormulaCounts(n int) Counts {
	m := int64(n)
	return Counts{Stars: m, Mults: m*m*m - m, Adds: m * (m - 1) * (m - 1)}
}

// ErrStar is wrapped by the error of an elimination that met a pivot whose
// star is undefined (c = 1 in the real semiring); the error names the pivot.
var ErrStar = errors.New("undefined star at a pivot")

// ErrSingular is wrapped by the error of an inversion that met a zero pivot.
var ErrSingular = errors.New("singular pivot")

// FloatBound is the bound within which cpu/fast and cpu/sgje agree on a
// finite min-plus (or max-plus) distance in floating point with a
// precision-bit significand (24 for float32, 53 for float64), for order n
// and largest arc weight magnitude maxW, when there is no negative cycle:
// each computed distance is the rounded sum of the weights of a path of at
// most n-1 arcs, formed in some order, so it lies within (n-1)·u·W of that
// path's exact weight, W = (n-1)·maxW, u = 2^-precision; the two results
// are within twice that of each other: 2(n-1)²·u·maxW.
func FloatBound(n int, maxW float64, precision int) float64 {
	m := float64(max(n-1, 1))
	return 2 * m * m * math.Ldexp(1, -precision) * maxW
}
