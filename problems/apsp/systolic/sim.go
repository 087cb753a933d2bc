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

// registers are the array's output registers at the end of a step.
type registers[T any] struct {
	up     []reg[T] // lanes registers per processor: its upward output(s)
	dr, dl []reg[T] // down-right and down-left outputs
}

// clear empties every register.
func (st *registers[T]) clear(empty reg[T]) {
	for i := range st.up {
		st.up[i] = empty
	}
	for i := range st.dr {
		st.dr[i] = empty
		st.dl[i] = empty
	}
}

// sim is one simulation in progress: the array, its registers between two
// steps, the input schedule, and the Run it fills.
type sim[T any] struct {
	arr       *Array
	n, s, nn  int // the order, s = n+1 processors a side, n²
	lanes     int // registers on a vertical connection: 1 (GJE0) or 2 (GJE1)
	ops       Ops[T]
	mats      [][]T
	cfg       Config
	r         *Run[T]
	inputs    map[int][]inputEvent // the data put on input lines, by step
	last      int                  // the last step of the input schedule
	remaining int                  // elements not yet out
	cur, next registers[T]         // read at the step, written by it
	empty     reg[T]
	inputAt   []int32 // the datum on each processor's input line, or -1
	active    int     // processors that computed in the current step
}

// Simulate runs the n×n matrices mats (row-major, mats[m][i*n+j] the
// weight of the arc i+1 -> j+1) through the array, step by step, and
// returns their closures as they leave the array with the statistics. An
// undefined star (or, for InverseOps, a zero pivot) stops it with an error
// naming the matrix and the pivot.
//
// Each step has three phases (Steps in the package documentation): the
// data due at the step are put on the input lines (feed), every processor
// reads what its neighbours wrote in the step before and acts by its type
// of Fig. 2 (sweep), and the registers written become the next step's
// inputs (latch).
func Simulate[T any](ctx context.Context, n int, ops Ops[T], mats [][]T, cfg Config) (*Run[T], error) {
	x, err := newSim(n, ops, mats, cfg)
	if err != nil {
		return nil, err
	}
	x.schedule()
	start := time.Now()
	t := 0
	for x.remaining > 0 {
		t++
		if t%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if t > x.last+8*n+8 {
			return nil, fmt.Errorf("systolic: %d elements never left the array (step %d; first conflict: %s)", x.remaining, t, x.r.FirstConflict)
		}
		in := x.inputs[t]
		if err := x.feed(t, in); err != nil {
			return nil, err
		}
		if err := x.sweep(t); err != nil {
			return nil, err
		}
		x.latch(t, in)
	}
	r := x.r
	r.Elapsed = time.Since(start)
	r.Steps = t
	// Active[0] is step 1; prepend step 0 (only the input line is written).
	r.Active = append([]int{0}, r.Active...)
	return r, nil
}

// newSim checks the configuration and the matrices' orders and sets up the
// array, its empty registers and the Run.
func newSim[T any](n int, ops Ops[T], mats [][]T, cfg Config) (*sim[T], error) {
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
	x := &sim[T]{arr: arr, n: n, s: n + 1, nn: n * n, lanes: 1, ops: ops, mats: mats, cfg: cfg,
		inputs: map[int][]inputEvent{}, empty: reg[T]{v: ops.Zero, id: -1}}
	if cfg.Design == GJE1 {
		x.lanes = 2
	}
	x.r = &Run[T]{N: n, Matrices: len(mats), Sizes: sizes, Design: cfg.Design, Tracks: cfg.Tracks, Processors: arr.Processors(),
		Window: cfg.Window, In: make([]int, len(mats)), Out: make([][]int, len(mats)), Result: make([][]T, len(mats)),
		ActiveNodes: make([][]int, len(mats))}
	P := x.s * x.s
	for _, st := range []*registers[T]{&x.cur, &x.next} {
		*st = registers[T]{up: make([]reg[T], P*x.lanes), dr: make([]reg[T], P), dl: make([]reg[T], P)}
		st.clear(x.empty)
	}
	if cfg.Occupancy {
		x.r.Occupancy = make([][]uint64, P*(x.lanes+3))
	}
	x.inputAt = make([]int32, P)
	for i := range x.inputAt {
		x.inputAt[i] = -1
	}
	return x, nil
}

