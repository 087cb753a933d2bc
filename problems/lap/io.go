package lap

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/semibench/semibench/internal/decimal"
)

// Errors wrapped by ReadCosts (besides ErrShape, ErrOverflow and
// ErrNotFinite), for errors.Is.
var (
	ErrCell   = errors.New("not a number")
	ErrRagged = errors.New("ragged rows")
	ErrFormat = errors.New("malformed file")
)

// MaxCells bounds rows·cols of a file.
const MaxCells = 1 << 31

// maxLine is the longest line ReadCosts accepts.
const maxLine = 1 << 28

// maxExactInt is the largest integer float64 holds exactly.
const maxExactInt = 1 << 53

// ParseError is an input error at a line of a named file.
type ParseError struct {
	File string
	Line int // 1-based; 0 when the error concerns the whole file
	Err  error
}

// Error formats the error as "file:line: message".
func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// Costs is a cost matrix read from a file: integer when every finite cell
// is an integer literal, float64 otherwise.
type Costs struct {
	Name       string // the file name, for messages
	Rows, Cols int
	// Int holds the costs row-major when they are all integers, else nil.
	Int []int64
	// Float holds the costs row-major when some cell is not an integer
	// literal, else nil.
	Float []float64
	// Inf lists the cells written as inf or -inf, in row-major order; Int
	// or Float holds 0 there. Solve reads +inf as a forbidden assignment
	// (-inf when maximising).
	Inf []InfCell
}

// InfCell is a cost written as an infinity.
type InfCell struct {
	K    int  // the cell's row-major index (in a batch: over all problems)
	Neg  bool // -inf
	Line int  // the file line it was read from
}

// IsInt reports whether the costs are integers.
func (c *Costs) IsInt() bool { return c.Float == nil }

// Matrix returns the integer costs as a Matrix (nil for float costs).
func (c *Costs) Matrix() *Matrix {
	if !c.IsInt() {
		return nil
	}
	return &Matrix{Rows: c.Rows, Cols: c.Cols, C: c.Int}
}

// FloatMatrix returns the costs as float64 (converted when integer).
func (c *Costs) FloatMatrix() *FloatMatrix {
	if !c.IsInt() {
		return &FloatMatrix{Rows: c.Rows, Cols: c.Cols, C: c.Float}
	}
	return c.Matrix().Float()
}

// parser accumulates cells, integer until a finite cell is not.
type parser struct {
	name     string
	isInt    bool
	ints     []int64
	floats   []float64
	lines    []int32 // line of each cell, kept while integer (for later errors)
	infs     []InfCell
	floatLim float64 // MaxAbsFloatCost(cols) once the columns are known, else 0
	cols     int
	lineNum  int
}

// isInfLiteral reports whether b spells an infinity: inf or infinity,
// signed or not, in any case.
func isInfLiteral(b []byte) bool {
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		b = b[1:]
	}
	return bytes.EqualFold(b, []byte("inf")) || bytes.EqualFold(b, []byte("infinity"))
}

// inf records an infinite cell and holds its place with a 0.
func (p *parser) inf(b []byte) {
	p.infs = append(p.infs, InfCell{K: p.count(), Neg: b[0] == '-', Line: p.lineNum})
	if p.isInt {
		p.ints = append(p.ints, 0)
		p.lines = append(p.lines, int32(min(p.lineNum, math.MaxInt32)))
	} else {
		p.floats = append(p.floats, 0)
	}
}

// setCols sets the float bound for cols columns and checks the float costs
// read so far against it (the first row of a CSV file, all on line).
func (p *parser) setCols(cols, line int) error {
	p.floatLim, p.cols = MaxAbsFloatCost(cols), cols
	if p.isInt {
		return nil
	}
	for k, x := range p.floats {
		if math.Abs(x) > p.floatLim {
			return p.errf(line, ErrOverflow, "cost %g in column %d exceeds ±%.6g, the bound for %d columns; scale the costs down", x, k+1, p.floatLim, cols)
		}
	}
	return nil
}

