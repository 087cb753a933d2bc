package lap

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestReadBatch(t *testing.T) {
	big := fmt.Sprint(MaxAbsCost(2) + 1)
	cases := []struct {
		name, in          string
		count, rows, cols int
		ints              []int64
		floats            []float64
		err               error
		line              int
	}{
		{name: "ints", in: "lapbatch 2 2 2\n1,2\n3,4\n\n5,6\n7,8\n", count: 2, rows: 2, cols: 2, ints: []int64{1, 2, 3, 4, 5, 6, 7, 8}},
		{name: "comments blank crlf", in: "# a batch\r\nlapbatch 1 1 3\r\n\r\n# problem 1\r\n 1 , -2 ,+3\r\n", count: 1, rows: 1, cols: 3, ints: []int64{1, -2, 3}},
		{name: "floats", in: "lapbatch 2 1 2\n1,2\n0.5,3e1\n", count: 2, rows: 1, cols: 2, floats: []float64{1, 2, 0.5, 30}},
		{name: "empty", in: "", err: ErrFormat, line: 1},
		{name: "bad header word", in: "lap 1 1 1\n1\n", err: ErrFormat, line: 1},
		{name: "bad header count", in: "lapbatch x 1 1\n1\n", err: ErrFormat, line: 1},
		{name: "zero count", in: "lapbatch 0 1 1\n", err: ErrFormat, line: 1},
		{name: "rows > cols", in: "\nlapbatch 1 3 2\n", err: ErrShape, line: 2},
		{name: "ragged short", in: "lapbatch 2 2 2\n1,2\n3,4\n5\n", err: ErrRagged, line: 4},
		{name: "ragged long", in: "lapbatch 1 2 2\n1,2\n\n3,4,5\n", err: ErrRagged, line: 4},
		{name: "bad cell", in: "lapbatch 1 2 2\n1,2\n3,x\n", err: ErrCell, line: 3},
		{name: "nan", in: "lapbatch 1 1 2\n1,NaN\n", err: ErrNotFinite, line: 2},
		{name: "too few lines", in: "lapbatch 2 2 2\n1,2\n3,4\n5,6\n", err: ErrFormat, line: 5},
		{name: "too many lines", in: "lapbatch 1 1 2\n1,2\n3,4\n", err: ErrFormat, line: 3},
		{name: "overflow", in: "lapbatch 2 1 2\n1,2\n3," + big + "\n", err: ErrOverflow, line: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadBatch(strings.NewReader(tc.in), "b.txt")
			if tc.err != nil {
				var pe *ParseError
				if !errors.Is(err, tc.err) || !errors.As(err, &pe) || pe.Line != tc.line || pe.File != "b.txt" {
					t.Fatalf("err = %v, want %v at b.txt:%d", err, tc.err, tc.line)
				}
				if !strings.HasPrefix(err.Error(), fmt.Sprintf("b.txt:%d: ", tc.line)) {
					t.Fatalf("message %q does not start with the file and line", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Count != tc.count || b.Rows != tc.rows || b.Cols != tc.cols || !slices.Equal(b.Int, tc.ints) || !slices.Equal(b.Float, tc.floats) {
				t.Fatalf("got %d x %dx%d ints %v floats %v", b.Count, b.Rows, b.Cols, b.Int, b.Float)
			}
			if err := b.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// randomBatch is count problems of r x c uniform integers in [0, rng).
func randomBatch(count, r, c int, rng int64, seed uint64) *Batch {
	src := rand.New(rand.NewPCG(seed, 7))
	b := &Batch{Name: "random", Count: count, Rows: r, Cols: c, Int: make([]int64, count*r*c)}
	for k := range b.Int {
		b.Int[k] = src.Int64N(rng)
	}
	return b
}

// TestSolveBatch solves a batch in parallel and checks every problem
// against a sequential cpu/jv solve; float batches, maximisation (by
// Negate) and the certificate too.
func TestSolveBatch(t *testing.T) {
	ctx := context.Background()
	jv := JV
	for _, shape := range [][2]int{{6, 6}, {4, 9}} {
		b := randomBatch(37, shape[0], shape[1], 20, uint64(shape[1]))
		for _, neg := range []bool{false, true} {
			bb := b
			if neg {
				bb = b.Negate()
			}
			out, err := SolveBatch(ctx, bb, jv, 3)
			if err != nil {
				t.Fatal(err)
			}
			if err := CertifyBatch(bb, out, FloatTolerance); err != nil {
				t.Fatal(err)
			}
			for k := range bb.Count {
				ref, err := SolveJV(ctx, bb.Matrix(k), nil)
				if err != nil {
					t.Fatal(err)
				}
				if out.Int[k].Cost != ref.Cost {
					t.Fatalf("%v neg=%v problem %d: cost %d, sequential %d", shape, neg, k, out.Int[k].Cost, ref.Cost)
				}
				if want := fmt.Sprint(-ref.Cost); neg && out.CostText(k, true) != want {
					t.Fatalf("CostText = %s, want %s", out.CostText(k, true), want)
				}
			}
			// The float batch of the same costs has the same optima.
			fb := &Batch{Name: "f", Count: bb.Count, Rows: bb.Rows, Cols: bb.Cols, Float: make([]float64, len(bb.Int))}
			for k, x := range bb.Int {
				fb.Float[k] = float64(x) + 0.25
			}
			fout, err := SolveBatch(ctx, fb, jv, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := CertifyBatch(fb, fout, FloatTolerance); err != nil {
				t.Fatal(err)
			}
			for k := range fb.Count {
				if want := float64(out.Int[k].Cost) + 0.25*float64(bb.Rows); fout.Float[k].Cost != want {
					t.Fatalf("float problem %d: cost %g, want %g", k, fout.Float[k].Cost, want)
				}
			}
		}
	}
	auction := Impl{Name: "cpu/auction", Solve: JV.Solve} // integer costs only, as cpu/auction
	if _, err := SolveBatch(ctx, &Batch{Name: "f", Count: 1, Rows: 1, Cols: 1, Float: []float64{0.5}}, auction, 0); !errors.Is(err, ErrNeedsIntegers) {
		t.Fatalf("float batch on cpu/auction: %v", err)
	}
}

// TestCertifyBatchRejects: a wrong problem is named; missing duals fail.
func TestCertifyBatchRejects(t *testing.T) {
	ctx := context.Background()
	jv := JV
	b := randomBatch(5, 4, 4, 100, 3)
	out, err := SolveBatch(ctx, b, jv, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Int[3]
	r.Assignment[0], r.Assignment[1] = r.Assignment[1], r.Assignment[0]
	r.Cost = b.Matrix(3).CostOf(r.Assignment)
	if err := CertifyBatch(b, out, 0); err == nil || !strings.Contains(err.Error(), "problem 4:") {
		t.Fatalf("a swapped assignment: %v", err)
	}
	out.Int[3].U = nil
	out.Int[3].V = nil
	if err := CertifyBatch(b, out, 0); err == nil || !strings.Contains(err.Error(), "no duals") {
		t.Fatalf("missing duals: %v", err)
	}
	if err := CertifyBatch(b, &BatchOutput{}, 0); err == nil {
		t.Fatal("an empty output passed")
	}
}

// TestForEachProblemError returns the lowest failing problem's error.
func TestForEachProblemError(t *testing.T) {
	err := ForEachProblem(context.Background(), 100, 1, func(k int) error {
		if k == 17 || k == 40 {
			return fmt.Errorf("fail %d", k)
		}
		return nil
	})
	if err == nil || err.Error() != "fail 17" {
		t.Fatalf("err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ForEachProblem(ctx, 10, 2, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// FuzzReadBatch: ReadBatch never panics, and what it accepts is a valid
// batch whose problems all certify under cpu/jv, or that SolveBatchChecked
// refuses for a reason of the input (an infeasible problem, a -inf cost, a
// stand-in beyond the bound).
func FuzzReadBatch(f *testing.F) {
	f.Add("lapbatch 2 2 2\n1,2\n3,4\n\n0,1\n1,0\n")
	f.Add("lapbatch 1 1 3\n# a comment\n0.5,1,2\n")
	f.Add("lapbatch 1 2 2\n1,2\n")
	f.Add("lapbatch 0 1 1\n")
	f.Add("lapbatch 2 2 2\n1,inf\n2,1\n\ninf,1\n3,inf\n")
	f.Add("lapbatch 1 2 2\ninf,inf\n1,2\n")
	f.Add("lapbatch 1 1 2\n-inf,0.5\n")
	f.Add("lapbatch 1 1 2\n1e307,1\n")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ReadBatch(strings.NewReader(text), "fuzz")
		if err != nil {
			return
		}
		if err := b.Validate(); err != nil {
			t.Fatalf("accepted an invalid batch: %v", err)
		}
		if b.Count*b.Rows*b.Cols > 1<<12 {
			return
		}
		_, err = SolveBatchChecked(context.Background(), b, JV, false)
		if err != nil && !errors.Is(err, ErrInfeasible) && !errors.Is(err, ErrNotFinite) && !errors.Is(err, ErrOverflow) {
			t.Fatalf("cpu/jv on an accepted batch: %v", err)
		}
	})
}