// schedule is the input schedule (Fig. 1 on the tracks, or Config.Starts):
// element (i, j) of matrix m is put on its line at In[m] + EntryStep and
// handled by its entry processor one step later.
func (x *sim[T]) schedule() {
	r := x.r
	for m := range x.mats {
		if x.cfg.Starts != nil {
			r.In[m] = x.cfg.Starts[m]
		} else {
			r.In[m] = m%x.cfg.Tracks + (m/x.cfg.Tracks)*x.cfg.Design.Period(x.n)
		}
		sz := r.Sizes[m]
		r.Out[m] = make([]int, sz*sz)
		r.Result[m] = make([]T, sz*sz)
		r.ActiveNodes[m] = make([]int, sz*sz)
		x.remaining += sz * sz
		for i := 1; i <= sz; i++ {
			for j := 1; j <= sz; j++ {
				t := r.In[m] + EntryStep(i, j) + 1
				p, q := EntryProcessor(i, j)
				x.inputs[t] = append(x.inputs[t], inputEvent{proc: p*x.s + q, id: int32(m*x.nn + (i-1)*x.n + (j - 1))})
				x.last = max(x.last, t)
			}
		}
	}
}

// feed puts the data due at step t on their input lines and empties the
// registers the step writes.
func (x *sim[T]) feed(t int, in []inputEvent) error {
	for _, ev := range in {
		if x.inputAt[ev.proc] >= 0 {
			return fmt.Errorf("systolic: two inputs for one line at step %d", t)
		}
		x.inputAt[ev.proc] = ev.id
	}
	x.next.clear(x.empty)
	x.active = 0
	return nil
}

// sweep runs every processor for step t: each reads its inputs from below
// (the processor below, or the input line), from the top left (moving
// down-right) and from the top right (moving down-left), and acts by its
// type (Fig. 2).
func (x *sim[T]) sweep(t int) error {
	n, s := x.n, x.s
	var below [2]reg[T]
	for p := 0; p <= n; p++ {
		for q := 0; q <= n; q++ {
			idx := p*s + q
			nb := 0
			if p > 0 && q > 0 {
				for l := 0; l < x.lanes; l++ {
					if c := x.cur.up[(idx-s-1)*x.lanes+l]; c.id >= 0 {
						below[nb] = c
						nb++
					}
				}
			}
			input := x.empty
			if id := x.inputAt[idx]; id >= 0 {
				m, e := x.elem(id)
				input = reg[T]{v: x.mats[m][e], id: id}
			}
			a, b := x.empty, x.empty
			if q < n {
				a = x.cur.dr[idx+1]
			}
			if p < n {
				b = x.cur.dl[idx+s]
			}
			pr := proc{t: t, p: p, q: q, idx: idx}
			switch x.arr.kinds[idx] {
			case A:
				x.inner(pr, below[:nb], a, b)
			case BI:
				x.inputBorder(pr, input, a, b)
			case DI:
				x.inputDelay(pr, input, a, b)
			case BO:
				x.outputBorder(pr, below[:nb], b)
			case DO:
				if q == 0 && input.id >= 0 {
					nb = 1
					below[0] = input
				}
				x.outputDelay(pr, below[:nb], a)
			case C:
				if err := x.star(pr, below[:nb]); err != nil {
					return err
				}
			case E:
				x.corner(pr, input, a, b)
			}
		}
	}
	return nil
}

// proc is the processor P(p, q) (register index idx) at step t.
type proc struct{ t, p, q, idx int }

// inner is type A: the c from below whose flag matches a's and b's
// becomes c ⊕ a⊗b; every c goes on up, a down-right, b down-left.
func (x *sim[T]) inner(pr proc, below []reg[T], a, b reg[T]) {
	if a.id >= 0 && b.id >= 0 {
		want := a.cnt + b.cnt - 2
		hit := false
		for i := range below {
			if below[i].cnt == want {
				below[i].v = x.ops.A(below[i].v, a.v, b.v)
				x.did(pr, below[i].id)
				hit = true
				break
			}
		}
		if hit {
			x.active++
		} else {
			x.conflict(pr, "a (flag %d) and b (flag %d) meet without a c of flag %d", a.cnt, b.cnt, want)
		}
	}
	for _, c := range below {
		x.sendUp(pr, c)
	}
	x.next.dr[pr.idx] = a
	x.next.dl[pr.idx] = b
}