func (p *parser) errf(line int, sentinel error, format string, args ...any) error {
	return &ParseError{File: p.name, Line: line, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}

// cell parses one value.
func (p *parser) cell(b []byte, col int) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return p.errf(p.lineNum, ErrCell, "empty cell in column %d", col+1)
	}
	if isInfLiteral(b) {
		p.inf(b)
		return nil
	}
	if p.isInt {
		if x, ok := smallInt(b); ok {
			p.ints = append(p.ints, x)
			p.lines = append(p.lines, int32(min(p.lineNum, math.MaxInt32)))
			return nil
		}
		x, err := strconv.ParseInt(string(b), 10, 64)
		if err == nil {
			p.ints = append(p.ints, x)
			p.lines = append(p.lines, int32(min(p.lineNum, math.MaxInt32)))
			return nil
		}
		if errors.Is(err, strconv.ErrRange) {
			return p.errf(p.lineNum, ErrOverflow, "integer %s in column %d does not fit in int64", clip(b), col+1)
		}
		if err := p.toFloat(); err != nil {
			return err
		}
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !(errors.Is(err, strconv.ErrRange) && !math.IsInf(x, 0)) {
		if errors.Is(err, strconv.ErrRange) {
			return p.errf(p.lineNum, ErrNotFinite, "%s in column %d is beyond the float64 range", clip(b), col+1)
		}
		return p.errf(p.lineNum, ErrCell, "%q in column %d", clip(b), col+1)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return p.errf(p.lineNum, ErrNotFinite, "%s in column %d", clip(b), col+1)
	}
	if p.floatLim > 0 && math.Abs(x) > p.floatLim {
		return p.errf(p.lineNum, ErrOverflow, "cost %s in column %d exceeds ±%.6g, the bound for %d columns; scale the costs down", clip(b), col+1, p.floatLim, p.cols)
	}
	p.floats = append(p.floats, x)
	return nil
}

// toFloat switches to float costs; integers already read must be exact in
// float64.
func (p *parser) toFloat() error {
	p.isInt = false
	p.floats = make([]float64, len(p.ints), max(cap(p.ints), 16))
	for k, x := range p.ints {
		if x > maxExactInt || x < -maxExactInt {
			return p.errf(int(p.lines[k]), ErrCell, "integer %d is not exact in float64, and the file has non-integer costs too", x)
		}
		p.floats[k] = float64(x)
	}
	p.ints, p.lines = nil, nil
	return nil
}

func (p *parser) count() int {
	if p.isInt {
		return len(p.ints)
	}
	return len(p.floats)
}

// ReadCosts reads a cost matrix: CSV (a row per line, comma-separated
// numbers; blank lines are skipped) or, when the first line starts with
// %%MatrixMarket, a Matrix Market array file (real or integer, general).
// Costs are integers when every cell is an integer literal, float64
// otherwise. Every error is a *ParseError naming name and the line: a
// non-numeric or empty cell (ErrCell), ragged rows (ErrRagged), NaN or
// costs (ErrNotFinite), more rows than columns (ErrShape), costs too large
// for the solvers' sums (ErrOverflow, see MaxAbsCost and MaxAbsFloatCost),
// a malformed Matrix Market file (ErrFormat). A cell inf or -inf (any case,
// also infinity) is listed in Costs.Inf, for Solve to read as a forbidden
// assignment.
func ReadCosts(r io.Reader, name string) (*Costs, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	p := &parser{name: name, isInt: true}
	var c *Costs
	var err error
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, &ParseError{File: name, Line: 1, Err: err}
		}
		return nil, &ParseError{File: name, Err: fmt.Errorf("%w: the file is empty", ErrShape)}
	}
	p.lineNum = 1
	first := bytes.TrimPrefix(sc.Bytes(), []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	if len(first) >= 14 && bytes.EqualFold(first[:14], []byte("%%MatrixMarket")) {
		c, err = p.readMM(sc, first)
	} else {
		c, err = p.readCSV(sc, first)
	}
	if err != nil {
		return nil, err
	}
	c.Name = name
	if c.IsInt() {
		if err := p.checkInts(c.Int, c.Cols, func(k int) string {
			return fmt.Sprintf(" (row %d, column %d)", k/c.Cols+1, k%c.Cols+1)
		}); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// checkInts refuses an integer cost beyond ±MaxAbsCost(cols), naming its
// line and, by where, its place.
func (p *parser) checkInts(c []int64, cols int, where func(k int) string) error {
	lim := MaxAbsCost(cols)
	for k, x := range c {
		if x > lim || x < -lim {
			return p.errf(int(p.lines[k]), ErrOverflow, "cost %d%s exceeds ±%d, the bound for %d columns; scale the costs down or use float costs",
				x, where(k), lim, cols)
		}
	}
	return nil
}

// ReadCostsFile reads the cost matrix in the named file (see ReadCosts).
func ReadCostsFile(path string) (*Costs, error) { return readFile(path, ReadCosts) }

// readFile opens path and hands it, buffered, to read with path as its
// name for messages.
func readFile[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err // *PathError names the file
	}
	defer f.Close()
	return read(bufio.NewReaderSize(f, 1<<20), path)
}

func (p *parser) scanErr(sc *bufio.Scanner) error {
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return p.errf(p.lineNum+1, ErrFormat, "line longer than %d bytes", maxLine)
		}
		return &ParseError{File: p.name, Line: p.lineNum + 1, Err: err}
	}
	return nil
}

