package treefix

import (
	"math"
	"math/big"
)

// Error model of the plain (uncompensated) implementations, the accuracy
// reference of the experiments.
//
// Every floating-point addition rounds to nearest: fl(a+b) = (a+b)/(1+δ),
// |δ| <= u (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
// ed., eq. 2.5), so its local error is at most u·|fl(a+b)|. Local errors
// add along the evaluation: when the operands carry errors at most ea and
// eb and the exact result of the exact operands is s, the computed sum
// errs by at most
//
//	e = ea + eb + u·|ŝ| <= ea + eb + u·(|s| + e),  so  e <= (ea + eb + u·|s|) / (1 - u)   (OpErrBound)
//
// with no second-order term left out. Chained along a recursive sum
// ŝ_k = fl(ŝ_{k-1} + x_k), the first term exact, this is the running
// bound E_k = (E_{k-1} + u·|s_k|)/(1-u) over the exact partial sums s_k
// (SeqErrBound): about u·Σ_k |s_k|, the sum of the magnitudes of the
// partial sums along the summation order. For an evaluation whose order is
// not fixed but whose tree has height at most h (every term passes through
// at most h additions: a blocked or tree-like scan), the classical bound
// |ŝ - s| <= γ_h·Σ|x_i|, γ_h = h·u/(1-h·u), holds (TreeErrBound).
//
// Which applies: cpu/sequential, cpu/parallel and cuda/parallel sum a
// root-to-vertex path recursively from the root (Rootfix: R_v = R_parent +
// w_v) and a chain's Leaffix recursively from the leaf (one child each:
// L_v = w_v + L_child); cpu/vectorial's scan is recursive over the Euler
// tour when it is one part (2n <= 2·arrayGrain entries: one goroutine), and
// its Leaffix read adds two rounded operations, fl(fl(E[v)] - E[(v]) + w_v).
// The bounds are rigorous (computed from the exact partial sums, with a
// relative slack of 2^-40 for their own float64 evaluation): a correct
// implementation never exceeds them, whatever the condition number.

// errSlack covers the float64 rounding of the bounds' own evaluation and
// of the exact partial sums to float64.
const errSlack = 1 + 0x1p-40

// OpErrBound bounds the error of one rounded addition in unit roundoff u
// whose operands err by at most ea and eb and whose exact result (of the
// exact operands) is s.
func OpErrBound(u, ea, eb, s float64) float64 {
	return (ea + eb + u*math.Abs(s)) / (1 - u) * errSlack
}

// SeqErrBound sums x exactly (math/big, every partial sum exact) and
// returns the exact sum rounded to float64 and the bound on the error of
// summing x recursively in x's order in unit roundoff u (the first term
// exact): the running bound E_k = (E_{k-1} + u·|s_k|)/(1-u).
func SeqErrBound(u float64, x []float32) (exact, bound float64) {
	s := new(big.Float).SetPrec(512) // float32 exponents span under 300 bits
	var t big.Float
	for k, v := range x {
		t.SetFloat64(float64(v))
		s.Add(s, &t)
		if k == 0 {
			continue
		}
		sk, _ := s.Float64()
		bound = (bound + u*math.Abs(sk)) / (1 - u)
	}
	exact, _ = s.Float64()
	return exact, bound * errSlack
}

// TreeErrBound is γ_h·sumAbs in unit roundoff u: the error bound of any
// summation of terms whose magnitudes sum to sumAbs by an evaluation tree
// of height at most h.
func TreeErrBound(u float64, h int, sumAbs float64) float64 {
	hu := float64(h) * u
	return hu / (1 - hu) * sumAbs * errSlack
}
