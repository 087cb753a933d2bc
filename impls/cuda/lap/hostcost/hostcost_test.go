package hostcost

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/semibench/semibench/problems/lap"
)

// lim3 is lap.MaxAbsCost(3), written out so that the messages below are
// pinned byte for byte.
const lim3 = 46116860184273879

// withProcs runs the rest of the test with GOMAXPROCS p, so that the
// parallel passes split into several parts on a machine of few cores.
func withProcs(t *testing.T, p int) {
	old := runtime.GOMAXPROCS(p)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

// TestParallelFor: the parts are disjoint and cover every index of [0, n)
// once, for n on either side of the grain and of its multiples, in one
// part at GOMAXPROCS 1 or below the grain, in several (at most one per
// grain and per proc) otherwise.
func TestParallelFor(t *testing.T) {
	for _, procs := range []int{1, 2, 3, 4} {
		withProcs(t, procs)
		crew := StartCrew()
		for name, run := range map[string]func(int, func(a, b int)){"ParallelFor": ParallelFor, "Crew.For": crew.For, "nil Crew.For": (*Crew)(nil).For} {
			// Each runs several loops in a row, as an upload's chunks.
			for r := range 3 {
				for _, n := range []int{0, 1, 2, grain - 1, grain, grain + 1, 2*grain - 1, 2 * grain, 2*grain + 1, 3*grain + 7, 4*grain + 3, 40*grain + 5} {
					if r == 0 || n < 5*grain {
						checkLoop(t, fmt.Sprintf("%s, procs %d, n %d", name, procs, n), procs, n, run)
					}
				}
			}
		}
		crew.Stop()
	}
}

// checkLoop runs a loop over [0, n) with run and checks its calls: every
// index once, no more calls at once than procs, a single call where one
// goroutine is all there is and otherwise a part for every goroutine at
// least, none but the last shorter than grain.
func checkLoop(t *testing.T, what string, procs, n int, run func(int, func(a, b int))) {
	t.Helper()
	seen := make([]int32, n)
	var mu sync.Mutex
	var parts [][2]int
	var active, most atomic.Int32
	run(n, func(a, b int) {
		now := active.Add(1)
		defer active.Add(-1)
		mu.Lock()
		parts = append(parts, [2]int{a, b})
		most.Store(max(most.Load(), now))
		mu.Unlock()
		if a < 0 || b > n || a > b {
			t.Errorf("%s: range [%d, %d)", what, a, b)
			return
		}
		for k := a; k < b; k++ {
			atomic.AddInt32(&seen[k], 1)
		}
	})
	if k := slices.IndexFunc(seen, func(c int32) bool { return c != 1 }); k >= 0 {
		t.Fatalf("%s: index %d covered %d times", what, k, seen[k])
	}
	if m := most.Load(); int(m) > procs {
		t.Errorf("%s: %d calls at once", what, m)
	}
	workers := min(procs, max(1, (n+grain-1)/grain))
	if workers == 1 && len(parts) != 1 || len(parts) < workers {
		t.Errorf("%s: %d parts for %d goroutines", what, len(parts), workers)
	}
	for _, p := range parts {
		if p[1] < n && p[1]-p[0] < grain {
			t.Errorf("%s: part [%d, %d) shorter than the grain", what, p[0], p[1])
		}
	}
}

// TestScanValues: the least and largest value, and the first value beyond
// int32 and the first beyond the bound, whichever part holds them (the
// earliest named when several parts hold one).
func TestScanValues(t *testing.T) {
	withProcs(t, 4)
	n := 3*grain + 11
	c := make([]int64, n)
	for k := range c {
		c[k] = int64(k%5000) - 100
	}
	c[2*grain+3], c[grain+9] = -7777, 1<<20
	if s, want := ScanValues(c, 1<<40), (Scan{Lo: -7777, Hi: 1 << 20, Bad: -1, Wide: -1}); s != want {
		t.Errorf("scan %+v, want %+v", s, want)
	}
	c[3*grain+1], c[2*grain], c[grain+2] = math.MaxInt32+1, math.MaxInt32+1, math.MinInt32-1
	if s, want := ScanValues(c, 1<<40), (Scan{Lo: math.MinInt32 - 1, Hi: math.MaxInt32 + 1, Bad: -1, Wide: grain + 2}); s != want {
		t.Errorf("beyond int32: scan %+v, want %+v", s, want)
	}
	c[3*grain+2], c[grain+5] = 1<<41, -(1 << 41)
	if s := ScanValues(c, 1<<40); s.Bad != grain+5 || s.Wide != grain+2 {
		t.Errorf("beyond the bound: scan %+v, want Bad %d, Wide %d", s, grain+5, grain+2)
	}
	if s := ScanValues(nil, 1); s != Empty() || s.Width(0) != Int32 {
		t.Errorf("no costs: scan %+v", s)
	}
}

// TestScanMatrix: a matrix's refusals, word for word, and its scan.
func TestScanMatrix(t *testing.T) {
	if _, err := ScanMatrix("x", nil); err == nil || err.Error() != "x: nil matrix" {
		t.Errorf("nil: %v", err)
	}
	if _, err := ScanMatrix("x", &lap.Matrix{Rows: 2, Cols: 3, C: make([]int64, 5)}); !errors.Is(err, lap.ErrShape) || !strings.HasPrefix(err.Error(), "x: cost matrix shape") {
		t.Errorf("shape: %v", err)
	}
	m := &lap.Matrix{Rows: 2, Cols: 3, C: []int64{4, -9, 0, 1 << 33, 2, 3}}
	s, err := ScanMatrix("x", m)
	if want := (Scan{Lo: -9, Hi: 1 << 33, Bad: -1, Wide: 3}); err != nil || s != want {
		t.Errorf("scan %+v, %v; want %+v", s, err, want)
	}
	if err := s.Need32("x", m); !errors.Is(err, lap.ErrRange) || err.Error() != "x: cost beyond the implementation's number type: cost 8589934592 at row 2, column 1 is beyond int32, the device's integer cost type" {
		t.Errorf("Need32: %v", err)
	}
	if err := (Scan{Wide: -1}).Need32("x", m); err != nil {
		t.Errorf("Need32 with every cost in int32: %v", err)
	}
	m.C[5], m.C[4] = -lim3-1, lim3+1
	_, err = ScanMatrix("cuda/x", m)
	if want := "cuda/x: costs too large: sums could overflow: cost 46116860184273880 at row 2, column 2 exceeds ±46116860184273879 for 3 columns"; !errors.Is(err, lap.ErrOverflow) || err.Error() != want {
		t.Errorf("overflow: %v\nwant %s", err, want)
	}
	m.C[4] = lim3
	if _, err = ScanMatrix("x", m); !errors.Is(err, lap.ErrOverflow) || !strings.Contains(err.Error(), "row 2, column 3") {
		t.Errorf("overflow below the bound: %v", err)
	}
}

// TestScanBatch: a batch's refusals name the problem, row and column of
// the first cost beyond the bound or beyond int32, whichever comes first;
// beyond int32 it returns the scan as well.
func TestScanBatch(t *testing.T) {
	if _, err := ScanBatch("x", &lap.Batch{Name: "b.txt", Rows: 2, Cols: 3}); !errors.Is(err, lap.ErrShape) || err.Error() != "x: b.txt: cost matrix shape: a batch of 0 problems" {
		t.Errorf("shape: %v", err)
	}
	b := &lap.Batch{Name: "b.txt", Count: 2, Rows: 2, Cols: 3, Int: []int64{1, 2, 3, 4, 5, 6, 7, -8, 9, 10, 11, 12}}
	s, err := ScanBatch("x", b)
	if want := (Scan{Lo: -8, Hi: 12, Bad: -1, Wide: -1}); err != nil || s != want {
		t.Errorf("scan %+v, %v; want %+v", s, err, want)
	}
	b.Int[10], b.Int[8] = math.MinInt32-1, lim3+1
	_, err = ScanBatch("x", b)
	if want := "x: b.txt: costs too large: sums could overflow: problem 2, row 1, column 3: cost 46116860184273880 exceeds ±46116860184273879 for 3 columns"; !errors.Is(err, lap.ErrOverflow) || err.Error() != want {
		t.Errorf("overflow: %v\nwant %s", err, want)
	}
	b.Int[4] = math.MaxInt32 + 1
	s, err = ScanBatch("x", b)
	if want := "x: b.txt: cost beyond the implementation's number type: problem 1, row 2, column 2: cost 2147483648 is beyond int32, the batch kernel's integer cost type"; !errors.Is(err, lap.ErrRange) || err.Error() != want {
		t.Errorf("beyond int32: %v\nwant %s", err, want)
	}
	if s.Wide != 4 || s.Bad != 8 {
		t.Errorf("beyond int32: scan %+v", s)
	}
}

// TestConvert: the costs minus the shift, as int32 and as int16, over
// several parts.
func TestConvert(t *testing.T) {
	withProcs(t, 3)
	n := 2*grain + 5
	src := make([]int64, n)
	rnd := rand.New(rand.NewPCG(1, 2))
	for k := range src {
		src[k] = 1e12 + rnd.Int64N(65536) - 32768
	}
	d32, d16 := make([]int32, n), make([]int16, n)
	Convert(d32, src, 1e12-1e9)
	Convert(d16, src, 1e12)
	for k, x := range src {
		if int64(d32[k]) != x-(1e12-1e9) || int64(d16[k]) != x-1e12 {
			t.Fatalf("cost %d (%d): int32 %d, int16 %d", k, x, d32[k], d16[k])
		}
	}
}

// TestScanAndConvert: the scan finds the least and largest cost and the
// first cost beyond int32 (in parallel, over several goroutines' parts),
// and the costs are shifted by their minimum into int32.
func TestScanAndConvert(t *testing.T) {
	m := &lap.Matrix{Rows: 2, Cols: 3, C: []int64{-5, 7, 0, 3, -5, 100}}
	sc, err := ScanMatrix("cuda/paper", m)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Lo != -5 || sc.Hi != 100 || sc.Wide != -1 {
		t.Errorf("scan %+v", sc)
	}
	dst := make([]int32, len(m.C))
	Convert(dst, m.C, sc.Lo)
	if !slices.Equal(dst, []int32{0, 12, 5, 8, 0, 105}) {
		t.Errorf("costs %v", dst)
	}
	big := make([]int64, 1<<21)
	for k := range big {
		big[k] = int64(k%1000) + 1e10
	}
	big[1<<20+5] = 1e10 + 2000
	bm := &lap.Matrix{Rows: 1024, Cols: 2048, C: big}
	if sc, err = ScanMatrix("cuda/paper", bm); err != nil {
		t.Fatal(err)
	}
	if sc.Lo != 1e10 || sc.Hi != 1e10+2000 || sc.Wide != 0 {
		t.Errorf("scan %+v", sc)
	}
	if err := sc.Need32("x", bm); !errors.Is(err, lap.ErrRange) || !strings.Contains(err.Error(), "row 1, column 1") {
		t.Errorf("Need32: %v", err)
	}
	dst = make([]int32, len(big))
	Convert(dst, big, sc.Lo)
	for k, x := range dst {
		if int64(x) != big[k]-1e10 {
			t.Fatalf("cost %d: %d, want %d", k, x, big[k]-1e10)
		}
	}
	// The first cost beyond the bound is the one named, whichever
	// goroutine's part holds it.
	big[1<<20+7], big[1<<20+3] = math.MaxInt64, math.MinInt64
	_, err = ScanMatrix("x", bm)
	if !errors.Is(err, lap.ErrOverflow) || !strings.Contains(err.Error(), fmt.Sprintf("row %d, column %d", (1<<20+3)/2048+1, (1<<20+3)%2048+1)) {
		t.Errorf("scan: %v", err)
	}
}

// TestWidth: an upload goes as int16 exactly when every cost minus the
// shift fits int16, as uint16 when they fit [0, 65535] instead, as int32
// otherwise; the device keeps a uint16 cost's low 16 bits.
func TestWidth(t *testing.T) {
	for _, c := range []struct {
		lo, hi, shift int64
		want          Width
	}{
		{0, 32767, 0, Int16}, {0, 32768, 0, Uint16}, {0, 65535, 0, Uint16}, {0, 65536, 0, Int32},
		{-32768, 0, 0, Int16}, {-32769, 0, 0, Int32}, {-1, 32768, 0, Int32},
		{1e10, 1e10 + 60000, 1e10, Uint16}, {1e10, 1e10 + 30000, 1e10, Int16}, {1e10, 1e10 + 70000, 1e10, Int32},
		{5, 4, 0, Int32},
	} {
		if got := (Scan{Lo: c.lo, Hi: c.hi}).Width(c.shift); got != c.want {
			t.Errorf("lo %d hi %d shift %d: Width = %v, want %v", c.lo, c.hi, c.shift, got, c.want)
		}
	}
	dst := make([]int16, 4)
	Convert(dst, []int64{1e10 - 32768, 1e10, 1e10 + 32767, 1e10 + 1}, 1e10)
	if !slices.Equal(dst, []int16{-32768, 0, 32767, 1}) {
		t.Errorf("int16 costs %v", dst)
	}
	// What the device does with a chunk (lap_widen16): sign-extend, then mask.
	Convert(dst, []int64{1e10 + 65535, 1e10, 1e10 + 32768, 1e10 + 40000}, 1e10)
	for k, want := range []int32{65535, 0, 32768, 40000} {
		if got := int32(dst[k]) & Uint16.Mask(); got != want {
			t.Errorf("uint16 cost %d widened to %d, want %d", k, got, want)
		}
	}
	if got := int32(int16(-5)) & Int16.Mask(); got != -5 {
		t.Errorf("int16 -5 widened to %d", got)
	}
}

// TestFuseChunk: one pass converts a chunk to the first width tried when
// every cost fits, to the other 16-bit width when they fit that, to int32
// otherwise, and flags a cost beyond int32 or beyond the bound, wherever
// in the chunk (which goroutine's part) it is.
func TestFuseChunk(t *testing.T) {
	withProcs(t, 4)
	const n = 3<<18 + 7 // several parts of ParallelFor
	src := make([]int64, n)
	rnd := rand.New(rand.NewPCG(3, 9))
	for k := range src {
		src[k] = rnd.Int64N(65536) - 32768
	}
	d16, d32 := make([]int16, n), make([]int32, n)
	fuse := func(first, want Width) Scan {
		t.Helper()
		clear(d16)
		clear(d32)
		s, w := FuseChunk(d16, d32, src, 1<<40, first)
		if w != want || s.Bad >= 0 || s.Wide >= 0 {
			t.Fatalf("first %v: width %v, scan %+v; want %v", first, w, s, want)
		}
		for k, x := range src {
			if got := [...]int64{int64(d16[k]), int64(d16[k]) & 0xffff, int64(d32[k])}[w]; got != x {
				t.Fatalf("%v cost %d: %d, want %d", w, k, got, x)
			}
		}
		return s
	}
	if s := fuse(Int16, Int16); s.Lo != -32768 || s.Hi != 32767 {
		t.Fatalf("int16 chunk: scan %+v", s)
	}
	fuse(Uint16, Int16) // a negative cost early on: no uint16
	fuse(Int32, Int32)  // after a chunk that needed int32, straight there
	// Costs from 0 to 65,535: uint16 from either start.
	for k := range src {
		src[k] += 32768
	}
	fuse(Int16, Uint16)
	if s := fuse(Uint16, Uint16); s.Lo != 0 || s.Hi != 65535 {
		t.Fatalf("uint16 chunk: scan %+v", s)
	}
	// One cost beyond both, late in the chunk: the whole chunk goes as int32.
	src[n-3] = 70000
	if s := fuse(Int16, Int32); s.Hi != 70000 {
		t.Fatalf("int32 chunk: scan %+v", s)
	}
	src[n-3] = -1
	fuse(Uint16, Int32)
	// Beyond int32, and beyond the bound (which is checked first).
	src[5] = math.MaxInt32 + 1
	if s, _ := FuseChunk(d16, d32, src, 1<<40, Int16); s.Wide != 5 || s.Bad >= 0 {
		t.Errorf("a cost beyond int32: scan %+v", s)
	}
	src[5], src[n/2] = 0, -(1 << 41)
	if s, _ := FuseChunk(d16, d32, src, 1<<40, Int16); s.Bad != n/2 {
		t.Errorf("a cost beyond the bound: scan %+v", s)
	}
}

// TestFusedPartAgrees: on random parts with costs beyond the range or the
// bound planted anywhere (in every lane of the four-cost step, in the
// assembly's lines, in the head before the first 64-byte line and in the
// tail), at every alignment of the destination, and bounds narrower than
// the range (where the fast path must not run), fusedPart gives
// plainPart's scan and writes the same costs: in Go alone, and with the
// AVX-512 lines where the CPU has them.
func TestFusedPartAgrees(t *testing.T) {
	paths := []bool{false}
	if hasAVX512 {
		paths = append(paths, true)
	}
	for _, asm := range paths {
		t.Run(fmt.Sprintf("avx512=%v", asm), func(t *testing.T) {
			defer func(old bool) { hasAVX512 = old }(hasAVX512)
			hasAVX512 = asm
			fusedPartAgrees(t)
		})
	}
}

func fusedPartAgrees(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 7))
	type bounds struct{ lim, lo, hi int64 }
	cases := []bounds{
		{1 << 40, math.MinInt16, math.MaxInt16},
		{1 << 40, math.MinInt32, math.MaxInt32},
		{1000, math.MinInt16, math.MaxInt16}, // the bound inside the range
		{math.MaxInt64, math.MinInt32, math.MaxInt32},
	}
	for trial := 0; trial < 4000; trial++ {
		b := cases[trial%len(cases)]
		n := rnd.IntN([]int{40, 400}[trial%2])
		src := make([]int64, n)
		for k := range src {
			src[k] = rnd.Int64N(2001) - 1000
		}
		if n > 0 && trial%3 != 0 {
			// plant an outlier: beyond the narrow bound but inside int16,
			// beyond int16, beyond int32, beyond the wide bound, or an extreme
			k := rnd.IntN(n)
			src[k] = []int64{5000, -5000, 40000, -40000, math.MaxInt32 + 1, math.MinInt32 - 1, 1 << 41, -(1 << 41), math.MaxInt64, math.MinInt64}[rnd.IntN(10)]
		}
		off := rnd.IntN(40) // the destination's alignment
		got16, want16 := make([]int16, off+n), make([]int16, n)
		gs, ws := fusedPart(got16[off:], src, b.lim, b.lo, min(b.hi, math.MaxInt16)), plainPart(want16, src, b.lim, b.lo, min(b.hi, math.MaxInt16), 0, Empty())
		if b.lo == math.MinInt16 && (gs != ws || !slices.Equal(got16[off:], want16)) {
			t.Fatalf("int16, bounds %+v, offset %d, costs %v: scan %+v, want %+v", b, off, src, gs, ws)
		}
		got32, want32 := make([]int32, off+n), make([]int32, n)
		gs, ws = fusedPart(got32[off:], src, b.lim, b.lo, b.hi), plainPart(want32, src, b.lim, b.lo, b.hi, 0, Empty())
		if b.lo == math.MinInt32 && (gs != ws || !slices.Equal(got32[off:], want32)) {
			t.Fatalf("int32, bounds %+v, offset %d, costs %v: scan %+v, want %+v", b, off, src, gs, ws)
		}
	}
}