// eachCell calls f on each comma-separated cell of line, in order, with
// its index; it returns the number of cells, or f's first error.
func eachCell(line []byte, f func(i int, cell []byte) error) (int, error) {
	for n := 0; ; n++ {
		k := bytes.IndexByte(line, ',')
		cell := line
		if k >= 0 {
			cell = line[:k]
		}
		if err := f(n, cell); err != nil {
			return n, err
		}
		if k < 0 {
			return n + 1, nil
		}
		line = line[k+1:]
	}
}

func (p *parser) readCSV(sc *bufio.Scanner, line []byte) (*Costs, error) {
	rows, cols, firstLine := 0, 0, 0
	for {
		if len(bytes.TrimSpace(line)) > 0 {
			n, err := eachCell(line, func(i int, cell []byte) error { return p.cell(cell, i) })
			if err != nil {
				return nil, err
			}
			if rows == 0 {
				cols, firstLine = n, p.lineNum
				if cols > MaxCells {
					return nil, p.errf(p.lineNum, ErrShape, "%d columns", cols)
				}
				if err := p.setCols(cols, p.lineNum); err != nil {
					return nil, err
				}
			} else if n != cols {
				return nil, p.errf(p.lineNum, ErrRagged, "%d cells, but line %d has %d", n, firstLine, cols)
			}
			rows++
			if rows > cols {
				return nil, p.errf(p.lineNum, ErrShape, "row %d of a matrix with %d columns: more rows than columns (every row must be assigned; transpose the matrix)", rows, cols)
			}
		}
		if !sc.Scan() {
			if err := p.scanErr(sc); err != nil {
				return nil, err
			}
			break
		}
		p.lineNum++
		line = sc.Bytes()
	}
	if rows == 0 {
		return nil, &ParseError{File: p.name, Err: fmt.Errorf("%w: no rows", ErrShape)}
	}
	return &Costs{Rows: rows, Cols: cols, Int: p.ints, Float: p.floats, Inf: p.infs}, nil
}

