package systolic_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/semibench/semibench/problems/apsp/systolic"

	cpuapsp "github.com/semibench/semibench/impls/cpu/apsp"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
)

func sgje[T any, S semiring.Semiring[T]](t *testing.T, s S, n int, x []T) []T {
	t.Helper()
	m := &apsp.Matrix[T]{N: n, Data: append([]T(nil), x...)}
	if _, err := cpuapsp.SGJE(context.Background(), s, m); err != nil {
		t.Fatal(err)
	}
	return m.Data
}

func minPlusMatrix(r *rand.Rand, n int) []float64 {
	x := make([]float64, n*n)
	for i := range x {
		x[i] = math.Inf(1)
		if r.Float64() < 0.4 {
			x[i] = float64(r.IntN(20) - 2)
		}
	}
	return x
}

// checkRun asserts the paper's formulas and sGJE's results on every matrix.
func checkRun[T comparable, S semiring.Semiring[T]](t *testing.T, s S, n int, mats [][]T, cfg systolic.Config) *systolic.Run[T] {
	t.Helper()
	run, err := systolic.Simulate(context.Background(), n, systolic.SemiringOps(s), mats, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if run.Conflicts != 0 {
		t.Fatalf("%s n=%d: %d conflicts, first: %s", s.Name(), n, run.Conflicts, run.FirstConflict)
	}
	if run.Processors != (n+1)*(n+1) {
		t.Errorf("n=%d: %d processors", n, run.Processors)
	}
	for m := range mats {
		want := sgje(t, s, n, mats[m])
		for e := range want {
			if run.Result[m][e] != want[e] {
				t.Fatalf("%s n=%d matrix %d: (%d,%d) = %v, sGJE %v", s.Name(), n, m, e/n+1, e%n+1, run.Result[m][e], want[e])
			}
		}
		if got := run.C11Out(m); got != 4*n+1 {
			t.Errorf("n=%d matrix %d: c11 leaves %d steps after entering, want 4n+1 = %d", n, m, got, 4*n+1)
		}
		if got := run.CnnOut(m); got != 7*n-2 {
			t.Errorf("n=%d matrix %d: cnn leaves %d steps after c11 enters, want 7n-2 = %d", n, m, got, 7*n-2)
		}
	}
	if want := int64(len(mats)) * int64(n*n*n); run.Ops != want {
		t.Errorf("n=%d: %d operations, want n³ per matrix = %d", n, run.Ops, want)
	}
	return run
}

func TestSingleMatrixAllSemirings(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 12))
	sizes := []int{1, 2, 3, 4, 5, 6, 9, 12, 16, 31}
	if !testing.Short() {
		sizes = append(sizes, 64)
	}
	for _, n := range sizes {
		cfg := systolic.Config{Tracks: 1}
		run := checkRun(t, semiring.MinPlus[float64]{}, n, [][]float64{minPlusMatrix(r, n)}, cfg)
		if run.Steps != 7*n-2 {
			t.Errorf("n=%d: %d steps, want 7n-2", n, run.Steps)
		}
		if got := run.MaxActive(); got != (n*n+2)/3 {
			t.Errorf("n=%d: at most %d processors active at once, measured before as ⌊(n²+2)/3⌋ = %d", n, got, (n*n+2)/3)
		}
		if f := float64(run.MaxActive()) / float64(run.Processors); f > 1.0/3 {
			t.Errorf("n=%d: %.3f of the processors active at once, the paper says at most a third", n, f)
		}
		b := make([]bool, n*n)
		for i := range b {
			b[i] = r.Float64() < 1.5/float64(n)
		}
		checkRun(t, semiring.Boolean{}, n, [][]bool{b}, cfg)
		re := make([]float64, n*n)
		for i := range re {
			re[i] = (2*r.Float64() - 1) / float64(n)
		}
		checkRun(t, semiring.Real[float64]{}, n, [][]float64{re}, cfg) // bit for bit
		x := make([]float32, n*n)
		for i := range x {
			x[i] = float32(math.Inf(-1))
			if r.Float64() < 0.3 {
				x[i] = float32(r.NormFloat64())
			}
		}
		checkRun(t, semiring.MaxPlus[float32]{}, n, [][]float32{x}, cfg)
	}
}

