package lap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// BatchHeader is the first word of a batch file (see ReadBatch).
const BatchHeader = "lapbatch"

// BatchFormat describes the batch file format, for help texts.
const BatchFormat = `a header line "lapbatch COUNT ROWS COLS", then COUNT matrices of ROWS lines ` +
	`of COLS comma-separated numbers each (ROWS <= COLS); blank lines and lines starting with # are ` +
	`allowed anywhere after the header; integers, or floats when any cell is not an integer literal`

// Batch is COUNT independent cost matrices of one shape, problem k's costs
// at [k*Rows*Cols, (k+1)*Rows*Cols) of Int or Float.
type Batch struct {
	Name              string // the file name, for messages
	Count, Rows, Cols int
	// Int holds every problem's costs when they are all integers, else nil.
	Int []int64
	// Float holds them when some cell is not an integer literal, else nil.
	Float []float64
	// Inf lists the cells written as inf or -inf (K over all problems),
	// in order; Int or Float holds 0 there. See Costs.Inf.
	Inf []InfCell
}

// IsInt reports whether the batch's costs are integers.
func (b *Batch) IsInt() bool { return b.Float == nil }

// Size returns the cells of one problem.
func (b *Batch) Size() int { return b.Rows * b.Cols }

// Matrix returns problem k of an integer batch (a view, not a copy).
func (b *Batch) Matrix(k int) *Matrix {
	s := b.Size()
	return &Matrix{Rows: b.Rows, Cols: b.Cols, C: b.Int[k*s : (k+1)*s : (k+1)*s]}
}

// FloatMatrix returns problem k of a float batch (a view, not a copy).
func (b *Batch) FloatMatrix(k int) *FloatMatrix {
	s := b.Size()
	return &FloatMatrix{Rows: b.Rows, Cols: b.Cols, C: b.Float[k*s : (k+1)*s : (k+1)*s]}
}

// Validate checks the shape and, per problem, what Matrix.Validate and
// FloatMatrix.Validate check; errors name the problem (1-based).
func (b *Batch) Validate() error {
	if err := b.CheckShape(); err != nil {
		return err
	}
	// The problems are checked in parallel (a batch can hold gigabytes);
	// the error names the first bad problem, as a sequential scan would.
	errs := make([]error, b.Count)
	ForEachProblem(context.Background(), b.Count, 0, func(k int) error {
		if b.IsInt() {
			errs[k] = b.Matrix(k).Validate()
		} else {
			errs[k] = b.FloatMatrix(k).Validate()
		}
		return nil
	})
	for k, err := range errs {
		if err != nil {
			return fmt.Errorf("problem %d: %w", k+1, err)
		}
	}
	return nil
}

// CheckShape checks the count, the shape (1 <= rows <= cols) and the
// number of values, not the values themselves (Validate does).
func (b *Batch) CheckShape() error {
	if b.Count < 1 {
		return fmt.Errorf("%w: a batch of %d problems", ErrShape, b.Count)
	}
	if err := checkShape(b.Rows, b.Cols, b.Rows*b.Cols); err != nil {
		return err
	}
	want := b.Count * b.Rows * b.Cols
	if (b.IsInt() && len(b.Int) != want) || (!b.IsInt() && len(b.Float) != want) {
		return fmt.Errorf("%w: %d problems of %dx%d need %d values, have %d", ErrShape, b.Count, b.Rows, b.Cols, want, max(len(b.Int), len(b.Float)))
	}
	return nil
}

// Negate returns the batch with every cost negated (to maximise by
// minimising), leaving b unchanged.
func (b *Batch) Negate() *Batch {
	out := *b
	out.Inf = negateInfs(b.Inf)
	if b.IsInt() {
		out.Int = make([]int64, len(b.Int))
		for k, x := range b.Int {
			out.Int[k] = -x
		}
	} else {
		out.Float = make([]float64, len(b.Float))
		for k, x := range b.Float {
			out.Float[k] = -x
		}
	}
	return &out
}

