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

// compensated is cpu/vectorial-compensated for float64 weights (float32
// weights take compensated32): the scan is Neumaier's compensated
// summation (TwoSum of the running sum and each entry, the errors
// accumulated beside it), so every prefix is held as a nearly exact pair
// (s, c).
//
// Rootfix reads one prefix per vertex, so the scan rounds each pair to one
// float64 as it stores it: the result is one rounding of a nearly exact
// prefix. Leaffix subtracts two prefixes, E[v)] - E[(v], whose magnitudes
// grow with the tour while their difference (v's subtree) may be small: a
// rounded prefix carries an error of u·|E|, which the subtraction keeps
// (and the plain scan's correlated errors partly cancel), so the pairs
// are kept (s in the vector, c in scratchLo) and subtracted as pairs:
// TwoSum(s_close, -s_open) is exact, the c's differ by second-order
// terms, and the result is rounded once: within u·|L_v| + u·|w_v| plus
// terms of order n·u²·Σ|w| of the exact sum.
func compensated(threads int, scratch, scratchLo *[]float64, op treefix.Op, v *treefix.Vector, w, out []float64, rec *bench.Recorder) {
	n := len(w)
	open, cls := v.Open[:n], v.Close[:n]
	if cap(*scratch) < 2*n {
		*scratch = make([]float64, 2*n)
	}
	e := (*scratch)[:2*n]
	var lo []float64 // Leaffix: the compensation of each prefix
	if op == treefix.Leaffix {
		if cap(*scratchLo) < 2*n {
			*scratchLo = make([]float64, 2*n)
		}
		lo = (*scratchLo)[:2*n]
	}
	stop := rec.Start(treefix.PhaseWrite)
	parFor(threads, n, arrayGrain, func(_, a, b int) {
		for i := a; i < b; i++ {
			e[open[i]] = w[i]
			if op == treefix.Rootfix {
				e[cls[i]] = -w[i]
			} else {
				e[cls[i]] = 0
			}
		}
	})
	stop()
	stop = rec.Start(treefix.PhaseScan)
	scanCompensated(threads, e, lo)
	stop()
	stop = rec.Start(treefix.PhaseRead)
	parFor(threads, n, arrayGrain, func(_, a, b int) {
		if op == treefix.Rootfix {
			for i := a; i < b; i++ {
				out[i] = e[open[i]]
			}
			return
		}
		for i := a; i < b; i++ {
			o, c := open[i], cls[i]
			d, dd := twoSum(e[c], -e[o])
			out[i] = d + (dd + (lo[c] - lo[o]) + w[i])
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

// scanCompensated is the compensated inclusive scan: with lo nil, every
// stored prefix is fl(s + c) where s is the running float64 sum and c the
// sum of TwoSum's errors so far (Ogita, Rump and Oishi's Sum2 applied to
// every prefix); with lo (as long as e; e of float64 then), the pair is
// kept: s in e, c in lo. Parallel as scan: part sums (compensated),
// scanned as (s, c) pairs, then each part scans from its pair.
func scanCompensated[T float32 | float64](p int, e []T, lo []float64) {
	parts := min(p, len(e)/arrayGrain)
	if parts <= 1 {
		scanCompRange(e, lo, 0, 0)
		return
	}
	his := make([]float64, parts)
	los := make([]float64, parts)
	parFor(parts, len(e), 1, func(k, a, b int) {
		var s, c float64
		for _, x := range e[a:b] {
			var d float64
			s, d = twoSum(s, float64(x))
			c += d
		}
		his[k], los[k] = s, c
	})
	var s, c float64
	for k := range his {
		hs, hc := his[k], los[k]
		his[k], los[k] = s, c
		var d float64
		s, d = twoSum(s, hs)
		c += d + hc
	}
	parFor(parts, len(e), 1, func(k, a, b int) {
		var lok []float64
		if lo != nil {
			lok = lo[a:b]
		}
		scanCompRange(e[a:b], lok, his[k], los[k])
	})
}

// scanCompRange scans e from the pair (s, c), storing each prefix rounded
// (lo nil) or as its pair.
func scanCompRange[T float32 | float64](e []T, lo []float64, s, c float64) {
	if lo == nil {
		for i, x := range e {
			var d float64
			s, d = twoSum(s, float64(x))
			c += d
			e[i] = T(s + c)
		}
		return
	}
	lo = lo[:len(e)]
	for i, x := range e {
		var d float64
		s, d = twoSum(s, float64(x))
		c += d
		e[i], lo[i] = T(s), c
	}
}
