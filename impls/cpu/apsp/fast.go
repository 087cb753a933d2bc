package apsp

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/semibench/semibench/semiring"
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
// k-outer order) and agrees bit for bit.
func Fast[T any, S semiring.Semiring[T]](ctx context.Context, s S, c *Matrix[T], opt FastOptions) error {
	if err := c.check(); err != nil {
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
		if err := closeBlock(s, kn, d, bs); err != nil {
			return fmt.Errorf("cpu/fast, block %d..%d: %w", k0+1, k1, err)
		}
		// Column panel: C_iK := C_iK ⊗ D, rows i ∉ K.
		parallelFor(threads, n, func(lo, hi int) {
			tmp := make([]T, bs)
			for i := lo; i < hi; i++ {
				if i >= k0 && i < k1 {
					continue
				}
				seg := c.Data[i*n+k0 : i*n+k1]
				for x := range tmp {
					tmp[x] = zero
				}
				for m := 0; m < bs; m++ {
					kn.axpy(tmp, seg[m], d[m*bs:(m+1)*bs])
				}
				copy(seg, tmp)
			}
		})
		// C_ij := C_ij ⊕ C_iK ⊗ C_Kj for i, j ∉ K, tile by tile.
		parallelFor(threads, n, func(lo, hi int) {
			for j0 := 0; j0 < n; j0 += jTile {
				j1 := min(j0+jTile, n)
				for _, seg := range [2][2]int{{j0, min(j1, k0)}, {max(j0, k1), j1}} {
					a, e := seg[0], seg[1]
					if a >= e {
						continue
					}
					updateRows(kn, c.Data, n, lo, hi, k0, k1, a, e)
				}
			}
		})
		// Row panel: C_Kj := D ⊗ C_Kj, j ∉ K, by column tiles.
		tiles := (n + jTile - 1) / jTile
		parallelFor(threads, tiles, func(t0, t1 int) {
			tmp := make([]T, bs*jTile)
			for t := t0; t < t1; t++ {
				j0, j1 := t*jTile, min((t+1)*jTile, n)
				for _, seg := range [2][2]int{{j0, min(j1, k0)}, {max(j0, k1), j1}} {
					a, e := seg[0], seg[1]
					if a >= e {
						continue
					}
					w := e - a
					for r := 0; r < bs; r++ {
						row := tmp[r*w : (r+1)*w]
						for x := range row {
							row[x] = zero
						}
						for l := 0; l < bs; l++ {
							kn.axpy(row, d[r*bs+l], c.Data[(k0+l)*n+a:(k0+l)*n+e])
						}
					}
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

// updateRows applies C_ij ⊕= Σ_{m∈K} C_im ⊗ C_mj to rows [lo, hi) \ K and
// columns [a, e), four rows at a time against each pivot row.
func updateRows[T any](kn kernels[T], data []T, n, lo, hi, k0, k1, a, e int) {
	if kn.update != nil && kn.update(data, n, lo, hi, k0, k1, a, e) {
		return
	}
	rows := make([]int, 0, 4)
	for i := lo; i < hi; i++ {
		if i >= k0 && i < k1 {
			continue
		}
		rows = append(rows, i)
		if len(rows) < 4 {
			continue
		}
		i0, i1, i2, i3 := rows[0], rows[1], rows[2], rows[3]
		c0, c1 := data[i0*n+a:i0*n+e], data[i1*n+a:i1*n+e]
		c2, c3 := data[i2*n+a:i2*n+e], data[i3*n+a:i3*n+e]
		for m := k0; m < k1; m++ {
			kn.axpy4(c0, c1, c2, c3, data[i0*n+m], data[i1*n+m], data[i2*n+m], data[i3*n+m], data[m*n+a:m*n+e])
		}
		rows = rows[:0]
	}
	for _, i := range rows {
		ci := data[i*n+a : i*n+e]
		for m := k0; m < k1; m++ {
			kn.axpy(ci, data[i*n+m], data[m*n+a:m*n+e])
		}
	}
}

// closeBlock replaces the bs×bs block d by its closure with the k-outer
// Gauß-Jordan elimination: for each k, the star of d_kk, then column k, the
// rest (with the new column and the old row k), then row k; element for
// element the same operations as SGJE.
func closeBlock[T any, S semiring.Semiring[T]](s S, kn kernels[T], d []T, bs int) error {
	for k := 0; k < bs; k++ {
		st, err := s.Star(d[k*bs+k])
		if err != nil {
			return fmt.Errorf("pivot (%d,%d) of the block: %w: %w", k+1, k+1, ErrStar, err)
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
