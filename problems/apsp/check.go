package apsp

import (
	"fmt"
	"math"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// CheckColumns is how many columns of D CheckClosure checks, evenly spaced:
// each costs O(n²), so the check stays well below the solve's O(n³).
const CheckColumns = 32

// CheckClosure checks the answer of `semibench solve apsp` against its
// certificate on up to CheckColumns columns j of D: D = I ⊕ A ⊗ D (the
// closure equation; A·D = I for A⁻¹). Boolean entries must match exactly,
// infinities exactly, finite floats within n·2^-50 (n·2^-22 when D holds
// float32 values) of the magnitudes that meet in the entry (the path weights in min-plus and max-plus, the terms
// of the sum in real), so that rounding passes and a wrong entry does
// not. A sum that overflows float64 in the certificate, a NaN anywhere in
// D, or an infinity in a real D, is an error too: an overflowed entry
// would otherwise meet its certificate's overflow (+inf reading as "no
// path"). The error names the entry, 1-based.
func (d *Closure) Check() error {
	in := d.In
	n := in.N()
	cols := make([]int, min(n, CheckColumns))
	for c := range cols {
		cols[c] = c * n / len(cols)
	}
	if d.B != nil {
		return checkBool(in.B, d.B, cols)
	}
	s := floatSemiring(in.Semiring)
	if in.Inverse {
		s = semiring.Real[float64]{}
	}
	if err := checkFinite(d.F, in.Semiring == "real" || in.Inverse); err != nil {
		return err
	}
	return checkFloat(s, in.F, d.F, cols, !in.Inverse, in.Semiring == "real" || in.Inverse)
}

// checkFloat checks, on the columns cols, in s, d = e ⊕ a ⊗ d (identity)
// or a ⊗ d = e (not identity: d is a's inverse); sum says that the
// entries are sums of products (the real semiring), not path weights.
func checkFloat(s semiring.Semiring[float64], a, d *Matrix[float64], cols []int, identity, sum bool) error {
	n := a.N
	maxA := 0.0
	for _, v := range a.Data {
		if !math.IsInf(v, 0) {
			maxA = max(maxA, math.Abs(v))
		}
	}
	// An implementation that computes in float32 (cuda/fast in min-plus
	// and max-plus) gives float32 values: they are held to float32's
	// rounding.
	u := 0x1p-50
	if float32Valued(d.Data) {
		u = 0x1p-22
	}
	tol := float64(n) * u
	for _, j := range cols {
		for i := range n {
			want, scale := s.Zero(), 1.0
			if i == j && identity {
				want = s.One()
			}
			for k, x := range a.Row(i) {
				if x == s.Zero() {
					continue
				}
				y := d.At(k, j)
				xy := s.Times(x, y)
				if math.IsInf(xy, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
					return fmt.Errorf("A[%d,%d] ⊗ D[%d,%d] = %s ⊗ %s overflows float64 (to %s): the entries are too large to be computed or checked", i+1, k+1, k+1, j+1, formatFloat(x), formatFloat(y), formatFloat(xy))
				}
				want = s.Plus(want, xy)
				if sum && !math.IsInf(y, 0) {
					scale += math.Abs(x * y)
				}
			}
			got := d.At(i, j)
			if !sum {
				scale += float64(n) * maxA
				if !math.IsInf(got, 0) {
					scale += math.Abs(got)
				}
			}
			if !identity {
				// a ⊗ d = e: want is a row of a ⊗ d, got the identity's entry
				got, want = want, 0
				if i == j {
					want = 1
				}
			}
			if got == want {
				continue
			}
			if math.IsInf(scale, 0) {
				//lint:ignore ST1005 D is the paper's name for the closure
				return fmt.Errorf("D[%d,%d] = %s: the magnitudes that meet in it overflow float64, so it cannot be checked", i+1, j+1, formatFloat(got))
			}
			if !math.IsInf(got, 0) && !math.IsInf(want, 0) && math.Abs(got-want) <= tol*scale {
				continue
			}
			if identity {
				//lint:ignore ST1005 D is the paper's name for the closure
				return fmt.Errorf("D[%d,%d] = %s, but (I ⊕ A ⊗ D)[%d,%d] = %s", i+1, j+1, formatFloat(got), i+1, j+1, formatFloat(want))
			}
			return fmt.Errorf("(A · A^-1)[%d,%d] = %s, not %s", i+1, j+1, formatFloat(got), formatFloat(want))
		}
	}
	return nil
}

// checkFinite checks every entry of d, not only the columns checked
// against the certificate: none may be NaN, and with real (sums of
// products, where no entry is infinite) none infinite, which is an
// overflow of float64.
func checkFinite(d *Matrix[float64], real bool) error {
	for k, v := range d.Data {
		if math.IsNaN(v) || (real && math.IsInf(v, 0)) {
			//lint:ignore ST1005 D is the paper's name for the closure
			return fmt.Errorf("D[%d,%d] = %s: the computation overflowed float64", k/d.N+1, k%d.N+1, formatFloat(v))
		}
	}
	return nil
}

// float32Valued reports whether every value of data is a float32 value.
func float32Valued(data []float64) bool {
	for _, v := range data {
		if float64(float32(v)) != v && !math.IsNaN(v) {
			return false
		}
	}
	return true
}

// checkBool checks d = I ∨ a ∧ d on the columns cols.
func checkBool(a, d *Matrix[bool], cols []int) error {
	n := a.N
	for _, j := range cols {
		for i := range n {
			want := i == j
			for k, x := range a.Row(i) {
				want = want || (x && d.At(k, j))
			}
			if got := d.At(i, j); got != want {
				//lint:ignore ST1005 D is the paper's name for the closure
				return fmt.Errorf("D[%d,%d] = %v, but (I ∨ A ∧ D)[%d,%d] = %v", i+1, j+1, got, i+1, j+1, want)
			}
		}
	}
	return nil
}
