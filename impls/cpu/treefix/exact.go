package cputreefix

import (
	"math"
	"math/bits"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/treefix"
)

// Exact fixed-point path of cpu/vectorial-compensated for float32 weights.
//
// A float32 x = m·2^(e-150), with m < 2^24 an integer and e its biased
// exponent field, is an integer multiple of 2^(emin-150) when e >= emin.
// When the weights' exponents span so few bits that every prefix of the 2n
// Euler-tour entries fits in an int64 (24 + (emax-emin) + bits(2n) + 1 <= 63
// bits), the scan accumulates x·2^(150-emin) in int64: exactly, in any order
// and on any number of goroutines. Each result is then the exact value
// rounded once to float32 (int64 to float32 conversion rounds correctly;
// the scaling back by a power of two is exact because emin >= 24 keeps
// every nonzero result normal): |R̂ - R| <= U32·|R|, the best a float32
// result can be, inside treefix.Bound. Other inputs (tiny or subnormal weights, a
// wider exponent range) take the compensated float64 path.

// expRange folds the biased exponent fields of w into lo (smallest over
// the nonzero weights; 0 for a subnormal one) and hi (largest), without
// branches (zeros would otherwise cost a misprediction each).
func expRange(w []float32, lo, hi int) (int, int) {
	for _, x := range w {
		a := math.Float32bits(x) & 0x7fffffff
		e := int(a >> 23)
		lo = min(lo, e|int(((a-1)>>31)*255)) // a zero weight counts as 255
		hi = max(hi, e)
	}
	return lo, hi
}

// fixedOK reports whether the exact path applies to weights whose nonzero
// exponents span lo..hi, with m Euler-tour entries.
func fixedOK(lo, hi, m int) bool {
	if hi == 0 || hi == 255 || lo < 24 { // all zero, Inf or NaN, or tiny weights
		return false
	}
	return 24+(hi-lo)+bits.Len(uint(m))+1 <= 63
}

// fixedMinExp returns the smallest biased exponent of the nonzero weights
// when the exact path applies to w with m Euler-tour entries.
func fixedMinExp(w []float32, m int) (int, bool) {
	lo, hi := expRange(w, 255, 0)
	return lo, fixedOK(lo, hi, m)
}

// compensated32 is cpu/vectorial-compensated for float32 weights. The
// write step stores the weights in a float32 Euler-tour vector (as
// cpu/vectorial) and finds their exponent range on the way; the scan is
// then exact in int64 when the range allows it, and compensated float64
// (Sum2) otherwise. Rootfix stores every prefix back rounded to float32;
// Leaffix keeps the prefixes wide (int64 or float64) and subtracts them
// before the one rounding to float32.
func compensated32(threads int, scratch *[]float32, scratchI *[]int64, scratch64 *[]float64, op treefix.Op, v *treefix.Vector, w, out []float32, rec *bench.Recorder) {
	n := len(w)
	if cap(*scratch) < 2*n {
		*scratch = make([]float32, 2*n)
	}
	e := (*scratch)[:2*n]
	open, cls := v.Open[:n], v.Close[:n]
	const maxParts = 256
	var los, his [maxParts]int
	stop := rec.Start(treefix.PhaseWrite)
	used := parFor(min(threads, maxParts), n, arrayGrain, func(k, lo, hi int) {
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
		los[k], his[k] = expRange(w[lo:hi], 255, 0)
	})
	elo, ehi := 255, 0
	for k := 0; k < used; k++ {
		elo, ehi = min(elo, los[k]), max(ehi, his[k])
	}
	stop()
	exact := fixedOK(elo, ehi, 2*n)
	var up, down float32
	if exact {
		up = math.Float32frombits(uint32(150-elo+127) << 23)   // 2^(150-emin)
		down = math.Float32frombits(uint32(elo-150+127) << 23) // 2^(emin-150)
	}
	if op == treefix.Rootfix {
		stop = rec.Start(treefix.PhaseScan)
		if exact {
			scanFixed(threads, e, nil, up, down)
		} else {
			scanCompensated(threads, e, nil)
		}
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
	if exact {
		if cap(*scratchI) < 2*n {
			*scratchI = make([]int64, 2*n)
		}
		p := (*scratchI)[:2*n]
		stop = rec.Start(treefix.PhaseScan)
		scanFixed(threads, e, p, up, down)
		stop()
		stop = rec.Start(treefix.PhaseRead)
		parFor(threads, n, arrayGrain, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] = float32(p[cls[i]]-p[open[i]]+int64(w[i]*up)) * down
			}
		})
		stop()
		return
	}
	if cap(*scratch64) < 2*n {
		*scratch64 = make([]float64, 2*n)
	}
	p := (*scratch64)[:2*n]
	stop = rec.Start(treefix.PhaseScan)
	for i, x := range e { // widen, then the compensated scan in place
		p[i] = float64(x)
	}
	scanCompensated(threads, p, nil)
	stop()
	stop = rec.Start(treefix.PhaseRead)
	parFor(threads, n, arrayGrain, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = float32(p[cls[i]] - p[open[i]] + float64(w[i]))
		}
	})
	stop()
}

// scanFixed is the exact inclusive scan: each entry x becomes the int64
// x·up, the prefixes are summed in int64, and either stored back rounded
// (p == nil: e[i] = float32(prefix)·down) or kept in p.
func scanFixed(threads int, e []float32, p []int64, up, down float32) {
	parts := min(threads, len(e)/arrayGrain)
	if parts <= 1 {
		scanFixedRange(e, p, 0, up, down)
		return
	}
	sums := make([]int64, parts)
	parFor(parts, len(e), 1, func(k, a, b int) {
		var s int64
		for _, x := range e[a:b] {
			s += int64(x * up)
		}
		sums[k] = s
	})
	var acc int64
	for k, x := range sums {
		sums[k] = acc
		acc += x
	}
	parFor(parts, len(e), 1, func(k, a, b int) {
		var pk []int64
		if p != nil {
			pk = p[a:b]
		}
		scanFixedRange(e[a:b], pk, sums[k], up, down)
	})
}

func scanFixedRange(e []float32, p []int64, s int64, up, down float32) {
	if p == nil {
		for i, x := range e {
			s += int64(x * up)
			e[i] = float32(s) * down
		}
		return
	}
	p = p[:len(e)]
	for i, x := range e {
		s += int64(x * up)
		p[i] = s
	}
}
