package cputreefix

import (
	"context"
	"fmt"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/treefix"
)

// The implementations' names, in display order.
const (
	Sequential           = "cpu/sequential"
	Parallel             = "cpu/parallel"
	Vectorial            = "cpu/vectorial"
	VectorialCompensated = "cpu/vectorial-compensated"
)

// names are the implementations in display order.
var names = []string{Sequential, Parallel, Vectorial, VectorialCompensated}

// Impls returns the CPU implementations in display order.
func Impls() []treefix.Impl {
	out := make([]treefix.Impl, len(names))
	for i, name := range names {
		out[i] = treefix.Impl{Name: name, Int64: prepare[int64](name), Float32: prepare[float32](name), Float64: prepare[float64](name)}
	}
	return out
}

// prepare gives the Impl field of implementation name for T: a solver on
// the tree, whose scratch its runs share.
func prepare[T treefix.Number](name string) func(t *treefix.Tree, threads int) treefix.Run[T] {
	return func(t *treefix.Tree, threads int) treefix.Run[T] {
		s := newSolver[T](t, threads)
		return func(ctx context.Context, op treefix.Op, w, out []T, rec *bench.Recorder) error {
			return s.run(ctx, name, op, w, out, rec)
		}
	}
}

// Grain sizes: levels, ranges and scans below these run on one goroutine
// (variables so that tests can exercise the parallel paths on small trees).
var (
	gatherGrain = 1 << 13
	arrayGrain  = 1 << 15
)

// solver runs the implementations on one tree with T weights, keeping
// their scratch arrays between runs. A solver is not safe for concurrent
// use.
type solver[T treefix.Number] struct {
	t       *treefix.Tree
	threads int
	e       []T       // Euler-tour vector (vectorial)
	e64     []float64 // wide Euler-tour vector (vectorial-compensated)
	ei      []int64   // exact fixed-point prefixes (vectorial-compensated)
	order   []int32   // breadth-first queue / level-ordered vertices
	off     []int32   // per-level child offsets (parallel)
	lstart  []int32   // level starts in order (parallel)
	ostart  []int32   // level starts in off (parallel)
	parts   []partial[T]
}

type partial[T treefix.Number] struct {
	k   int
	sum T
}

// newSolver prepares a solver; threads is the goroutine count of the
// parallel implementations (0: GOMAXPROCS). The vector representation is
// built on first use of a vectorial implementation (or by
// t.BuildVector beforehand, to keep it out of a timing).
func newSolver[T treefix.Number](t *treefix.Tree, threads int) *solver[T] {
	return &solver[T]{t: t, threads: workers(threads)}
}

// run computes op of the weights w into out (both of length n) with the
// named implementation, reporting phases to rec (nil: none).
func (s *solver[T]) run(ctx context.Context, impl string, op treefix.Op, w, out []T, rec *bench.Recorder) error {
	n := s.t.N()
	if len(w) != n || len(out) != n {
		return fmt.Errorf("treefix: %d weights and %d outputs for %d vertices", len(w), len(out), n)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	switch impl {
	case Sequential:
		defer rec.Start(treefix.PhaseCompute)()
		s.sequential(op, w, out)
	case Parallel:
		defer rec.Start(treefix.PhaseCompute)()
		return s.parallel(ctx, op, w, out)
	case Vectorial:
		v := s.t.BuildVector()
		defer rec.StartSummary(treefix.PhaseCompute)()
		s.vectorial(op, v, w, out, rec)
	case VectorialCompensated:
		v := s.t.BuildVector()
		defer rec.StartSummary(treefix.PhaseCompute)()
		switch ww := any(w).(type) {
		case []float32:
			compensated32(s.threads, any(&s.e).(*[]float32), &s.ei, &s.e64, op, v, ww, any(out).([]float32), rec)
		case []float64:
			compensated(s.threads, any(&s.e).(*[]float64), &s.e64, op, v, ww, any(out).([]float64), rec)
		default: // integers are exact: the plain scan is already exact
			s.vectorial(op, v, w, out, rec)
		}
	default:
		return fmt.Errorf("treefix: unknown implementation %q (known: %s)", impl, strings.Join(names, ", "))
	}
	return nil
}

// sequential is one breadth-first traversal over the CSR children lists.
func (s *solver[T]) sequential(op treefix.Op, w, out []T) {
	c := s.t.CSR
	n := s.t.N()
	if cap(s.order) < n {
		s.order = make([]int32, n)
	}
	q := s.order[:0]
	root := c.Root
	q = append(q, root)
	R, C := c.R, c.C
	if op == treefix.Rootfix {
		out[root] = w[root]
		for h := 0; h < len(q); h++ {
			i := q[h]
			ri := out[i]
			for _, j := range C[R[i]:R[i+1]] {
				out[j] = ri + w[j]
				q = append(q, j)
			}
		}
		return
	}
	for h := 0; h < len(q); h++ {
		i := q[h]
		q = append(q, C[R[i]:R[i+1]]...)
	}
	copy(out, w)
	parent := s.t.Parent
	for h := len(q) - 1; h > 0; h-- {
		v := q[h]
		out[parent[v]] += out[v]
	}
}