// inputBorder is type B_I (bottom-left edge): b arriving down-left becomes
// a⊗b and is reflected up; the input goes up; a goes on down-right.
func (x *sim[T]) inputBorder(pr proc, input, a, b reg[T]) {
	if b.id >= 0 {
		if a.id < 0 {
			x.conflict(pr, "b arrives at the bottom-left edge without a diagonal element a")
		} else {
			b.v = x.ops.BI(a.v, b.v)
			x.active++
			x.did(pr, b.id)
		}
		x.sendUp(pr, b)
	}
	if input.id >= 0 {
		x.sendUp(pr, input)
	}
	x.next.dr[pr.idx] = a
}

// inputDelay is type D_I (bottom-right edge and bottom corner): a and the
// input are sent up; b goes on down-left.
func (x *sim[T]) inputDelay(pr proc, input, a, b reg[T]) {
	if a.id >= 0 {
		x.sendUp(pr, a)
	}
	if input.id >= 0 {
		x.sendUp(pr, input)
	}
	if b.id >= 0 {
		if pr.p == 0 {
			x.conflict(pr, "a datum leaves the array down-left")
		} else {
			x.next.dl[pr.idx] = b
		}
	}
}

// outputBorder is type B_O (top-left edge): a c of flag 2 leaves; one of
// flag 0 or 1 becomes c⊗b and is reflected down-right; b goes on
// down-left.
func (x *sim[T]) outputBorder(pr proc, below []reg[T], b reg[T]) {
	for _, c := range below {
		if c.cnt == 2 {
			x.output(pr.t, c)
			continue
		}
		if b.id < 0 {
			x.conflict(pr, "c (flag %d) reflected at the top-left edge without a diagonal element b", c.cnt)
		} else {
			c.v = x.ops.BO(c.v, b.v)
			x.active++
			x.did(pr, c.id)
		}
		c.cnt++
		if x.next.dr[pr.idx].id >= 0 {
			x.conflict(pr, "two data for one down-right register")
		}
		x.next.dr[pr.idx] = c
	}
	x.next.dl[pr.idx] = b
}

// outputDelay is type D_O (top-right edge and right corner): a c of flag
// 2 leaves, one of flag 0 or 1 is reflected down-left; a goes on
// down-right.
func (x *sim[T]) outputDelay(pr proc, below []reg[T], a reg[T]) {
	for _, c := range below {
		if c.cnt == 2 {
			x.output(pr.t, c)
			continue
		}
		c.cnt++
		if x.next.dl[pr.idx].id >= 0 {
			x.conflict(pr, "two data for one down-left register")
		}
		x.next.dl[pr.idx] = c
	}
	if a.id >= 0 {
		if pr.q == 0 {
			x.conflict(pr, "a datum leaves the array down-right")
		} else {
			x.next.dr[pr.idx] = a
		}
	}
}

// star is type C (top corner): a c of flag 0 becomes c* and is reflected
// down-left; one of flag 2 leaves.
func (x *sim[T]) star(pr proc, below []reg[T]) error {
	for _, c := range below {
		switch c.cnt {
		case 2:
			x.output(pr.t, c)
		case 0:
			v, err := x.ops.C(c.v)
			if err != nil {
				m, e := x.elem(c.id)
				sz := x.r.Sizes[m]
				return fmt.Errorf("systolic: matrix %d, pivot (%d,%d), step %d: %w", m, e/sz+1, e%sz+1, pr.t, err)
			}
			c.v = v
			c.cnt = 1
			x.active++
			x.did(pr, c.id)
			x.next.dl[pr.idx] = c
		default:
			x.conflict(pr, "an element reaches the top corner with flag %d", c.cnt)
		}
	}
	return nil
}

