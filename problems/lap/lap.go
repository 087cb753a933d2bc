package lap

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/semibench/semibench/bench"
)

// Errors wrapped by the solvers, for errors.Is.
var (
	ErrShape         = errors.New("cost matrix shape")
	ErrOverflow      = errors.New("costs too large: sums could overflow")
	ErrNeedsIntegers = errors.New("this implementation needs integer costs")
	ErrNotFinite     = errors.New("cost is not a finite number")
	// ErrRange marks a cost an implementation's own number type cannot
	// hold (int32 on the GPU): a limit of that implementation, not of the
	// problem; another implementation may solve it.
	ErrRange = errors.New("cost beyond the implementation's number type")
)

// Matrix is a dense r x c integer cost matrix, row-major, r <= c.
type Matrix struct {
	Rows, Cols int
	C          []int64 // C[i*Cols+j] is the cost of assigning row i to column j
}

// FloatMatrix is a dense r x c float64 cost matrix, row-major, r <= c.
type FloatMatrix struct {
	Rows, Cols int
	C          []float64
}

// Result is a solution on integer costs.
type Result struct {
	// Assignment[i] is the column of row i.
	Assignment []int
	Cost       int64
	// U and V are the duals (row and column potentials) with
	// u_i + v_j <= c_ij; nil when the algorithm has none.
	U, V []int64
}

// FloatResult is a solution on float64 costs.
type FloatResult struct {
	Assignment []int
	Cost       float64
	U, V       []float64
}

// Impl is one named algorithm. Each backend package (impls/cpu/lap,
// impls/cuda/lap) lists its own as Impls(); package impls joins them into
// the registry impls.LAP.
type Impl struct {
	// Name is the implementation's name in result files and on the
	// command line: "cpu/jv", "cuda/fast", ...
	Name string
	// Solve solves an integer instance; rec (may be nil) receives phases.
	Solve func(ctx context.Context, m *Matrix, rec *bench.Recorder) (*Result, error)
	// SolveFloat solves a float64 instance; nil when the algorithm needs
	// integer costs.
	SolveFloat func(ctx context.Context, m *FloatMatrix, rec *bench.Recorder) (*FloatResult, error)
	// SolveBatch solves every problem of a batch, integer or float; nil
	// when the implementation has no batch solver. workers bounds the CPU
	// goroutines (0: GOMAXPROCS).
	SolveBatch func(ctx context.Context, b *Batch, workers int, rec *bench.Recorder) (*BatchOutput, error)
}

// MaxAbsCost is the largest |c_ij| accepted for an r x c problem: it keeps
// (c+2)^2 · 8 · |c_ij| within int64, enough for every sum, dual and the
// auction's benefits scaled by c+1 and its prices.
func MaxAbsCost(cols int) int64 {
	k := int64(cols) + 2
	return math.MaxInt64 / 8 / k / k
}

// MaxAbsFloatCost is the largest |c_ij| accepted for an r x c problem of
// float64 costs: MaxAbsCost's bound on float64's range, so that no sum of
// costs or duals can overflow to an infinite cost.
func MaxAbsFloatCost(cols int) float64 {
	k := float64(cols) + 2
	return math.MaxFloat64 / 8 / k / k
}

// CheckShape checks the shape alone (Validate without the scan of the
// costs), for callers that bound the costs in a scan of their own.
func (m *Matrix) CheckShape() error { return checkShape(m.Rows, m.Cols, len(m.C)) }

// Validate checks the shape and the magnitude of the costs.
func (m *Matrix) Validate() error {
	if err := checkShape(m.Rows, m.Cols, len(m.C)); err != nil {
		return err
	}
	lim := MaxAbsCost(m.Cols)
	for k, x := range m.C {
		if x > lim || x < -lim {
			return fmt.Errorf("%w: cost %d at row %d, column %d exceeds ±%d for %d columns",
				ErrOverflow, x, k/m.Cols+1, k%m.Cols+1, lim, m.Cols)
		}
	}
	return nil
}