// TestFuseLines: where the CPU has AVX-512, the assembly takes every
// whole line before the first line with a cost outside the range (and
// none after it), writes their costs, and finds their least and largest
// (the extremes planted in a lane the other lines do not reach).
func TestFuseLines(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512 on this CPU: fusedPart runs in Go (TestFusedPartAgrees)")
	}
	const lines = 9
	buf := make([]int16, lines*lineCosts+64)
	d := buf[headLen(buf):][:lines*lineCosts]
	src := make([]int64, lines*lineCosts)
	for k := range src {
		src[k] = int64(k%200) - 100
	}
	src[2*lineCosts+29], src[3*lineCosts+7] = -32768, 32767
	bad := 6*lineCosts + 17
	src[bad] = 32768
	n, s := fuseLines(d, src, math.MinInt16, math.MaxInt16-math.MinInt16)
	if n != 6*lineCosts || s.Lo != -32768 || s.Hi != 32767 {
		t.Fatalf("fuseLines: %d costs, scan %+v; want %d, least -32768, largest 32767", n, s, 6*lineCosts)
	}
	for k := range d {
		if want := int16(src[k]); k < n && d[k] != want || k >= n && d[k] != 0 {
			t.Fatalf("cost %d written as %d (lines done %d)", k, d[k], n/lineCosts)
		}
	}
	// The range's ends themselves, in every lane, are inside it.
	for k := range src {
		src[k] = []int64{-5, 7}[(k+k/lineCosts)%2]
	}
	if n, s = fuseLines(d, src, -5, 12); n != len(src) || s.Lo != -5 || s.Hi != 7 {
		t.Fatalf("costs at the range's ends: %d of %d costs, scan %+v", n, len(src), s)
	}
}

