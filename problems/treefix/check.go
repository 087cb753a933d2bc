package treefix

import (
	"fmt"
	"math"
)

// Check holds the sums against Reference: integer sums must equal it
// exactly; a float sum at v must lie within 2n·u·S_v + u·|r_v| of the
// float64 reference r_v, where u is the unit roundoff of the sums' type
// and S_v the reference's sum of |w| at v (any order of n additions errs
// by at most (n-1)·u·S_v, the float64 reference by less). The error names
// the first vertex off and its line.
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
	for v, x := range got {
		if tol := 2*float64(n)*u*abs[v] + u*math.Abs(ref[v]); !(math.Abs(x-ref[v]) <= tol) {
			return fmt.Errorf("vertex %d (line %d): %s sum %.17g, the float64 reference's %.17g (bound %.3g)", v, s.In.Line[v], s.Op, x, ref[v], tol)
		}
	}
	return nil
}