// ReadBatch reads a batch file (BatchFormat): the header
// "lapbatch COUNT ROWS COLS", then COUNT*ROWS non-blank lines of COLS
// comma-separated numbers, problem after problem; blank lines and lines
// starting with # are skipped. Every error is a *ParseError naming name and
// the line: a bad header (ErrFormat), a non-numeric cell (ErrCell), a line
// with the wrong number of cells (ErrRagged), too few or too many lines
// (ErrFormat), NaN costs or floats beyond float64 (ErrNotFinite), costs too
// large for the solvers' sums (ErrOverflow). Cells inf and -inf are listed
// in Batch.Inf (see Costs.Inf).
func ReadBatch(r io.Reader, name string) (*Batch, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	p := &parser{name: name, isInt: true}
	var count, rows, cols int
	for {
		if !sc.Scan() {
			if err := p.scanErr(sc); err != nil {
				return nil, err
			}
			return nil, p.errf(p.lineNum+1, ErrFormat, "no header line (want %q)", BatchHeader+" COUNT ROWS COLS")
		}
		p.lineNum++
		line := bytes.TrimSpace(bytes.TrimPrefix(sc.Bytes(), []byte("\xef\xbb\xbf")))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		f := bytes.Fields(line)
		if len(f) != 4 || string(f[0]) != BatchHeader {
			return nil, p.errf(p.lineNum, ErrFormat, "header %q: want %q", clip(line), BatchHeader+" COUNT ROWS COLS")
		}
		var errs [3]error
		count, errs[0] = strconv.Atoi(string(f[1]))
		rows, errs[1] = strconv.Atoi(string(f[2]))
		cols, errs[2] = strconv.Atoi(string(f[3]))
		if errors.Join(errs[:]...) != nil || count < 1 || rows < 1 || cols < 1 {
			return nil, p.errf(p.lineNum, ErrFormat, "header %q: COUNT, ROWS and COLS must be positive integers", clip(line))
		}
		if rows > cols {
			return nil, p.errf(p.lineNum, ErrShape, "%d rows > %d columns: every row must be assigned; transpose the matrices", rows, cols)
		}
		if rows > MaxCells/cols || count > MaxCells/(rows*cols) {
			return nil, p.errf(p.lineNum, ErrFormat, "header %q: %d problems of %dx%d exceed %d cells", clip(line), count, rows, cols, MaxCells)
		}
		p.setCols(cols, p.lineNum) // nothing read yet: cannot fail
		break
	}
	total := count * rows * cols
	hint := min(total, 1<<20)
	p.ints = make([]int64, 0, hint)
	p.lines = make([]int32, 0, hint)
	lines := 0
	for sc.Scan() {
		p.lineNum++
		line := sc.Bytes()
		if t := bytes.TrimSpace(line); len(t) == 0 || t[0] == '#' {
			continue
		}
		if lines == count*rows {
			return nil, p.errf(p.lineNum, ErrFormat, "more than the %d lines of %d problems of %d rows", count*rows, count, rows)
		}
		n, err := eachCell(line, func(i int, cell []byte) error {
			if i == cols {
				return p.errf(p.lineNum, ErrRagged, "more than %d cells (problem %d, row %d)", cols, lines/rows+1, lines%rows+1)
			}
			return p.cell(cell, i)
		})
		if err != nil {
			return nil, err
		}
		if n != cols {
			return nil, p.errf(p.lineNum, ErrRagged, "%d cells, want %d (problem %d, row %d)", n, cols, lines/rows+1, lines%rows+1)
		}
		lines++
	}
	if err := p.scanErr(sc); err != nil {
		return nil, err
	}
	if lines != count*rows {
		return nil, p.errf(p.lineNum+1, ErrFormat, "file ends after %d of the %d lines of %d problems of %d rows (in problem %d)",
			lines, count*rows, count, rows, lines/rows+1)
	}
	b := &Batch{Name: name, Count: count, Rows: rows, Cols: cols, Inf: p.infs}
	if p.isInt {
		b.Int = p.ints
		s := rows * cols
		if err := p.checkInts(b.Int, cols, func(k int) string {
			return fmt.Sprintf(" (problem %d, row %d, column %d)", k/s+1, k%s/cols+1, k%cols+1)
		}); err != nil {
			return nil, err
		}
	} else {
		b.Float = p.floats
	}
	return b, nil
}

// ReadBatchFile reads the batch in the named file (see ReadBatch).
func ReadBatchFile(path string) (*Batch, error) { return readFile(path, ReadBatch) }

// BatchOutput is the solution of every problem of a batch: Int for an
// integer batch, Float for a float one, problem k at index k.
type BatchOutput struct {
	Int   []*Result
	Float []*FloatResult
}

// Len returns the number of problems solved.
func (o *BatchOutput) Len() int { return max(len(o.Int), len(o.Float)) }

// CostText returns problem k's cost as text (an integer for integer costs),
// negated when negate is set (a maximisation solved as -c).
func (o *BatchOutput) CostText(k int, negate bool) string {
	if o.Int != nil {
		c := o.Int[k].Cost
		if negate {
			c = -c
		}
		return strconv.FormatInt(c, 10)
	}
	c := o.Float[k].Cost
	if negate {
		c = -c
	}
	return strconv.FormatFloat(c, 'g', -1, 64)
}

// Assignment returns problem k's assignment (the 0-based column of each
// row).
func (o *BatchOutput) Assignment(k int) []int {
	if o.Int != nil {
		return o.Int[k].Assignment
	}
	return o.Float[k].Assignment
}

