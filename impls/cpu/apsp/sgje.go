package apsp

import (
	"context"
	"fmt"

	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
)

// SGJE replaces c by its closure c* with the sequential Gauß-Jordan
// elimination of the paper's section 3, the three-phase listing loop for
// loop:
//
//	PHASE 1: for i, j: for k < min(i,j): c_ij := c_ij ⊕ c_ik ⊗ c_kj   (A)
//	         if i = j: c_ii := c_ii*                                 (C)
//	         if i > j: c_ij := c_ij ⊗ c_jj                           (B)
//	PHASE 2: for i, j: if i < j: c_ij := c_ii ⊗ c_ij                 (B)
//	         for min(i,j) < k < max(i,j): c_ij := c_ij ⊕ c_ik ⊗ c_kj  (A)
//	         if i < j: c_ij := c_ij ⊗ c_jj                           (B)
//	PHASE 3: for i, j: if i > j: c_ij := c_ii ⊗ c_ij                 (B)
//	         for k > max(i,j): c_ij := c_ij ⊕ c_ik ⊗ c_kj            (A)
//
// It returns the operations performed, counted as they execute. An
// undefined star (real semiring, c_kk = 1 before its star) stops it with an
// error wrapping apsp.ErrStar and semiring.ErrNoStar that names the pivot; c is
// then partly eliminated. ctx is checked once per row and phase.
func SGJE[T any, S semiring.Semiring[T]](ctx context.Context, s S, c *apsp.Matrix[T]) (apsp.Counts, error) {
	var cnt apsp.Counts
	if err := c.Check(); err != nil {
		return cnt, err
	}
	n, d := c.N, c.Data
	dot := kernelsFor[T](s).dot
	// Phase 1.
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return cnt, err
		}
		for j := 0; j < n; j++ {
			lo := min(i, j)
			d[i*n+j] = dot(d[i*n+j], d, n, i, j, 0, lo)
			cnt.Adds += int64(lo)
			cnt.Mults += int64(lo)
			switch {
			case i == j:
				st, err := s.Star(d[i*n+i])
				if err != nil {
					return cnt, fmt.Errorf("sGJE phase 1, pivot (%d,%d): %w: %w", i+1, i+1, apsp.ErrStar, err)
				}
				d[i*n+i] = st
				cnt.Stars++
			case i > j:
				d[i*n+j] = s.Times(d[i*n+j], d[j*n+j])
				cnt.Mults++
			}
		}
	}
	// Phase 2.
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return cnt, err
		}
		for j := 0; j < n; j++ {
			lo, hi := min(i, j)+1, max(i, j)
			if i < j {
				d[i*n+j] = s.Times(d[i*n+i], d[i*n+j])
				cnt.Mults++
			}
			if hi > lo {
				d[i*n+j] = dot(d[i*n+j], d, n, i, j, lo, hi)
				cnt.Adds += int64(hi - lo)
				cnt.Mults += int64(hi - lo)
			}
			if i < j {
				d[i*n+j] = s.Times(d[i*n+j], d[j*n+j])
				cnt.Mults++
			}
		}
	}
	// Phase 3.
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return cnt, err
		}
		for j := 0; j < n; j++ {
			if i > j {
				d[i*n+j] = s.Times(d[i*n+i], d[i*n+j])
				cnt.Mults++
			}
			lo := max(i, j) + 1
			d[i*n+j] = dot(d[i*n+j], d, n, i, j, lo, n)
			cnt.Adds += int64(n - lo)
			cnt.Mults += int64(n - lo)
		}
	}
	return cnt, nil
}

// Inverse replaces a by A⁻¹ with the paper's direct variant of sGJE
// (section 4, example 1), Gauß-Jordan elimination without pivoting:
//
//	c := c + a·b     (A)
//	c := a·c         (B_I, lines 12 and 20)
//	c := -c·b        (B_O, lines 7 and 15)
//	c := 1/c         (C'')
//
// A zero pivot stops it with an error wrapping apsp.ErrSingular that names the
// pivot's row and column (1-based); a is then partly eliminated. The
// variant does not pivot, so a nonsingular matrix whose leading principal
// minors vanish is refused as well.
func Inverse(ctx context.Context, a *apsp.Matrix[float64]) (apsp.Counts, error) {
	var cnt apsp.Counts
	if err := a.Check(); err != nil {
		return cnt, err
	}
	n, d := a.N, a.Data
	dot := dotReal[float64]
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return cnt, err
		}
		for j := 0; j < n; j++ {
			lo := min(i, j)
			d[i*n+j] = dot(d[i*n+j], d, n, i, j, 0, lo)
			cnt.Adds += int64(lo)
			cnt.Mults += int64(lo)
			switch {
			case i == j:
				if d[i*n+i] == 0 {
					return cnt, fmt.Errorf("direct inverse: pivot at row %d, column %d is zero after eliminating %d rows and columns: %w", i+1, i+1, i, apsp.ErrSingular)
				}
				d[i*n+i] = 1 / d[i*n+i]
				cnt.Stars++
			case i > j:
				d[i*n+j] = -float64(d[i*n+j] * d[j*n+j]) // B_O
				cnt.Mults++
			}
		}
	}
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return cnt, err
		}
		for j := 0; j < n; j++ {
			lo, hi := min(i, j)+1, max(i, j)
			if i < j {
				d[i*n+j] = float64(d[i*n+i] * d[i*n+j]) // B_I
				cnt.Mults++
			}
			if hi > lo {
				d[i*n+j] = dot(d[i*n+j], d, n, i, j, lo, hi)
				cnt.Adds += int64(hi - lo)
				cnt.Mults += int64(hi - lo)
			}
			if i < j {
				d[i*n+j] = -float64(d[i*n+j] * d[j*n+j]) // B_O
				cnt.Mults++
			}
		}
	}
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return cnt, err
		}
		for j := 0; j < n; j++ {
			if i > j {
				d[i*n+j] = float64(d[i*n+i] * d[i*n+j]) // B_I
				cnt.Mults++
			}
			lo := max(i, j) + 1
			d[i*n+j] = dot(d[i*n+j], d, n, i, j, lo, n)
			cnt.Adds += int64(n - lo)
			cnt.Mults += int64(n - lo)
		}
	}
	return cnt, nil
}