// BenchmarkFuseChunk is the Hungarian's one read of the int64 costs, a
// chunk of uniform costs checked and written as the upload's first chunk
// is (int16 tried first): range n at n = 8192 (a full chunk of 8M costs,
// int16) and at n = 512 (the whole matrix), range 10n at n = 4096 (a
// chunk of 8M costs, uint16 after a failed int16 pass) and at 8192
// (int32 after two failed passes).
func BenchmarkFuseChunk(b *testing.B) {
	for _, c := range []struct {
		name   string
		n, rng int
		want   Width
	}{{"n=8192", 8192, 8192, Int16}, {"n=512", 512, 512, Int16}, {"n=4096,range=10n", 4096, 40960, Uint16}, {"n=8192,range=10n", 8192, 81920, Int32}} {
		b.Run(c.name, func(b *testing.B) {
			k := min(c.n*c.n, 8<<20)
			src := uniformCosts(k, c.rng)
			d32 := make([]int32, k)
			d16 := unsafe.Slice((*int16)(unsafe.Pointer(&d32[0])), 2*k) // one buffer, as the ring's chunks
			b.SetBytes(int64(8 * k))
			for b.Loop() {
				if _, w := FuseChunk(d16, d32, src, 1<<40, Int16); w != c.want {
					b.Fatalf("width %v, want %v", w, c.want)
				}
			}
		})
	}
}

