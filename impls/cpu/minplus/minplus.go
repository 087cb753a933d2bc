package minplus

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// Inf is the (min,+) infinity, 9999 as in the paper; entries at or above
// it are infinite.
const Inf int16 = 9999

// Dense is a square N x N matrix stored row-major.
type Dense struct {
	N    int
	Data []int16
}

// NewDense returns an N x N matrix filled with Inf.
func NewDense(n int) *Dense {
	d := &Dense{N: n, Data: make([]int16, n*n)}
	d.Fill(Inf)
	return d
}

// Fill sets every entry to v.
func (d *Dense) Fill(v int16) {
	for i := range d.Data {
		d.Data[i] = v
	}
}

// Row returns row i as a slice of length N.
func (d *Dense) Row(i int) []int16 { return d.Data[i*d.N : (i+1)*d.N] }

// At returns entry (i, j).
func (d *Dense) At(i, j int) int16 { return d.Data[i*d.N+j] }

// Clone returns a copy.
func (d *Dense) Clone() *Dense {
	return &Dense{N: d.N, Data: append([]int16(nil), d.Data...)}
}

// Bytes is the memory of an N x N int16 matrix.
func Bytes(n int) uint64 { return 2 * uint64(n) * uint64(n) }

// CSR is a square N x N matrix in compressed sparse rows: the entries of
// row i are Col[RowPtr[i]:RowPtr[i+1]] with values Val[...]; absent entries
// are Inf. Columns are increasing within a row.
type CSR struct {
	N      int
	RowPtr []int32
	Col    []int32
	Val    []int16

	once  sync.Once  // builds bands on Sparse's first use; do not copy a used CSR
	bands *bandIndex // the arcs by band of rows and column, for Sparse
}

// NNZ is the number of stored entries.
func (s *CSR) NNZ() int { return len(s.Col) }

// ToDense expands s.
func (s *CSR) ToDense() *Dense {
	d := NewDense(s.N)
	for i := 0; i < s.N; i++ {
		row := d.Row(i)
		for p := s.RowPtr[i]; p < s.RowPtr[i+1]; p++ {
			row[s.Col[p]] = s.Val[p]
		}
	}
	return d
}

// FromDense compresses d, keeping the entries below Inf.
func FromDense(d *Dense) *CSR {
	s := &CSR{N: d.N, RowPtr: make([]int32, d.N+1)}
	for i := 0; i < d.N; i++ {
		for j, v := range d.Row(i) {
			if v < Inf {
				s.Col = append(s.Col, int32(j))
				s.Val = append(s.Val, v)
			}
		}
		s.RowPtr[i+1] = int32(len(s.Col))
	}
	return s
}

// CheckFinite reports an error when an entry lies outside [0, Inf], the
// range within which the products cannot overflow.
func CheckFinite(d *Dense) error {
	for i, v := range d.Data {
		if v < 0 || v > Inf {
			return fmt.Errorf("minplus: entry (%d, %d) = %d outside [0, %d]", i/d.N, i%d.N, v, Inf)
		}
	}
	return nil
}

// Operand is the left factor A of a product, in the forms the
// implementations read: dense for cpu/paper and cpu/fast, CSR for
// cpu/sparse. Either may be nil when the implementation does not read it.
type Operand struct {
	Dense *Dense
	CSR   *CSR
}

// NewOperand holds a in both forms.
func NewOperand(a *Dense) *Operand { return &Operand{Dense: a, CSR: FromDense(a)} }

// Impl is one named (min,+) product implementation: Mul sets c = a ⊗ b
// (c must not alias b), using up to threads goroutines (0: all CPUs).
type Impl struct {
	Name string
	Mul  func(ctx context.Context, c *Dense, a *Operand, b *Dense, threads int) error
}

// Impls lists the CPU implementations: cpu/paper, cpu/fast, cpu/sparse.
var Impls = []Impl{
	{Name: "cpu/paper", Mul: func(ctx context.Context, c *Dense, a *Operand, b *Dense, _ int) error {
		if a.Dense == nil {
			return fmt.Errorf("minplus: cpu/paper needs the dense A")
		}
		return Paper(ctx, c, a.Dense, b)
	}},
	{Name: "cpu/fast", Mul: func(ctx context.Context, c *Dense, a *Operand, b *Dense, threads int) error {
		if a.Dense == nil {
			return fmt.Errorf("minplus: cpu/fast needs the dense A")
		}
		return Fast(ctx, c, a.Dense, b, threads)
	}},
	{Name: "cpu/sparse", Mul: func(ctx context.Context, c *Dense, a *Operand, b *Dense, threads int) error {
		if a.CSR == nil {
			return fmt.Errorf("minplus: cpu/sparse needs A in CSR")
		}
		return Sparse(ctx, c, a.CSR, b, threads)
	}},
}

// Lookup returns the named implementation.
func Lookup(name string) (Impl, error) {
	for _, im := range Impls {
		if im.Name == name {
			return im, nil
		}
	}
	return Impl{}, fmt.Errorf("minplus: unknown implementation %q (valid: cpu/paper, cpu/fast, cpu/sparse)", name)
}

func checkShapes(c *Dense, n int, b *Dense) error {
	if c == nil || b == nil || c.N != n || b.N != n || len(c.Data) != n*n || len(b.Data) != n*n {
		return fmt.Errorf("minplus: shapes differ or matrices missing (want %d x %d)", n, n)
	}
	if &c.Data[0] == &b.Data[0] && n > 0 {
		return fmt.Errorf("minplus: the product may not overwrite its right factor")
	}
	return nil
}

// Paper is the paper's triple loop on one thread: for each i and j,
// C[i][j] = min over k of A[i][k] + B[k][j], clamped to Inf.
func Paper(ctx context.Context, c, a, b *Dense) error {
	n := a.N
	if err := checkShapes(c, n, b); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if i&63 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("minplus: cpu/paper stopped at row %d: %w", i, err)
			}
		}
		ar := a.Data[i*n : (i+1)*n]
		for j := 0; j < n; j++ {
			m := Inf
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
func bandsOf(a *CSR) *bandIndex {
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
func Sparse(ctx context.Context, c *Dense, a *CSR, b *Dense, threads int) error {
	n := a.N
	if err := checkShapes(c, n, b); err != nil {
		return err
	}
	a.once.Do(func() { a.bands = bandsOf(a) })
	x := a.bands
	bands := (n + sparseBand - 1) / sparseBand
	blocks := (n + sparseCols - 1) / sparseCols
	return parallelRows(ctx, bands*blocks, 1, threads, func(t0, t1 int) {
		tile := make([]int16, sparseBand*sparseCols)
		for t := t0; t < t1; t++ {
			band, j0 := t%bands, (t/bands)*sparseCols
			i0 := band * sparseBand
			w := min(n, j0+sparseCols) - j0
			for i := range tile {
				tile[i] = Inf
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
