package treefix

import (
	"fmt"
	"math"
	"path"
)

// Check holds the sums against Reference: integer sums must equal it
// exactly; a float sum at v must lie within 2n·u·S_v + u·|r_v| of the
// float64 reference r_v, where u is the unit roundoff of the sums' type
// and S_v the reference's sum of |w| at v (any order of n additions errs
// by at most (n-1)·u·S_v, the float64 reference by less), or, for the
// vectorial Leaffix (EulerTourLeaffix), within VectorialLeaffixBound plus
// the reference's own error. The error names the first vertex off and its
// line.
func (s *Sums) Check() error {
	t, n := s.Tree, s.Tree.N()
	if s.Int != nil {
		ref := make([]int64, n)
		if err := Reference(t, s.Op, s.In.IntW, ref); err != nil {
			return err
		}
		for v, x := range s.Int {
			if x != ref[v] {
				return fmt.Errorf("vertex %d (line %d): %s sum %d, the reference's %d", v, s.In.Line[v], s.Op, x, ref[v])
			}
		}
		return nil
	}
	w, u := s.In.W, 0x1p-53
	got := s.F64
	if s.F32 != nil {
		u = 0x1p-24
		w = make([]float64, n)
		got = make([]float64, n)
		for v := range n {
			w[v] = float64(float32(s.In.W[v]))
			got[v] = float64(s.F32[v])
		}
	}
	ref, abs := make([]float64, n), make([]float64, n)
	if err := Reference(t, s.Op, w, ref); err != nil {
		return err
	}
	for v, x := range w {
		abs[v] = math.Abs(x)
	}
	if err := Reference(t, s.Op, abs, abs); err != nil {
		return err
	}
	var pOpen, pClose []float64 // the vectorial Leaffix's Σ|e| up to each vertex's entries
	if s.Op == Leaffix && EulerTourLeaffix(s.Impl) {
		pOpen, pClose = tourPrefixes(t, w)
	}
	for v, x := range got {
		tol := 2*float64(n)*u*abs[v] + u*math.Abs(ref[v])
		if pOpen != nil { // plus the float64 reference's own error
			tol = 2*float64(n)*U64*abs[v] + VectorialLeaffixBound(u, n, pOpen[v], pClose[v], ref[v]-w[v], ref[v])
		}
		if !(math.Abs(x-ref[v]) <= tol) {
			return fmt.Errorf("vertex %d (line %d): %s sum %.17g, the float64 reference's %.17g (bound %.3g)", v, s.In.Line[v], s.Op, x, ref[v], tol)
		}
	}
	return nil
}

// EulerTourLeaffix reports whether the implementation named impl computes
// Leaffix as the paper's vectorial algorithm does, as the difference of
// two prefixes of the scan of the Euler-tour vector, L_v = E[v)] - E[(v] +
// w_v (cpu/vectorial, cuda/vectorial), so that VectorialLeaffixBound is
// its error bound. The compensated variants keep their prefixes exact
// enough to meet the bound of a recursive sum.
func EulerTourLeaffix(impl string) bool { return path.Base(impl) == "vectorial" }

// VectorialLeaffixBound bounds the error of the vectorial Leaffix at one
// vertex v of a tree of n vertices, in unit roundoff u: pOpen and pClose
// are Σ|e_k| over the Euler-tour entries up to v's opening and closing
// entries (e = w at an opening, 0 at a closing), d = L_v - w_v the exact
// difference of the two prefixes, and l = L_v the exact result.
//
// Derivation. The result is fl(fl(Ê_c - Ê_o) + w_v), where Ê_i is the
// scan's prefix i: a sum of e_0..e_i by an evaluation in which no entry
// passes through more than h additions (a part's recursive scan after
// the scan of the part sums on the CPU, h <= 2n + parts; a tiled scan on
// the GPU, h <= 72 + 2n/512; h = 4n + 80 covers both), so |Ê_i - E_i| <=
// γ_h·P_i (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
// ed., §4.2). The subtraction and the addition of w_v add one rounding
// each (OpErrBound). So
//
//	|L̂_v - L_v| <= OpErrBound(u, OpErrBound(u, γ_h·P_c, γ_h·P_o, d), 0, l)
//	            ≈ γ_h·(P_c + P_o) + u·|d| + u·|l|.
//
// The bound grows with the sums of the tour before v's closing entry, not
// with v's subtree: the subtraction cancels the two large prefixes and
// keeps their errors. No bound in S_v can hold: a two-vertex subtree near
// the end of a tour of 400 uniform [0, 1) weights comes out hundreds of
// ulps from its exact sum (about 200 before it in the tour, a sum of about
// 1), and cpu/vectorial-compensated, which subtracts its prefixes as
// exact pairs, is within u·|L_v| there.
func VectorialLeaffixBound(u float64, n int, pOpen, pClose, d, l float64) float64 {
	h := 4*float64(n) + 80
	g := h * u / (1 - h*u)
	return OpErrBound(u, OpErrBound(u, g*pClose, g*pOpen, d), 0, l)
}

// tourPrefixes returns, per vertex, Σ|e_k| over the Euler-tour entries up
// to its opening and its closing entry, rounded up so that they bound the
// exact sums (the float64 scan of 2n nonnegative terms errs by less than
// 2n·U64 relative).
func tourPrefixes(t *Tree, w []float64) (pOpen, pClose []float64) {
	vec := t.BuildVector()
	n := len(w)
	e := make([]float64, 2*n)
	for v, x := range w {
		e[vec.Open[v]] = math.Abs(x)
	}
	var acc float64
	for i, x := range e {
		acc += x
		e[i] = acc
	}
	up := 1 + 4*float64(n)*U64
	pOpen, pClose = make([]float64, n), make([]float64, n)
	for v := range n {
		pOpen[v], pClose[v] = e[vec.Open[v]]*up, e[vec.Close[v]]*up
	}
	return pOpen, pClose
}
