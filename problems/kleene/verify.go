package kleene

import (
	"fmt"
	"math"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// CertificateColumns is how many columns Verify checks against the
// fixed-point certificate X* = e ⊕ X ⊗ X*.
const CertificateColumns = 32

// Unit roundoffs of float32 and float64.
const (
	u32 = 0x1p-24
	u64 = 0x1p-53
)

// Verify checks an implementation's W = X* against ref = Reference(x).
//
// Every entry: where ref is -Inf (no path) W must be ε exactly, and where
// ref is finite W must not be ε. With exact (integer weights) every finite
// entry must equal float32(ref) exactly; Verify first confirms that exact
// comparison is sound (integer weights, every path's sum of |weights| at
// most 2^24, so float32 additions are exact). Otherwise |W - ref| must be at
// most the rounding bound
//
//	B_ij = ((1+2^-24)^d - 1 + (1+2^-53)^d - 1) · S,
//	d = min(longest path out of j, longest path into i)     (arcs),
//	S = min(heaviest Σ|w| path out of j, heaviest into i),
//
// which holds for any evaluation that forms each path sum with at most d
// rounded float32 additions and takes exact maxima (the first term; the
// second is the reference's own float64 rounding), by induction along the
// topological order: |fl(x + W_l) - (x + v_l)| <= u(|x| + S_l) + (1+u) e_l.
// d and S bound the path length and |X|-weight of every path from j to i
// and cost O(n + m) for all pairs. The bound is widened by 10^-6 relative
// for the float64 evaluation of the bound itself.
//
// The certificate: on CertificateColumns columns (evenly spaced labels) W
// must satisfy W_j = e_j ⊕ X ⊗ W_j, recomputed in float64 in O(m) per
// column: exactly with exact, otherwise within 2 B_ij plus the float64
// rounding of the recomputation. In a DAG this fixed point is unique, so the
// certificate checks those columns without the reference.
func Verify(x *maxplus.Matrix, w *maxplus.Matrix, ref []float64, exact bool) bench.Check {
	ck := bench.Check{Method: verifyMethod(exact)}
	switch {
	case x == nil || w == nil:
		ck.Detail = "missing matrix"
		return ck
	case w.N != x.N || len(w.Val) != x.N*x.N:
		ck.Detail = fmt.Sprintf("W is %d x %d (%d entries), X is %d x %d", w.N, w.N, len(w.Val), x.N, x.N)
		return ck
	case len(ref) != x.N*x.N:
		ck.Detail = fmt.Sprintf("reference holds %d entries, want %d", len(ref), x.N*x.N)
		return ck
	}
	g, err := kahn(x)
	if err != nil {
		ck.Detail = fmt.Sprintf("input: %v", err)
		return ck
	}
	n := g.n
	b := newBounds(g)
	if exact {
		if why := b.inexact(g); why != "" {
			ck.Detail = "exact comparison is unsound: " + why
			return ck
		}
	}

	// Every entry against the reference.
	worst, worstRatio := -1, 0.0
	for i := 0; i < n; i++ {
		pi := g.pos[i]
		for j := 0; j < n; j++ {
			r, v := ref[i*n+j], w.Val[i*n+j]
			if math.IsInf(r, -1) {
				if v != maxplus.Epsilon {
					ck.Detail = fmt.Sprintf("W[%d,%d] = %v, want ε (no path from %d to %d)", i+1, j+1, v, j+1, i+1)
					return ck
				}
				continue
			}
			if v == maxplus.Epsilon {
				ck.Detail = fmt.Sprintf("W[%d,%d] = ε, want %v (reference, float64)", i+1, j+1, r)
				return ck
			}
			diff := math.Abs(float64(v) - r)
			if exact {
				if v != float32(r) {
					ck.Detail = fmt.Sprintf("W[%d,%d] = %v, want %v exactly", i+1, j+1, v, r)
					ck.MaxErr = diff
					return ck
				}
				continue
			}
			bound := b.bound(g.pos[j], pi)
			if !(diff <= bound) { // NaN fails too
				ck.Detail = fmt.Sprintf("W[%d,%d] = %v, reference %v: error %.3g exceeds the bound %.3g", i+1, j+1, v, r, diff, bound)
				ck.MaxErr, ck.Bound = diff, bound
				return ck
			}
			if diff > ck.MaxErr {
				ck.MaxErr = diff
			}
			if bound > ck.Bound {
				ck.Bound = bound
			}
			if bound > 0 && diff/bound > worstRatio {
				worst, worstRatio = i*n+j, diff/bound
			}
		}
	}

	// The certificate on a sample of columns.
	cols := certificateColumns(n)
	col := make([]float64, n) // W's column j, by topological position, ε as -Inf
	for _, j := range cols {
		for t, v := range g.order {
			col[t] = float64(w.Val[int(v)*n+j])
			if w.Val[int(v)*n+j] == maxplus.Epsilon {
				col[t] = math.Inf(-1)
			}
		}
		// r[t] = max over arcs s -> t of X ⊗ W, computed by pushing along
		// the successor lists: O(m).
		r := make([]float64, n)
		for t := range r {
			r[t] = math.Inf(-1)
		}
		r[g.pos[j]] = 0 // e
		for s := 0; s < n; s++ {
			cs := col[s]
			if math.IsInf(cs, -1) {
				continue
			}
			for k := g.ptr[s]; k < g.ptr[s+1]; k++ {
				if v := cs + float64(g.wt[k]); v > r[g.succ[k]] {
					r[g.succ[k]] = v
				}
			}
		}
		for t := 0; t < n; t++ {
			i := int(g.order[t])
			got, want := col[t], r[t]
			if math.IsInf(want, -1) || math.IsInf(got, -1) {
				if math.IsInf(want, -1) != math.IsInf(got, -1) {
					ck.Detail = fmt.Sprintf("certificate fails in column %d: W[%d,%d] = %v, (e ⊕ X ⊗ W)[%d,%d] = %v", j+1, i+1, j+1, got, i+1, j+1, want)
					return ck
				}
				continue
			}
			if exact {
				if float32(got) != float32(want) {
					ck.Detail = fmt.Sprintf("certificate fails in column %d: W[%d,%d] = %v, (e ⊕ X ⊗ W)[%d,%d] = %v", j+1, i+1, j+1, got, i+1, j+1, want)
					return ck
				}
				continue
			}
			tol := 2*b.bound(g.pos[j], int32(t)) + 4*u64*(math.Abs(want)+b.sIn[t])
			if !(math.Abs(got-want) <= tol) {
				ck.Detail = fmt.Sprintf("certificate fails in column %d: W[%d,%d] = %v, (e ⊕ X ⊗ W)[%d,%d] = %v, beyond %.3g",
					j+1, i+1, j+1, got, i+1, j+1, want, tol)
				return ck
			}
		}
	}

	ck.OK = true
	if exact {
		ck.Detail = fmt.Sprintf("all %d entries equal the reference exactly; certificate holds on %d columns", n*n, len(cols))
	} else {
		ck.Detail = fmt.Sprintf("all %d entries within the bound; max error %.3g, largest bound %.3g", n*n, ck.MaxErr, ck.Bound)
		if worst >= 0 {
			ck.Detail += fmt.Sprintf(", tightest at W[%d,%d] (error/bound %.2g)", worst/n+1, worst%n+1, worstRatio)
		}
		ck.Detail += fmt.Sprintf("; certificate holds on %d columns", len(cols))
	}
	return ck
}

func verifyMethod(exact bool) string {
	if exact {
		return "every entry of W equal to float32 of a float64 reference (heaviest-path DP per column over Kahn's order), ε where no path; " +
			"integer weights with every |X|-path sum <= 2^24 so float32 is exact; certificate W = e ⊕ X ⊗ W exact on 32 columns"
	}
	return "every entry of W within B = ((1+2^-24)^d - 1 + (1+2^-53)^d - 1)·S of a float64 reference (heaviest-path DP per column over Kahn's order), " +
		"d = min(longest path out of j, into i), S = min(heaviest Σ|w| path out of j, into i); ε exactly where no path; " +
		"certificate W = e ⊕ X ⊗ W within 2B on 32 columns"
}

// certificateColumns returns up to CertificateColumns evenly spaced labels.
func certificateColumns(n int) []int {
	k := min(n, CertificateColumns)
	cols := make([]int, k)
	for c := range cols {
		cols[c] = c * n / k
	}
	return cols
}

// bounds holds, per topological position, the longest path (arcs) and the
// heaviest Σ|w| path out of and into it.
type bounds struct {
	lOut, lIn []int32
	sOut, sIn []float64
	factor    []float64 // factor[d] = (1+u32)^d - 1 + (1+u64)^d - 1, widened
}

func newBounds(g *graph) *bounds {
	n := g.n
	b := &bounds{lOut: make([]int32, n), lIn: make([]int32, n), sOut: make([]float64, n), sIn: make([]float64, n), factor: make([]float64, n+1)}
	for t := n - 1; t >= 0; t-- { // successors come later
		for k := g.ptr[t]; k < g.ptr[t+1]; k++ {
			s := g.succ[k]
			b.lOut[t] = max(b.lOut[t], b.lOut[s]+1)
			b.sOut[t] = max(b.sOut[t], b.sOut[s]+math.Abs(float64(g.wt[k])))
		}
	}
	for t := 0; t < n; t++ {
		for k := g.ptr[t]; k < g.ptr[t+1]; k++ {
			s := g.succ[k]
			b.lIn[s] = max(b.lIn[s], b.lIn[t]+1)
			b.sIn[s] = max(b.sIn[s], b.sIn[t]+math.Abs(float64(g.wt[k])))
		}
	}
	for d := range b.factor {
		fd := float64(d)
		b.factor[d] = (math.Expm1(fd*math.Log1p(u32)) + math.Expm1(fd*math.Log1p(u64))) * (1 + 1e-6)
	}
	return b
}

// bound is B for the source at position pj and the target at position pi.
func (b *bounds) bound(pj, pi int32) float64 {
	d := min(b.lOut[pj], b.lIn[pi])
	s := min(b.sOut[pj], b.sIn[pi])
	return b.factor[d] * s * (1 + 1e-6)
}

// inexact says why float32 arithmetic might not be exact on X's paths, or
// "" when every weight is an integer and every path's Σ|w| is at most 2^24.
func (b *bounds) inexact(g *graph) string {
	for k, v := range g.wt {
		if v != float32(math.Trunc(float64(v))) {
			return fmt.Sprintf("weight %v (arc %d of the topological order) is not an integer", v, k)
		}
	}
	for t, s := range b.sOut {
		if s > 1<<24 {
			return fmt.Sprintf("a path from node %d has Σ|w| = %g > 2^24", g.order[t]+1, s)
		}
	}
	return ""
}

// CheckOrder reports whether order (vertex k in position k of the
// topological sort) lists every vertex of x once with every arc j -> i
// (x_ij not ε) going forwards, and names the first offending vertex or arc.
func CheckOrder[I int | int32](x *maxplus.Matrix, order []I) error {
	n := x.N
	if len(order) != n {
		return fmt.Errorf("order of %d vertices for %d", len(order), n)
	}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for k, vi := range order {
		v := int(vi)
		if v < 0 || v >= n || pos[v] >= 0 {
			return fmt.Errorf("position %d: vertex %d out of range or repeated", k, v)
		}
		pos[v] = k
	}
	for k, v := range x.Val {
		if i, j := k/n, k%n; v != maxplus.Epsilon && pos[j] >= pos[i] {
			return fmt.Errorf("arc %d -> %d goes backwards", j, i)
		}
	}
	return nil
}
