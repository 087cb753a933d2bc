package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
)

// randomGraph returns an n×n min-plus weight matrix: each arc present with
// probability p, integer weight in [1, 20], negative (in [-negMax, -1]) with
// probability neg.
func randomGraph[T semiring.Float](r *rand.Rand, n int, p, neg float64, negMax int) *apsp.Matrix[T] {
	m := apsp.NewMatrix(n, T(math.Inf(1)))
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if r.Float64() < p {
				w := T(1 + r.IntN(20))
				if r.Float64() < neg {
					w = -T(1 + r.IntN(negMax))
				}
				m.Set(i, j, w)
			}
		}
	}
	return m
}

func randomBool(r *rand.Rand, n int, p float64) *apsp.Matrix[bool] {
	m := apsp.NewMatrix(n, false)
	for i := range m.Data {
		m.Data[i] = r.Float64() < p
	}
	return m
}

func equalExact[T comparable](t *testing.T, what string, got, want *apsp.Matrix[T]) {
	t.Helper()
	for i := 0; i < want.N; i++ {
		for j := 0; j < want.N; j++ {
			if g, w := got.At(i, j), want.At(i, j); g != w {
				t.Fatalf("%s: (%d,%d) = %v, want %v", what, i+1, j+1, g, w)
			}
		}
	}
}

func maxRelErr(a, b *apsp.Matrix[float64]) float64 {
	worst := 0.0
	for i := range a.Data {
		d := math.Abs(a.Data[i]-b.Data[i]) / math.Max(1, math.Abs(b.Data[i]))
		worst = math.Max(worst, d)
	}
	return worst
}

func TestCountsMatchFormula(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(6, 2))
	for _, n := range []int{1, 2, 3, 5, 16, 33} {
		c := randomGraph[float32](r, n, 0.3, 0, 1)
		got, err := SGJE(ctx, semiring.MinPlus[float32]{}, c)
		if err != nil {
			t.Fatal(err)
		}
		if want := apsp.FormulaCounts(n); got != want {
			t.Errorf("n=%d: min-plus counts %+v, want %+v", n, got, want)
		}
		b := randomBool(r, n, 0.2)
		if got, _ := SGJE(ctx, semiring.Boolean{}, b); got != apsp.FormulaCounts(n) {
			t.Errorf("n=%d: boolean counts %+v", n, got)
		}
		a := randomReal(r, n, 0.5/float64(n))
		got, err = Inverse(ctx, diagDominant(r, n))
		if err != nil || got != apsp.FormulaCounts(n) {
			t.Errorf("n=%d: inverse counts %+v, %v", n, got, err)
		}
		if got, err := SGJE(ctx, semiring.Real[float64]{}, a); err != nil || got != apsp.FormulaCounts(n) {
			t.Errorf("n=%d: real counts %+v, %v", n, got, err)
		}
	}
}

func randomReal(r *rand.Rand, n int, scale float64) *apsp.Matrix[float64] {
	m := apsp.NewMatrix(n, 0.0)
	for i := range m.Data {
		m.Data[i] = (2*r.Float64() - 1) * scale
	}
	return m
}

func diagDominant(r *rand.Rand, n int) *apsp.Matrix[float64] {
	m := randomReal(r, n, 1)
	for i := 0; i < n; i++ {
		m.Set(i, i, float64(n)+r.Float64())
	}
	return m
}

func TestSGJEMinPlusAgainstBellmanFord(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 3))
	for _, tc := range []struct {
		n      int
		p, neg float64
	}{
		{1, 1, 0}, {1, 1, 1}, {2, 1, 0.5}, {8, 0.3, 0}, {20, 0.15, 0.05}, {40, 0.1, 0.02}, {40, 0.05, 0.1}, {64, 0.08, 0.01},
	} {
		for rep := 0; rep < 4; rep++ {
			a := randomGraph[float64](r, tc.n, tc.p, tc.neg, 30)
			want := apsp.BellmanFord(a)
			got := a.Clone()
			if _, err := SGJE(context.Background(), semiring.MinPlus[float64]{}, got); err != nil {
				t.Fatal(err)
			}
			equalExact(t, fmt.Sprintf("n=%d p=%g neg=%g rep %d", tc.n, tc.p, tc.neg, rep), got, want)
		}
	}
}

func TestSGJEBooleanAgainstBFS(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 4))
	for _, n := range []int{1, 2, 7, 30, 70} {
		for _, p := range []float64{0, 0.02, 0.05, 0.3} {
			a := randomBool(r, n, p)
			got := a.Clone()
			if _, err := SGJE(context.Background(), semiring.Boolean{}, got); err != nil {
				t.Fatal(err)
			}
			equalExact(t, fmt.Sprintf("n=%d p=%g", n, p), got, apsp.BFSClosure(a))
		}
	}
}

