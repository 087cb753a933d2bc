package lap

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/semibench/semibench/bench"
)

// Optima are the optimal costs of every problem of a batch, proven with
// no tolerance: cpu/jv's answer on integer costs, certified exactly by its
// duals (Certify). A float batch is solved on its grid (OnGrid): when every
// cost is an integer multiple of 2^-Bits, the batch of the integers
// c·2^Bits has the same optimal assignments, and its optima are the float
// optima times 2^Bits, exactly.
type Optima struct {
	// Grid is the integer batch certified: the batch itself when its costs
	// are integers, else its costs times 2^Bits.
	Grid *Batch
	// Bits is the grid's: 0 for an integer batch.
	Bits int
	// Best is each problem's certified optimum on Grid: its assignment,
	// cost and duals.
	Best []*Result
}

// CertifyOptima solves every problem of b with cpu/jv on its grid, on
// workers goroutines (GOMAXPROCS when workers < 1), and certifies each
// answer exactly by its duals. It fails on a batch with infinite costs, on
// float costs the grid cannot hold (OnGrid) and on an answer that fails
// its certificate, naming the problem.
func CertifyOptima(ctx context.Context, b *Batch, workers int) (*Optima, error) {
	g, e, err := b.OnGrid()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, err)
	}
	ref, err := JV.SolveBatch(ctx, g, workers, nil)
	if err == nil {
		err = CertifyBatch(g, ref, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("certifying the optima of %s: %w", b.Name, err)
	}
	return &Optima{Grid: g, Bits: e, Best: ref.Int}, nil
}

