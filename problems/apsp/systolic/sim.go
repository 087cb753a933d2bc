package systolic

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// Design selects the array: GJE0 (one register per connection) or GJE1
// (vertical connections doubled, section 6).
type Design int

// The designs.
const (
	GJE0 Design = iota
	GJE1
)

// String returns "GJE0" or "GJE1".
func (d Design) String() string {
	if d == GJE1 {
		return "GJE1"
	}
	return "GJE0"
}

// Period returns the steps between two matrices on one track: 6n for GJE0
// (c_11 of the next matrix three steps after c_nn of the previous has left
// the bottom corner for the second time) and 3n for GJE1.
func (d Design) Period(n int) int {
	if d == GJE1 {
		return 3 * n
	}
	return 6 * n
}

// Ops are the data operations of the computing processors (Fig. 2).
type Ops[T any] struct {
	Zero T
	A    func(c, a, b T) T    // type A: c' = c ⊕ a⊗b
	BI   func(a, b T) T       // type B_I: b' = a⊗b (c := a c in the inverse)
	BO   func(c, b T) T       // type B_O: c' = c⊗b (c := -c b in the inverse)
	C    func(c T) (T, error) // type C: c' = c*   (c := 1/c in the inverse)
}

// SemiringOps returns the operations of sGJE in the semiring s.
func SemiringOps[T any, S semiring.Semiring[T]](s S) Ops[T] {
	return Ops[T]{
		Zero: s.Zero(),
		A:    func(c, a, b T) T { return s.Plus(c, s.Times(a, b)) },
		BI:   func(a, b T) T { return s.Times(a, b) },
		BO:   func(c, b T) T { return s.Times(c, b) },
		C:    s.Star,
	}
}

// ErrSingular is wrapped by the error of InverseOps' C when a pivot is 0.
var ErrSingular = errors.New("singular pivot")

// InverseOps returns the direct variant of section 4 for real matrices:
// operations A, B_I (c := a c), B_O (c := -c b) and C” (c := 1/c), so the
// array computes A⁻¹ instead of (I - A)⁻¹.
func InverseOps() Ops[float64] {
	return Ops[float64]{
		A:  func(c, a, b float64) float64 { return c + float64(a*b) },
		BI: func(a, b float64) float64 { return float64(a * b) },
		BO: func(c, b float64) float64 { return -float64(c * b) },
		C: func(c float64) (float64, error) {
			if c == 0 {
				return 0, ErrSingular
			}
			return 1 / c, nil
		},
	}
}

// Config describes a simulation.
type Config struct {
	Design Design
	// Tracks is the number of tracks used (1 to 3); matrix m of the stream
	// goes on track m mod Tracks, its c_11 entering at step
	// track + (m div Tracks)·Period.
	Tracks int
	// Snapshot, when positive, asks for a picture of the array at that
	// step (Run.Picture).
	Snapshot int
	// Window, when its length is positive, is the range of steps
	// [Window[0], Window[0]+Window[1]) over which Run.WindowOps counts the
	// operations, for the utilization.
	Window [2]int
	// Starts, when not nil, gives the step at which c_11 of each matrix is
	// put on its input line (one per matrix, in any order); Tracks and the
	// design's period are then not used. This is how a schedule found by
	// search (SearchSchedule) or a stream of matrices of different orders
	// (GJE1 with m < n) is fed.
	Starts []int
	// Trace asks for Run.Events: every computation, with its step and
	// processor (for the folded wedge and the unidirectional array).
	Trace bool
	// Occupancy asks for Run.Occupancy: which registers hold a datum at
	// which step (for the period and track search).
	Occupancy bool
}

// Event is one computation of the array: at step T processor P(P, Q)
// changed the value of element (I, J) (1-based) of matrix M.
type Event struct {
	T, P, Q, M, I, J int
}

// reg is one register: a data element, its value and its flag (how often
// it has been reflected at the top border, 0..2). id < 0 marks an empty
// register, which in the paper holds the zero.
type reg[T any] struct {
	v   T
	id  int32
	cnt int8
}