func TestSGJERealIsInverseOfIMinusA(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 5))
	for _, n := range []int{1, 3, 10, 40} {
		a := randomReal(r, n, 1.5/math.Sqrt(float64(n)))
		ima := apsp.NewMatrix(n, 0.0)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				ima.Set(i, j, -a.At(i, j))
			}
			ima.Set(i, i, 1-a.At(i, i))
		}
		want, err := apsp.InvertPivot(ima)
		if err != nil {
			t.Fatal(err)
		}
		got := a.Clone()
		if _, err := SGJE(context.Background(), semiring.Real[float64]{}, got); err != nil {
			t.Fatal(err)
		}
		if e := maxRelErr(got, want); e > 1e-8 {
			t.Errorf("n=%d: (I-A)^-1 off by %g", n, e)
		}
	}
}

func TestInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for _, n := range []int{1, 2, 5, 31, 80} {
		a := diagDominant(r, n)
		want, err := apsp.InvertPivot(a)
		if err != nil {
			t.Fatal(err)
		}
		got := a.Clone()
		if _, err := Inverse(context.Background(), got); err != nil {
			t.Fatal(err)
		}
		if e := maxRelErr(got, want); e > 1e-10 {
			t.Errorf("n=%d: inverse off by %g", n, e)
		}
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	// A zero pivot at (2,2) after eliminating row 1: [[1,2],[3,6]] is singular.
	sing := &apsp.Matrix[float64]{N: 3, Data: []float64{1, 2, 0, 3, 6, 1, 0, 1, 1}}
	_, err := Inverse(ctx, sing.Clone())
	if !errors.Is(err, apsp.ErrSingular) || !contains(err.Error(), "row 2, column 2") {
		t.Errorf("singular pivot: %v", err)
	}
	if _, err := apsp.InvertPivot(&apsp.Matrix[float64]{N: 2, Data: []float64{1, 2, 2, 4}}); !errors.Is(err, apsp.ErrSingular) {
		t.Errorf("pivoting reference on a singular matrix: %v", err)
	}
	// Star of 1 at pivot 2: c22 = 0.5 + 0.5·1·1 = 1 after step 1 (c11* = 1... ).
	one := &apsp.Matrix[float64]{N: 2, Data: []float64{0, 1, 0.5, 0.5}}
	_, err = SGJE(ctx, semiring.Real[float64]{}, one.Clone())
	if !errors.Is(err, apsp.ErrStar) || !errors.Is(err, semiring.ErrNoStar) || !contains(err.Error(), "pivot (2,2)") {
		t.Errorf("star of 1: %v", err)
	}
	if err := Fast(ctx, semiring.Real[float64]{}, one.Clone(), FastOptions{Block: 1}); !errors.Is(err, semiring.ErrNoStar) {
		t.Errorf("fast, star of 1: %v", err)
	}
	if _, err := SGJE(ctx, semiring.Boolean{}, &apsp.Matrix[bool]{N: 2, Data: []bool{true}}); err == nil {
		t.Error("a malformed matrix was accepted")
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestFastAgreesWithSGJE(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(6, 7))
	sizes := []int{1, 2, 5, 17, 64, 100, 257}
	if testing.Short() {
		sizes = sizes[:6]
	}
	for _, n := range sizes {
		for _, opt := range []FastOptions{{Block: 1, Threads: 1}, {Block: 4, Threads: 2}, {Block: 16, Threads: 3}, {}} {
			name := fmt.Sprintf("n=%d b=%d t=%d", n, opt.Block, opt.Threads)
			// Min-plus float32 on integer weights, with negative cycles: exact.
			a := randomGraph[float32](r, n, 4/float64(n+1), 0.03, 25)
			want := a.Clone()
			if _, err := SGJE(ctx, semiring.MinPlus[float32]{}, want); err != nil {
				t.Fatal(err)
			}
			got := a.Clone()
			if err := Fast(ctx, semiring.MinPlus[float32]{}, got, opt); err != nil {
				t.Fatal(err)
			}
			equalExact(t, "min-plus "+name, got, want)
			// Boolean: exact.
			bm := randomBool(r, n, 1.5/float64(n+1))
			bw := bm.Clone()
			SGJE(ctx, semiring.Boolean{}, bw)
			bg := bm.Clone()
			if err := Fast(ctx, semiring.Boolean{}, bg, opt); err != nil {
				t.Fatal(err)
			}
			equalExact(t, "boolean "+name, bg, bw)
			// Integer min-plus: exact.
			im := apsp.NewMatrix(n, semiring.IntInf)
			for i, v := range a.Data {
				if !math.IsInf(float64(v), 1) {
					im.Data[i] = int64(v)
				}
			}
			iw := im.Clone()
			SGJE(ctx, semiring.MinPlusInt{}, iw)
			ig := im.Clone()
			if err := Fast(ctx, semiring.MinPlusInt{}, ig, opt); err != nil {
				t.Fatal(err)
			}
			equalExact(t, "min-plus-int "+name, ig, iw)
			// Real: within rounding.
			ra := randomReal(r, n, 0.9/math.Sqrt(float64(n)))
			rw := ra.Clone()
			if _, err := SGJE(ctx, semiring.Real[float64]{}, rw); err != nil {
				t.Fatal(err)
			}
			rg := ra.Clone()
			if err := Fast(ctx, semiring.Real[float64]{}, rg, opt); err != nil {
				t.Fatal(err)
			}
			if e := maxRelErr(rg, rw); e > 1e-9 {
				t.Errorf("real %s: off by %g", name, e)
			}
		}
	}
}

// With one block the blocked elimination is the element elimination, so
// even float results agree bit for bit.
func TestFastOneBlockIsBitExact(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(6, 8))
	n := 50
	ra := randomReal(r, n, 0.9/math.Sqrt(float64(n)))
	rw := ra.Clone()
	SGJE(ctx, semiring.Real[float64]{}, rw)
	rg := ra.Clone()
	if err := Fast(ctx, semiring.Real[float64]{}, rg, FastOptions{Block: n}); err != nil {
		t.Fatal(err)
	}
	equalExact(t, "real one block", rg, rw)
	ma := apsp.NewMatrix(n, float32(math.Inf(1)))
	for i := range ma.Data {
		if r.Float64() < 0.2 {
			ma.Data[i] = float32(r.NormFloat64())
		}
	}
	mw := ma.Clone()
	SGJE(ctx, semiring.MinPlus[float32]{}, mw)
	mg := ma.Clone()
	Fast(ctx, semiring.MinPlus[float32]{}, mg, FastOptions{Block: n})
	equalExact(t, "min-plus normal weights, one block", mg, mw)
}