// Validate checks the shape, that every cost is finite and that every
// |c_ij| is at most MaxAbsFloatCost.
func (m *FloatMatrix) Validate() error {
	if err := checkShape(m.Rows, m.Cols, len(m.C)); err != nil {
		return err
	}
	lim := MaxAbsFloatCost(m.Cols)
	for k, x := range m.C {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%w: %v at row %d, column %d", ErrNotFinite, x, k/m.Cols+1, k%m.Cols+1)
		}
		if math.Abs(x) > lim {
			return fmt.Errorf("%w: cost %g at row %d, column %d exceeds ±%.6g for %d columns", ErrOverflow, x, k/m.Cols+1, k%m.Cols+1, lim, m.Cols)
		}
	}
	return nil
}

func checkShape(r, c, n int) error {
	if r < 1 || c < 1 {
		return fmt.Errorf("%w: %dx%d is empty", ErrShape, r, c)
	}
	if r > c {
		return fmt.Errorf("%w: %d rows > %d columns (every row must be assigned; transpose the matrix)", ErrShape, r, c)
	}
	if n/c != r || n%c != 0 {
		return fmt.Errorf("%w: %d values for %dx%d", ErrShape, n, r, c)
	}
	return nil
}

// Negate returns -m (to maximize by minimizing). It fails only when m is
// not valid.
func (m *Matrix) Negate() (*Matrix, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	out := &Matrix{Rows: m.Rows, Cols: m.Cols, C: make([]int64, len(m.C))}
	for k, x := range m.C {
		out.C[k] = -x
	}
	return out, nil
}

// Transpose returns the c x r transpose.
func (m *Matrix) Transpose() *Matrix {
	out := &Matrix{Rows: m.Cols, Cols: m.Rows, C: make([]int64, len(m.C))}
	for i := range m.Rows {
		for j := range m.Cols {
			out.C[j*m.Rows+i] = m.C[i*m.Cols+j]
		}
	}
	return out
}

// CostOf returns the cost of an assignment (no checks beyond bounds).
func (m *Matrix) CostOf(assign []int) int64 {
	var s int64
	for i, j := range assign {
		s += m.C[i*m.Cols+j]
	}
	return s
}

// CostOf returns the cost of an assignment.
func (m *FloatMatrix) CostOf(assign []int) float64 {
	var s float64
	for i, j := range assign {
		s += m.C[i*m.Cols+j]
	}
	return s
}

// checkAssignment verifies that every row has a distinct column in range.
func checkAssignment(rows, cols int, a []int) error {
	if len(a) != rows {
		return fmt.Errorf("assignment has %d rows, want %d", len(a), rows)
	}
	used := make([]bool, cols)
	for i, j := range a {
		if j < 0 || j >= cols {
			return fmt.Errorf("row %d assigned to column %d, not in 0..%d", i, j, cols-1)
		}
		if used[j] {
			return fmt.Errorf("column %d assigned twice (again to row %d)", j, i)
		}
		used[j] = true
	}
	return nil
}

// Certify checks that res is an optimal assignment of m: a valid
// assignment whose cost is res.Cost and, when res has duals, dual
// feasibility, complementary slackness and (r < c) no free column priced
// below an assigned one, all exactly. Without duals only the assignment and
// its cost are checked; use Agree against a certified result.
func Certify(m *Matrix, res *Result) error {
	if res == nil {
		return errors.New("no result")
	}
	if err := checkAssignment(m.Rows, m.Cols, res.Assignment); err != nil {
		return err
	}
	if got := m.CostOf(res.Assignment); got != res.Cost {
		return fmt.Errorf("reported cost %d, but the assignment costs %d", res.Cost, got)
	}
	if res.U == nil && res.V == nil {
		return nil
	}
	if len(res.U) != m.Rows || len(res.V) != m.Cols {
		return fmt.Errorf("duals have %d and %d entries, want %d and %d", len(res.U), len(res.V), m.Rows, m.Cols)
	}
	// Guard the sums: duals beyond this bound are wrong anyway.
	const lim = math.MaxInt64 / 4
	for i, x := range res.U {
		if x > lim || x < -lim {
			return fmt.Errorf("dual u[%d] = %d out of range", i, x)
		}
	}
	for j, x := range res.V {
		if x > lim || x < -lim {
			return fmt.Errorf("dual v[%d] = %d out of range", j, x)
		}
	}
	for i := range m.Rows {
		row := m.C[i*m.Cols : (i+1)*m.Cols]
		ui := res.U[i]
		for j, c := range row {
			if ui+res.V[j] > c {
				return fmt.Errorf("dual infeasible at (%d,%d): u+v = %d > c = %d", i, j, ui+res.V[j], c)
			}
		}
		if j := res.Assignment[i]; ui+res.V[j] != row[j] {
			return fmt.Errorf("complementary slackness fails at (%d,%d): u+v = %d < c = %d", i, j, ui+res.V[j], row[j])
		}
	}
	if m.Rows < m.Cols {
		assigned := make([]bool, m.Cols)
		maxAssigned := int64(math.MinInt64)
		for _, j := range res.Assignment {
			assigned[j] = true
			maxAssigned = max(maxAssigned, res.V[j])
		}
		for j, a := range assigned {
			if !a && res.V[j] < maxAssigned {
				return fmt.Errorf("free column %d has v = %d below an assigned column's %d", j, res.V[j], maxAssigned)
			}
		}
	}
	return nil
}

