package apsp

import (
	"math"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// kernels are the inner loops of the eliminations for one semiring and
// element type. Generic code cannot inline a type parameter's methods (see
// package semiring), so kernelsFor picks loops written for the concrete
// type where one exists and falls back to the methods otherwise. Every
// specialised loop computes exactly what the methods compute, operation for
// operation, so results do not depend on which loop ran.
type kernels[T any] struct {
	// dot returns acc ⊕ c[i*n+lo]⊗c[lo*n+j] ⊕ … ⊕ c[i*n+hi-1]⊗c[(hi-1)*n+j],
	// accumulated left to right: the A assignments of sGJE for one element
	// and a range of k.
	dot func(acc T, c []T, n, i, j, lo, hi int) T
	// axpy sets c[j] = c[j] ⊕ a⊗b[j] for every j (len(b) ≥ len(c)).
	axpy func(c []T, a T, b []T)
	// axpy4 is four axpy calls on four rows with one row b.
	axpy4 func(c0, c1, c2, c3 []T, a0, a1, a2, a3 T, b []T)
	// tile, when set, is a SIMD kernel for a 4×16 block of c:
	// c[r*ldc+j] ⊕= a[r*lda+m] ⊗ b[m*ldb+j] for m = 0..k-1 in order
	// (see mulAcc). It is set only where the CPU runs it.
	tile func(c []T, ldc int, a []T, lda int, b []T, ldb int, k int)
}

func kernelsFor[T any, S semiring.Semiring[T]](s S) kernels[T] {
	var k any
	switch any(s).(type) {
	case semiring.MinPlus[float32]:
		kk := kernels[float32]{dot: dotMinPlus[float32], axpy: axpyMinPlus[float32], axpy4: axpy4MinPlus[float32]}
		if hasAVX2 {
			kk.tile = func(c []float32, ldc int, a []float32, lda int, b []float32, ldb int, k int) {
				tileMinPlus32(c, ldc, a, lda, b, ldb, k)
			}
		}
		k = kk
	case semiring.MinPlus[float64]:
		k = kernels[float64]{dot: dotMinPlus[float64], axpy: axpyMinPlus[float64], axpy4: axpy4MinPlus[float64]}
	case semiring.MaxPlus[float32]:
		k = kernels[float32]{dot: dotMaxPlus[float32], axpy: axpyMaxPlus[float32]}
	case semiring.MaxPlus[float64]:
		k = kernels[float64]{dot: dotMaxPlus[float64], axpy: axpyMaxPlus[float64]}
	case semiring.Real[float64]:
		k = kernels[float64]{dot: dotReal[float64], axpy: axpyReal[float64]}
	case semiring.Real[float32]:
		k = kernels[float32]{dot: dotReal[float32], axpy: axpyReal[float32]}
	case semiring.Boolean:
		k = kernels[bool]{dot: dotBool, axpy: axpyBool}
	case semiring.MinPlusInt:
		k = kernels[int64]{dot: dotMinPlusInt, axpy: axpyMinPlusInt}
	}
	kk, ok := k.(kernels[T])
	if !ok {
		kk = kernels[T]{
			dot: func(acc T, c []T, n, i, j, lo, hi int) T {
				for k := lo; k < hi; k++ {
					acc = s.Plus(acc, s.Times(c[i*n+k], c[k*n+j]))
				}
				return acc
			},
			axpy: func(c []T, a T, b []T) {
				b = b[:len(c)]
				for j := range c {
					c[j] = s.Plus(c[j], s.Times(a, b[j]))
				}
			},
		}
	}
	if kk.axpy4 == nil {
		axpy := kk.axpy
		kk.axpy4 = func(c0, c1, c2, c3 []T, a0, a1, a2, a3 T, b []T) {
			axpy(c0, a0, b)
			axpy(c1, a1, b)
			axpy(c2, a2, b)
			axpy(c3, a3, b)
		}
	}
	return kk
}

// Min-plus: a+b is NaN exactly when one side is +∞ and the other -∞, where
// the paper's convention makes the product +∞ (zero), which leaves c as it
// is; "s < c" is false for NaN, so the plain comparison implements the
// convention without a test in the loop. A product with a +∞ side is +∞ or
// NaN and never below c either.

func dotMinPlus[T semiring.Float](acc T, c []T, n, i, j, lo, hi int) T {
	row := c[i*n : i*n+n]
	for k := lo; k < hi; k++ {
		if s := row[k] + c[k*n+j]; s < acc {
			acc = s
		}
	}
	return acc
}

func axpyMinPlus[T semiring.Float](c []T, a T, b []T) {
	if math.IsInf(float64(a), 1) {
		return
	}
	b = b[:len(c)]
	for j, x := range b {
		if s := a + x; s < c[j] {
			c[j] = s
		}
	}
}

func axpy4MinPlus[T semiring.Float](c0, c1, c2, c3 []T, a0, a1, a2, a3 T, b []T) {
	n := len(b)
	c0, c1, c2, c3 = c0[:n], c1[:n], c2[:n], c3[:n]
	for j, x := range b {
		if s := a0 + x; s < c0[j] {
			c0[j] = s
		}
		if s := a1 + x; s < c1[j] {
			c1[j] = s
		}
		if s := a2 + x; s < c2[j] {
			c2[j] = s
		}
		if s := a3 + x; s < c3[j] {
			c3[j] = s
		}
	}
}

// Max-plus mirrors min-plus: NaN (−∞ + ∞) is the zero −∞ and never above c.

func dotMaxPlus[T semiring.Float](acc T, c []T, n, i, j, lo, hi int) T {
	row := c[i*n : i*n+n]
	for k := lo; k < hi; k++ {
		if s := row[k] + c[k*n+j]; s > acc {
			acc = s
		}
	}
	return acc
}

func axpyMaxPlus[T semiring.Float](c []T, a T, b []T) {
	if math.IsInf(float64(a), -1) {
		return
	}
	b = b[:len(c)]
	for j, x := range b {
		if s := a + x; s > c[j] {
			c[j] = s
		}
	}
}

// Real: the explicit conversion rounds the product on its own, as
// semiring.Real's Times does, so no fused multiply-add changes the result.

func dotReal[T semiring.Float](acc T, c []T, n, i, j, lo, hi int) T {
	row := c[i*n : i*n+n]
	for k := lo; k < hi; k++ {
		acc += T(row[k] * c[k*n+j])
	}
	return acc
}

func axpyReal[T semiring.Float](c []T, a T, b []T) {
	if a == 0 {
		// 0 ⊗ b is 0 for every finite b; an infinite or NaN b would make
		// it NaN, which the real closure of a finite matrix never holds
		// unless it already failed.
		return
	}
	b = b[:len(c)]
	for j, x := range b {
		c[j] += T(a * x)
	}
}

func dotBool(acc bool, c []bool, n, i, j, lo, hi int) bool {
	if acc {
		return true
	}
	row := c[i*n : i*n+n]
	for k := lo; k < hi; k++ {
		if row[k] && c[k*n+j] {
			return true
		}
	}
	return false
}

func axpyBool(c []bool, a bool, b []bool) {
	if !a {
		return
	}
	b = b[:len(c)]
	for j, x := range b {
		c[j] = c[j] || x
	}
}

func dotMinPlusInt(acc int64, c []int64, n, i, j, lo, hi int) int64 {
	var s semiring.MinPlusInt
	row := c[i*n : i*n+n]
	for k := lo; k < hi; k++ {
		acc = min(acc, s.Times(row[k], c[k*n+j]))
	}
	return acc
}

func axpyMinPlusInt(c []int64, a int64, b []int64) {
	if a == semiring.IntInf {
		return
	}
	var s semiring.MinPlusInt
	b = b[:len(c)]
	for j, x := range b {
		c[j] = min(c[j], s.Times(a, x))
	}
}
