// Package hostcost is the host side of impls/cuda/lap's costs, pure CPU
// code run before any device work: it checks a cost matrix or an integer
// batch as lap.Matrix.Validate and lap.Batch.Validate do, in one parallel
// pass that also finds the least and largest cost and the first cost
// beyond int32 (Scan), and converts int64 costs, minus a shift, to int32
// or int16 in parallel (Convert, and FuseChunk, which scans and converts
// a chunk in one pass, with AVX-512 and non-temporal stores where the CPU
// has them: lines_amd64.s). Its parallel loops (crew.go) take parts from a
// shared counter, in fresh goroutines (ParallelFor) or in a Crew kept
// awake across the chunks of one upload. Its refusals are worded for the
// solver named.
package hostcost

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/semibench/semibench/problems/lap"
)

// Scan is what ScanValues found in costs.
type Scan struct {
	Lo, Hi int64 // the least and the largest cost
	Bad    int   // the index of the first cost beyond ±lim, -1 when none
	Wide   int   // the index of the first cost beyond int32, -1 when none
}

// Empty is the scan of no costs (Lo above Hi, no Bad or Wide index), the
// start of a scan that joins parts.
func Empty() Scan { return Scan{Lo: math.MaxInt64, Hi: math.MinInt64, Bad: -1, Wide: -1} }

// ScanValues is one parallel pass over c that finds the least and the
// largest value, the first beyond ±lim and the first beyond int32 (Lo and
// Hi cover the values before the first beyond ±lim of each part only: they
// are meant for costs that passed).
func ScanValues(c []int64, lim int64) Scan {
	var mu sync.Mutex
	var parts []Scan
	ParallelFor(len(c), func(a, b int) {
		p := Empty()
		for k := a; k < b; k++ {
			x := c[k]
			if x > lim || x < -lim {
				p.Bad = k
				break
			}
			if p.Wide < 0 && (x < math.MinInt32 || x > math.MaxInt32) {
				p.Wide = k
			}
			p.Lo, p.Hi = min(p.Lo, x), max(p.Hi, x)
		}
		mu.Lock()
		parts = append(parts, p)
		mu.Unlock()
	})
	s := Empty()
	first := func(cur, k int) int {
		if k >= 0 && (cur < 0 || k < cur) {
			return k
		}
		return cur
	}
	for _, p := range parts {
		s.Bad, s.Wide = first(s.Bad, p.Bad), first(s.Wide, p.Wide)
		s.Lo, s.Hi = min(s.Lo, p.Lo), max(s.Hi, p.Hi)
	}
	return s
}

// ScanMatrix checks m as lap.Matrix.Validate does (shape, and every cost
// within lap.MaxAbsCost) in one parallel pass that also finds the least
// and largest cost and the first cost beyond int32; errors begin with
// impl. It runs before any device work, so a refusal never depends on a
// GPU.
func ScanMatrix(impl string, m *lap.Matrix) (Scan, error) {
	if m == nil {
		return Scan{}, fmt.Errorf("%s: nil matrix", impl)
	}
	if err := m.CheckShape(); err != nil {
		return Scan{}, fmt.Errorf("%s: %w", impl, err)
	}
	lim := lap.MaxAbsCost(m.Cols)
	s := ScanValues(m.C, lim)
	if k := s.Bad; k >= 0 {
		return Scan{}, fmt.Errorf("%s: %w: cost %d at row %d, column %d exceeds ±%d for %d columns",
			impl, lap.ErrOverflow, m.C[k], k/m.Cols+1, k%m.Cols+1, lim, m.Cols)
	}
	return s, nil
}

// ScanBatch checks an integer batch as lap.Batch.Validate does, and that
// every cost fits int32 (the batch kernel's cost type), in one parallel
// pass over all its costs, which also finds their least and largest;
// errors name the problem (1-based), row and column. With a cost beyond
// int32 (lap.ErrRange) it returns the scan as well.
func ScanBatch(impl string, b *lap.Batch) (Scan, error) {
	if err := b.CheckShape(); err != nil {
		return Scan{}, fmt.Errorf("%s: %s: %w", impl, b.Name, err)
	}
	lim, sz := lap.MaxAbsCost(b.Cols), b.Size()
	s := ScanValues(b.Int, lim)
	where := func(k int) string {
		return fmt.Sprintf("problem %d, row %d, column %d", k/sz+1, k%sz/b.Cols+1, k%b.Cols+1)
	}
	switch {
	case s.Bad >= 0 && (s.Wide < 0 || s.Bad < s.Wide):
		return Scan{}, fmt.Errorf("%s: %s: %w: %s: cost %d exceeds ±%d for %d columns",
			impl, b.Name, lap.ErrOverflow, where(s.Bad), b.Int[s.Bad], lim, b.Cols)
	case s.Wide >= 0:
		return s, fmt.Errorf("%s: %s: %w: %s: cost %d is beyond int32, the batch kernel's integer cost type",
			impl, b.Name, lap.ErrRange, where(s.Wide), b.Int[s.Wide])
	}
	return s, nil
}

