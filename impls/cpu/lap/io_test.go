package lap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestReadCosts(t *testing.T) {
	big := fmt.Sprint(MaxAbsCost(3) + 1)
	cases := []struct {
		name, in   string
		rows, cols int
		ints       []int64
		floats     []float64
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
		{name: "inf", in: "1,2\n3,-Inf\n", err: ErrNotFinite, line: 2},
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
		if c.Rows != tc.rows || c.Cols != tc.cols || !slices.Equal(c.Int, tc.ints) || !slices.Equal(c.Float, tc.floats) {
			t.Errorf("%s: got %dx%d %v %v, want %dx%d %v %v", tc.name, c.Rows, c.Cols, c.Int, c.Float, tc.rows, tc.cols, tc.ints, tc.floats)
		}
	}
}

func TestSolve(t *testing.T) {
	ctx := context.Background()
	in := "4,1,3\n2,0,5\n3,2,2\n"
	c, err := ReadCosts(strings.NewReader(in), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(Names(), "") {
		s, err := Solve(ctx, c, name, false)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if s.Cost != "5" || !slices.Equal(s.Assignment, []int{1, 0, 2}) {
			t.Errorf("%q: %+v", name, s)
		}
		mx, err := Solve(ctx, c, name, true)
		if err != nil {
			t.Fatal(err)
		}
		if mx.Cost != "11" { // 4 + 5 + 2
			t.Errorf("%q maximize: %+v", name, mx)
		}
	}
	out, _ := json.Marshal(&Solution{Cost: "5", Assignment: []int{1, 0, 2}, Impl: "cpu/jv", MS: 0.5})
	if string(out) != `{"cost":5,"assignment":[1,0,2],"impl":"cpu/jv","ms":0.5}` {
		t.Errorf("json %s", out)
	}
	f, err := ReadCosts(strings.NewReader("0.5,1.5\n2.25,0.25\n3,3\n"), "y.csv")
	if err == nil {
		t.Fatalf("3x2 accepted: %+v", f)
	}
	f, err = ReadCosts(strings.NewReader("0.5,1.5,9\n2.25,0.25,9\n"), "y.csv")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Solve(ctx, f, "cpu/jv", false)
	if err != nil || s.Cost != "0.75" {
		t.Errorf("float: %+v %v", s, err)
	}
	s, err = Solve(ctx, f, "cpu/jv", true)
	if err != nil || s.Cost != "11.25" || !slices.Equal(s.Assignment, []int{2, 0}) {
		t.Errorf("float maximize: %+v %v", s, err)
	}
	if _, err := Solve(ctx, f, "cpu/auction", false); !errors.Is(err, ErrNeedsIntegers) {
		t.Errorf("auction on floats: %v", err)
	}
	if _, err := Solve(ctx, c, "cpu/nope", false); err == nil {
		t.Error("unknown impl accepted")
	}
}

// FuzzReadCosts: the reader never panics, and what it accepts is a valid
// matrix that every implementation solves to the same certified cost.
func FuzzReadCosts(f *testing.F) {
	for _, s := range []string{
		"1,2\n3,4\n", "1.5,2\n", "%%MatrixMarket matrix array real general\n1 2\n1\n2\n",
		"%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n4\n", "1,2,3\n4,5\n", "nan", "-0,+1,1e3\n",
		"9223372036854775807,1\n", "%%MatrixMarket matrix array real general\n%\n\n2 3\n1 2 3 4 5 6\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadCosts(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if c.Rows < 1 || c.Rows > c.Cols || (c.IsInt() && len(c.Int) != c.Rows*c.Cols) || (!c.IsInt() && len(c.Float) != c.Rows*c.Cols) {
			t.Fatalf("bad matrix %dx%d (%d ints, %d floats)", c.Rows, c.Cols, len(c.Int), len(c.Float))
		}
		if c.Rows*c.Cols > 64 {
			return
		}
		var want string
		for _, name := range Names() {
			s, err := Solve(context.Background(), c, name, false)
			if errors.Is(err, ErrNeedsIntegers) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if c.IsInt() {
				if want == "" {
					want = string(s.Cost)
				} else if string(s.Cost) != want {
					t.Fatalf("%s: cost %s, others %s", name, s.Cost, want)
				}
			}
		}
	})
}
