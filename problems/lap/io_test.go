package lap

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

func TestReadCosts(t *testing.T) {
	big := fmt.Sprint(MaxAbsCost(3) + 1)
	cases := []struct {
		name, in   string
		rows, cols int
		ints       []int64
		floats     []float64
		inf        []InfCell
		err        error
		line       int
	}{
		{name: "csv int", in: "1,2,3\n4,5,6\n", rows: 2, cols: 3, ints: []int64{1, 2, 3, 4, 5, 6}},
		{name: "csv spaces crlf blank", in: "\n 1 , 2 \r\n\r\n-3,+4\r\n", rows: 2, cols: 2, ints: []int64{1, 2, -3, 4}},
		{name: "csv float", in: "1,2.5\n3e1,4\n", rows: 2, cols: 2, floats: []float64{1, 2.5, 30, 4}},
		{name: "csv digits", in: "-0,+7,12345678901234567,-0012345678901234567\n", rows: 1, cols: 4, ints: []int64{0, 7, 12345678901234567, -12345678901234567}},
		{name: "csv bom no newline", in: "\xef\xbb\xbf7", rows: 1, cols: 1, ints: []int64{7}},
		{name: "mm array", in: "%%MatrixMarket matrix array integer general\n% c\n2 3\n1\n4\n2\n5\n3\n6\n", rows: 2, cols: 3, ints: []int64{1, 2, 3, 4, 5, 6}},
		{name: "mm real", in: "%%MatrixMarket matrix array real general\n1 2\n0.5\n1\n", rows: 1, cols: 2, floats: []float64{0.5, 1}},
		{name: "mm real integral", in: "%%MatrixMarket matrix array real general\n1 2\n5\n1\n", rows: 1, cols: 2, ints: []int64{5, 1}},

		{name: "non-numeric", in: "1,2\n3,x\n", err: ErrCell, line: 2},
		{name: "sign alone", in: "1,+\n", err: ErrCell, line: 1},
		{name: "inner space", in: "1,2 3\n", err: ErrCell, line: 1},
		{name: "empty cell", in: "1,,2\n", err: ErrCell, line: 1},
		{name: "trailing comma", in: "1,2,\n3,4,5\n", err: ErrCell, line: 1},
		{name: "ragged", in: "1,2,3\n4,5\n", err: ErrRagged, line: 2},
		{name: "nan", in: "1,2\nNaN,4\n", err: ErrNotFinite, line: 2},
		{name: "inf", in: "1,2\n3,-Inf\n", rows: 2, cols: 2, ints: []int64{1, 2, 3, 0}, inf: []InfCell{{K: 3, Neg: true, Line: 2}}},
		{name: "inf float", in: "inf,2.5\n+Infinity,1\n", rows: 2, cols: 2, floats: []float64{0, 2.5, 0, 1}, inf: []InfCell{{K: 0, Line: 1}, {K: 2, Line: 2}}},
		{name: "mm inf", in: "%%MatrixMarket matrix array real general\n2 2\n1\ninf\n2\n3\n", rows: 2, cols: 2, ints: []int64{1, 2, 0, 3}, inf: []InfCell{{K: 2, Line: 4}}},
		{name: "float sum overflow", in: "1,2\n1e307,4\n", err: ErrOverflow, line: 2},
		{name: "float sum overflow first row", in: "0.5,1e307\n", err: ErrOverflow, line: 1},
		{name: "float range", in: "1,1e999\n", err: ErrNotFinite, line: 1},
		{name: "more rows", in: "1,2\n3,4\n5,6\n", err: ErrShape, line: 3},
		{name: "empty", in: "", err: ErrShape},
		{name: "blank", in: "\n\n", err: ErrShape},
		{name: "int64 overflow", in: "1,99999999999999999999\n", err: ErrOverflow, line: 1},
		{name: "sum overflow", in: "1,2,3\n4,5," + big + "\n", err: ErrOverflow, line: 2},
		{name: "inexact int with float", in: "9007199254740993,1\n2,0.5\n", err: ErrCell, line: 1},
		{name: "mm coordinate", in: "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n", err: ErrFormat, line: 1},
		{name: "mm more rows", in: "%%MatrixMarket matrix array real general\n3 2\n", err: ErrShape, line: 2},
		{name: "mm short", in: "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", err: ErrFormat, line: 6},
		{name: "mm long", in: "%%MatrixMarket matrix array real general\n1 1\n1\n2\n", err: ErrFormat, line: 4},
		{name: "mm bad value", in: "%%MatrixMarket matrix array real general\n1 2\n1\nabc\n", err: ErrCell, line: 4},
		{name: "mm float in integer file", in: "%%MatrixMarket matrix array integer general\n1 2\n1\n2.5\n", err: ErrCell, line: 4},
		{name: "mm no size", in: "%%MatrixMarket matrix array real general\n% only a comment\n", err: ErrFormat, line: 3},
		{name: "mm bad size", in: "%%MatrixMarket matrix array real general\n2 x\n", err: ErrFormat, line: 2},
		{name: "mm huge size", in: "%%MatrixMarket matrix array real general\n99999999 99999999\n", err: ErrFormat, line: 2},
	}
	for _, tc := range cases {
		c, err := ReadCosts(strings.NewReader(tc.in), "f.csv")
		if tc.err != nil {
			var pe *ParseError
			if !errors.Is(err, tc.err) || !errors.As(err, &pe) || pe.Line != tc.line || pe.File != "f.csv" {
				t.Errorf("%s: err %v, want %v at line %d", tc.name, err, tc.err, tc.line)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if c.Rows != tc.rows || c.Cols != tc.cols || !slices.Equal(c.Int, tc.ints) || !slices.Equal(c.Float, tc.floats) || !slices.Equal(c.Inf, tc.inf) {
			t.Errorf("%s: got %dx%d %v %v %v, want %dx%d %v %v %v", tc.name, c.Rows, c.Cols, c.Int, c.Float, c.Inf, tc.rows, tc.cols, tc.ints, tc.floats, tc.inf)
		}
	}
}

// TestSolveChecks: Solve certifies an answer with duals, holds one without
// duals to SolveJV's certified cost, and turns a wrong answer into an error.
func TestSolveChecks(t *testing.T) {
	ctx := context.Background()
	c, err := ReadCosts(strings.NewReader("4,1,3\n2,0,5\n3,2,2\n"), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	jv := JV
	noDuals := Impl{Name: "no-duals", Solve: func(ctx context.Context, m *Matrix, rec *bench.Recorder) (*Result, error) {
		res, err := SolveJV(ctx, m, rec)
		if err != nil {
			return nil, err
		}
		return &Result{Assignment: res.Assignment, Cost: res.Cost}, nil
	}}
	// A valid assignment that is not optimal (the identity costs 4+0+2).
	wrong := Impl{Name: "wrong", Solve: func(ctx context.Context, m *Matrix, rec *bench.Recorder) (*Result, error) {
		a := []int{0, 1, 2}
		return &Result{Assignment: a, Cost: m.CostOf(a)}, nil
	}}
	for _, im := range []Impl{jv, noDuals} {
		s, err := Solve(ctx, c, im, false)
		if err != nil || s.Cost != "5" || s.Impl != im.Name || !slices.Equal(s.Assignment, []int{1, 0, 2}) {
			t.Errorf("%s: %+v, %v", im.Name, s, err)
		}
	}
	if s, err := Solve(ctx, c, wrong, false); err == nil || !strings.Contains(err.Error(), "failed its check") {
		t.Errorf("a non-optimal answer passed: %+v, %v", s, err)
	}
	if _, err := Solve(ctx, c, noDuals, true); err != nil {
		t.Errorf("no-duals maximize: %v", err)
	}
	f, err := ReadCosts(strings.NewReader("0.5,1.5\n2.25,0.25\n"), "y.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Solve(ctx, f, noDuals, false); !errors.Is(err, ErrNeedsIntegers) {
		t.Errorf("float costs, no float solver: %v", err)
	}
}