// Need32 refuses m, scanned as s, when it has a cost beyond int32, the
// device's cost type when the costs are uploaded as they are.
func (s Scan) Need32(impl string, m *lap.Matrix) error {
	if k := s.Wide; k >= 0 {
		return fmt.Errorf("%s: %w: cost %d at row %d, column %d is beyond int32, the device's integer cost type",
			impl, lap.ErrRange, m.C[k], k/m.Cols+1, k%m.Cols+1)
	}
	return nil
}

// Width is the type costs cross the bus in, on the way to the device's
// int32 cost buffer.
type Width uint8

const (
	Int16  Width = iota // int16, sign-extended on the device
	Uint16              // the low 16 bits of costs from 0 to 65,535, zero-extended on the device
	Int32               // int32 as they are
)

// bounds is the range of costs that width w holds.
func (w Width) bounds() (lo, hi int64) {
	switch w {
	case Int16:
		return math.MinInt16, math.MaxInt16
	case Uint16:
		return 0, math.MaxUint16
	}
	return math.MinInt32, math.MaxInt32
}

// Mask is what the device keeps of a 16-bit cost it has sign-extended
// (lap_widen16): every bit for Int16, the low 16 for Uint16.
func (w Width) Mask() int32 {
	if w == Uint16 {
		return math.MaxUint16
	}
	return -1
}

// String names the width as the type it writes.
func (w Width) String() string {
	return [...]string{"int16", "uint16", "int32"}[min(w, Int32)]
}

// Width is the narrowest width that holds every cost of the scan minus
// shift (Int32 for the scan of no costs), so that an upload moves half
// the bytes where the costs span at most 65,535.
func (s Scan) Width(shift int64) Width {
	for _, w := range []Width{Int16, Uint16} {
		if lo, hi := w.bounds(); s.Lo <= s.Hi && s.Lo-shift >= lo && s.Hi-shift <= hi {
			return w
		}
	}
	return Int32
}

// Convert writes src minus shift to dst as int32 or int16, in parallel;
// the caller has checked that every difference fits.
func Convert[T int16 | int32](dst []T, src []int64, shift int64) {
	ParallelFor(len(src), func(a, b int) {
		d, s := dst[a:b], src[a:b]
		for k, x := range s {
			d[k] = T(x - shift)
		}
	})
}

// FuseChunk scans src and converts it in one parallel pass, into d16 in
// width first when every cost fits it; otherwise (a further pass, only
// when one failed) into the other 16-bit width where the costs seen so
// far allow, then into d32 as Int32 (at once when first is Int32: the
// chunks after one that needed it). It returns the width written. d16 and
// d32 may be views of the same memory, each at least as long as src; a
// Uint16 chunk holds the costs' low 16 bits. The scan's Bad and Wide are
// set (to some index of src) when a cost is beyond ±lim or beyond int32;
// the chunk's contents are then undefined.
func FuseChunk(d16 []int16, d32 []int32, src []int64, lim int64, first Width) (Scan, Width) {
	return (*Crew)(nil).FuseChunk(d16, d32, src, lim, first)
}

// FuseChunk is the package's FuseChunk with its loops run by the crew
// (by fresh goroutines when c is nil).
func (c *Crew) FuseChunk(d16 []int16, d32 []int32, src []int64, lim int64, first Width) (Scan, Width) {
	seen := Empty() // the costs the failed passes took
	for i, w := range [...]Width{first, Int16, Uint16} {
		if first == Int32 {
			break
		}
		lo, hi := w.bounds()
		if i > 0 && w == first || seen.Lo < lo || seen.Hi > hi {
			continue
		}
		s := fusedPass(c, d16[:len(src)], src, lim, lo, hi)
		if s.Wide < 0 {
			return s, w
		}
		seen.Lo, seen.Hi = min(seen.Lo, s.Lo), max(seen.Hi, s.Hi)
	}
	return fusedPass(c, d32[:len(src)], src, lim, math.MinInt32, math.MaxInt32), Int32
}