// Run is the result of a simulation.
type Run[T any] struct {
	N, Matrices int
	// Sizes[m] is the order of matrix m (at most N; GJE1 with m < n).
	Sizes      []int
	Design     Design
	Tracks     int
	Processors int
	// Steps is the number of steps simulated: the last output's step.
	Steps int
	// In[m] is the step at which c_11 of matrix m was put on its input line.
	In []int
	// Out[m][i*s+j] is the step at which element (i, j), 0-based, of
	// matrix m (order s = Sizes[m]) left the array; Result[m] holds the
	// values.
	Out    [][]int
	Result [][]T
	// ActiveNodes[m][i*s+j] is the number of computations that changed
	// element (i, j) of matrix m: the paper's "active nodes" along its path
	// (Fig. 3: exactly n of them).
	ActiveNodes [][]int
	// Events lists every computation (Config.Trace).
	Events []Event
	// Occupancy[r] is a bit set over the steps (bit t of word t/64) of the
	// steps at which register r holds a datum (Config.Occupancy). The
	// registers: the upward ones (lanes per processor), then the
	// down-right, the down-left and the input line of every processor.
	Occupancy [][]uint64
	// Active[t] is the number of processors that computed at step t.
	Active []int
	// Ops is the number of computations (sGJE assignments): n³ per matrix.
	Ops       int64
	WindowOps int64
	// Conflicts counts events the design rules out: two data wanting one
	// register, a and b meeting without a c, a flag mismatch, a datum
	// leaving the array sideways. Zero for a correct geometry.
	Conflicts int
	// FirstConflict describes the first of them.
	FirstConflict string
	// Window is Config.Window.
	Window [2]int
	// Elapsed is the wall time of the simulation proper.
	Elapsed time.Duration
	// Picture is the array at Config.Snapshot, as text; PictureSVG the same
	// as an SVG drawing.
	Picture, PictureSVG string
}

// C11Out returns, for matrix m, the steps from c_11's input to its exit
// (the paper: 4n+1).
func (r *Run[T]) C11Out(m int) int { return r.Out[m][0] - r.In[m] }

// CnnOut returns, for matrix m, the steps from c_11's input to c_nn's exit
// (the paper: 7n-2).
func (r *Run[T]) CnnOut(m int) int { return r.Out[m][len(r.Out[m])-1] - r.In[m] }

// MaxActive returns the largest number of processors computing in one step.
func (r *Run[T]) MaxActive() int {
	best := 0
	for _, a := range r.Active {
		best = max(best, a)
	}
	return best
}

// Utilization returns the operations performed in the window divided by
// what the n² computing processors could perform in it: the paper's
// processor utilization (one half for GJE0 on three tracks, one for GJE1).
func (r *Run[T]) Utilization() float64 {
	if r.Window[1] <= 0 {
		return 0
	}
	return float64(r.WindowOps) / (float64(r.N) * float64(r.N) * float64(r.Window[1]))
}

// StepsPerSecond returns the simulator's speed.
func (r *Run[T]) StepsPerSecond() float64 {
	return float64(r.Steps) / r.Elapsed.Seconds()
}

// SteadyState returns, for a stream on three tracks, how many matrices per
// track to feed and the window of one period (steps [w0, w0+period)) in
// which the stream is periodic: every matrix that computes in the window
// is present and complete, so the window holds exactly three matrices'
// worth of operations.
func SteadyState(n int, d Design) (perTrack int, window [2]int) {
	p := d.Period(n)
	w0 := p * ((7*n + p - 1) / p)
	return w0/p + 2, [2]int{w0, p}
}

type inputEvent struct {
	proc int
	id   int32
}

