package minplus

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/minplus"
)

// Impls lists the CPU implementations in display order: cpu/paper,
// cpu/fast, cpu/sparse. Their Mul ignores the recorder.
func Impls() []minplus.Impl {
	return []minplus.Impl{
		{Name: "cpu/paper", Mul: func(ctx context.Context, c *minplus.Dense, a *minplus.Operand, b *minplus.Dense, _ int, _ *bench.Recorder) error {
			if a.Dense == nil {
				return fmt.Errorf("minplus: cpu/paper needs the dense A")
			}
			return Paper(ctx, c, a.Dense, b)
		}},
		{Name: "cpu/fast", Mul: func(ctx context.Context, c *minplus.Dense, a *minplus.Operand, b *minplus.Dense, threads int, _ *bench.Recorder) error {
			if a.Dense == nil {
				return fmt.Errorf("minplus: cpu/fast needs the dense A")
			}
			return Fast(ctx, c, a.Dense, b, threads)
		}},
		{Name: "cpu/sparse", Sparse: true, Mul: func(ctx context.Context, c *minplus.Dense, a *minplus.Operand, b *minplus.Dense, threads int, _ *bench.Recorder) error {
			if a.CSR == nil {
				return fmt.Errorf("minplus: cpu/sparse needs A in CSR")
			}
			return Sparse(ctx, c, a.CSR, b, threads)
		}},
	}
}

func checkShapes(c *minplus.Dense, n int, b *minplus.Dense) error {
	if c == nil || b == nil || c.N != n || b.N != n || len(c.Data) != n*n || len(b.Data) != n*n {
		return fmt.Errorf("minplus: shapes differ or matrices missing (want %d x %d)", n, n)
	}
	if n > 0 && &c.Data[0] == &b.Data[0] {
		return fmt.Errorf("minplus: the product may not overwrite its right factor")
	}
	return nil
}

// Paper is the paper's triple loop on one thread: for each i and j,
// C[i][j] = min over k of A[i][k] + B[k][j], clamped to minplus.Inf.
func Paper(ctx context.Context, c, a, b *minplus.Dense) error {
	if err := checkShapes(c, a.N, b); err != nil {
		return err
	}
	return paperRows(ctx, c, a, b, 0, a.N)
}

// PaperParallel is the same triple loop with its rows split into equal
// bands over threads goroutines (0: all CPUs), as the paper's OpenMP
// version parallelises the loop over i (its Table 5, version 2).
func PaperParallel(ctx context.Context, c, a, b *minplus.Dense, threads int) error {
	n := a.N
	if err := checkShapes(c, n, b); err != nil {
		return err
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = max(1, min(threads, n))
	band := (n + threads - 1) / threads
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for t := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[t] = paperRows(ctx, c, a, b, min(n, t*band), min(n, (t+1)*band))
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// paperRows computes rows [lo, hi) of C = A ⊗ B with the paper's loop.
func paperRows(ctx context.Context, c, a, b *minplus.Dense, lo, hi int) error {
	n := a.N
	for i := lo; i < hi; i++ {
		if (i-lo)&63 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("minplus: cpu/paper stopped at row %d: %w", i, err)
			}
		}
		ar := a.Data[i*n : (i+1)*n]
		for j := 0; j < n; j++ {
			m := minplus.Inf
			for k := 0; k < n; k++ {
				if s := ar[k] + b.Data[k*n+j]; s < m {
					m = s
				}
			}
			c.Data[i*n+j] = m
		}
	}
	return nil
}

// Tiles of Sparse: a band of sparseBand rows of C by sparseCols columns
// (32 KiB, in L1) gathers its arcs by column k of A, so that each segment of
// a row of B is read once per band and applied to every row of the band
// with an arc to k (about 9 rows on A(D_m), whose consecutive words share
// successors).
const (
	sparseBand = 64
	sparseCols = 256
)

// bandKey keys the band index among the values derived from a CSR.
type bandKey struct{}

// bandIndex is A's arcs regrouped per band of sparseBand rows and, within a
// band, by column: the distinct columns of band t are ks[kOff[t]:kOff[t+1]],
// and the arcs of the q-th of them are rows[off[q]:off[q+1]] (rows within
// the band) with values vals[off[q]:off[q+1]].
type bandIndex struct {
	kOff []int32
	ks   []int32
	off  []int32
	rows []int32
	vals []int16
}

