package treefix

import (
	"context"
	"fmt"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems"
)

// Number is a machine number that + works on.
type Number interface {
	~int32 | ~int64 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// Run computes op of the weights w into out (both as long as the tree has
// vertices) on the tree it was prepared for, reporting its phases to rec
// (nil: none).
type Run[T Number] func(ctx context.Context, op Op, w, out []T, rec *bench.Recorder) error

// Impl is one implementation of +Rootfix and +Leaffix. A backend package
// lists its implementations, in display order, with func Impls() []Impl;
// package impls joins them into the registry impls.Treefix.
//
// Int64, Float32 and Float64 prepare the implementation on tree t for one
// element type; threads is the goroutine count of the CPU implementations
// (0: GOMAXPROCS), which the CUDA ones ignore (they run on device 0). The
// Run they return keeps its scratch between calls, so that only the first
// call allocates it; it is not safe for concurrent use.
type Impl struct {
	Name    string // "cpu/sequential", "cuda/vectorial", ...
	Int64   func(t *Tree, threads int) Run[int64]
	Float32 func(t *Tree, threads int) Run[float32]
	Float64 func(t *Tree, threads int) Run[float64]
}

// Phase names reported to the bench.Recorder. "compute" is the paper's
// computation time (everything but the transfers); the vectorial
// implementations also report their three steps, and the CUDA ones the
// transfers and the Euler tour they build on the device.
const (
	PhaseCompute   = "compute"
	PhaseWrite     = "write"
	PhaseScan      = "scan"
	PhaseRead      = "read"
	PhaseH2D       = "h2d"        // tree arrays and weights to the device (host clock, outside total)
	PhaseEulerTour = "euler_tour" // the vector representation built on the GPU (events, inside total)
	PhaseD2H       = "d2h"        // the results back (host clock, outside total)
)

// DefaultImpl is the implementation `semibench solve treefix` runs when
// none is named: the sequential traversal.
const DefaultImpl = "cpu/sequential"

// ResolveImpl returns the implementation of r that name designates: a full
// name ("cpu/parallel", "cuda/vectorial"), a CPU implementation's name
// without its "cpu/" prefix ("parallel"), or "" for DefaultImpl. The error
// lists every valid name.
func ResolveImpl(r problems.Registry[Impl], name string) (Impl, error) {
	if name == "" {
		name = DefaultImpl
	}
	im, err := r.Lookup(name)
	if err != nil && !strings.HasPrefix(name, "cpu/") {
		if cpu, cerr := r.Lookup("cpu/" + name); cerr == nil {
			return cpu, nil
		}
	}
	if err != nil {
		return im, fmt.Errorf("unknown treefix implementation %q (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	return im, nil
}
