package treefix

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems"
)

// fig2 is the paper's Fig. 2 tree: a(b(c, d, e), f) with W = [1,2,4,5,6,3].
var fig2 = []int32{-1, 0, 1, 1, 1, 0}

// TestFig2: the vector representation and the reference sums of the
// paper's Fig. 2.
func TestFig2(t *testing.T) {
	tr, err := NewTree(fig2)
	if err != nil {
		t.Fatal(err)
	}
	v := tr.BuildVector()
	if !slices.Equal(v.Open, []int32{0, 1, 2, 4, 6, 9}) || !slices.Equal(v.Close, []int32{11, 8, 3, 5, 7, 10}) {
		t.Fatalf("(V = %v, V) = %v; want the paper's [0 1 2 4 6 9], [11 8 3 5 7 10]", v.Open, v.Close)
	}
	w := []int64{1, 2, 4, 5, 6, 3}
	want := map[Op][]int64{Rootfix: {1, 3, 7, 8, 9, 4}, Leaffix: {21, 17, 4, 5, 6, 3}}
	for _, op := range []Op{Rootfix, Leaffix} {
		out := make([]int64, 6)
		if err := Reference(tr, op, w, out); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out, want[op]) {
			t.Errorf("Reference %s = %v, want %v", op, out, want[op])
		}
		wf := make([]float64, 6)
		for i, x := range w {
			wf[i] = float64(x)
		}
		ex, err := Exact(tr, op, wf)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ex {
			if ex[i] != float64(want[op][i]) {
				t.Errorf("Exact %s = %v, want %v", op, ex, want[op])
				break
			}
		}
	}
	if err := Reference(tr, Rootfix, w[:5], make([]int64, 6)); err == nil {
		t.Error("Reference: short weights accepted")
	}
}

// TestExactCancels: Exact keeps what float64 sums lose (1e300 - 1e300 + 1
// from the root is 1 at the leaf).
func TestExactCancels(t *testing.T) {
	tr, err := NewTree([]int32{-1, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{1, 1e300, -1e300}
	ex, err := Exact(tr, Rootfix, w)
	if err != nil {
		t.Fatal(err)
	}
	if ex[2] != 1 {
		t.Errorf("exact rootfix at the leaf %g, want 1", ex[2])
	}
	ex, _ = Exact(tr, Leaffix, []float64{0x1p-1074, 1e300, -1e300})
	if ex[0] != 0x1p-1074 || math.IsInf(ex[1], 0) {
		t.Errorf("exact leaffix %v, want the smallest subnormal at the root", ex)
	}
}

func TestNewTreeErrors(t *testing.T) {
	if _, err := NewTree([]int32{-1, -1}); err == nil {
		t.Error("two roots accepted")
	}
}

// TestResolveImpl: full names, CPU names without their prefix and ""
// resolve; an unknown name lists the valid ones.
func TestResolveImpl(t *testing.T) {
	fake := func(name string) Impl {
		return Impl{Name: name, Int64: func(*Tree, int) Run[int64] {
			return func(context.Context, Op, []int64, []int64, *bench.Recorder) error { return nil }
		}}
	}
	r := problems.NewRegistry(func(im Impl) string { return im.Name },
		[]Impl{fake(DefaultImpl), fake("cpu/parallel")}, []Impl{fake("cuda/parallel")})
	for in, want := range map[string]string{"": DefaultImpl, "parallel": "cpu/parallel", "cpu/parallel": "cpu/parallel", "cuda/parallel": "cuda/parallel"} {
		im, err := ResolveImpl(r, in)
		if err != nil || im.Name != want {
			t.Errorf("ResolveImpl(%q) = %q, %v; want %q", in, im.Name, err, want)
		}
	}
	if _, err := ResolveImpl(r, "gpu/fast"); err == nil || !strings.Contains(err.Error(), "cuda/parallel") {
		t.Errorf("ResolveImpl(gpu/fast): %v, want an error listing cuda/parallel", err)
	}
	if _, err := ResolveImpl(r, "cuda/sequential"); err == nil {
		t.Error("cuda/sequential accepted")
	}
}

// TestReadInputMessages: each bad input is named by file and line with
// its real reason.
func TestReadInputMessages(t *testing.T) {
	long := "# " + strings.Repeat("c", 3*maxLine) + "\n"
	cases := []struct {
		name, in string
		f32      bool
		want     string // "" for no error
	}{
		{"long comment", long + "-1 5\n0 2\n", false, ""},
		{"long data line", "-1 5\n0 " + strings.Repeat("1", maxLine) + "\n", false, "t.txt:2: bad treefix input: line longer than"},
		{"int beyond int64", "-1 100000000000000000000\n", false, "t.txt:1: bad treefix input: integer weight 100000000000000000000 does not fit in int64"},
		{"int beyond int64 as float32", "-1 100000000000000000000\n", true, ""},
		{"float32 range", "-1 1e308\n", true, "t.txt:1: bad treefix input: weight 1e308 is beyond the float32 range"},
		{"float64 range", "-1 1e309\n", false, "t.txt:1: bad treefix input: weight 1e309 is beyond the float64 range"},
		{"inf", "-1 inf\n", false, "not a finite number"},
		{"word", "-1 abc\n", false, `weight "abc" is not a number`},
		{"underflow", "-1 1e-50\n", true, ""},
		{"crlf", "-1 5\r\n0 -3\r\n", false, ""},
	}
	for _, tc := range cases {
		in, err := ReadInput(strings.NewReader(tc.in), "t.txt", tc.f32)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInput)):
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		case tc.name == "crlf" && (!in.Int || in.IntW[1] != -3):
			t.Errorf("crlf: %+v", in)
		}
	}
}

// FuzzReadInput: a tree file never panics the reader; what it accepts is a
// tree (one root, parents in range, no cycle) with a weight and a line per
// vertex, integer weights kept exactly.
func FuzzReadInput(f *testing.F) {
	for _, s := range []string{
		"-1 5\n0 2\n0 -3\n", "# c\n-1 1.5\n0 1e-50\n", "-1 1\n1 1\n", "0 1\n", "-1 100000000000000000000\n",
		"-1 1e308\n0 1e308\n", "-1 inf\n", "\n\n-1 +7\r\n0 -0\r\n", "-1 1 2\n", "-1\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, f32 bool) {
		in, err := ReadInput(bytes.NewReader(data), "fuzz", f32)
		if err != nil {
			if !errors.Is(err, ErrInput) || !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error %v does not wrap ErrInput naming the file", err)
			}
			return
		}
		n := len(in.Parent)
		if len(in.W) != n || len(in.Line) != n || (in.Int && len(in.IntW) != n) || (f32 && in.Int) {
			t.Fatalf("%d vertices, %d weights, %d lines, int %v with %d", n, len(in.W), len(in.Line), in.Int, len(in.IntW))
		}
		if _, err := NewTree(in.Parent); err != nil {
			t.Fatalf("accepted a parent array that is no tree: %v", err)
		}
		for v, w := range in.W {
			if math.IsInf(w, 0) || math.IsNaN(w) || (in.Int && float64(in.IntW[v]) != w) {
				t.Fatalf("vertex %d: weight %v (int %v)", v, w, in.Int)
			}
		}
	})
}