func (p *parser) readMM(sc *bufio.Scanner, banner []byte) (*Costs, error) {
	f := bytes.Fields(bytes.ToLower(banner))
	if len(f) != 5 || string(f[1]) != "matrix" {
		return nil, p.errf(1, ErrFormat, "Matrix Market banner: want \"%%%%MatrixMarket matrix array real general\", got %q", clip(banner))
	}
	if string(f[2]) != "array" {
		return nil, p.errf(1, ErrFormat, "format %q: only dense array files are supported (a LAP needs every cost)", f[2])
	}
	field := string(f[3])
	if field != "real" && field != "integer" && field != "double" {
		return nil, p.errf(1, ErrFormat, "field %q: want real or integer", field)
	}
	if string(f[4]) != "general" {
		return nil, p.errf(1, ErrFormat, "symmetry %q: only general is supported", f[4])
	}
	// Comments, then the size line.
	var rows, cols int
	for {
		if !sc.Scan() {
			if err := p.scanErr(sc); err != nil {
				return nil, err
			}
			return nil, p.errf(p.lineNum+1, ErrFormat, "no size line")
		}
		p.lineNum++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '%' {
			continue
		}
		sf := bytes.Fields(b)
		if len(sf) != 2 {
			return nil, p.errf(p.lineNum, ErrFormat, "size line %q: want \"rows columns\"", clip(b))
		}
		var err1, err2 error
		rows, err1 = strconv.Atoi(string(sf[0]))
		cols, err2 = strconv.Atoi(string(sf[1]))
		if err1 != nil || err2 != nil || rows < 1 || cols < 1 || rows > MaxCells/cols {
			return nil, p.errf(p.lineNum, ErrFormat, "size line %q: want two positive counts with at most %d cells", clip(b), MaxCells)
		}
		if rows > cols {
			return nil, p.errf(p.lineNum, ErrShape, "%d rows > %d columns: every row must be assigned; transpose the matrix", rows, cols)
		}
		p.setCols(cols, p.lineNum) // nothing read yet: cannot fail
		break
	}
	total := rows * cols
	hint := min(total, 1<<20)
	p.ints = make([]int64, 0, hint)
	p.lines = make([]int32, 0, hint)
	for sc.Scan() {
		p.lineNum++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '%' {
			continue
		}
		for _, tok := range bytes.Fields(b) {
			if p.count() == total {
				return nil, p.errf(p.lineNum, ErrFormat, "more than the %d values of a %dx%d array", total, rows, cols)
			}
			k := p.count()
			if field == "integer" && !decimal.IsInteger(tok) {
				return nil, p.errf(p.lineNum, ErrCell, "%q is not an integer in an integer file", clip(tok))
			}
			if err := p.cell(tok, k/rows); err != nil {
				return nil, err
			}
		}
	}
	if err := p.scanErr(sc); err != nil {
		return nil, err
	}
	if p.count() != total {
		return nil, p.errf(p.lineNum+1, ErrFormat, "file ends after %d of the %d values of a %dx%d array", p.count(), total, rows, cols)
	}
	// Column-major to row-major.
	c := &Costs{Rows: rows, Cols: cols, Inf: p.infs}
	for n, inf := range c.Inf {
		c.Inf[n].K = inf.K%rows*cols + inf.K/rows
	}
	slices.SortFunc(c.Inf, func(a, b InfCell) int { return a.K - b.K })
	if p.isInt {
		c.Int = make([]int64, total)
		lines := make([]int32, total)
		for k, x := range p.ints {
			i, j := k%rows, k/rows
			c.Int[i*cols+j] = x
			lines[i*cols+j] = p.lines[k]
		}
		p.lines = lines
	} else {
		c.Float = make([]float64, total)
		for k, x := range p.floats {
			c.Float[(k%rows)*cols+k/rows] = x
		}
	}
	return c, nil
}

// smallInt parses an optionally signed decimal of at most 18 digits (the
// common case, without strconv's allocation); ok is false otherwise.
func smallInt(b []byte) (x int64, ok bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + int64(c-'0')
	}
	if neg {
		x = -x
	}
	return x, true
}

// clip shortens text quoted in messages.
func clip(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// Solution is the output of `semibench solve lap`.
type Solution struct {
	// Cost is the optimal total, an integer for integer costs.
	Cost json.Number `json:"cost"`
	// Assignment is the 0-based column of each row.
	Assignment []int  `json:"assignment"`
	Impl       string `json:"impl"`
	// MS is the solver's wall time in milliseconds (reading and checking
	// excluded); the CLI writes it only when asked (solve lap --ms).
	MS float64 `json:"ms,omitempty"`
}

// NameImpl names the implementation in err's message unless the
// implementation already did: the CUDA ones name themselves ("cuda/fast:
// CUDA unavailable: ...", "cuda/fast batch: ..."), so that each message says
// the name once. Callers that report an implementation's error use it in
// place of fmt.Errorf("%s: %w", impl, err).
func NameImpl(impl string, err error) error {
	msg := err.Error()
	if strings.HasPrefix(msg, impl+": ") || strings.HasPrefix(msg, impl+" ") || strings.Contains(msg, ": "+impl+": ") {
		return err
	}
	return fmt.Errorf("%s: %w", impl, err)
}

// DefaultImpl is the implementation `semibench solve lap` uses when none is
// named (looked up in impls.LAP).
const DefaultImpl = "cpu/jv"

// Solve solves c with im, minimising the total cost or, with maximize,
// maximising it, and checks the answer before returning it: by its dual
// certificate, or, for an implementation without duals, against a
// certified SolveJV (cpu/jv) solution. A check failure is an error, never a
// wrong answer. A +inf cost (-inf when maximising) forbids its assignment;
// a problem whose every assignment uses one is ErrInfeasible, and the
// other infinity is refused (see forbidden.go).
func Solve(ctx context.Context, c *Costs, im Impl, maximize bool) (*Solution, error) {
	forbidden, err := forbiddenCells(c.Name, signed(c.Inf, maximize), maximize, cellName(c.Cols))
	if err != nil {
		return nil, err
	}
	if c.IsInt() {
		return solveCosts(ctx, c, im, maximize, forbidden, c.Matrix().C, solveInt, func(x int64) string { return strconv.FormatInt(x, 10) })
	}
	if im.SolveFloat == nil {
		return nil, fmt.Errorf("%s: %s: %w; use cpu/jv, cpu/hungarian-n3 or cpu/paper", c.Name, im.Name, ErrNeedsIntegers)
	}
	return solveCosts(ctx, c, im, maximize, forbidden, c.Float, solveFloat, func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) })
}