func TestStreams(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 13))
	sizes := []int{1, 2, 4, 7, 16}
	if !testing.Short() {
		sizes = append(sizes, 32)
	}
	for _, d := range []systolic.Design{systolic.GJE0, systolic.GJE1} {
		for _, n := range sizes {
			per, win := systolic.SteadyState(n, d)
			var mats [][]float64
			for m := 0; m < 3*per; m++ {
				mats = append(mats, minPlusMatrix(r, n))
			}
			run := checkRun(t, semiring.MinPlus[float64]{}, n, mats, systolic.Config{Design: d, Tracks: 3, Window: win})
			want := 0.5
			if d == systolic.GJE1 {
				want = 1
			}
			if u := run.Utilization(); u != want {
				t.Errorf("%v n=%d: utilization %v, want %v", d, n, u, want)
			}
		}
	}
}

func TestInverseOps(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 14))
	for _, n := range []int{1, 3, 8, 20} {
		a := apsp.NewMatrix(n, 0.0)
		for i := range a.Data {
			a.Data[i] = 2*r.Float64() - 1
		}
		for i := 0; i < n; i++ {
			a.Set(i, i, float64(n))
		}
		run, err := systolic.Simulate(context.Background(), n, systolic.InverseOps(), [][]float64{append([]float64(nil), a.Data...)}, systolic.Config{Tracks: 1})
		if err != nil || run.Conflicts != 0 {
			t.Fatal(err, run.FirstConflict)
		}
		if _, err := cpuapsp.Inverse(context.Background(), a); err != nil {
			t.Fatal(err)
		}
		for e, v := range a.Data {
			if run.Result[0][e] != v {
				t.Fatalf("n=%d: (%d,%d) = %v, direct inverse %v", n, e/n+1, e%n+1, run.Result[0][e], v)
			}
		}
	}
	_, err := systolic.Simulate(context.Background(), 2, systolic.InverseOps(), [][]float64{{1, 2, 2, 4}}, systolic.Config{Tracks: 1})
	if !errors.Is(err, systolic.ErrSingular) || !strings.Contains(err.Error(), "pivot (2,2)") {
		t.Errorf("singular: %v", err)
	}
	_, err = systolic.Simulate(context.Background(), 2, systolic.SemiringOps(semiring.Real[float64]{}), [][]float64{{0, 1, 0.5, 0.5}}, systolic.Config{Tracks: 1})
	if !errors.Is(err, semiring.ErrNoStar) {
		t.Errorf("star of 1: %v", err)
	}
}

func TestKindsAndPicture(t *testing.T) {
	for _, n := range []int{1, 4, 9} {
		a, err := systolic.NewArray(n)
		if err != nil {
			t.Fatal(err)
		}
		k := a.KindCounts()
		want := map[systolic.Kind]int{systolic.A: (n - 1) * (n - 1), systolic.BI: n - 1, systolic.BO: n - 1, systolic.C: 1, systolic.DI: n, systolic.DO: n, systolic.E: 1}
		for kind, c := range want {
			if k[kind] != c {
				t.Errorf("n=%d: %d processors of type %v, want %d", n, k[kind], kind, c)
			}
		}
		if a.Computing() != n*n {
			t.Errorf("n=%d: %d computing processors, want n²", n, a.Computing())
		}
	}
	if _, err := systolic.NewArray(0); err == nil {
		t.Error("n=0 accepted")
	}
	x := make([]bool, 16)
	run, err := systolic.Simulate(context.Background(), 4, systolic.SemiringOps(semiring.Boolean{}), [][]bool{x}, systolic.Config{Tracks: 1, Snapshot: 11})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(run.Picture, "\n")
	if len(lines) < 10 || !strings.Contains(lines[1], "C 33/") || !strings.Contains(run.Picture, "E") {
		t.Errorf("picture:\n%s", run.Picture)
	}
}