// OnGrid returns b as integers: b itself (bits 0) when its costs are
// integers, else the batch of its costs times 2^bits for the least bits
// that makes every cost an integer, when every such integer is within
// MaxAbsCost(b.Cols), so that cpu/jv and Certify hold it exactly. The
// error names the problem, row and column of a cost that is infinite or
// beyond that bound on the grid.
func (b *Batch) OnGrid() (g *Batch, e int, err error) {
	if err := b.CheckShape(); err != nil {
		return nil, 0, err
	}
	if len(b.Inf) > 0 {
		first := b.Inf[0].K
		return nil, 0, fmt.Errorf("%w: %d infinite costs, the first at problem %d, row %d, column %d (forbidden cells have no optimum here)",
			ErrNotFinite, len(b.Inf), first/b.Size()+1, first%b.Size()/b.Cols+1, first%b.Cols+1)
	}
	if b.IsInt() {
		return b, 0, nil
	}
	for _, x := range b.Float {
		e = max(e, gridBits(x))
	}
	g = &Batch{Name: b.Name, Count: b.Count, Rows: b.Rows, Cols: b.Cols, Int: make([]int64, len(b.Float))}
	lim := float64(MaxAbsCost(b.Cols))
	s := b.Size()
	err = ForEachProblem(context.Background(), b.Count, 0, func(k int) error {
		for i, x := range b.Float[k*s : (k+1)*s] {
			y := math.Ldexp(x, e) // exact: a power of two, x·2^e an integer
			if !(math.Abs(y) <= lim) {
				return fmt.Errorf("%w: cost %g at problem %d, row %d, column %d is %g on the grid of 2^-%d, beyond ±%d for %d columns",
					ErrOverflow, x, k+1, i/b.Cols+1, i%b.Cols+1, y, e, MaxAbsCost(b.Cols), b.Cols)
			}
			g.Int[k*s+i] = int64(y)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return g, e, nil
}

// gridBits is the least e >= 0 with x·2^e an integer (0 for an integer or
// a non-finite x, which OnGrid then refuses by its magnitude).
func gridBits(x float64) int {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	f, exp := math.Frexp(math.Abs(x)) // |x| = f·2^exp, f in [0.5, 1)
	m := uint64(math.Ldexp(f, 53))    // an integer below 2^53: |x| = m·2^(exp-53)
	return max(0, 53-exp-bits.TrailingZeros64(m))
}

// Optimum returns problem k's optimal cost in the batch's own units.
func (o *Optima) Optimum(k int) float64 { return math.Ldexp(float64(o.Best[k].Cost), -o.Bits) }

// SumBound is the largest error of a sum of r numbers whose absolute
// values add up to sumAbs, computed in floating point of unit roundoff
// unit in any order: gamma(r-1)·sumAbs with gamma(n) = n·u/(1 - n·u)
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §4.2:
// every order of summation is a tree of depth at most r-1). float32 sums
// have unit = 2^-24.
func SumBound(r int, sumAbs, unit float64) float64 {
	n := float64(r-1) * unit
	return n / (1 - n) * sumAbs
}

// Float32Unit is the unit roundoff of float32 arithmetic, 2^-24: the unit
// of a cost reported as a float32 sum (Optima.Check).
const Float32Unit = 0x1p-24

// errAnswer is what is wrong with one problem's answer: the words of the
// check's detail and the error in the batch's units (0 when not a number).
type errAnswer struct {
	what string
	by   float64
}

// Check compares each problem's answer in out with its certified optimum:
// Int answers for an integer batch, Float ones for a float batch (duals
// are not read). An answer passes when
//   - its assignment, when given, is valid and costs exactly the optimum,
//     its cost recomputed from the costs on the grid (in integers: exact;
//     the same as a float64 sum of the float costs whenever that sum is
//     exact, as it is for 2^-24 multiples below 2^29);
//   - its reported cost is the optimum: exactly for integers and for float
//     costs reported as exact sums (unit 0), and within SumBound(r,
//     Σ_i |c_{i,a(i)}|, unit) for float costs summed with unit roundoff
//     unit (Float32Unit for float32 sums).
//
// A float answer needs its assignment: a rounded cost alone cannot tell the
// optimum from an assignment a grid step above it. MaxErr is the largest
// distance of a reported or recomputed cost from its optimum.
func (o *Optima) Check(out *BatchOutput, unit float64) bench.Check {
	b := o.Grid
	float := o.Bits > 0
	chk := bench.Check{Method: "every answer = its problem's optimum found by cpu/jv and certified exactly by its integer duals"}
	if float {
		chk.Method = fmt.Sprintf("every assignment valid and its cost, recomputed exactly from the costs, = its problem's optimum found by cpu/jv on the costs times 2^%d (integers) and certified exactly by its duals; every reported cost = that optimum", o.Bits)
		if unit > 0 {
			chk.Method += fmt.Sprintf(" within the rounding bound of a sum in unit roundoff %g, (r-1)u/(1-(r-1)u) x the sum of the assigned |costs|", unit)
		} else {
			chk.Method += " exactly"
		}
	}
	switch {
	case out == nil || out.Len() == 0:
		chk.Detail = "no answers"
		return chk
	case out.Len() != b.Count:
		chk.Detail = fmt.Sprintf("%d answers for %d problems", out.Len(), b.Count)
		return chk
	case float != (out.Float != nil):
		chk.Detail = fmt.Sprintf("float answers for integer costs, or integer answers for float costs (%d grid bits)", o.Bits)
		return chk
	}
	errs := make([]*errAnswer, b.Count)
	ForEachProblem(context.Background(), b.Count, 0, func(k int) error {
		errs[k] = o.checkAnswer(k, out, unit)
		return nil
	})
	bad := 0
	for k, e := range errs {
		if e == nil {
			continue
		}
		if bad == 0 {
			chk.Detail = fmt.Sprintf("problem %d: %s", k+1, e.what)
		}
		bad++
		chk.MaxErr = max(chk.MaxErr, e.by)
	}
	if bad > 0 {
		chk.Detail = fmt.Sprintf("%d of %d answers off the optimum; first: %s", bad, b.Count, chk.Detail)
		return chk
	}
	chk.OK = true
	chk.Detail = fmt.Sprintf("%d answers, every one optimal", b.Count)
	return chk
}

// checkAnswer returns what is wrong with problem k's answer in out, or nil.
func (o *Optima) checkAnswer(k int, out *BatchOutput, unit float64) *errAnswer {
	opt := o.Best[k].Cost
	var a []int
	if out.Int != nil {
		r := out.Int[k]
		if r == nil {
			return &errAnswer{what: "no answer"}
		}
		if r.Cost != opt {
			return &errAnswer{fmt.Sprintf("cost %d, certified optimum %d", r.Cost, opt), math.Abs(float64(r.Cost - opt))}
		}
		a = r.Assignment
	} else {
		r := out.Float[k]
		if r == nil || r.Assignment == nil {
			return &errAnswer{what: "no assignment (a float answer is checked by its assignment's exact cost)"}
		}
		a = r.Assignment
	}
	if a == nil {
		return nil
	}
	if err := checkAssignment(o.Grid.Rows, o.Grid.Cols, a); err != nil {
		return &errAnswer{what: "assignment: " + err.Error()}
	}
	m := o.Grid.Matrix(k)
	if c := m.CostOf(a); c != opt {
		return &errAnswer{fmt.Sprintf("the assignment costs %s, certified optimum %s", o.text(c), o.text(opt)), math.Ldexp(math.Abs(float64(c-opt)), -o.Bits)}
	}
	if out.Float == nil {
		return nil
	}
	got, want := out.Float[k].Cost, o.Optimum(k)
	var sumAbs int64
	for i, j := range a {
		sumAbs += absInt(m.C[i*m.Cols+j])
	}
	bound := SumBound(len(a), math.Ldexp(float64(sumAbs), -o.Bits), unit)
	if d := math.Abs(got - want); !(d <= bound) {
		what := fmt.Sprintf("reported cost %s, certified optimum %s", strconv.FormatFloat(got, 'g', -1, 64), o.text(opt))
		if unit > 0 {
			what += fmt.Sprintf(" (%g apart, beyond the rounding bound %g)", d, bound)
		}
		return &errAnswer{what, d}
	}
	return nil
}

// text renders a cost on the grid in the batch's units, exactly.
func (o *Optima) text(c int64) string {
	if o.Bits == 0 {
		return strconv.FormatInt(c, 10)
	}
	return strconv.FormatFloat(math.Ldexp(float64(c), -o.Bits), 'g', -1, 64)
}

func absInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