// bandsOf builds the band index of a.
func bandsOf(a *minplus.CSR) *bandIndex {
	n := a.N
	bands := (n + sparseBand - 1) / sparseBand
	x := &bandIndex{kOff: make([]int32, bands+1), off: []int32{0}}
	type arc struct {
		k, r int32
		v    int16
	}
	var tmp []arc
	for t := 0; t < bands; t++ {
		tmp = tmp[:0]
		for i := t * sparseBand; i < min(n, (t+1)*sparseBand); i++ {
			for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
				tmp = append(tmp, arc{a.Col[p], int32(i - t*sparseBand), a.Val[p]})
			}
		}
		slices.SortFunc(tmp, func(p, q arc) int { return cmp.Compare(p.k, q.k)*2 + cmp.Compare(p.r, q.r) })
		for q, e := range tmp {
			if q == 0 || e.k != tmp[q-1].k {
				if q > 0 {
					x.off = append(x.off, int32(len(x.rows)))
				}
				x.ks = append(x.ks, e.k)
			}
			x.rows = append(x.rows, e.r)
			x.vals = append(x.vals, e.v)
		}
		if len(tmp) > 0 {
			x.off = append(x.off, int32(len(x.rows)))
		}
		x.kOff[t+1] = int32(len(x.ks))
	}
	return x
}

// Sparse sets c = a ⊗ b with a in CSR: row i of c is the minimum over the
// stored entries a_ik of a_ik + row k of b, in nnz(a)·N updates. The work
// is cut into tiles of sparseBand rows by sparseCols columns, column block
// outermost, shared among threads goroutines (0: all CPUs); within a tile
// the arcs go by column k of A, each segment of row k of B read once.
func Sparse(ctx context.Context, c *minplus.Dense, a *minplus.CSR, b *minplus.Dense, threads int) error {
	n := a.N
	if err := checkShapes(c, n, b); err != nil {
		return err
	}
	x := a.Derived(bandKey{}, func(a *minplus.CSR) any { return bandsOf(a) }).(*bandIndex)
	bands := (n + sparseBand - 1) / sparseBand
	blocks := (n + sparseCols - 1) / sparseCols
	return parallelRows(ctx, bands*blocks, 1, threads, func(t0, t1 int) {
		tile := make([]int16, sparseBand*sparseCols)
		for t := t0; t < t1; t++ {
			band, j0 := t%bands, (t/bands)*sparseCols
			i0 := band * sparseBand
			w := min(n, j0+sparseCols) - j0
			for i := range tile {
				tile[i] = minplus.Inf
			}
			for q := x.kOff[band]; q < x.kOff[band+1]; q++ {
				k := int(x.ks[q])
				gatherKernel(tile, w, b.Data[k*n+j0:k*n+j0+w], x.rows[x.off[q]:x.off[q+1]], x.vals[x.off[q]:x.off[q+1]])
			}
			for r := 0; r < min(sparseBand, n-i0); r++ {
				copy(c.Data[(i0+r)*n+j0:(i0+r)*n+j0+w], tile[r*sparseCols:r*sparseCols+w])
			}
		}
	})
}

// gatherKernel applies one segment of a row of B to several rows of a
// tile (row stride sparseCols, width w): tile_r = min(tile_r, v + bseg) for
// each (r, v); vector builds replace it.
var gatherKernel = gatherGo

// gatherGo is the plain-Go gatherKernel, the twin vector kernels are held
// to.
func gatherGo(tile []int16, w int, bseg []int16, rows []int32, vals []int16) {
	vals = vals[:len(rows)]
	for q, r := range rows {
		o := int(r) * sparseCols
		minAddRowGo(tile[o:o+w], bseg, vals[q])
	}
}

// parallelRows calls f on consecutive bands of [0, n) rows, band rows at a
// time, from threads goroutines, and returns ctx's error if it was
// cancelled (some bands then are not computed).
func parallelRows(ctx context.Context, n, band, threads int, f func(i0, i1 int)) error {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	nb := (n + band - 1) / band
	if threads > nb {
		threads = nb
	}
	var mu sync.Mutex
	next := 0
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil || next >= nb {
			return -1
		}
		next++
		return next - 1
	}
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := take(); b >= 0; b = take() {
				f(b*band, min((b+1)*band, n))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("minplus: product stopped: %w", err)
	}
	return nil
}