// The specialised kernels compute what the semiring methods compute.
func TestKernelsMatchGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 9))
	n := 40
	a := randomGraph[float64](r, n, 0.2, 0.05, 30)
	got := a.Clone()
	SGJE(context.Background(), semiring.MinPlus[float64]{}, got)
	want := a.Clone()
	SGJE(context.Background(), wrapped[float64]{semiring.MinPlus[float64]{}}, want)
	equalExact(t, "min-plus kernels vs methods", got, want)
	x := apsp.NewMatrix(n, math.Inf(-1))
	for i := range x.Data {
		if r.Float64() < 0.1 {
			x.Data[i] = float64(r.IntN(9) - 6)
		}
	}
	gx, wx := x.Clone(), x.Clone()
	Fast(context.Background(), semiring.MaxPlus[float64]{}, gx, FastOptions{Block: 8})
	SGJE(context.Background(), wrapped[float64]{semiring.MaxPlus[float64]{}}, wx)
	equalExact(t, "max-plus fast vs generic sGJE", gx, wx)
	// Max-plus is min-plus on negated weights.
	neg := x.Clone()
	for i, v := range neg.Data {
		neg.Data[i] = -v
	}
	bf := apsp.BellmanFord(neg)
	for i, v := range bf.Data {
		bf.Data[i] = -v
	}
	equalExact(t, "max-plus vs negated Bellman-Ford", gx, bf)
}

// wrapped hides a semiring's type from kernelsFor, forcing the generic loops.
type wrapped[T any] struct{ semiring.Semiring[T] }

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := apsp.NewMatrix(10, float32(1))
	if _, err := SGJE(ctx, semiring.MinPlus[float32]{}, a); !errors.Is(err, context.Canceled) {
		t.Errorf("SGJE: %v", err)
	}
	if err := Fast(ctx, semiring.MinPlus[float32]{}, a, FastOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Fast: %v", err)
	}
}

// On non-integer float32 weights cpu/fast and cpu/sgje add the arcs of a
// path in different orders; they agree within apsp.FloatBound, and exactly on
// which entries are infinite.
func TestFastFloatBound(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(6, 21))
	for _, n := range []int{50, 200} {
		a := apsp.NewMatrix(n, float32(math.Inf(1)))
		maxW := 0.0
		for i := range a.Data {
			if r.Float64() < 0.1 {
				a.Data[i] = float32(r.Float64() * 10)
				maxW = math.Max(maxW, float64(a.Data[i]))
			}
		}
		want := a.Clone()
		SGJE(ctx, semiring.MinPlus[float32]{}, want)
		for _, b := range []int{8, 64} {
			got := a.Clone()
			if err := Fast(ctx, semiring.MinPlus[float32]{}, got, FastOptions{Block: b}); err != nil {
				t.Fatal(err)
			}
			bound := apsp.FloatBound(n, maxW, 24)
			for i, w := range want.Data {
				g := got.Data[i]
				if math.IsInf(float64(w), 0) || math.IsInf(float64(g), 0) {
					if g != w {
						t.Fatalf("n=%d b=%d: (%d,%d) = %v, sGJE %v", n, b, i/n+1, i%n+1, g, w)
					}
					continue
				}
				if d := math.Abs(float64(g - w)); d > bound {
					t.Fatalf("n=%d b=%d: (%d,%d) differs by %g > bound %g", n, b, i/n+1, i%n+1, d, bound)
				}
			}
		}
	}
}