// BenchmarkFuseMatrix is the same read over a whole matrix of n = 8192
// (range n, 512 MiB of int64: no cache holds it), chunk after chunk into
// one chunk-sized buffer, as the upload's ring reuses its chunks; beside
// it BenchmarkHostRead, the bound under it: one parallel read (a sum) of
// the same costs, nothing written.
func BenchmarkFuseMatrix(b *testing.B) {
	const n, chunk = 8192, 8 << 20
	src := uniformCosts(n*n, n)
	d32 := make([]int32, chunk)
	d16 := unsafe.Slice((*int16)(unsafe.Pointer(&d32[0])), 2*chunk)
	b.SetBytes(int64(8 * len(src)))
	for b.Loop() {
		for off := 0; off < len(src); off += chunk {
			if _, w := FuseChunk(d16, d32, src[off:off+chunk], 1<<40, Int16); w != Int16 {
				b.Fatalf("width %v, want int16", w)
			}
		}
	}
}

func BenchmarkHostRead(b *testing.B) {
	for _, c := range []struct {
		name string
		k    int
	}{{"chunk", 8 << 20}, {"matrix", 8192 * 8192}} {
		b.Run(c.name, func(b *testing.B) {
			src := uniformCosts(c.k, 8192)
			b.SetBytes(int64(8 * c.k))
			var sum atomic.Int64
			for b.Loop() {
				ParallelFor(len(src), func(a, e int) {
					var s0, s1, s2, s3 int64
					for k := a; k+4 <= e; k += 4 {
						s0, s1, s2, s3 = s0+src[k], s1+src[k+1], s2+src[k+2], s3+src[k+3]
					}
					sum.Add(s0 + s1 + s2 + s3)
				})
			}
			if sum.Load() < 0 {
				b.Fatal("negative sum of nonnegative costs")
			}
		})
	}
}

