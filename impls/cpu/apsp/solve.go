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
	"github.com/semibench/semibench/semiring"
)

// Impls lists the CPU implementations by name.
var Impls = []string{"cpu/sgje", "cpu/fast"}

// Closure runs the named implementation ("cpu/sgje" or "cpu/fast") on c in
// place.
func Closure[T any, S semiring.Semiring[T]](ctx context.Context, impl string, s S, c *Matrix[T], opt FastOptions) error {
	switch impl {
	case "cpu/sgje":
		_, err := SGJE(ctx, s, c)
		return err
	case "cpu/fast":
		return Fast(ctx, s, c, opt)
	}
	return fmt.Errorf("unknown apsp implementation %q (known: %s)", impl, strings.Join(Impls, ", "))
}

// Backend is a closure implementation that this package does not hold (a
// GPU one): SolveWith runs it by name beside the CPU implementations, so
// that this package imports none of it. A nil function means the backend
// does not cover that case, and SolveWith says so.
type Backend struct {
	// Name is the implementation's name, e.g. "cuda/fast".
	Name string
	// Note, when not empty, is added to the output's comment line (e.g.
	// how the backend represents the values).
	Note string
	// Float replaces a by its closure in the named semiring ("min-plus",
	// "max-plus" or "real"; values in float64 as Solve reads them).
	Float func(ctx context.Context, semiring string, a *Matrix[float64]) error
	// Bool replaces a by its closure in the Boolean semiring.
	Bool func(ctx context.Context, a *Matrix[bool]) error
	// Inverse replaces a by A⁻¹ (the real semiring's --inverse).
	Inverse func(ctx context.Context, a *Matrix[float64]) error
}

// Solve is `semibench solve apsp`: it reads the weight matrix A from the
// Matrix Market file r (name is used in messages; a_ij, 1-based, is the
// weight of the arc i -> j; entries not listed are the semiring's zero;
// a cell listed twice is an error naming both lines), computes D = A* in the named
// semiring ("min-plus", "max-plus", "boolean", "real"; values in float64,
// any nonzero value is true in "boolean") with the named implementation
// ("cpu/fast" when impl is empty, or "cpu/sgje"), and writes D to w as a
// coordinate Matrix Market file listing every entry that is not the
// semiring's zero, with infinities written as inf and -inf.
//
// With inverse (real semiring only) it writes A⁻¹, computed by the paper's
// direct variant of sGJE (Inverse; impl must be empty or "cpu/sgje").
//
// Errors: a matrix that is not square; an undefined star in the real
// semiring (an error wrapping ErrStar naming the pivot); a zero pivot of
// the inverse (wrapping ErrSingular, naming its row and column). A negative
// cycle in min-plus is no error: the distances it reaches are -inf.
func Solve(ctx context.Context, r io.Reader, name, semiringName, impl string, inverse bool, w io.Writer) error {
	return SolveWith(ctx, r, name, semiringName, impl, inverse, w)
}

// SolveWith is Solve with further implementations: impl may also name one
// of backends (cmd/semibench passes the CUDA ones), which then computes the
// closure, or with inverse the inverse, instead of this package.
func SolveWith(ctx context.Context, r io.Reader, name, semiringName, impl string, inverse bool, w io.Writer, backends ...Backend) error {
	impl, be, err := Resolve(semiringName, impl, inverse, backends...)
	if err != nil {
		return fmt.Errorf("solve apsp: %w", err)
	}
	sc, err := mtx.NewScanner(r, name)
	if err != nil {
		return fmt.Errorf("solve apsp: %w", err)
	}
	h := sc.Header()
	if h.Rows != h.Cols {
		return fmt.Errorf("solve apsp: %s: the matrix is %d x %d, not square", name, h.Rows, h.Cols)
	}
	n := h.Rows
	// A dense matrix of float64: refuse an order whose n² elements do not
	// fit in the memory available (a corrupt size line must not exhaust it).
	need := uint64(n) * uint64(n) * 8
	if avail := bench.AvailableMemory(); (avail > 0 && need > avail) || n > 1<<20 {
		return fmt.Errorf("solve apsp: %s: a dense matrix of order %d needs %.1f GiB, more than the %.1f GiB available", name, n, float64(need)/(1<<30), float64(avail)/(1<<30))
	}
	comment := fmt.Sprintf("semibench solve apsp: D = A* over %s by %s", semiringName, impl)
	if be != nil && be.Note != "" {
		comment += " (" + be.Note + ")"
	}
	floatClosure := func(s semiring.Semiring[float64]) func(context.Context, *Matrix[float64]) error {
		if be != nil {
			return func(ctx context.Context, a *Matrix[float64]) error { return be.Float(ctx, semiringName, a) }
		}
		return func(ctx context.Context, a *Matrix[float64]) error { return Closure(ctx, impl, s, a, FastOptions{}) }
	}
	switch semiringName {
	case "min-plus":
		return solveFloat(ctx, sc, n, semiring.MinPlus[float64]{}, floatClosure(semiring.MinPlus[float64]{}), name, comment, w)
	case "max-plus":
		return solveFloat(ctx, sc, n, semiring.MaxPlus[float64]{}, floatClosure(semiring.MaxPlus[float64]{}), name, comment, w)
	case "real":
		if inverse {
			a, err := readMatrix(sc, n, semiring.Real[float64]{}, func(v float64) float64 { return v })
			if err != nil {
				return err
			}
			how := "the direct variant of sGJE (A, B_I, B_O, C'')"
			if be != nil {
				err = be.Inverse(ctx, a)
				how = impl
			} else {
				_, err = Inverse(ctx, a)
			}
			if err != nil {
				return fmt.Errorf("solve apsp: %s: %w", name, err)
			}
			return writeMatrix(w, a, 0.0, "semibench solve apsp: A^-1 by "+how, formatFloat)
		}
		return solveFloat(ctx, sc, n, semiring.Real[float64]{}, floatClosure(semiring.Real[float64]{}), name, comment, w)
	case "boolean":
		a, err := readMatrix(sc, n, semiring.Boolean{}, func(v float64) bool { return v != 0 })
		if err != nil {
			return err
		}
		if be != nil {
			err = be.Bool(ctx, a)
		} else {
			err = Closure(ctx, impl, semiring.Boolean{}, a, FastOptions{})
		}
		if err != nil {
			return fmt.Errorf("solve apsp: %s: %w", name, err)
		}
		return writeMatrix(w, a, false, comment, func(bool) string { return "1" })
	}
	return fmt.Errorf("solve apsp: unknown semiring %q (known: %s)", semiringName, strings.Join(semiring.Names, ", "))
}

