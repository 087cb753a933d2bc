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

// Solve is `semibench solve apsp`: it reads the weight matrix A from the
// Matrix Market file r (name is used in messages; a_ij, 1-based, is the
// weight of the arc i -> j; entries not listed are the semiring's zero;
// a cell listed twice is an error naming both lines), computes D = A* in the named
// semiring ("min-plus", "max-plus", "boolean", "real"; values in float64,
// any nonzero value is true in "boolean") with the implementation of reg
// named impl (DefaultImpl when empty), and writes D to w as a coordinate
// Matrix Market file listing every entry that is not the semiring's zero,
// with infinities written as inf and -inf.
//
// With inverse (real semiring only) it writes A⁻¹, computed by the
// implementation's Inverse (cpu/sgje: the paper's direct variant of sGJE).
//
// Errors: those of Resolve; a matrix that is not square; an undefined star
// in the real semiring (an error wrapping ErrStar naming the pivot); a zero
// pivot of the inverse (wrapping ErrSingular, naming its row and column). A
// negative cycle in min-plus is no error: the distances it reaches are
// -inf.
func Solve(ctx context.Context, r io.Reader, name, semiringName, impl string, inverse bool, w io.Writer, reg problems.Registry[Impl]) error {
	im, err := Resolve(semiringName, impl, inverse, reg)
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
	comment := fmt.Sprintf("semibench solve apsp: D = A* over %s by %s", semiringName, im.Name)
	if im.Note != "" {
		comment += " (" + im.Note + ")"
	}
	switch semiringName {
	case "min-plus":
		return solveFloat(ctx, sc, n, semiring.MinPlus[float64]{}, im, semiringName, name, comment, w)
	case "max-plus":
		return solveFloat(ctx, sc, n, semiring.MaxPlus[float64]{}, im, semiringName, name, comment, w)
	case "real":
		if inverse {
			a, err := readMatrix(sc, n, semiring.Real[float64]{}, func(v float64) float64 { return v })
			if err != nil {
				return err
			}
			how := im.Name
			if im.InverseNote != "" {
				how = im.InverseNote
			}
			if _, err := im.Inverse(ctx, a, Options{}); err != nil {
				return fmt.Errorf("solve apsp: %s: %w", name, err)
			}
			return writeMatrix(w, a, 0.0, "semibench solve apsp: A^-1 by "+how, formatFloat)
		}
		return solveFloat(ctx, sc, n, semiring.Real[float64]{}, im, semiringName, name, comment, w)
	case "boolean":
		a, err := readMatrix(sc, n, semiring.Boolean{}, func(v float64) bool { return v != 0 })
		if err != nil {
			return err
		}
		if _, err := im.Bool(ctx, a, Options{}); err != nil {
			return fmt.Errorf("solve apsp: %s: %w", name, err)
		}
		return writeMatrix(w, a, false, comment, func(bool) string { return "1" })
	}
	return fmt.Errorf("solve apsp: unknown semiring %q (known: %s)", semiringName, strings.Join(semiring.Names, ", "))
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

// solveFloat reads A in a semiring on float64, replaces it by its closure
// by im
// and writes it.
func solveFloat[S semiring.Semiring[float64]](ctx context.Context, sc *mtx.Scanner, n int, s S, im Impl, semiringName, name, comment string, w io.Writer) error {
	a, err := readMatrix(sc, n, s, func(v float64) float64 { return v })
	if err != nil {
		return err
	}
	if _, err := im.Float(ctx, semiringName, a, Options{}); err != nil {
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
