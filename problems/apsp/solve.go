package apsp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/mtx"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/apsp/semiring"
)

// DefaultImpl is the implementation Solve runs when none is named:
// cpu/fast, or with inverse cpu/sgje (the paper's direct variant).
func DefaultImpl(inverse bool) string {
	if inverse {
		return "cpu/sgje"
	}
	return "cpu/fast"
}

// Solve is `semibench solve apsp` without its check: it reads the weight
// matrix A from the Matrix Market file r (ReadInstance), computes D = A*
// (or A⁻¹ with inverse) with the implementation of reg named impl
// (DefaultImpl when empty) and writes D to w (Closure.Write).
//
// Errors: those of Resolve and ReadInstance; an undefined star in the real
// semiring (an error wrapping ErrStar naming the pivot); a zero pivot of
// the inverse (wrapping ErrSingular, naming its row and column). A
// negative cycle in min-plus is no error: the distances it reaches are
// -inf.
func Solve(ctx context.Context, r io.Reader, name, semiringName, impl string, inverse bool, w io.Writer, reg problems.Registry[Impl]) error {
	im, err := Resolve(semiringName, impl, inverse, reg)
	if err != nil {
		return fmt.Errorf("solve apsp: %w", err)
	}
	in, err := ReadInstance(r, name, semiringName, inverse)
	if err != nil {
		return err
	}
	d, err := in.Solve(ctx, im)
	if err != nil {
		return err
	}
	return d.Write(w)
}

// Instance is the input of `semibench solve apsp`: the weight matrix A in
// a semiring, and whether A⁻¹ is asked for.
type Instance struct {
	Name     string // the file, for messages
	Semiring string // "min-plus", "max-plus", "boolean" or "real"
	Inverse  bool
	// A in a semiring on float64 values, or in the Boolean one.
	F *Matrix[float64]
	B *Matrix[bool]
}

// N is the order of A.
func (in *Instance) N() int {
	if in.B != nil {
		return in.B.N
	}
	return in.F.N
}

// Arcs counts the entries of A that are not the semiring's zero.
func (in *Instance) Arcs() int {
	if in.B != nil {
		return count(in.B.Data, false)
	}
	return count(in.F.Data, floatSemiring(in.Semiring).Zero())
}

func count[T comparable](data []T, zero T) int {
	k := 0
	for _, v := range data {
		if v != zero {
			k++
		}
	}
	return k
}

// floatSemiring is the named semiring on float64 (min-plus, max-plus or
// real).
func floatSemiring(name string) semiring.Semiring[float64] {
	switch name {
	case "min-plus":
		return semiring.MinPlus[float64]{}
	case "max-plus":
		return semiring.MaxPlus[float64]{}
	}
	return semiring.Real[float64]{}
}

// ReadInstance reads A from the Matrix Market file r (name is used in
// messages; a_ij, 1-based, is the weight of the arc i -> j; entries not
// listed are the semiring's zero; a cell listed twice is an error naming
// both lines) in the named semiring (values in float64; any nonzero value
// is true in "boolean"). A matrix that is not square, or whose dense form
// does not fit in the memory available, is an error; so is a finite weight
// beyond PathSumBound in min-plus and max-plus, and an infinite entry in
// the real semiring.
func ReadInstance(r io.Reader, name, semiringName string, inverse bool) (*Instance, error) {
	if !slices.Contains(semiring.Names, semiringName) {
		return nil, fmt.Errorf("unknown semiring %q (known: %s)", semiringName, strings.Join(semiring.Names, ", "))
	}
	sc, err := mtx.NewScanner(r, name)
	if err != nil {
		return nil, err
	}
	h := sc.Header()
	if h.Rows != h.Cols {
		return nil, fmt.Errorf("%s: the matrix is %d x %d, not square", name, h.Rows, h.Cols)
	}
	n := h.Rows
	// A and D dense, of float64: refuse an order whose 2n² elements do not
	// fit in the memory available (a corrupt size line must not exhaust it).
	need := 2 * uint64(n) * uint64(n) * 8
	if avail := bench.AvailableMemory(); (avail > 0 && need > avail) || n > 1<<20 {
		return nil, fmt.Errorf("%s: A and D, dense matrices of order %d, need %.1f GiB, more than the %.1f GiB available", name, n, float64(need)/(1<<30), float64(avail)/(1<<30))
	}
	in := &Instance{Name: name, Semiring: semiringName, Inverse: inverse}
	if semiringName == "boolean" {
		in.B, err = readMatrix(sc, n, semiring.Boolean{}, func(v float64) (bool, error) { return v != 0, nil })
	} else {
		in.F, err = readMatrix(sc, n, floatSemiring(semiringName), weightCheck(sc, semiringName, n))
	}
	if err != nil {
		return nil, err
	}
	return in, nil
}

// Closure is the answer of `semibench solve apsp`: D = A* (or A⁻¹) of an
// Instance, by one implementation.
type Closure struct {
	In *Instance
	F  *Matrix[float64]
	B  *Matrix[bool]
	// comment is the output's comment line: what D is, by whom.
	comment string
}