// Resolve checks the arguments of SolveWith before any input is read: the
// semiring, the implementation (impl, or the default when empty: cpu/fast,
// cpu/sgje with inverse) and, for a backend's, that it covers the case. It
// returns the implementation SolveWith runs and its backend (nil for this
// package's); the error names the argument at fault and what is accepted.
func Resolve(semiringName, impl string, inverse bool, backends ...Backend) (string, *Backend, error) {
	if !slices.Contains(semiring.Names, semiringName) {
		return "", nil, fmt.Errorf("unknown semiring %q (known: %s)", semiringName, strings.Join(semiring.Names, ", "))
	}
	if impl == "" {
		impl = "cpu/fast"
		if inverse {
			impl = "cpu/sgje"
		}
	}
	var be *Backend
	known := slices.Contains(Impls, impl)
	names := slices.Clone(Impls)
	for i := range backends {
		names = append(names, backends[i].Name)
		if !known && backends[i].Name == impl {
			be, known = &backends[i], true
		}
	}
	if !known {
		return "", nil, fmt.Errorf("unknown implementation %q (known: %s)", impl, strings.Join(names, ", "))
	}
	if inverse && semiringName != "real" {
		return "", nil, fmt.Errorf("--inverse needs the real semiring, not %q", semiringName)
	}
	if inverse && be == nil && impl != "cpu/sgje" {
		return "", nil, fmt.Errorf("--inverse runs the direct variant of cpu/sgje, not %s", impl)
	}
	if be != nil {
		missing := (inverse && be.Inverse == nil) || (!inverse && semiringName == "boolean" && be.Bool == nil) ||
			(!inverse && semiringName != "boolean" && be.Float == nil)
		if missing {
			what := semiringName
			if inverse {
				what = "--inverse"
			}
			return "", nil, fmt.Errorf("%s does not implement %s", impl, what)
		}
	}
	return impl, be, nil
}

// solveFloat reads A in a semiring on float64, replaces it by closure(A)
// and writes it.
func solveFloat[S semiring.Semiring[float64]](ctx context.Context, sc *mtx.Scanner, n int, s S, closure func(context.Context, *Matrix[float64]) error, name, comment string, w io.Writer) error {
	a, err := readMatrix(sc, n, s, func(v float64) float64 { return v })
	if err != nil {
		return err
	}
	if err := closure(ctx, a); err != nil {
		return fmt.Errorf("solve apsp: %s: %w", name, err)
	}
	return writeMatrix(w, a, s.Zero(), comment, formatFloat)
}

func readMatrix[T any, S semiring.Semiring[T]](sc *mtx.Scanner, n int, s S, conv func(float64) T) (*Matrix[T], error) {
	a := NewMatrix(n, s.Zero())
	for {
		e, err := sc.Next()
		if err == io.EOF {
			return a, nil
		}
		if err != nil {
			return nil, fmt.Errorf("solve apsp: %w", err)
		}
		a.Set(e.I, e.J, s.Plus(a.At(e.I, e.J), conv(e.V)))
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
		return fmt.Errorf("solve apsp: writing the result: %w", err)
	}
	return nil
}
