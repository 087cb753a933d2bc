package minplus

import (
	"context"
	"math"
	"sync"
)

// The difference matrix of the 2-domination paper's Algorithms 3 and 4:
// "A^i - A^j == constant" is computed entry by entry into a matrix D and
// D is then checked for one constant. An entry of D is x - y where both
// entries are finite, and one of two markers where they are not, the same
// on the host (Difference) and on a device (impls/cuda/minplus.Differ):
// DiffBothInf where both are infinite (skipped by the check: ∞ - ∞ matches
// any constant) and DiffOneInf where exactly one is (never constant). A
// finite difference lies in (-Inf, Inf), strictly between the markers.
const (
	DiffBothInf int16 = math.MinInt16
	DiffOneInf  int16 = math.MaxInt16
)

// DiffEntry returns the difference-matrix entry of x - y: an entry at or
// above Inf is infinite.
func DiffEntry(x, y int16) int16 {
	switch xi, yi := x >= Inf, y >= Inf; {
	case xi && yi:
		return DiffBothInf
	case xi || yi:
		return DiffOneInf
	}
	return x - y
}

// Difference fills d (n² entries) with the difference matrix of x - y (see
// DiffEntry), on threads goroutines by bands of rows (1: this goroutine).
func Difference(d []int16, x, y *Dense, threads int) {
	n := x.N
	threads = max(1, min(threads, n))
	band := (n + threads - 1) / threads
	body := func(lo, hi int) {
		xs, ys, ds := x.Data[lo:hi], y.Data[lo:hi], d[lo:hi]
		for i := range ds {
			ds[i] = DiffEntry(xs[i], ys[i])
		}
	}
	if threads == 1 {
		body(0, n*n)
		return
	}
	var wg sync.WaitGroup
	for t := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(min(n*n, t*band*n), min(n*n, (t+1)*band*n))
		}()
	}
	wg.Wait()
}

// Constant scans a difference matrix for one constant, as the paper's
// program does: the constant and true when every entry is it or
// DiffBothInf (and one entry at least is finite), stopping at the first
// entry off it.
func Constant(d []int16) (int, bool) {
	c, seen := int16(0), false
	for _, v := range d {
		switch {
		case v == DiffBothInf:
		case v == DiffOneInf:
			return 0, false
		case !seen:
			c, seen = v, true
		case v != c:
			return 0, false
		}
	}
	return int(c), seen
}

// DiffSummary is what a reduction keeps of a difference matrix, enough to
// decide whether it is one constant (Constant): whether an entry is
// DiffOneInf, how many entries are finite differences, and their minimum
// and maximum. A device reduces its difference matrix to these few numbers
// instead of sending the matrix back.
type DiffSummary struct {
	OneInf   bool  // some entry is DiffOneInf
	Finite   int64 // entries that are finite differences
	Min, Max int16 // the least and largest finite difference (when Finite > 0)
}

// SummarizeDiff reduces a difference matrix to its DiffSummary.
func SummarizeDiff(d []int16) DiffSummary {
	s := DiffSummary{Min: math.MaxInt16, Max: math.MinInt16}
	for _, v := range d {
		switch v {
		case DiffBothInf:
		case DiffOneInf:
			s.OneInf = true
		default:
			s.Finite++
			s.Min, s.Max = min(s.Min, v), max(s.Max, v)
		}
	}
	return s
}

// Constant reports whether the summarised matrix is one constant, and
// which: no entry infinite on one side only, some finite difference, and
// the least equal to the largest. It agrees with Constant on the matrix.
func (s DiffSummary) Constant() (int, bool) {
	if s.OneInf || s.Finite == 0 || s.Min != s.Max {
		return 0, false
	}
	return int(s.Min), true
}

// Differ decides "x - y is one constant" for pairs of n x n matrices held
// in host memory, computing each difference matrix where it lives (a
// device: impls/cuda/minplus.Differ uploads both matrices, computes D and
// its DiffSummary there, and reads the summary back). Its answer is
// Constant(D)'s. A Differ is not safe for concurrent use.
type Differ interface {
	// ConstDiff returns the constant c and true when x - y is c wherever
	// either entry is finite (see Constant).
	ConstDiff(ctx context.Context, x, y *Dense) (c int, ok bool, err error)
	// Close releases the Differ; a closed Differ refuses every call.
	Close() error
}