// corner is type E (left corner): b arriving down-left turns down-right,
// its flag counting the top reflection of the merged turn.
func (x *sim[T]) corner(pr proc, input, a, b reg[T]) {
	if b.id >= 0 {
		b.cnt++
		x.next.dr[pr.idx] = b
	}
	if input.id >= 0 || a.id >= 0 {
		x.conflict(pr, "unexpected data at the left corner")
	}
}

// latch ends step t: it records the register occupancy, empties the input
// lines, counts the active processors, draws the snapshot, and makes the
// registers written the ones the next step reads.
func (x *sim[T]) latch(t int, in []inputEvent) {
	r, P, lanes := x.r, x.s*x.s, x.lanes
	if x.cfg.Occupancy {
		for i := range x.next.up {
			if x.next.up[i].id >= 0 {
				x.occupy(i, t)
			}
		}
		for i := range x.next.dr {
			if x.next.dr[i].id >= 0 {
				x.occupy(P*lanes+i, t)
			}
			if x.next.dl[i].id >= 0 {
				x.occupy(P*(lanes+1)+i, t)
			}
		}
		for _, ev := range in {
			x.occupy(P*(lanes+2)+ev.proc, t)
		}
	}
	for _, ev := range in {
		x.inputAt[ev.proc] = -1
	}
	r.Active = append(r.Active, x.active)
	if t == x.cfg.Snapshot {
		next := x.next
		cells := snapshot(x.arr, func(idx int) (ups []reg[T], dr, dl reg[T]) {
			return next.up[idx*lanes : (idx+1)*lanes], next.dr[idx], next.dl[idx]
		})
		r.Picture = textPicture(x.arr, t, cells)
		r.PictureSVG = svgPicture(x.arr, t, cells)
	}
	x.cur, x.next = x.next, x.cur
}

// conflict counts an event the design rules out, keeping the first.
func (x *sim[T]) conflict(pr proc, format string, args ...any) {
	r := x.r
	if r.Conflicts == 0 {
		r.FirstConflict = fmt.Sprintf("step %d, P(%d,%d) %v: %s", pr.t, pr.p, pr.q, x.arr.Kind(pr.p, pr.q), fmt.Sprintf(format, args...))
	}
	r.Conflicts++
}

// sendUp puts c on the processor's upward output, in its lane (GJE1:
// flag 2 in the second register).
func (x *sim[T]) sendUp(pr proc, c reg[T]) {
	l := 0
	if x.lanes == 2 && c.cnt == 2 {
		l = 1
	}
	if x.next.up[pr.idx*x.lanes+l].id >= 0 {
		x.conflict(pr, "two data for one upward register")
		return
	}
	x.next.up[pr.idx*x.lanes+l] = c
}

// elem returns matrix m and the element's index in Out[m] of a datum.
func (x *sim[T]) elem(id int32) (m, e int) {
	m, e = int(id)/x.nn, int(id)%x.nn
	return m, (e/x.n)*x.r.Sizes[m] + e%x.n
}

// output records a datum leaving the array at step t.
func (x *sim[T]) output(t int, c reg[T]) {
	m, e := x.elem(c.id)
	x.r.Out[m][e] = t
	x.r.Result[m][e] = c.v
	x.remaining--
}

// did records a computation changing datum id.
func (x *sim[T]) did(pr proc, id int32) {
	r := x.r
	m, e := x.elem(id)
	r.ActiveNodes[m][e]++
	r.Ops++
	if pr.t >= x.cfg.Window[0] && pr.t < x.cfg.Window[0]+x.cfg.Window[1] {
		r.WindowOps++
	}
	if x.cfg.Trace {
		sz := r.Sizes[m]
		r.Events = append(r.Events, Event{T: pr.t, P: pr.p, Q: pr.q, M: m, I: e/sz + 1, J: e%sz + 1})
	}
}

// occupy marks register reg as holding a datum at step t.
func (x *sim[T]) occupy(reg, t int) {
	o := x.r.Occupancy[reg]
	for len(o) <= t/64 {
		o = append(o, 0)
	}
	o[t/64] |= 1 << (t % 64)
	x.r.Occupancy[reg] = o
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