// CertifyFloat is Certify on float64 costs, with every comparison allowed
// a slack of tol times the largest |c_ij| (at least tol).
func CertifyFloat(m *FloatMatrix, res *FloatResult, tol float64) error {
	if res == nil {
		return errors.New("no result")
	}
	if err := checkAssignment(m.Rows, m.Cols, res.Assignment); err != nil {
		return err
	}
	scale := 1.0
	for _, x := range m.C {
		scale = max(scale, math.Abs(x))
	}
	eps := tol * scale
	if got := m.CostOf(res.Assignment); math.Abs(got-res.Cost) > eps*float64(m.Rows) {
		return fmt.Errorf("reported cost %g, but the assignment costs %g", res.Cost, got)
	}
	if res.U == nil && res.V == nil {
		return nil
	}
	if len(res.U) != m.Rows || len(res.V) != m.Cols {
		return fmt.Errorf("duals have %d and %d entries, want %d and %d", len(res.U), len(res.V), m.Rows, m.Cols)
	}
	for i := range m.Rows {
		row := m.C[i*m.Cols : (i+1)*m.Cols]
		for j, c := range row {
			if res.U[i]+res.V[j] > c+eps {
				return fmt.Errorf("dual infeasible at (%d,%d): u+v = %g > c = %g", i, j, res.U[i]+res.V[j], c)
			}
		}
		if j := res.Assignment[i]; math.Abs(res.U[i]+res.V[j]-row[j]) > eps {
			return fmt.Errorf("complementary slackness fails at (%d,%d): u+v = %g, c = %g", i, j, res.U[i]+res.V[j], row[j])
		}
	}
	if m.Rows < m.Cols {
		assigned := make([]bool, m.Cols)
		maxAssigned := math.Inf(-1)
		for _, j := range res.Assignment {
			assigned[j] = true
			maxAssigned = max(maxAssigned, res.V[j])
		}
		for j, a := range assigned {
			if !a && res.V[j] < maxAssigned-eps {
				return fmt.Errorf("free column %d has v = %g below an assigned column's %g", j, res.V[j], maxAssigned)
			}
		}
	}
	return nil
}

// Agree checks that res is a valid assignment of m with the same cost as a
// certified reference.
func Agree(m *Matrix, res, ref *Result) error {
	if err := Certify(m, &Result{Assignment: res.Assignment, Cost: res.Cost}); err != nil {
		return err
	}
	if res.Cost != ref.Cost {
		return fmt.Errorf("cost %d, the certified optimum is %d", res.Cost, ref.Cost)
	}
	return nil
}

// Float returns m with float64 costs (the float paths, and tests that hold
// an implementation's float solver to its integer one).
func (m *Matrix) Float() *FloatMatrix {
	f := &FloatMatrix{Rows: m.Rows, Cols: m.Cols, C: make([]float64, len(m.C))}
	for k, x := range m.C {
		f.C[k] = float64(x)
	}
	return f
}

// Number is the cost type of the generic algorithms of every backend:
// int64 for exact integer costs, float64 for float ones.
type Number interface{ ~int64 | ~float64 }

// Inf returns a value larger than any reachable sum of the type: +Inf for
// float64, MaxInt64/2 for int64 (costs within MaxAbsCost keep every sum
// below it).
func Inf[T Number]() T {
	var z T
	switch any(z).(type) {
	case float64:
		return T(math.Inf(1))
	}
	x := int64(math.MaxInt64 / 2)
	return T(x)
}