// Simulate runs the n×n matrices mats (row-major, mats[m][i*n+j] the
// weight of the arc i+1 -> j+1) through the array, step by step, and
// returns their closures as they leave the array with the statistics. An
// undefined star (or, for InverseOps, a zero pivot) stops it with an error
// naming the matrix and the pivot.
func Simulate[T any](ctx context.Context, n int, ops Ops[T], mats [][]T, cfg Config) (*Run[T], error) {
	arr, err := NewArray(n)
	if err != nil {
		return nil, err
	}
	if cfg.Starts == nil && (cfg.Tracks < 1 || cfg.Tracks > 3) {
		return nil, fmt.Errorf("systolic: %d tracks, want 1 to 3", cfg.Tracks)
	}
	if cfg.Starts != nil && len(cfg.Starts) != len(mats) {
		return nil, fmt.Errorf("systolic: %d start steps for %d matrices", len(cfg.Starts), len(mats))
	}
	sizes := make([]int, len(mats))
	for m, x := range mats {
		sizes[m] = order(len(x))
		if sizes[m] < 1 || sizes[m] > n {
			return nil, fmt.Errorf("systolic: matrix %d has %d elements, want m² for an order m from 1 to %d", m, len(x), n)
		}
	}
	s := n + 1
	nn := n * n
	period := cfg.Design.Period(n)
	r := &Run[T]{N: n, Matrices: len(mats), Sizes: sizes, Design: cfg.Design, Tracks: cfg.Tracks, Processors: arr.Processors(),
		Window: cfg.Window, In: make([]int, len(mats)), Out: make([][]int, len(mats)), Result: make([][]T, len(mats)),
		ActiveNodes: make([][]int, len(mats))}
	remaining := 0
	// The input schedule: element (i, j) of matrix m is put on its line at
	// In[m] + EntryStep and handled by its entry processor one step later.
	events := map[int][]inputEvent{}
	last := 0
	for m := range mats {
		if cfg.Starts != nil {
			r.In[m] = cfg.Starts[m]
		} else {
			r.In[m] = m%cfg.Tracks + (m/cfg.Tracks)*period
		}
		sz := sizes[m]
		r.Out[m] = make([]int, sz*sz)
		r.Result[m] = make([]T, sz*sz)
		r.ActiveNodes[m] = make([]int, sz*sz)
		remaining += sz * sz
		for i := 1; i <= sz; i++ {
			for j := 1; j <= sz; j++ {
				t := r.In[m] + EntryStep(i, j) + 1
				p, q := EntryProcessor(i, j)
				events[t] = append(events[t], inputEvent{proc: p*s + q, id: int32(m*nn + (i-1)*n + (j - 1))})
				last = max(last, t)
			}
		}
	}
	lanes := 1
	if cfg.Design == GJE1 {
		lanes = 2
	}
	P := s * s
	type state struct {
		up     []reg[T] // lanes registers per processor: its upward output(s)
		dr, dl []reg[T] // down-right and down-left outputs
	}
	cur := state{up: make([]reg[T], P*lanes), dr: make([]reg[T], P), dl: make([]reg[T], P)}
	next := state{up: make([]reg[T], P*lanes), dr: make([]reg[T], P), dl: make([]reg[T], P)}
	empty := reg[T]{v: ops.Zero, id: -1}
	fill := func(st *state) {
		for i := range st.up {
			st.up[i] = empty
		}
		for i := range st.dr {
			st.dr[i] = empty
			st.dl[i] = empty
		}
	}
	fill(&cur)
	fill(&next)
	conflict := func(t, p, q int, format string, args ...any) {
		if r.Conflicts == 0 {
			r.FirstConflict = fmt.Sprintf("step %d, P(%d,%d) %v: %s", t, p, q, arr.Kind(p, q), fmt.Sprintf(format, args...))
		}
		r.Conflicts++
	}
	laneOf := func(c reg[T]) int {
		if lanes == 2 && c.cnt == 2 {
			return 1
		}
		return 0
	}
	// sendUp puts c on processor idx's upward output, in its lane.
	sendUp := func(t, p, q, idx int, c reg[T]) {
		l := laneOf(c)
		if next.up[idx*lanes+l].id >= 0 {
			conflict(t, p, q, "two data for one upward register")
			return
		}
		next.up[idx*lanes+l] = c
	}
	// elem returns matrix m and the element's index in Out[m] of a datum.
	elem := func(id int32) (m, e int) {
		m, e = int(id)/nn, int(id)%nn
		return m, (e/n)*sizes[m] + e%n
	}
	output := func(t int, c reg[T]) {
		m, e := elem(c.id)
		r.Out[m][e] = t
		r.Result[m][e] = c.v
		remaining--
	}
	// did records a computation changing datum id at P(p, q), step t.
	did := func(t, p, q int, id int32) {
		m, e := elem(id)
		r.ActiveNodes[m][e]++
		r.Ops++
		if t >= cfg.Window[0] && t < cfg.Window[0]+cfg.Window[1] {
			r.WindowOps++
		}
		if cfg.Trace {
			sz := sizes[m]
			r.Events = append(r.Events, Event{T: t, P: p, Q: q, M: m, I: e/sz + 1, J: e%sz + 1})
		}
	}
	if cfg.Occupancy {
		r.Occupancy = make([][]uint64, P*(lanes+3))
	}
	occupy := func(reg, t int) {
		o := r.Occupancy[reg]
		for len(o) <= t/64 {
			o = append(o, 0)
		}
		o[t/64] |= 1 << (t % 64)
		r.Occupancy[reg] = o
	}
	var below [2]reg[T]
	inputAt := make([]int32, P)
	for i := range inputAt {
		inputAt[i] = -1
	}
	start := time.Now()
	t := 0
	for remaining > 0 {
		t++
		if t%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if t > last+8*n+8 {
			return nil, fmt.Errorf("systolic: %d elements never left the array (step %d; first conflict: %s)", remaining, t, r.FirstConflict)
		}
		active := 0
		in := events[t]
		for _, ev := range in {
			if inputAt[ev.proc] >= 0 {
				return nil, fmt.Errorf("systolic: two inputs for one line at step %d", t)
			}
			inputAt[ev.proc] = ev.id
		}
		for idx := range next.up {
			next.up[idx] = empty
		}
		for idx := range next.dr {
			next.dr[idx] = empty
			next.dl[idx] = empty
		}
		for p := 0; p <= n; p++ {
			for q := 0; q <= n; q++ {
				idx := p*s + q
				kind := arr.kinds[idx]
				// Inputs: from below (the processor below, or the input line),
				// from the top left (moving down-right), from the top right
				// (moving down-left).
				nb := 0
				if p > 0 && q > 0 {
					for l := 0; l < lanes; l++ {
						if c := cur.up[(idx-s-1)*lanes+l]; c.id >= 0 {
							below[nb] = c
							nb++
						}
					}
				}
				input := empty
				if id := inputAt[idx]; id >= 0 {
					m, e := elem(id)
					input = reg[T]{v: mats[m][e], id: id}
				}
				a, b := empty, empty
				if q < n {
					a = cur.dr[idx+1]
				}
				if p < n {
					b = cur.dl[idx+s]
				}
				switch kind {
				case A:
					if a.id >= 0 && b.id >= 0 {
						want := a.cnt + b.cnt - 2
						hit := false
						for x := 0; x < nb; x++ {
							if below[x].cnt == want {
								below[x].v = ops.A(below[x].v, a.v, b.v)
								did(t, p, q, below[x].id)
								hit = true
								break
							}
						}
						if hit {
							active++
						} else {
							conflict(t, p, q, "a (flag %d) and b (flag %d) meet without a c of flag %d", a.cnt, b.cnt, want)
						}
					}
					for x := 0; x < nb; x++ {
						sendUp(t, p, q, idx, below[x])
					}
					next.dr[idx] = a
					next.dl[idx] = b
				case BI:
					if b.id >= 0 {
						if a.id < 0 {
							conflict(t, p, q, "b arrives at the bottom-left edge without a diagonal element a")
						} else {
							b.v = ops.BI(a.v, b.v)
							active++
							did(t, p, q, b.id)
						}
						sendUp(t, p, q, idx, b)
					}
					if input.id >= 0 {
						sendUp(t, p, q, idx, input)
					}
					next.dr[idx] = a
				case DI:
					if a.id >= 0 {
						sendUp(t, p, q, idx, a)
					}
					if input.id >= 0 {
						sendUp(t, p, q, idx, input)
					}
					if b.id >= 0 {
						if p == 0 {
							conflict(t, p, q, "a datum leaves the array down-left")
						} else {
							next.dl[idx] = b
						}
					}
				case BO:
					for x := 0; x < nb; x++ {
						c := below[x]
						if c.cnt == 2 {
							output(t, c)
							continue
						}
						if b.id < 0 {
							conflict(t, p, q, "c (flag %d) reflected at the top-left edge without a diagonal element b", c.cnt)
						} else {
							c.v = ops.BO(c.v, b.v)
							active++
							did(t, p, q, c.id)
						}
						c.cnt++
						if next.dr[idx].id >= 0 {
							conflict(t, p, q, "two data for one down-right register")
						}
						next.dr[idx] = c
					}
					next.dl[idx] = b
				case DO:
					if q == 0 && input.id >= 0 {
						nb = 1
						below[0] = input
					}
					for x := 0; x < nb; x++ {
						c := below[x]
						if c.cnt == 2 {
							output(t, c)
							continue
						}
						c.cnt++
						if next.dl[idx].id >= 0 {
							conflict(t, p, q, "two data for one down-left register")
						}
						next.dl[idx] = c
					}
					if a.id >= 0 {
						if q == 0 {
							conflict(t, p, q, "a datum leaves the array down-right")
						} else {
							next.dr[idx] = a
						}
					}
				case C:
					for x := 0; x < nb; x++ {
						c := below[x]
						switch c.cnt {
						case 2:
							output(t, c)
						case 0:
							v, err := ops.C(c.v)
							if err != nil {
								m, e := elem(c.id)
								return nil, fmt.Errorf("systolic: matrix %d, pivot (%d,%d), step %d: %w", m, e/sizes[m]+1, e%sizes[m]+1, t, err)
							}
							c.v = v
							c.cnt = 1
							active++
							did(t, p, q, c.id)
							next.dl[idx] = c
						default:
							conflict(t, p, q, "an element reaches the top corner with flag %d", c.cnt)
						}
					}
				case E:
					if b.id >= 0 {
						b.cnt++
						next.dr[idx] = b
					}
					if input.id >= 0 || a.id >= 0 {
						conflict(t, p, q, "unexpected data at the left corner")
					}
				}
			}
		}
		if cfg.Occupancy {
			for i := range next.up {
				if next.up[i].id >= 0 {
					occupy(i, t)
				}
			}
			for i := range next.dr {
				if next.dr[i].id >= 0 {
					occupy(P*lanes+i, t)
				}
				if next.dl[i].id >= 0 {
					occupy(P*(lanes+1)+i, t)
				}
			}
			for _, ev := range in {
				occupy(P*(lanes+2)+ev.proc, t)
			}
		}
		for _, ev := range in {
			inputAt[ev.proc] = -1
		}
		r.Active = append(r.Active, active)
		if t == cfg.Snapshot {
			cells := snapshot(arr, func(idx int) (ups []reg[T], dr, dl reg[T]) {
				return next.up[idx*lanes : (idx+1)*lanes], next.dr[idx], next.dl[idx]
			})
			r.Picture = textPicture(arr, t, cells)
			r.PictureSVG = svgPicture(arr, t, cells)
		}
		cur, next = next, cur
	}
	r.Elapsed = time.Since(start)
	r.Steps = t
	// Active[0] is step 1; prepend step 0 (only the input line is written).
	r.Active = append([]int{0}, r.Active...)
	return r, nil
}

