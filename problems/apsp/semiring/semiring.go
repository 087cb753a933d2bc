// Package semiring defines the semirings shared by semibench's CPU
// implementations of the algebraic path problem (Rote, "A systolic array
// algorithm for the algebraic path problem", Computing 34, 1985, section 2):
// the real numbers (+, ×), min-plus (min, +) with the paper's conventions for
// plus and minus infinity, max-plus (max, +), and the Boolean semiring
// (or, and). Each has a zero, a unity and the star c* = 1 ⊕ c ⊕ c² ⊕ ….
//
// A semiring is a zero-size value whose methods implement the operations; code
// is generic over the element type T and the semiring S:
//
//	func Closure[T any, S semiring.Semiring[T]](s S, ...)
//
// A note on speed: Go compiles generic code by GC shape, and a call of a
// method of a type parameter goes through a dictionary even when the
// semiring is a zero-size struct, so such calls are not inlined (measured:
// about 5x slower than a hand-written min-plus loop on float32). Hot loops in
// semibench therefore dispatch once, with a type switch on the semiring, to
// kernels written for the concrete type, and keep the generic methods for
// the O(n²) and O(n) parts and for reference code.
package semiring

import (
	"errors"
	"fmt"
	"math"
)

// Semiring is a semiring (H, ⊕, ⊗) with zero, unity and the star operation.
// Plus must be commutative and associative with identity Zero; Times
// associative with identity One, distributive over Plus, and annihilated by
// Zero. Star returns c* = One ⊕ c ⊕ c⊗c ⊕ …, or an error where it is
// undefined.
type Semiring[T any] interface {
	Zero() T
	One() T
	Plus(a, b T) T
	Times(a, b T) T
	Star(c T) (T, error)
	// Name is the semiring's name as the command line spells it
	// ("real", "min-plus", "max-plus", "boolean").
	Name() string
}

// Float is the element type constraint of the floating-point semirings.
type Float interface{ ~float32 | ~float64 }

// ErrNoStar is wrapped by Star where the star is undefined: c = 1 in the
// real semiring.
var ErrNoStar = errors.New("star undefined")

// Real is the semiring (ℝ, +, ×) of the paper's example 1, zero 0, unity 1.
// Its star is the paper's extended operation (C'): c* = 1/(1-c) for c ≠ 1,
// undefined (an error wrapping ErrNoStar) for c = 1. On a matrix the closure
// is (I - A)⁻¹.
type Real[T Float] struct{}

// Zero returns 0.
func (Real[T]) Zero() T { return 0 }

// One returns 1.
func (Real[T]) One() T { return 1 }

// Plus returns a + b.
func (Real[T]) Plus(a, b T) T { return a + b }

// Times returns a × b, rounded on its own (the explicit conversion keeps
// the compiler from fusing it into a following addition, so every
// implementation rounds the same way).
func (Real[T]) Times(a, b T) T { return T(a * b) }

// Star returns 1/(1-c), or an error wrapping ErrNoStar for c = 1.
func (Real[T]) Star(c T) (T, error) {
	if c == 1 {
		return 0, fmt.Errorf("%w: the star of 1 in the real semiring (1/(1-c) with c = 1)", ErrNoStar)
	}
	return 1 / (1 - c), nil
}

// Name returns "real".
func (Real[T]) Name() string { return "real" }

// MinPlus is the semiring (ℝ ∪ {+∞, -∞}, min, +) of the paper's example 2:
// zero +∞, unity 0, with the conventions ∞ + a = ∞ and (-∞) + a = -∞ for
// real a, and (-∞) + ∞ = ∞ (zero absorbs). Its star is 0 for c ≥ 0 and -∞
// for c < 0 (a negative cycle). On a matrix the closure is the matrix of
// shortest distances, -∞ where a path may pass a negative cycle.
type MinPlus[T Float] struct{}

// Zero returns +∞.
func (MinPlus[T]) Zero() T { return T(math.Inf(1)) }

// One returns 0.
func (MinPlus[T]) One() T { return 0 }

// Plus returns min(a, b).
func (MinPlus[T]) Plus(a, b T) T {
	if b < a {
		return b
	}
	return a
}

// Times returns a + b with +∞ absorbing (so (-∞) + ∞ = ∞).
func (MinPlus[T]) Times(a, b T) T {
	inf := T(math.Inf(1))
	if a == inf || b == inf {
		return inf
	}
	return a + b
}

