package treefix

import (
	"context"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

func refRun[T Number](t *Tree, _ int) Run[T] {
	return func(_ context.Context, op Op, w, out []T, _ *bench.Recorder) error { return Reference(t, op, w, out) }
}

// reference is an Impl that computes by Reference.
var reference = Impl{Name: "reference", Int64: refRun[int64], Float32: refRun[float32], Float64: refRun[float64]}

// TestSumsCheck: the reference's sums pass the check in int64, float64
// and float32; a sum moved by one (an integer) or by far more than
// rounding (a float) fails it, naming the vertex and its line.
func TestSumsCheck(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		f32        bool
	}{
		{"int64", "-1 1\n0 2\n0 3\n1 4\n", false},
		{"float64", "-1 0.1\n0 0.2\n0 0.3\n1 1e-3\n", false},
		{"float32", "-1 0.1\n0 0.2\n0 0.3\n1 1e-3\n", true},
	} {
		for _, op := range []Op{Rootfix, Leaffix} {
			in, err := ReadInput(strings.NewReader(tc.text), "t.txt", tc.f32)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Compute(context.Background(), in, "t.txt", op, reference, tc.f32)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Check(); err != nil {
				t.Errorf("%s %s: the reference fails the check: %v", tc.name, op, err)
			}
			switch {
			case s.Int != nil:
				s.Int[3]++
			case s.F32 != nil:
				s.F32[3] *= 1.001
			default:
				s.F64[3] *= 1 + 1e-9
			}
			if err := s.Check(); err == nil || !strings.Contains(err.Error(), "vertex 3 (line 4)") {
				t.Errorf("%s %s: a wrong sum: %v, want an error naming vertex 3 on line 4", tc.name, op, err)
			}
		}
	}
}