// fusedPass writes src to dst while it finds their least and largest, in
// parallel (crew c's loop); a part stops at its first cost beyond ±lim
// (Bad) or outside [lo, hi] (Wide), and the scan names one such index.
func fusedPass[T int16 | int32](c *Crew, dst []T, src []int64, lim, lo, hi int64) Scan {
	var mu sync.Mutex
	s := Empty()
	c.For(len(src), func(a, b int) {
		p := fusedPart(dst[a:b], src[a:b], lim, lo, hi)
		mu.Lock()
		s.Lo, s.Hi = min(s.Lo, p.Lo), max(s.Hi, p.Hi)
		if p.Bad >= 0 {
			s.Bad = max(s.Bad, a+p.Bad)
		}
		if p.Wide >= 0 {
			s.Wide = max(s.Wide, a+p.Wide)
		}
		mu.Unlock()
	})
	return s
}

// fusedPart is one part of fusedPass: src written to d (as long as src at
// least) while their least and largest are found, up to the first cost
// beyond ±lim (Bad) or outside [lo, hi] (Wide), indices into src. Where
// [lo, hi] lies within ±lim, a cost inside [lo, hi] passes both checks,
// so one unsigned difference a cost tests it: the head before d's first
// 64-byte line goes through quadPart, the whole lines after it through
// fuseLines (AVX-512 with non-temporal stores, where the CPU has it) and
// the rest through quadPart again; the first step with a cost outside
// finishes in the plain loop, which finds that cost's index and kind.
// (The plain loop alone ran the Hungarian's one read of the int64 costs
// at about 31 GB/s on the 16-core Xeon host of the H200, against the
// 48 GB/s of a parallel copy there.)
func fusedPart[T int16 | int32](d []T, src []int64, lim, lo, hi int64) Scan {
	p := Empty()
	d = d[:len(src)]
	k := 0
	if lo <= hi && lim >= hi && lim >= -lo {
		span := uint64(hi - lo)
		h := min(len(src), headLen(d))
		k, p = quadPart(d[:h], src[:h], lo, span, 0, p)
		if p = plainPart(d[:h], src[:h], lim, lo, hi, k, p); p.Bad >= 0 || p.Wide >= 0 {
			return p
		}
		n, q := fuseLines(d[h:], src[h:], lo, span)
		p.Lo, p.Hi = min(p.Lo, q.Lo), max(p.Hi, q.Hi)
		k, p = quadPart(d, src, lo, span, h+n, p)
	}
	return plainPart(d, src, lim, lo, hi, k, p)
}

// lineCosts is the costs fuseLines takes a step: 256 bytes of int64.
const lineCosts = 32

// headLen is the number of elements of d before its first 64-byte
// boundary, where fuseLines's non-temporal stores may begin.
func headLen[T int16 | int32](d []T) int {
	var t T
	return int(-uintptr(unsafe.Pointer(unsafe.SliceData(d)))&63) / int(unsafe.Sizeof(t))
}

// quadPart goes on from index k of src while every cost is in [lo,
// lo+span], four costs a step with a least and a largest of their own (no
// chain of dependent min and max from one cost to the next), writing them
// to d; it returns where it stopped (before the first step with a cost
// outside, or fewer than four costs from the end) and p joined with the
// scan of the costs it wrote.
func quadPart[T int16 | int32](d []T, src []int64, lo int64, span uint64, k int, p Scan) (int, Scan) {
	lo0, lo1, lo2, lo3 := p.Lo, p.Lo, p.Lo, p.Lo
	hi0, hi1, hi2, hi3 := p.Hi, p.Hi, p.Hi, p.Hi
	for ; k+4 <= len(src); k += 4 {
		s := src[k : k+4 : k+4]
		x0, x1, x2, x3 := s[0], s[1], s[2], s[3]
		// x in [lo, lo+span] exactly when x - lo, modulo 2^64, is at most span.
		if uint64(x0-lo) > span || uint64(x1-lo) > span || uint64(x2-lo) > span || uint64(x3-lo) > span {
			break
		}
		o := d[k : k+4 : k+4]
		o[0], o[1], o[2], o[3] = T(x0), T(x1), T(x2), T(x3)
		lo0, lo1, lo2, lo3 = min(lo0, x0), min(lo1, x1), min(lo2, x2), min(lo3, x3)
		hi0, hi1, hi2, hi3 = max(hi0, x0), max(hi1, x1), max(hi2, x2), max(hi3, x3)
	}
	p.Lo, p.Hi = min(lo0, lo1, lo2, lo3), max(hi0, hi1, hi2, hi3)
	return k, p
}

// plainPart is fusedPart's definition, one cost at a time: it goes on
// from index k of src, p being the scan of the costs before it.
func plainPart[T int16 | int32](d []T, src []int64, lim, lo, hi int64, k int, p Scan) Scan {
	for ; k < len(src); k++ {
		x := src[k]
		if x > lim || x < -lim {
			p.Bad = k
			break
		}
		if x < lo || x > hi {
			p.Wide = k
			break
		}
		d[k] = T(x)
		p.Lo, p.Hi = min(p.Lo, x), max(p.Hi, x)
	}
	return p
}