// Star returns 0 for c ≥ 0 (also for c = +∞) and -∞ for c < 0.
func (MinPlus[T]) Star(c T) (T, error) {
	if c >= 0 {
		return 0, nil
	}
	return T(math.Inf(-1)), nil
}

// Name returns "min-plus".
func (MinPlus[T]) Name() string { return "min-plus" }

// MaxPlus is the semiring (ℝ ∪ {-∞, +∞}, max, +), the mirror image of
// MinPlus: zero -∞, unity 0, -∞ absorbing in Times (so (+∞) + (-∞) = -∞),
// star 0 for c ≤ 0 and +∞ for c > 0 (a positive cycle). On a matrix the
// closure is the matrix of longest (heaviest) path weights.
type MaxPlus[T Float] struct{}

// Zero returns -∞.
func (MaxPlus[T]) Zero() T { return T(math.Inf(-1)) }

// One returns 0.
func (MaxPlus[T]) One() T { return 0 }

// Plus returns max(a, b).
func (MaxPlus[T]) Plus(a, b T) T {
	if b > a {
		return b
	}
	return a
}

// Times returns a + b with -∞ absorbing.
func (MaxPlus[T]) Times(a, b T) T {
	ninf := T(math.Inf(-1))
	if a == ninf || b == ninf {
		return ninf
	}
	return a + b
}

// Star returns 0 for c ≤ 0 (also for c = -∞) and +∞ for c > 0.
func (MaxPlus[T]) Star(c T) (T, error) {
	if c <= 0 {
		return 0, nil
	}
	return T(math.Inf(1)), nil
}

// Name returns "max-plus".
func (MaxPlus[T]) Name() string { return "max-plus" }

// Integer min-plus: int64 with sentinels for the infinities.
const (
	// IntInf is +∞ (the zero) of MinPlusInt.
	IntInf int64 = math.MaxInt64
	// IntNegInf is -∞ of MinPlusInt.
	IntNegInf int64 = math.MinInt64
)

// MinPlusInt is the min-plus semiring on int64 with IntInf and IntNegInf
// standing for +∞ and -∞, and the conventions of MinPlus. Finite sums
// saturate into [IntNegInf+1, IntInf-1], so they never turn into an
// infinity; with weights and path lengths far below 2⁶², as in every
// semibench input, no sum saturates and the arithmetic is exact.
type MinPlusInt struct{}

// Zero returns IntInf.
func (MinPlusInt) Zero() int64 { return IntInf }

// One returns 0.
func (MinPlusInt) One() int64 { return 0 }

// Plus returns min(a, b).
func (MinPlusInt) Plus(a, b int64) int64 { return min(a, b) }

// Times returns a + b with IntInf absorbing, then IntNegInf absorbing,
// saturating finite sums.
func (MinPlusInt) Times(a, b int64) int64 {
	switch {
	case a == IntInf || b == IntInf:
		return IntInf
	case a == IntNegInf || b == IntNegInf:
		return IntNegInf
	}
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0, s == IntInf:
		return IntInf - 1
	case a < 0 && b < 0 && s >= 0, s == IntNegInf:
		return IntNegInf + 1
	}
	return s
}

// Star returns 0 for c ≥ 0 and IntNegInf for c < 0.
func (MinPlusInt) Star(c int64) (int64, error) {
	if c >= 0 {
		return 0, nil
	}
	return IntNegInf, nil
}

// Name returns "min-plus-int".
func (MinPlusInt) Name() string { return "min-plus-int" }

// Boolean is the semiring ({0, 1}, ∨, ∧) of the paper's example 3 on bool:
// zero false, unity true, 0* = 1* = 1. On a matrix the closure is the
// reflexive and transitive closure of the relation.
type Boolean struct{}

// Zero returns false.
func (Boolean) Zero() bool { return false }

// One returns true.
func (Boolean) One() bool { return true }

// Plus returns a ∨ b.
func (Boolean) Plus(a, b bool) bool { return a || b }

// Times returns a ∧ b.
func (Boolean) Times(a, b bool) bool { return a && b }

// Star returns true.
func (Boolean) Star(bool) (bool, error) { return true, nil }

// Name returns "boolean".
func (Boolean) Name() string { return "boolean" }

// Names lists the semiring names accepted on the command line.
var Names = []string{"min-plus", "max-plus", "boolean", "real"}
