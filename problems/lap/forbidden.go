package lap

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Forbidden assignments. A cost written as +inf forbids its assignment (as
// SciPy's linear_sum_assignment reads np.inf); when maximising, -inf does.
// The solvers see only finite costs: each forbidden cell gets a stand-in
// cost M larger than the spread of any assignment of the allowed cells
// (standIn), so an optimal assignment with the stand-ins uses as few
// forbidden cells as any assignment can: none when the problem is feasible.
// The answer is certified on the costs with the stand-ins, whose duals also
// certify it on the original ones (u_i + v_j <= M <= +inf); an answer that
// still uses a forbidden cell proves the problem infeasible (ErrInfeasible).

// ErrInfeasible is returned when every assignment uses a forbidden cost.
var ErrInfeasible = errors.New("infeasible: no assignment avoids the forbidden (infinite) costs")

// negateInfs returns infs with every sign flipped (the costs negated).
func negateInfs(infs []InfCell) []InfCell {
	if infs == nil {
		return nil
	}
	out := slices.Clone(infs)
	for k := range out {
		out[k].Neg = !out[k].Neg
	}
	return out
}

// forbiddenCells returns the indices of the forbidden cells of infs, whose
// signs are those of the costs as solved (negated when maximising): +inf
// forbids; -inf is refused, since a minimisation with a -inf cost has no
// optimum. where names a cell for messages; maximize words them as the
// user wrote the costs.
func forbiddenCells(name string, infs []InfCell, maximize bool, where func(k int) string) ([]int, error) {
	idx := make([]int, 0, len(infs))
	for _, c := range infs {
		if c.Neg {
			bad, forbid, goal := "-inf", "+inf", "a minimum"
			if maximize {
				bad, forbid, goal = "+inf", "-inf", "a maximum"
			}
			return nil, &ParseError{File: name, Line: c.Line, Err: fmt.Errorf("%w: %s at %s: the total has no %s with a %s cost (%s marks a forbidden assignment)",
				ErrNotFinite, bad, where(c.K), strings.TrimPrefix(goal, "a "), bad, forbid)}
		}
		idx = append(idx, c.K)
	}
	return idx, nil
}

// standIn returns the stand-in cost of a problem's forbidden cells: twice
// rows·(hi - lo) + |lo| + |hi| + 1 over its allowed costs [lo, hi], so that
// an assignment with one more forbidden cell always costs more (the factor
// two leaves float rounding a margin). forbidden holds sorted indices into
// c; a problem with no allowed cell gets 1.
func standIn[T Number](c []T, forbidden []int, rows int) T {
	lo, hi, seen := T(0), T(0), false
	next := 0
	for k, x := range c {
		if next < len(forbidden) && forbidden[next] == k {
			next++
			continue
		}
		if !seen {
			lo, hi, seen = x, x, true
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	abs := func(x T) T { return max(x, -x) }
	return 2 * (T(rows)*(hi-lo) + abs(lo) + abs(hi) + 1)
}

// withStandIns returns c with each problem's forbidden cells (sorted
// indices over all of c, problems of size cells and rows rows back to back)
// set to the problem's stand-in, in a copy; c itself when none is
// forbidden. A stand-in beyond lim is ErrOverflow, naming the problem by
// what.
func withStandIns[T Number](c []T, forbidden []int, size, rows int, lim T, what func(p int) string) ([]T, error) {
	if len(forbidden) == 0 {
		return c, nil
	}
	out := slices.Clone(c)
	for lo := 0; lo < len(forbidden); {
		p := forbidden[lo] / size
		hi := lo
		for hi < len(forbidden) && forbidden[hi]/size == p {
			hi++
		}
		local := make([]int, hi-lo)
		for n, k := range forbidden[lo:hi] {
			local[n] = k - p*size
		}
		cells := out[p*size : (p+1)*size]
		m := standIn(cells, local, rows)
		if m > lim || m != m {
			return nil, fmt.Errorf("%w: %sthe allowed costs span too wide a range to forbid assignments: a forbidden cell's stand-in cost would be %v, beyond ±%v; scale the costs down",
				ErrOverflow, what(p), m, lim)
		}
		for _, k := range local {
			cells[k] = m
		}
		lo = hi
	}
	return out, nil
}

// checkAvoids checks that assign (problem p's, its cells from p*size in
// the indexing of forbidden) uses no forbidden cell; otherwise the problem
// is infeasible, and the error says how many the best assignment uses.
func checkAvoids(forbidden []int, p, size, cols int, assign []int) error {
	if len(forbidden) == 0 {
		return nil
	}
	used, first := 0, ""
	for i, j := range assign {
		if _, ok := slices.BinarySearch(forbidden, p*size+i*cols+j); ok {
			if used == 0 {
				first = fmt.Sprintf("row %d to column %d", i+1, j+1)
			}
			used++
		}
	}
	if used == 0 {
		return nil
	}
	return fmt.Errorf("%w: the best assignment still uses %d of them (%s first), so at most %d of the %d rows can be given an allowed column",
		ErrInfeasible, used, first, len(assign)-used, len(assign))
}

// cellName names cell k of an r x c matrix, 1-based.
func cellName(cols int) func(k int) string {
	return func(k int) string { return fmt.Sprintf("row %d, column %d", k/cols+1, k%cols+1) }
}

// batchCellName names cell k of a batch of problems of size cells, 1-based.
func batchCellName(size, cols int) func(k int) string {
	return func(k int) string {
		return fmt.Sprintf("problem %d, row %d, column %d", k/size+1, k%size/cols+1, k%cols+1)
	}
}

// costLimit is the bound on |c_ij| for cols columns in type T:
// MaxAbsCost or MaxAbsFloatCost.
func costLimit[T Number](cols int) T {
	var z T
	if _, ok := any(z).(float64); ok {
		return T(MaxAbsFloatCost(cols))
	}
	return T(MaxAbsCost(cols))
}

// wrapSolveError prefixes err with the file name and the implementation,
// each unless err already names it (the CUDA solvers start their errors
// with their name; a batch solver's errors name the file).
func wrapSolveError(name, impl string, err error) error {
	msg := err.Error()
	if !strings.HasPrefix(msg, impl) {
		err = fmt.Errorf("%s: %w", impl, err)
	}
	if !strings.Contains(msg, name) {
		err = fmt.Errorf("%s: %w", name, err)
	}
	return err
}