// Diff compares two runs of the same matrices (e.g. cuda/systolic's
// against Simulate's) in everything they report: steps, processors,
// operations, window operations, conflicts, the active processors per
// step, and each element's output step and value (NaN equal to NaN). It
// returns "" when they agree, else the first difference.
func Diff[T comparable](got, want *Run[T]) string {
	if got.N != want.N || got.Matrices != want.Matrices || got.Steps != want.Steps || got.Processors != want.Processors ||
		got.Ops != want.Ops || got.WindowOps != want.WindowOps || got.Conflicts != want.Conflicts {
		return fmt.Sprintf("n %d, %d matrices, %d steps, %d processors, %d operations (%d in the window), %d conflicts; want %d, %d, %d, %d, %d (%d), %d",
			got.N, got.Matrices, got.Steps, got.Processors, got.Ops, got.WindowOps, got.Conflicts,
			want.N, want.Matrices, want.Steps, want.Processors, want.Ops, want.WindowOps, want.Conflicts)
	}
	if len(got.Active) != len(want.Active) {
		return fmt.Sprintf("%d active counts, want %d", len(got.Active), len(want.Active))
	}
	for t, a := range want.Active {
		if got.Active[t] != a {
			return fmt.Sprintf("step %d: %d processors active, want %d", t, got.Active[t], a)
		}
	}
	for m := range want.Out {
		if got.In[m] != want.In[m] {
			return fmt.Sprintf("matrix %d entered at step %d, want %d", m, got.In[m], want.In[m])
		}
		if len(got.Out[m]) != len(want.Out[m]) {
			return fmt.Sprintf("matrix %d has %d elements, want %d", m, len(got.Out[m]), len(want.Out[m]))
		}
		sz := order(len(want.Out[m]))
		for e, s := range want.Out[m] {
			if got.Out[m][e] != s {
				return fmt.Sprintf("matrix %d element (%d,%d) left at step %d, want %d", m, e/sz+1, e%sz+1, got.Out[m][e], s)
			}
			g, w := got.Result[m][e], want.Result[m][e]
			if g != w && (g == g || w == w) {
				return fmt.Sprintf("matrix %d element (%d,%d) = %v, want %v", m, e/sz+1, e%sz+1, g, w)
			}
		}
	}
	return ""
}

// order returns m when l = m² (m ≥ 1), else 0.
func order(l int) int {
	m := 0
	for (m+1)*(m+1) <= l {
		m++
	}
	if m*m != l {
		return 0
	}
	return m
}