// Solve computes D = A* of in (A⁻¹ with in.Inverse) with im (see Resolve);
// A itself is kept for the check.
func (in *Instance) Solve(ctx context.Context, im Impl) (*Closure, error) {
	d := &Closure{In: in, comment: fmt.Sprintf("semibench solve apsp: D = A* over %s by %s", in.Semiring, im.Name)}
	if im.Note != "" {
		d.comment += " (" + im.Note + ")"
	}
	var err error
	switch {
	case in.B != nil:
		d.B = in.B.Clone()
		_, err = im.Bool(ctx, d.B, Options{})
	case in.Inverse:
		how := im.Name
		if im.InverseNote != "" {
			how = im.InverseNote
		}
		d.comment = "semibench solve apsp: A^-1 by " + how
		d.F = in.F.Clone()
		_, err = im.Inverse(ctx, d.F, Options{})
	default:
		d.F = in.F.Clone()
		_, err = im.Float(ctx, in.Semiring, d.F, Options{})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	return d, nil
}

// Write writes D to w as a coordinate Matrix Market file listing every
// entry that is not the semiring's zero (0 for A⁻¹), with infinities
// written as inf and -inf.
func (d *Closure) Write(w io.Writer) error {
	if d.B != nil {
		return writeMatrix(w, d.B, false, d.comment, func(bool) string { return "1" })
	}
	zero := floatSemiring(d.In.Semiring).Zero()
	if d.In.Inverse {
		zero = 0
	}
	return writeMatrix(w, d.F, zero, d.comment, formatFloat)
}

// Resolve checks the arguments of Solve before any input is read: the
// semiring, the implementation (impl in reg, or DefaultImpl when empty) and
// that it covers the case. It returns the implementation Solve runs; the
// error names the argument at fault and what is accepted.
func Resolve(semiringName, impl string, inverse bool, reg problems.Registry[Impl]) (Impl, error) {
	if !slices.Contains(semiring.Names, semiringName) {
		return Impl{}, fmt.Errorf("unknown semiring %q (known: %s)", semiringName, strings.Join(semiring.Names, ", "))
	}
	if impl == "" {
		impl = DefaultImpl(inverse)
	}
	im, err := reg.Lookup(impl)
	if err != nil {
		return Impl{}, err
	}
	if inverse && semiringName != "real" {
		return Impl{}, fmt.Errorf("--inverse needs the real semiring, not %q", semiringName)
	}
	if inverse && im.Inverse == nil {
		var with []string
		for _, x := range reg.All() {
			if x.Inverse != nil {
				with = append(with, x.Name)
			}
		}
		return Impl{}, fmt.Errorf("--inverse runs the direct variant of %s, not %s (implementations of --inverse: %s)", DefaultImpl(true), impl, strings.Join(with, ", "))
	}
	if !inverse && ((semiringName == "boolean" && im.Bool == nil) || (semiringName != "boolean" && im.Float == nil)) {
		return Impl{}, fmt.Errorf("%s does not implement %s", impl, semiringName)
	}
	return im, nil
}

// Solvers lists the names of the implementations in reg that Solve can
// run (those with a closure), in display order.
func Solvers(reg problems.Registry[Impl]) []string {
	var out []string
	for _, im := range reg.All() {
		if im.Float != nil || im.Bool != nil {
			out = append(out, im.Name)
		}
	}
	return out
}

// PathSumBound is the largest arc weight magnitude, for order n, below
// which every sum an elimination forms in min-plus or max-plus stays
// within largest (the largest finite value of the type it computes in):
// a finite entry is the weight of a path or cycle of at most n arcs, an
// update adds two of them (2n·|w|), and a factor 2 more covers the
// rounding of those sums. Beyond it a sum may overflow to an infinity,
// which reads as "no path" or as a cycle, a wrong answer.
func PathSumBound(n int, largest float64) float64 {
	return largest / (4 * float64(max(n, 1)))
}

// weightCheck returns readMatrix's conversion for a float semiring of
// order n: in min-plus and max-plus a finite weight beyond PathSumBound
// is refused, naming its line and the bound; in the real semiring an
// infinite entry is.
func weightCheck(sc *mtx.Scanner, semiringName string, n int) func(float64) (float64, error) {
	lim := PathSumBound(n, math.MaxFloat64)
	return func(v float64) (float64, error) {
		switch {
		case semiringName == "real" && math.IsInf(v, 0):
			return 0, sc.Errorf("entry %s: the real semiring takes finite entries only", formatFloat(v))
		case semiringName != "real" && !math.IsInf(v, 0) && math.Abs(v) > lim:
			return 0, sc.Errorf("weight %s exceeds ±%.6g, the bound for %d vertices (the largest float64 / 4n): sums of paths could overflow to an infinity; scale the weights down",
				formatFloat(v), lim, n)
		}
		return v, nil
	}
}

func readMatrix[T any, S semiring.Semiring[T]](sc *mtx.Scanner, n int, s S, conv func(float64) (T, error)) (*Matrix[T], error) {
	a := NewMatrix(n, s.Zero())
	for {
		e, err := sc.Next()
		if err == io.EOF {
			return a, nil
		}
		if err != nil {
			return nil, err
		}
		v, err := conv(e.V)
		if err != nil {
			return nil, err
		}
		a.Set(e.I, e.J, s.Plus(a.At(e.I, e.J), v))
	}
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// writeMatrix writes the entries of a that differ from zero in coordinate
// Matrix Market format, 1-based, row by row.
func writeMatrix[T comparable](w io.Writer, a *Matrix[T], zero T, comment string, format func(T) string) error {
	nnz := 0
	for _, v := range a.Data {
		if v != zero {
			nnz++
		}
	}
	field := "real"
	if _, ok := any(zero).(bool); ok {
		field = "integer"
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix coordinate %s general\n%% %s\n%d %d %d\n", field, comment, a.N, a.N, nnz)
	for i := 0; i < a.N; i++ {
		for j, v := range a.Row(i) {
			if v != zero {
				fmt.Fprintf(bw, "%d %d %s\n", i+1, j+1, format(v))
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}