func TestBadConfig(t *testing.T) {
	if _, err := systolic.Simulate(context.Background(), 2, systolic.SemiringOps(semiring.Boolean{}), [][]bool{{true, false}}, systolic.Config{Tracks: 1}); err == nil {
		t.Error("a matrix of 2 elements accepted")
	}
	if _, err := systolic.Simulate(context.Background(), 2, systolic.SemiringOps(semiring.Boolean{}), [][]bool{make([]bool, 9)}, systolic.Config{Tracks: 1}); err == nil {
		t.Error("a 3×3 matrix accepted by the array for 2×2")
	}
	if _, err := systolic.Simulate(context.Background(), 2, systolic.SemiringOps(semiring.Boolean{}), [][]bool{{true}}, systolic.Config{Starts: []int{0, 1}}); err == nil {
		t.Error("two start steps for one matrix accepted")
	}
	if _, err := systolic.Simulate(context.Background(), 2, systolic.SemiringOps(semiring.Boolean{}), nil, systolic.Config{Tracks: 4}); err == nil {
		t.Error("4 tracks accepted")
	}
}

func BenchmarkSimulate(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	n := 64
	x := minPlusMatrix(r, n)
	var steps int
	for b.Loop() {
		run, _ := systolic.Simulate(context.Background(), n, systolic.SemiringOps(semiring.MinPlus[float64]{}), [][]float64{x}, systolic.Config{Tracks: 1})
		steps += run.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

func TestPictureFunc(t *testing.T) {
	pic, err := systolic.Picture(4, 11)
	if err != nil || !strings.Contains(pic, "C 33/") || !strings.Contains(pic, "BI 13^ 11\\") {
		t.Errorf("Picture(4, 11): %v\n%s", err, pic)
	}
	if _, err := systolic.Picture(4, 27); err == nil {
		t.Error("step past 7n-2 accepted")
	}
}

func TestPictureSVG(t *testing.T) {
	svg, err := systolic.PictureSVG(4, 11)
	if err != nil || !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, "33↙") || strings.Count(svg, "<circle") != 25 {
		t.Errorf("PictureSVG(4, 11): %v\n%s", err, svg)
	}
}

// TestDiff: a run equals a second run of the same matrices and differs
// from a copy with one active count, one output step or one value changed.
func TestDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	mats := [][]float64{minPlusMatrix(r, 5), minPlusMatrix(r, 5)}
	mats[1][3] = math.NaN()
	cfg := systolic.Config{Tracks: 3}
	run := func() *systolic.Run[float64] {
		x, err := systolic.Simulate(context.Background(), 5, systolic.SemiringOps(semiring.MinPlus[float64]{}), mats, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	want := run()
	if d := systolic.Diff(run(), want); d != "" {
		t.Fatalf("two runs differ: %s", d)
	}
	for _, c := range []struct {
		change func(*systolic.Run[float64])
		says   string
	}{
		{func(x *systolic.Run[float64]) { x.Active[9]++ }, "step 9"},
		{func(x *systolic.Run[float64]) { x.Out[1][7]++ }, "matrix 1 element (2,3) left"},
		{func(x *systolic.Run[float64]) { x.Result[0][24] = -1 }, "matrix 0 element (5,5) = -1"},
		{func(x *systolic.Run[float64]) { x.Conflicts = 1 }, "1 conflicts"},
	} {
		got := run()
		c.change(got)
		if d := systolic.Diff(got, want); !strings.Contains(d, c.says) {
			t.Errorf("Diff = %q, want it to say %q", d, c.says)
		}
	}
}