// CertifyBatch checks every problem of out against b, in parallel: integer
// results by Certify (exact), float ones by CertifyFloat with tolerance tol
// (relative to the problem's largest |c_ij|, see CertifyFloat). A result
// without duals fails: the batch solvers all return them. The error names
// the first failing problem (1-based).
func CertifyBatch(b *Batch, out *BatchOutput, tol float64) error {
	if out == nil || out.Len() != b.Count || (b.IsInt() && out.Int == nil) || (!b.IsInt() && out.Float == nil) {
		return fmt.Errorf("%s: a batch of %d problems has no matching output", b.Name, b.Count)
	}
	return ForEachProblem(context.Background(), b.Count, 0, func(k int) error {
		var err error
		if b.IsInt() {
			res := out.Int[k]
			if res == nil || res.U == nil {
				return fmt.Errorf("problem %d: no duals to certify", k+1)
			}
			err = Certify(b.Matrix(k), res)
		} else {
			res := out.Float[k]
			if res == nil || res.U == nil {
				return fmt.Errorf("problem %d: no duals to certify", k+1)
			}
			err = CertifyFloat(b.FloatMatrix(k), res, tol)
			if err != nil {
				err = fmt.Errorf("%w (tolerance %g x max(1, max |c_ij|))", err, tol)
			}
		}
		if err != nil {
			return fmt.Errorf("problem %d: %w", k+1, err)
		}
		return nil
	})
}

// ForEachProblem runs f(k) for k in [0, count) on workers goroutines
// (GOMAXPROCS when workers < 1), each taking the next problem, and returns
// the error of the lowest failing k among those run; after a failure or
// ctx's end no new problem starts.
func ForEachProblem(ctx context.Context, count, workers int, f func(k int) error) error {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, count)
	var next atomic.Int64
	var stop atomic.Bool
	var mu sync.Mutex
	firstK, firstErr := count, error(nil)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				k := int(next.Add(1) - 1)
				if k >= count {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = f(k)
				}
				if err != nil {
					stop.Store(true)
					mu.Lock()
					if k < firstK {
						firstK, firstErr = k, err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// SolveBatch solves every problem of b with im, on workers goroutines in
// parallel (GOMAXPROCS when workers < 1), each problem by one call of
// im.Solve or im.SolveFloat (the caller times the whole batch). It fails when b is a float batch and im takes integers
// only. The results are not certified here: see CertifyBatch.
func SolveBatch(ctx context.Context, b *Batch, im Impl, workers int) (*BatchOutput, error) {
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, err)
	}
	out := &BatchOutput{}
	var err error
	if b.IsInt() {
		out.Int = make([]*Result, b.Count)
		err = ForEachProblem(ctx, b.Count, workers, func(k int) error {
			res, err := im.Solve(ctx, b.Matrix(k), nil)
			if err != nil {
				return fmt.Errorf("problem %d: %w", k+1, err)
			}
			out.Int[k] = res
			return nil
		})
	} else {
		if im.SolveFloat == nil {
			return nil, fmt.Errorf("%s: %s: %w", b.Name, im.Name, ErrNeedsIntegers)
		}
		out.Float = make([]*FloatResult, b.Count)
		err = ForEachProblem(ctx, b.Count, workers, func(k int) error {
			res, err := im.SolveFloat(ctx, b.FloatMatrix(k), nil)
			if err != nil {
				return fmt.Errorf("problem %d: %w", k+1, err)
			}
			out.Float[k] = res
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, NameImpl(im.Name, err))
	}
	return out, nil
}

// SolveBatchChecked is `semibench solve lap --batch`: every problem of b
// solved by im's SolveBatch, minimising or, with maximize, maximising (by
// negation), each answer certified by its duals (CertifyBatch; floats
// within FloatTolerance) before it is returned. A +inf cost (-inf when
// maximising) forbids its assignment, as in Solve; an infeasible problem is
// an error naming it. The output's costs are those of the costs as solved:
// print them with CostText(k, maximize).
func SolveBatchChecked(ctx context.Context, b *Batch, im Impl, maximize bool) (*BatchOutput, error) {
	if im.SolveBatch == nil {
		return nil, fmt.Errorf("%s: %s has no batch solver", b.Name, im.Name)
	}
	if maximize {
		b = b.Negate()
	}
	forbidden, err := forbiddenCells(b.Name, b.Inf, maximize, batchCellName(b.Size(), b.Cols))
	if err != nil {
		return nil, err
	}
	what := func(p int) string { return fmt.Sprintf("problem %d: ", p+1) }
	solved := *b
	solved.Inf = nil
	if b.IsInt() {
		solved.Int, err = withStandIns(b.Int, forbidden, b.Size(), b.Rows, MaxAbsCost(b.Cols), what)
	} else {
		solved.Float, err = withStandIns(b.Float, forbidden, b.Size(), b.Rows, MaxAbsFloatCost(b.Cols), what)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, err)
	}
	res, err := im.SolveBatch(ctx, &solved, 0, nil)
	if err != nil {
		return nil, wrapSolveError(b.Name, im.Name, err)
	}
	if err := CertifyBatch(&solved, res, FloatTolerance); err != nil {
		return nil, wrapSolveError(b.Name, im.Name, fmt.Errorf("the answer failed its check: %w", err))
	}
	err = ForEachProblem(ctx, b.Count, 0, func(k int) error {
		if err := checkAvoids(forbidden, k, b.Size(), b.Cols, res.Assignment(k)); err != nil {
			return fmt.Errorf("problem %d: %w", k+1, err)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, err)
	}
	return res, nil
}
