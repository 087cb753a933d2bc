package kleene

import (
	"context"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// panelWidth is the number of columns of W (in topological order) one panel
// holds. A multiple of chunkWidth.
const panelWidth = 256

// chunkWidth is the number of columns a chunk kernel keeps in registers: two
// AVX-512 or four AVX2 vectors, four groups of eight scalars in plain Go.
const chunkWidth = 32

// epsFreeLimit bounds the weights for which the fast kernels may add a
// weight to ε without checking: for x < 2^103 (half an ulp of FLT_MAX),
// fl(-FLT_MAX + x) = -FLT_MAX = ε, so such candidates never change a max.
const epsFreeLimit = 0x1p103

// closure computes W = X* in topological coordinates into work (row-major
// n x n, lower triangular), which must hold ε above the diagonal on entry.
//
// Row a of W is e_a ⊕ max over the predecessors b of a of X[a,b] + row b
// (the paper's recursion, pulled: every candidate fl(X[a,b] + W[b,c]) is the
// paper's). The columns are cut into panels of panelWidth; goroutines take
// panels from the last (rightmost) to the first and compute each panel's
// rows top to bottom.
//
// Pruning dominated arcs. Predecessors are visited in decreasing order, so
// when the arc b -> a comes up, the panel holding column b has in W[a,b]
// (so far) the heaviest alternative path from b to a through a later
// predecessor b'. If that beats the arc's weight by at least delta, every
// candidate through the arc is at most the candidate through b' in every
// column c <= b, in float32 too (delta covers the rounding; see
// pruneMargin), so the arc can change no maximum and is skipped in every
// panel: it is "inessential". The panel holding b decides, appends the
// essential arcs to the row's list, and publishes its progress; the panels
// to its left wait for that row's list before computing the same row. On the
// paper's random DAGs only a few arcs per row are essential, so the work
// drops from about m·n/3 to a few n² operations, with the result unchanged
// bit for bit.
func (p *preds) closure(ctx context.Context, work []float32, info inputInfo, threads int) error {
	n := p.n
	if n == 0 {
		return nil
	}
	cl := &panels{
		p: p, n: n, work: work,
		essIdx: make([]int32, len(p.idx)),
		essVal: make([]float32, len(p.idx)),
		essLen: make([]int32, n),
		count:  (n + panelWidth - 1) / panelWidth,
		chunk:  chunkKernel,
		prefix: prefixKernel,
	}
	cl.delta = p.pruneMargin(info.integral)
	if info.maxWeight >= epsFreeLimit {
		cl.chunk, cl.prefix, cl.delta = chunkGoChecked, prefixGoChecked, math.Inf(1)
	}
	cl.progress = make([]paddedCounter, cl.count)
	for s := range cl.progress {
		cl.progress[s].v.Store(int32(s * panelWidth))
	}
	cl.hiIdx = make([]int32, n)
	copy(cl.hiIdx, p.ptr[1:])
	var claimed atomic.Int64
	parallel(min(threads, cl.count), func() {
		for ctx.Err() == nil {
			s := cl.count - int(claimed.Add(1))
			if s < 0 {
				return
			}
			cl.panel(ctx, s)
		}
	})
	return ctx.Err()
}

// panels is the shared state of one closure computation.
type panels struct {
	p     *preds
	n     int
	work  []float32
	count int // number of panels
	delta float64
	// The essential arcs into row a found so far, in decreasing order of
	// their tails: essIdx/essVal[p.ptr[a] : p.ptr[a]+essLen[a]].
	essIdx []int32
	essVal []float32
	essLen []int32
	// progress[s]: the rows of panel s below it are finished (and their
	// essential arcs from panel s recorded).
	progress []paddedCounter
	// hiIdx[a]: the predecessors of row a below it (in p.idx[p.ptr[a]:])
	// belong to the panels not yet past row a; each panel decides the ones
	// in its columns and moves it down.
	hiIdx  []int32
	chunk  chunkFunc
	prefix prefixFunc
}

// paddedCounter keeps each panel's progress on its own cache line.
type paddedCounter struct {
	v atomic.Int32
	_ [60]byte
}

// epsRow is a row of ε to copy from.
var epsRow = func() []float32 {
	r := make([]float32, 4096)
	for k := range r {
		r[k] = maxplus.Epsilon
	}
	return r
}()

// fillEps sets every element of s to ε.
func fillEps(s []float32) {
	for len(s) > 0 {
		s = s[copy(s, epsRow):]
	}
}

// panel computes columns [c0, c1) of every row.
func (cl *panels) panel(ctx context.Context, s int) {
	n, p, work := cl.n, cl.p, cl.work
	c0 := s * panelWidth
	c1 := min(c0+panelWidth, n)
	for a := c0; a < n; a++ {
		if a >= c1 && s+1 < cl.count && cl.progress[s+1].v.Load() <= int32(a) {
			// Wait for the panel to the right to finish row a.
			for spins := 0; cl.progress[s+1].v.Load() <= int32(a); spins++ {
				if spins&63 == 63 {
					if ctx.Err() != nil {
						return
					}
					runtime.Gosched()
				}
			}
		}
		row := work[a*n+c0 : a*n+c1]
		base := int(p.ptr[a])
		ne := int(cl.essLen[a])
		// The essential arcs from the panels to the right.
		if ne > 0 {
			idx, val := cl.essIdx[base:base+ne], cl.essVal[base:base+ne]
			g := 0
			for ; g+chunkWidth <= len(row); g += chunkWidth {
				cl.chunk((*[chunkWidth]float32)(row[g:]), work, n, c0+g, idx, val)
			}
			if g < len(row) {
				fillEps(row[g:])
				for k, b := range idx {
					src := work[int(b)*n+c0+g : int(b)*n+c1]
					cl.prefix(row[g:], src, val[k])
				}
			}
		} else {
			fillEps(row)
		}
		if a < c1 {
			row[a-c0] = 0
		}
		// The arcs from this panel's columns, in decreasing order: decide,
		// then apply.
		k := int(cl.hiIdx[a]) - 1
		for ; k >= base; k-- {
			b := int(p.idx[k])
			if b < c0 {
				break
			}
			y := p.val[k]
			if float64(row[b-c0])-float64(y) >= cl.delta {
				continue // dominated: an alternative path is heavier by delta
			}
			cl.essIdx[base+ne], cl.essVal[base+ne] = int32(b), y
			ne++
			cl.prefix(row[:b-c0+1], work[b*n+c0:b*n+b+1], y)
		}
		cl.hiIdx[a] = int32(k + 1)
		cl.essLen[a] = int32(ne)
		cl.progress[s].v.Store(int32(a + 1))
		if a&255 == 255 && ctx.Err() != nil {
			return
		}
	}
}

// pruneMargin returns delta, the margin by which an alternative path must
// beat an arc for the arc to be skipped without changing any float32 result.
//
// Let V be the exact closure and W the float32 one computed by the paper's
// recursion: |W - V| <= B = ((1+u)^L - 1)·S entrywise, with u = 2^-24, L the
// longest path in arcs (at most n-1) and S the heaviest path of |X| (see
// Verify). Say the arc b -> a (weight y) is tested against A = fl(X[a,b'] +
// W[b',b]) for a kept predecessor b' > b. For any column c, the kept
// candidate through b' is fl(X[a,b'] + W[b',c]) >= X[a,b'] + W[b',b] +
// W[b,c] - 3B - u·M (as W[b',c] >= V[b',c] - B >= V[b',b] + V[b,c] - B, and
// V >= W - B twice) >= A + W[b,c] - 3B - 2u·M, with M = S + B bounding every
// |sum|, while the candidate through the arc is fl(y + W[b,c]) <= y + W[b,c]
// + u·M. So A - y >= 3B + 3u·M keeps the skipped candidate at or below a
// kept one, and by induction over the rows W is unchanged. We use 3B + 4u·M,
// widened by 10^-3 relative for the float64 evaluation. With integer
// weights and S <= 2^24 every float32 sum is exact and the margin is 0 (a
// tie changes nothing either). Where S is so large that sums could
// overflow, there is no pruning (+Inf).
func (p *preds) pruneMargin(integral bool) float64 {
	n := p.n
	sIn := make([]float64, n)
	var sMax float64
	for a := 0; a < n; a++ {
		// Four partial maxima break the dependency chain.
		var m0, m1, m2, m3 float64
		idx, val := p.idx[p.ptr[a]:p.ptr[a+1]], p.val[p.ptr[a]:p.ptr[a+1]]
		val = val[:len(idx)]
		k := 0
		for ; k+4 <= len(idx); k += 4 {
			m0 = max(m0, sIn[idx[k]]+math.Abs(float64(val[k])))
			m1 = max(m1, sIn[idx[k+1]]+math.Abs(float64(val[k+1])))
			m2 = max(m2, sIn[idx[k+2]]+math.Abs(float64(val[k+2])))
			m3 = max(m3, sIn[idx[k+3]]+math.Abs(float64(val[k+3])))
		}
		for ; k < len(idx); k++ {
			m0 = max(m0, sIn[idx[k]]+math.Abs(float64(val[k])))
		}
		sIn[a] = max(max(m0, m1), max(m2, m3))
		sMax = max(sMax, sIn[a])
	}
	if integral && sMax <= 1<<24 {
		return 0
	}
	const u = 0x1p-24
	b := math.Expm1(float64(max(n-1, 0))*math.Log1p(u)) * sMax
	m := sMax + b
	if m > 0x1p100 {
		return math.Inf(1)
	}
	return (3*b + 4*u*m) * (1 + 1e-3)
}

// chunkFunc computes chunkWidth columns of one row from a list of arcs:
// acc[c] = max over k of val[k] + work[idx[k]*n + col + c] (ε for no arcs).
type chunkFunc func(acc *[chunkWidth]float32, work []float32, n, col int, idx []int32, val []float32)

// prefixFunc applies one arc of weight y to a row segment:
// dst[c] = max(dst[c], y + src[c]).
type prefixFunc func(dst, src []float32, y float32)

// chunkKernel is the fastest chunk kernel this build and CPU have: chunkGo,
// or a SIMD twin installed by kernel_simd_amd64.go.
var chunkKernel chunkFunc = chunkGo

// prefixKernel is the fastest prefix kernel: prefixGo or a SIMD twin.
var prefixKernel prefixFunc = prefixGo

// kernelName names chunkKernel and prefixKernel.
var kernelName = "go"

// KernelName says which chunk kernel cpu/fast uses in this binary on this
// CPU: "go" (plain Go), "avx2" or "avx512" (GOEXPERIMENT=simd builds on
// amd64).
func KernelName() string { return kernelName }

// chunkGo is the plain-Go chunk kernel: eight columns at a time held in
// local variables across the arcs. The arcs come in decreasing order of
// their tails, whose candidates tend to be the heaviest, so after the first
// few the comparisons rarely take the branch.
func chunkGo(acc *[chunkWidth]float32, work []float32, n, col int, idx []int32, val []float32) {
	val = val[:len(idx)]
	for g := 0; g < chunkWidth; g += 8 {
		const e = maxplus.Epsilon
		a0, a1, a2, a3, a4, a5, a6, a7 := float32(e), float32(e), float32(e), float32(e), float32(e), float32(e), float32(e), float32(e)
		for k, b := range idx {
			y := val[k]
			s := (*[8]float32)(work[int(b)*n+col+g:])
			if v := y + s[0]; v > a0 {
				a0 = v
			}
			if v := y + s[1]; v > a1 {
				a1 = v
			}
			if v := y + s[2]; v > a2 {
				a2 = v
			}
			if v := y + s[3]; v > a3 {
				a3 = v
			}
			if v := y + s[4]; v > a4 {
				a4 = v
			}
			if v := y + s[5]; v > a5 {
				a5 = v
			}
			if v := y + s[6]; v > a6 {
				a6 = v
			}
			if v := y + s[7]; v > a7 {
				a7 = v
			}
		}
		acc[g], acc[g+1], acc[g+2], acc[g+3] = a0, a1, a2, a3
		acc[g+4], acc[g+5], acc[g+6], acc[g+7] = a4, a5, a6, a7
	}
}

// prefixGo is the plain-Go prefix kernel.
func prefixGo(dst, src []float32, y float32) {
	src = src[:len(dst)]
	for c, v := range src {
		if s := y + v; s > dst[c] {
			dst[c] = s
		}
	}
}

// chunkGoChecked and prefixGoChecked are the kernels for weights of 2^103
// and more, where ε + x would not round back to ε: they skip ε entries as
// the paper does.
func chunkGoChecked(acc *[chunkWidth]float32, work []float32, n, col int, idx []int32, val []float32) {
	val = val[:len(idx)]
	fillEps(acc[:])
	for k, b := range idx {
		prefixGoChecked(acc[:], work[int(b)*n+col:int(b)*n+col+chunkWidth], val[k])
	}
}

func prefixGoChecked(dst, src []float32, y float32) {
	src = src[:len(dst)]
	for c, v := range src {
		if v != maxplus.Epsilon {
			if s := y + v; s > dst[c] {
				dst[c] = s
			}
		}
	}
}
