package apsp

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
)

// FastOptions tune Fast.
type FastOptions struct {
	// Threads is the number of goroutines for the block updates; 0 means
	// runtime.GOMAXPROCS(0).
	Threads int
	// Block is the block order b; 0 means DefaultBlock.
	Block int
}

// DefaultBlock is Fast's block order: a b×256 tile of the pivot row panel
// (64 KiB in float32) stays in the L2 cache while the rows stream past.
const DefaultBlock = 64

// jTile is the width of the column tiles of the block update.
const jTile = 256

// Fast replaces c by its closure c* with Gauß-Jordan elimination over
// b×b blocks, the decomposability of the paper's Remark 2.2: the
// vertex set is cut into consecutive blocks K, and for each K in turn
//
//	D    := C_KK*                  (the element algorithm on the block)
//	C_iK := C_iK ⊗ D               for i ∉ K
//	C_ij := C_ij ⊕ C_iK ⊗ C_Kj     for i, j ∉ K  (C_iK new, C_Kj old)
//	C_Kj := D ⊗ C_Kj               for j ∉ K
//	C_KK := D
//
// which is sGJE's recursion with blocks for elements. The three updates
// run on Threads goroutines over rows (and column tiles). The result is
// D = A* in every semiring where it exists; it equals SGJE exactly for the
// Boolean semiring and for min-plus on integer weights (every sum exact),
// and for floats it agrees within rounding: each entry is a sum (min-plus:
// a minimum of path sums) formed in a different association order. With
// Block ≥ n it performs SGJE's very operations on every element (in the
// k-outer order) and agrees bit for bit; apsp.FloatBound states the bound for
// min-plus. For min-plus float32 on amd64 with AVX2 the block updates run
// a 4×16 SIMD tile kernel (Go assembly; the purego build tag turns it off),
// which computes bit for bit what the plain-Go loops compute.
func Fast[T any, S semiring.Semiring[T]](ctx context.Context, s S, c *apsp.Matrix[T], opt FastOptions) error {
	if err := c.Check(); err != nil {
		return err
	}
	n := c.N
	b := opt.Block
	if b <= 0 {
		b = DefaultBlock
	}
	b = min(b, max(n, 1))
	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	kn := kernelsFor[T](s)
	dBlock := make([]T, b*b)
	zero := s.Zero()
	for k0 := 0; k0 < n; k0 += b {
		if err := ctx.Err(); err != nil {
			return err
		}
		k1 := min(k0+b, n)
		bs := k1 - k0
		// D := C_KK*, by the k-outer Gauß-Jordan elimination on the block.
		d := dBlock[:bs*bs]
		for r := 0; r < bs; r++ {
			copy(d[r*bs:(r+1)*bs], c.Data[(k0+r)*n+k0:(k0+r)*n+k1])
		}
		if err := closeBlock(s, kn, d, bs, k0); err != nil {
			return fmt.Errorf("cpu/fast, diagonal block %d..%d: %w", k0+1, k1, err)
		}
		// Column panel: C_iK := C_iK ⊗ D, rows i ∉ K, four at a time.
		parallelFor(threads, n, func(lo, hi int) {
			tmp := make([]T, 4*bs)
			for _, run := range outside(lo, hi, k0, k1) {
				for i := run[0]; i < run[1]; i += 4 {
					rows := min(4, run[1]-i)
					for x := range tmp {
						tmp[x] = zero
					}
					mulAcc(kn, tmp, bs, rows, bs, c.Data[i*n+k0:], n, d, bs, bs)
					for r := 0; r < rows; r++ {
						copy(c.Data[(i+r)*n+k0:(i+r)*n+k1], tmp[r*bs:(r+1)*bs])
					}
				}
			}
		})
		// C_ij := C_ij ⊕ C_iK ⊗ C_Kj for i, j ∉ K, by column tiles so that
		// the tile of the pivot rows stays in the cache.
		parallelFor(threads, n, func(lo, hi int) {
			for j0 := 0; j0 < n; j0 += jTile {
				for _, cols := range outside(j0, min(j0+jTile, n), k0, k1) {
					a, e := cols[0], cols[1]
					for _, run := range outside(lo, hi, k0, k1) {
						i := run[0]
						mulAcc(kn, c.Data[i*n+a:], n, run[1]-i, e-a, c.Data[i*n+k0:], n, c.Data[k0*n+a:], n, bs)
					}
				}
			}
		})
		// Row panel: C_Kj := D ⊗ C_Kj, j ∉ K, by column tiles.
		tiles := (n + jTile - 1) / jTile
		parallelFor(threads, tiles, func(t0, t1 int) {
			tmp := make([]T, bs*jTile)
			for t := t0; t < t1; t++ {
				for _, cols := range outside(t*jTile, min((t+1)*jTile, n), k0, k1) {
					a, e := cols[0], cols[1]
					w := e - a
					for x := range tmp[:bs*w] {
						tmp[x] = zero
					}
					mulAcc(kn, tmp, w, bs, w, d, bs, c.Data[k0*n+a:], n, bs)
					for r := 0; r < bs; r++ {
						copy(c.Data[(k0+r)*n+a:(k0+r)*n+e], tmp[r*w:(r+1)*w])
					}
				}
			}
		})
		for r := 0; r < bs; r++ {
			copy(c.Data[(k0+r)*n+k0:(k0+r)*n+k1], d[r*bs:(r+1)*bs])
		}
	}
	return nil
}

