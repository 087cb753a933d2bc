package cputreefix

import (
	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/treefix"
)

// vectorial is cpu/vectorial: Algorithm 2 (Rootfix) and its Leaffix twin.
func (s *solver[T]) vectorial(op treefix.Op, v *treefix.Vector, w, out []T, rec *bench.Recorder) {
	n := len(w)
	if cap(s.e) < 2*n {
		s.e = make([]T, 2*n)
	}
	e := s.e[:2*n]
	open, cls := v.Open[:n], v.Close[:n]
	stop := rec.Start(treefix.PhaseWrite)
	parFor(s.threads, n, arrayGrain, func(_, lo, hi int) {
		if op == treefix.Rootfix {
			for i := lo; i < hi; i++ {
				e[open[i]] = w[i]
				e[cls[i]] = -w[i]
			}
		} else {
			for i := lo; i < hi; i++ {
				e[open[i]] = w[i]
				e[cls[i]] = 0
			}
		}
	})
	stop()
	stop = rec.Start(treefix.PhaseScan)
	scan(s.threads, e)
	stop()
	stop = rec.Start(treefix.PhaseRead)
	parFor(s.threads, n, arrayGrain, func(_, lo, hi int) {
		if op == treefix.Rootfix {
			for i := lo; i < hi; i++ {
				out[i] = e[open[i]]
			}
		} else {
			for i := lo; i < hi; i++ {
				out[i] = e[cls[i]] - e[open[i]] + w[i]
			}
		}
	})
	stop()
}

// scan is an in-place inclusive +scan, reduce-then-scan over p goroutines:
// each part sums its range, the part sums are scanned, and each part scans
// its range from its offset.
func scan[T treefix.Number](p int, e []T) {
	parts := min(p, len(e)/arrayGrain)
	if parts <= 1 {
		scanRange(e, 0)
		return
	}
	sums := make([]T, parts)
	parFor(parts, len(e), 1, func(k, lo, hi int) {
		var s T
		for _, x := range e[lo:hi] {
			s += x
		}
		sums[k] = s
	})
	var acc T
	for k, x := range sums {
		sums[k] = acc
		acc += x
	}
	parFor(parts, len(e), 1, func(k, lo, hi int) { scanRange(e[lo:hi], sums[k]) })
}

func scanRange[T treefix.Number](e []T, s T) {
	for i, x := range e {
		s += x
		e[i] = s
	}
}

// compensated is cpu/vectorial-compensated for float32 and float64 weights:
// the scan is Neumaier's compensated summation in float64 (TwoSum of the
// running sum and each entry, the errors accumulated and folded into every
// stored prefix), so every prefix is nearly exact before it is rounded.
//
// Rootfix reads one prefix per vertex, so the scan can round each prefix to
// T as it stores it: the Euler-tour vector stays in T (float32: the same
// memory traffic as cpu/vectorial), and the result is the one rounding of a
// nearly exact float64 prefix. Leaffix subtracts two prefixes, which must
// stay wide: there the vector is float64 and the read is done in float64,
// rounded once to T. treefix.Bound gives the error bound.
func compensated[T float32 | float64](threads int, scratch *[]T, scratch64 *[]float64, op treefix.Op, v *treefix.Vector, w, out []T, rec *bench.Recorder) {
	n := len(w)
	open, cls := v.Open[:n], v.Close[:n]
	if op == treefix.Rootfix {
		if cap(*scratch) < 2*n {
			*scratch = make([]T, 2*n)
		}
		e := (*scratch)[:2*n]
		stop := rec.Start(treefix.PhaseWrite)
		parFor(threads, n, arrayGrain, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				e[open[i]] = w[i]
				e[cls[i]] = -w[i]
			}
		})
		stop()
		stop = rec.Start(treefix.PhaseScan)
		scanCompensated(threads, e)
		stop()
		stop = rec.Start(treefix.PhaseRead)
		parFor(threads, n, arrayGrain, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] = e[open[i]]
			}
		})
		stop()
		return
	}
	if cap(*scratch64) < 2*n {
		*scratch64 = make([]float64, 2*n)
	}
	e := (*scratch64)[:2*n]
	stop := rec.Start(treefix.PhaseWrite)
	parFor(threads, n, arrayGrain, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			e[open[i]] = float64(w[i])
			e[cls[i]] = 0
		}
	})
	stop()
	stop = rec.Start(treefix.PhaseScan)
	scanCompensated(threads, e)
	stop()
	stop = rec.Start(treefix.PhaseRead)
	parFor(threads, n, arrayGrain, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = T(e[cls[i]] - e[open[i]] + float64(w[i]))
		}
	})
	stop()
}

// twoSum returns a+b rounded and its exact rounding error (Knuth).
func twoSum(a, b float64) (s, err float64) {
	s = a + b
	bb := s - a
	err = (a - (s - bb)) + (b - bb)
	return s, err
}

// scanCompensated is the compensated inclusive scan: every stored prefix is
// fl(s + c) where s is the running float64 sum and c the sum of TwoSum's
// errors so far (Ogita, Rump and Oishi's Sum2 applied to every prefix).
// Parallel as scan: part sums (compensated), scanned as (s, c) pairs, then
// each part scans from its pair.
func scanCompensated[T float32 | float64](p int, e []T) {
	parts := min(p, len(e)/arrayGrain)
	if parts <= 1 {
		scanCompRange(e, 0, 0)
		return
	}
	hi := make([]float64, parts)
	lo := make([]float64, parts)
	parFor(parts, len(e), 1, func(k, a, b int) {
		var s, c float64
		for _, x := range e[a:b] {
			var d float64
			s, d = twoSum(s, float64(x))
			c += d
		}
		hi[k], lo[k] = s, c
	})
	var s, c float64
	for k := range hi {
		hs, hc := hi[k], lo[k]
		hi[k], lo[k] = s, c
		var d float64
		s, d = twoSum(s, hs)
		c += d + hc
	}
	parFor(parts, len(e), 1, func(k, a, b int) { scanCompRange(e[a:b], hi[k], lo[k]) })
}

func scanCompRange[T float32 | float64](e []T, s, c float64) {
	for i, x := range e {
		var d float64
		s, d = twoSum(s, float64(x))
		c += d
		e[i] = T(s + c)
	}
}
