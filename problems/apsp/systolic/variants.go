package systolic

import (
	"context"
	"fmt"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// Schedule is what SearchSchedule finds for one array: the number of
// tracks and the shortest conflict-free period, each found by trying
// offsets on the simulated array's register use rather than taken from
// the paper.
type Schedule struct {
	N      int
	Design Design
	// Tracks is the largest T such that matrices entering at the steps
	// 0, 1, ..., T-1 never want one register at one step.
	Tracks int
	// Period is the smallest P ≥ Tracks such that the stream in which
	// matrix k enters at step k mod Tracks + (k div Tracks)·P never has
	// two data wanting one register at one step.
	Period int
	// Span is the number of steps one matrix occupies the array (its
	// last step); offsets of Span or more never collide.
	Span int
}

// Collides reports, for one matrix's register occupancy (Run.Occupancy of
// a single-matrix run), whether a second copy entering d steps later
// would want a register the first holds at the same step.
func Collides(occ [][]uint64, d int) bool {
	if d < 0 {
		d = -d
	}
	if d == 0 {
		return true
	}
	w, b := d/64, uint(d%64)
	for _, o := range occ {
		// (o << d) & o ≠ 0: some step t held and t+d held.
		for i := len(o) - 1; i >= w; i-- {
			s := o[i-w] << b
			if b > 0 && i-w-1 >= 0 {
				s |= o[i-w-1] >> (64 - b)
			}
			if s&o[i] != 0 {
				return true
			}
		}
	}
	return false
}

// SearchSchedule simulates one n×n matrix on the array d with register
// occupancy and finds the tracks and the period by search: tracks T = 1,
// 2, ... until matrices at steps 0..T would collide; then periods P = T,
// T+1, ... until no two matrices of the stream (k mod T + (k div T)·P)
// collide. Because the data flow does not depend on the values, two
// matrices whose registers never meet run exactly as each alone; callers
// should still confirm the schedule with a full simulation of the stream
// (Simulate with Config.Starts from Starts), as the experiment does.
func SearchSchedule(ctx context.Context, n int, d Design) (Schedule, error) {
	mat := make([]bool, n*n)
	run, err := Simulate(ctx, n, SemiringOps(semiring.Boolean{}), [][]bool{mat}, Config{Design: d, Tracks: 1, Occupancy: true})
	if err != nil {
		return Schedule{}, fmt.Errorf("systolic: schedule search n=%d %v: %w", n, d, err)
	}
	if run.Conflicts != 0 {
		return Schedule{}, fmt.Errorf("systolic: schedule search n=%d %v: a lone matrix has %d conflicts (%s)", n, d, run.Conflicts, run.FirstConflict)
	}
	span := run.Steps + 1
	bad := make([]bool, span+1)
	for off := 1; off <= span; off++ {
		bad[off] = Collides(run.Occupancy, off)
	}
	sc := Schedule{N: n, Design: d, Span: span}
	sc.Tracks = 1
	for sc.Tracks < span && !bad[sc.Tracks] {
		sc.Tracks++
	}
	// Offsets 1..Tracks-1 are free; the stream's differences are
	// j·P + δ with j ≥ 1 and |δ| < Tracks.
	for p := sc.Tracks; ; p++ {
		ok := true
		for j := 1; ok && j*p-sc.Tracks < span; j++ {
			for delta := -sc.Tracks + 1; delta < sc.Tracks; delta++ {
				if off := j*p + delta; off > 0 && off < span && bad[off] {
					ok = false
					break
				}
			}
		}
		if ok {
			sc.Period = p
			return sc, nil
		}
	}
}

// Starts returns the input steps of count matrices on the schedule.
func (s Schedule) Starts(count int) []int {
	st := make([]int, count)
	for k := range st {
		st[k] = k%s.Tracks + (k/s.Tracks)*s.Period
	}
	return st
}

// MixedStarts returns the input steps of a GJE1 stream of matrices of the
// given orders on three tracks (section 6, Fig. 11 a): matrix k goes on
// track k mod 3, and its c_11 enters 3·m steps after the c_11 of the
// previous matrix of order m on its track, the "next free place on the
// same track (i.e. three steps) after the last element of the previous
// matrix regardless of the size".
func MixedStarts(sizes []int) []int {
	next := [3]int{0, 1, 2}
	st := make([]int, len(sizes))
	for k, m := range sizes {
		st[k] = next[k%3]
		next[k%3] += 3 * m
	}
	return st
}

// Wedge is the folded array GJE\ (section 6, Fig. 12) for one m×m
// matrix, found from a traced simulation of the (m+1)×(m+1) array.
//
// Reading. "Imagine that the array is (physically) folded along the
// vertical symmetry line. There are then in general two processors on top
// of each other, or ... one processor that carries out the action of two;
// ... the processors at the folding line ... reflect the data passing
// through them." Here the fold maps P(p, q) and P(q, p) to one wedge
// processor W(max(p,q), min(p,q)); the processors with p = q are the
// folding line. The wedge is open to the right (p unbounded); an m×m
// matrix uses the part p ≤ m, the line p = q up to (m, m) programmed as
// reflecting by the signal that travels with the diagonal. The folded
// array makes exactly the unfolded array's moves, so its step count is
// the simulated (m+1)×(m+1) array's, 7m-2 by the paper; what the fold
// adds is that one wedge processor may have to act for both halves in one
// step, which MaxLoad reports (the paper does not say; its "carries out
// the action of two" allows 2).
type Wedge struct {
	M int
	// Steps is c_mm's output step after c_11's input.
	Steps int
	// Processors is the number of wedge processors of the folded
	// (m+1)×(m+1) diamond, (m+1)(m+2)/2; Used those that compute.
	Processors, Used int
	// MaxLoad is the most computations one wedge processor does in one
	// step (1 or 2).
	MaxLoad int
}

// SimulateWedge simulates an m×m matrix on the (m+1)×(m+1) array with a
// trace and folds it (Wedge).
func SimulateWedge(ctx context.Context, m int) (Wedge, error) {
	run, err := Simulate(ctx, m, SemiringOps(semiring.Boolean{}), [][]bool{make([]bool, m*m)}, Config{Tracks: 1, Trace: true})
	if err != nil {
		return Wedge{}, fmt.Errorf("systolic: wedge m=%d: %w", m, err)
	}
	if run.Conflicts != 0 {
		return Wedge{}, fmt.Errorf("systolic: wedge m=%d: %d conflicts (%s)", m, run.Conflicts, run.FirstConflict)
	}
	w := Wedge{M: m, Steps: run.CnnOut(0), Processors: (m + 1) * (m + 2) / 2}
	type key struct{ t, p, q int }
	load := map[key]int{}
	used := map[[2]int]bool{}
	for _, e := range run.Events {
		p, q := max(e.P, e.Q), min(e.P, e.Q)
		load[key{e.T, p, q}]++
		w.MaxLoad = max(w.MaxLoad, load[key{e.T, p, q}])
		used[[2]int{p, q}] = true
	}
	w.Used = len(used)
	return w, nil
}

// Unidirectional is the unidirectional hexagonal array the paper cites
// from [Rote 1984] (section 8: data flow only upwards, straight or
// diagonally; about 5n² processors; 5n-2 steps because the first and last
// n steps of GJE0, in which the matrix only travels, are gone), built from
// a traced simulation of GJE0.
//
// Reading. The report's construction is not in the paper, so this is our
// reconstruction: a datum of GJE0 at P(p, q) at step t is placed at
// U(p+t, q+t) at step t, the space-time shear that adds one upward step
// per step to every movement: up (1,1) becomes (2,2) (straight up, two
// levels), down-right (0,-1) becomes (1,0) (up-right), down-left (-1,0)
// becomes (0,1) (up-left), so every datum flows upward. The array is the
// set of U processors where a computation happens, every computation of
// GJE0 keeping its step; input and output are at the computations, and the
// steps are counted as for GJE0's 7n-2: from the step c_11 is put on its
// input line (one before its first computation) to the step the last
// computation writes its result out, i.e. last - first + 2. Each U processor is used
// at most once per matrix by construction, and the C (star) operations
// fall at a different place for each diagonal element, as the paper says.
type Unidirectional struct {
	N int
	// Steps is last - first + 2 (first and last: the steps of the first
	// and the last computation), counted as GJE0's 7n-2.
	Steps int
	// Span is last - first + 1, the steps in which computations happen:
	// the same in GJE0, whose computations the array keeps; the paper's
	// lower bound 5n-3 is on it.
	Span int
	// Processors is the number of U processors that compute.
	Processors int
	// StarPlaces is the number of distinct U processors doing the star
	// (type C) operations; n when each diagonal element has its own.
	StarPlaces int
}

// SimulateUnidirectional builds the unidirectional array from a traced
// GJE0 simulation of one n×n matrix.
func SimulateUnidirectional(ctx context.Context, n int) (Unidirectional, error) {
	run, err := Simulate(ctx, n, SemiringOps(semiring.Boolean{}), [][]bool{make([]bool, n*n)}, Config{Tracks: 1, Trace: true})
	if err != nil {
		return Unidirectional{}, fmt.Errorf("systolic: unidirectional n=%d: %w", n, err)
	}
	u := Unidirectional{N: n}
	first, last := -1, 0
	places := map[[2]int]bool{}
	stars := map[[2]int]bool{}
	for _, e := range run.Events {
		if first < 0 || e.T < first {
			first = e.T
		}
		last = max(last, e.T)
		at := [2]int{e.P + e.T, e.Q + e.T}
		places[at] = true
		if e.P == n && e.Q == n {
			stars[at] = true
		}
	}
	u.Span = last - first + 1
	u.Steps = u.Span + 1
	u.Processors = len(places)
	u.StarPlaces = len(stars)
	return u, nil
}