// outside returns the parts of [lo, hi) outside [k0, k1), empty ones
// left out.
func outside(lo, hi, k0, k1 int) [][2]int {
	var out [][2]int
	if e := min(hi, k0); lo < e {
		out = append(out, [2]int{lo, e})
	}
	if a := max(lo, k1); a < hi {
		out = append(out, [2]int{a, hi})
	}
	return out
}

// mulAcc sets c[r*ldc+j] ⊕= a[r*lda+m] ⊗ b[m*ldb+j] for r < rows,
// j < cols and m = 0, 1, …, k-1 in this order for every element, so every
// path through it gives the same result: the SIMD tile kernel on 4×16
// blocks where there is one, four rows per pivot row otherwise, single
// rows for the rest.
func mulAcc[T any](kn kernels[T], c []T, ldc, rows, cols int, a []T, lda int, b []T, ldb, k int) {
	if rows <= 0 || cols <= 0 || k <= 0 {
		return
	}
	r := 0
	for ; r+4 <= rows; r += 4 {
		j := 0
		if kn.tile != nil {
			for ; j+16 <= cols; j += 16 {
				kn.tile(c[r*ldc+j:], ldc, a[r*lda:], lda, b[j:], ldb, k)
			}
		}
		if j == cols {
			continue
		}
		c0, c1 := c[r*ldc+j:r*ldc+cols], c[(r+1)*ldc+j:(r+1)*ldc+cols]
		c2, c3 := c[(r+2)*ldc+j:(r+2)*ldc+cols], c[(r+3)*ldc+j:(r+3)*ldc+cols]
		for m := 0; m < k; m++ {
			kn.axpy4(c0, c1, c2, c3, a[r*lda+m], a[(r+1)*lda+m], a[(r+2)*lda+m], a[(r+3)*lda+m], b[m*ldb+j:m*ldb+cols])
		}
	}
	for ; r < rows; r++ {
		cr := c[r*ldc : r*ldc+cols]
		for m := 0; m < k; m++ {
			kn.axpy(cr, a[r*lda+m], b[m*ldb:m*ldb+cols])
		}
	}
}

// closeBlock replaces the bs×bs block d (rows and columns offset+1 ..
// offset+bs of the matrix, named so in errors) by its closure with the k-outer
// Gauß-Jordan elimination: for each k, the star of d_kk, then column k, the
// rest (with the new column and the old row k), then row k; element for
// element the same operations as SGJE.
func closeBlock[T any, S semiring.Semiring[T]](s S, kn kernels[T], d []T, bs, offset int) error {
	for k := 0; k < bs; k++ {
		st, err := s.Star(d[k*bs+k])
		if err != nil {
			return fmt.Errorf("pivot (%d,%d): %w: %w", offset+k+1, offset+k+1, apsp.ErrStar, err)
		}
		for i := 0; i < bs; i++ {
			if i != k {
				d[i*bs+k] = s.Times(d[i*bs+k], st)
			}
		}
		rowK := d[k*bs : (k+1)*bs]
		for i := 0; i < bs; i++ {
			if i == k {
				continue
			}
			ri := d[i*bs : (i+1)*bs]
			a := ri[k]
			kn.axpy(ri[:k], a, rowK[:k])
			kn.axpy(ri[k+1:], a, rowK[k+1:])
		}
		for j := 0; j < bs; j++ {
			if j != k {
				rowK[j] = s.Times(st, rowK[j])
			}
		}
		rowK[k] = st
	}
	return nil
}

// parallelFor splits [0, n) into up to threads ranges of nearly equal size
// and runs fn on each in its own goroutine (inline for one range).
func parallelFor(threads, n int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	threads = min(threads, n)
	if threads <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		lo, hi := t*n/threads, (t+1)*n/threads
		wg.Go(func() { fn(lo, hi) })
	}
	wg.Wait()
}