// signed returns infs as the solver sees them: negated when maximising.
func signed(infs []InfCell, maximize bool) []InfCell {
	if maximize {
		return negateInfs(infs)
	}
	return infs
}

// solveCosts is Solve on costs of type T (c's values): negated when
// maximising, the forbidden cells given their stand-in, solved and checked
// by solve, which returns the assignment and its cost.
func solveCosts[T Number](ctx context.Context, c *Costs, im Impl, maximize bool, forbidden []int, values []T,
	solve func(ctx context.Context, rows, cols int, values []T, im Impl) ([]int, T, error), format func(T) string) (*Solution, error) {
	if err := checkShape(c.Rows, c.Cols, len(values)); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	if maximize {
		neg := make([]T, len(values))
		for k, x := range values {
			neg[k] = -x
		}
		values = neg
	}
	values, err := withStandIns(values, forbidden, len(values), c.Rows, costLimit[T](c.Cols), func(int) string { return "" })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	t0 := time.Now()
	assign, cost, err := solve(ctx, c.Rows, c.Cols, values, im)
	ms := float64(time.Since(t0).Nanoseconds()) / 1e6
	if err == nil {
		err = checkAvoids(forbidden, 0, len(values), c.Cols, assign)
	}
	if err != nil {
		return nil, wrapSolveError(c.Name, im.Name, err)
	}
	if maximize {
		cost = -cost
	}
	return &Solution{Cost: json.Number(format(cost)), Assignment: assign, Impl: im.Name, MS: ms}, nil
}

// solveInt solves integer costs with im.Solve and certifies the answer
// exactly: by its duals, or, without them, against a certified SolveJV.
func solveInt(ctx context.Context, rows, cols int, values []int64, im Impl) ([]int, int64, error) {
	m := &Matrix{Rows: rows, Cols: cols, C: values}
	if err := m.Validate(); err != nil {
		return nil, 0, err
	}
	res, err := im.Solve(ctx, m, nil)
	if err != nil {
		return nil, 0, err
	}
	if err := Certify(m, res); err != nil {
		return nil, 0, fmt.Errorf("the answer failed its check: %w", err)
	}
	if res.U == nil {
		ref, err := SolveJV(ctx, m, nil)
		if err == nil {
			err = Certify(m, ref)
		}
		if err == nil {
			err = Agree(m, res, ref)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("the answer failed its check: %w", err)
		}
	}
	return res.Assignment, res.Cost, nil
}

// solveFloat solves float64 costs with im.SolveFloat and certifies the
// answer within FloatTolerance.
func solveFloat(ctx context.Context, rows, cols int, values []float64, im Impl) ([]int, float64, error) {
	m := &FloatMatrix{Rows: rows, Cols: cols, C: values}
	if err := m.Validate(); err != nil {
		return nil, 0, err
	}
	res, err := im.SolveFloat(ctx, m, nil)
	if err != nil {
		return nil, 0, err
	}
	if err := CertifyFloat(m, res, FloatTolerance); err != nil {
		return nil, 0, fmt.Errorf("the answer failed its check: %w", err)
	}
	return res.Assignment, m.CostOf(res.Assignment), nil
}

// FloatTolerance is the relative slack CertifyFloat allows float64 answers
// (times the largest |cost|).
const FloatTolerance = 1e-9