// uniformCosts is k costs drawn uniformly from [0, rng).
func uniformCosts(k, rng int) []int64 {
	src := make([]int64, k)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range src {
		src[i] = rnd.Int64N(int64(rng))
	}
	return src
}

// BenchmarkFuseChunkIdle is one chunk of the upload at n = 2048 (2^20
// costs, range n) back to back (busy), and 200 us apart (untimed), as
// the upload's thread waits on the device between chunks: by fresh
// goroutines (idle), whose cores have gone to sleep, and by a crew kept
// awake (idle,crew).
func BenchmarkFuseChunkIdle(b *testing.B) {
	const k = 1 << 20
	src := uniformCosts(k, 2048)
	d32 := make([]int32, k)
	d16 := unsafe.Slice((*int16)(unsafe.Pointer(&d32[0])), 2*k)
	for _, c := range []struct {
		name string
		idle time.Duration
		crew bool
	}{{"busy", 0, false}, {"idle", 200 * time.Microsecond, false}, {"idle,crew", 200 * time.Microsecond, true}} {
		b.Run(c.name, func(b *testing.B) {
			var crew *Crew
			if c.crew {
				crew = StartCrew()
				defer crew.Stop()
			}
			b.SetBytes(8 * k)
			for b.Loop() {
				if c.idle > 0 {
					b.StopTimer()
					time.Sleep(c.idle)
					b.StartTimer()
				}
				if _, w := crew.FuseChunk(d16, d32, src, 1<<40, Int16); w != Int16 {
					b.Fatalf("width %v, want int16", w)
				}
			}
		})
	}
}
