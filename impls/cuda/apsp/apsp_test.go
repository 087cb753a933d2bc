package cudaapsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	cpuapsp "github.com/semibench/semibench/impls/cpu/apsp"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

func gpuCount() int {
	n, err := cuda.DeviceCount()
	if err != nil {
		return 0
	}
	return n
}

func needGPU(t testing.TB) {
	t.Helper()
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
}

// TestUnavailable checks that without a GPU every entry point returns an
// error matching driver.ErrUnavailable, and never panics.
func TestUnavailable(t *testing.T) {
	if gpuCount() > 0 {
		t.Skip("a CUDA device is present")
	}
	ctx := context.Background()
	errs := map[string]error{}
	_, errs["fast min-plus"] = Fast(ctx, semiring.MinPlus[float32]{}, apsp.NewMatrix(4, float32(math.Inf(1))), Options{})
	_, errs["fast boolean"] = Fast(ctx, semiring.Boolean{}, apsp.NewMatrix(4, false), Options{})
	_, errs["fast real"] = Fast(ctx, semiring.Real[float64]{}, apsp.NewMatrix(4, 0.0), Options{})
	_, errs["inverse"] = Inverse(ctx, apsp.NewMatrix(4, 0.0), Options{})
	_, errs["systolic"] = Systolic(ctx, semiring.Boolean{}, 2, [][]bool{make([]bool, 4)}, systolic.Config{Tracks: 1}, Options{})
	_, errs["peak"] = PeakMinPlus32(ctx, Options{})
	_, errs["product"] = ProductMinPlus32(ctx, apsp.NewMatrix(4, float32(1)), apsp.NewMatrix(4, float32(2)), Options{})
	for name, err := range errs {
		if !errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("%s: %v; want ErrUnavailable", name, err)
		}
	}
}

// TestArgumentChecks: what is refused before any device work, with or
// without a GPU.
func TestArgumentChecks(t *testing.T) {
	ctx := context.Background()
	bad := []*apsp.Matrix[float32]{nil, {N: 3, Data: make([]float32, 8)}, {N: -1}}
	for _, c := range bad {
		if _, err := Fast(ctx, semiring.MinPlus[float32]{}, c, Options{}); err == nil || errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("malformed matrix %v: %v", c, err)
		}
	}
	if _, err := Fast(ctx, semiring.MaxPlus[float32]{}, apsp.NewMatrix(3, float32(0)), Options{}); err == nil || !strings.Contains(err.Error(), "max-plus") {
		t.Errorf("max-plus: %v", err)
	}
	if _, err := Fast(ctx, semiring.MinPlus[float64]{}, apsp.NewMatrix(3, 0.0), Options{}); err == nil || errors.Is(err, driver.ErrUnavailable) {
		t.Errorf("min-plus float64 in cuda/fast: %v", err)
	}
	// Weights whose float32 path sums could overflow (issue 56, item 1).
	huge := apsp.NewMatrix(3, math.Inf(1))
	huge.Set(0, 1, 1e38)
	for _, sr := range []string{"min-plus", "max-plus"} {
		if _, err := fastFloat(ctx, sr, huge.Clone(), apsp.Options{}); err == nil || !strings.Contains(err.Error(), "a[1,2] = 1e+38 exceeds") {
			t.Errorf("%s, weight 1e38 at n=3 in cuda/fast: %v", sr, err)
		}
	}
	mats := [][]float64{make([]float64, 4)}
	cases := []struct {
		name string
		n    int
		mats [][]float64
		cfg  systolic.Config
	}{
		{"n=0", 0, mats, systolic.Config{Tracks: 1}},
		{"GJE1", 2, mats, systolic.Config{Design: systolic.GJE1, Tracks: 1}},
		{"tracks 0", 2, mats, systolic.Config{}},
		{"tracks 4", 2, mats, systolic.Config{Tracks: 4}},
		{"short matrix", 2, [][]float64{make([]float64, 3)}, systolic.Config{Tracks: 1}},
		{"no matrices", 2, nil, systolic.Config{Tracks: 1}},
	}
	for _, c := range cases {
		if _, err := Systolic(ctx, semiring.Real[float64]{}, c.n, c.mats, c.cfg, Options{}); err == nil || errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("systolic %s: %v", c.name, err)
		}
	}
	if _, err := Systolic(ctx, semiring.MaxPlus[float64]{}, 2, mats, systolic.Config{Tracks: 1}, Options{}); err == nil || !strings.Contains(err.Error(), "max-plus") {
		t.Errorf("systolic max-plus: %v", err)
	}
}

func TestPlans(t *testing.T) {
	p := FastPlan(16384, 4)
	const gib = 1 << 30
	if got, want := p.Total(), uint64(gib+2*16384*128*4+128*128*4+16); got != want {
		t.Errorf("FastPlan(16384) = %d bytes, want %d", got, want)
	}
	for _, b := range p.Buffers {
		if b.Name == "apsp.x" {
			t.Errorf("n = 16384 is a multiple of the block: no padded copy expected")
		}
	}
	p = FastPlan(1000, 8)
	found := false
	for _, b := range p.Buffers {
		switch b.Name {
		case "apsp.x":
			found = true
			if b.Bytes != 8*1000*1000 {
				t.Errorf("apsp.x %d bytes", b.Bytes)
			}
		case "apsp.p":
			if b.Bytes != 8*1024*1024 {
				t.Errorf("apsp.p %d bytes", b.Bytes)
			}
		}
	}
	if !found {
		t.Errorf("n = 1000: no input buffer in %+v", p)
	}
	// A 16384 float64 instance does not fit in 1 GiB: the refusal names the
	// bytes needed and free.
	err := cuda.Fits(FastPlan(16384, 8), gib, nil)
	if err == nil || !strings.Contains(err.Error(), "cuda/fast n=16384") || !strings.Contains(err.Error(), "1073741824 bytes") {
		t.Errorf("Fits: %v", err)
	}
	sp := SystolicPlan(8, 3, 8, 200)
	if sp.Total() == 0 || !strings.Contains(sp.What, "n=8") {
		t.Errorf("SystolicPlan = %+v", sp)
	}
	if padded(1) != Block || padded(Block) != Block || padded(Block+1) != 2*Block {
		t.Errorf("padded")
	}
}

// ---- GPU tests -------------------------------------------------------------

// sizes include orders below, at and above the block and not multiples of
// it.
var gpuSizes = []int{1, 5, 64, 127, 128, 129, 300, 515}

// minPlusInt is a random min-plus matrix with integer weights in
// [-maxW, maxW] (negative with probability neg), arcs with probability p.
func minPlusInt(r *rand.Rand, n int, p float64, maxW int, neg float64) *apsp.Matrix[float32] {
	m := apsp.NewMatrix(n, float32(math.Inf(1)))
	for i := range m.Data {
		if r.Float64() < p {
			w := float32(1 + r.IntN(maxW))
			if r.Float64() < neg {
				w = -w
			}
			m.Data[i] = w
		}
	}
	return m
}

func equalF32(a, b float32) bool { return a == b || (a != a && b != b) }

// bothPaths runs f with the pivot blocks closed by their own launches at
// the test's orders and again with each closed inside the previous step's
// update (fuseMin 0), the path of orders from fuseMin on.
func bothPaths(t *testing.T, f func(t *testing.T)) {
	old := fuseMin
	defer func() { fuseMin = old }()
	for _, m := range []int{old, 0} {
		fuseMin = m
		t.Run(fmt.Sprintf("fuseMin=%d", m), f)
	}
}

func TestGPUFastMinPlusInteger(t *testing.T) {
	needGPU(t)
	bothPaths(t, testGPUFastMinPlusInteger)
}

func testGPUFastMinPlusInteger(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range gpuSizes {
		for _, neg := range []float64{0, 0.05} {
			a := minPlusInt(r, n, 4/float64(n)+0.05, 50, neg)
			want := a.Clone()
			if _, err := cpuapsp.SGJE(ctx, semiring.MinPlus[float32]{}, want); err != nil {
				t.Fatal(err)
			}
			got := a.Clone()
			st, err := Fast(ctx, semiring.MinPlus[float32]{}, got, Options{})
			if err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			if st.NonNeg && slices.ContainsFunc(a.Data, func(v float32) bool { return math.Signbit(float64(v)) }) {
				t.Fatalf("n=%d neg=%v: the non-negative path taken on negative values", n, neg)
			}
			negInf := 0
			for i, v := range want.Data {
				if math.IsInf(float64(v), -1) {
					negInf++
				}
				if !equalF32(got.Data[i], v) {
					t.Fatalf("n=%d neg=%v: (%d,%d) = %v, cpu/sgje %v", n, neg, i/n+1, i%n+1, got.Data[i], v)
				}
			}
			t.Logf("n=%d neg=%v: equal to cpu/sgje (%d entries -Inf; non-negative path %v)", n, neg, negInf, st.NonNeg)
		}
	}
}

// TestGPUFastMinPlusNonNeg checks the choice of the non-negative path and
// that its closures equal the pair path's bit for bit: positive weights
// and zeros take it wherever the build has the 3-way minimum; one -0
// (its sign bit set) sends the same matrix down the pair path, with the
// same closure as cpu/sgje.
func TestGPUFastMinPlusNonNeg(t *testing.T) {
	needGPU(t)
	bothPaths(t, testGPUFastMinPlusNonNeg)
}

func testGPUFastMinPlusNonNeg(t *testing.T) {
	ctx := context.Background()
	_, perr := PeakMinPlus32NonNeg(ctx, Options{})
	if perr != nil && !errors.Is(perr, errors.ErrUnsupported) {
		t.Fatal(perr)
	}
	has := perr == nil
	t.Logf("3-way minimum in this build: %v (%v)", has, perr)
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range gpuSizes {
		a := minPlusInt(r, n, 4/float64(n)+0.05, 50, 0)
		for i := 0; i < n; i += 3 {
			a.Data[i*n+(i*7)%n] = 0
		}
		pair := a.Clone()
		allowNonNeg = false
		_, err := Fast(ctx, semiring.MinPlus[float32]{}, pair, Options{})
		allowNonNeg = true
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		got := a.Clone()
		st, err := Fast(ctx, semiring.MinPlus[float32]{}, got, Options{})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if st.NonNeg != has {
			t.Fatalf("n=%d: non-negative path %v, the build's 3-way minimum %v", n, st.NonNeg, has)
		}
		for i, v := range pair.Data {
			if math.Float32bits(got.Data[i]) != math.Float32bits(v) {
				t.Fatalf("n=%d: (%d,%d) = %v, pair path %v", n, i/n+1, i%n+1, got.Data[i], v)
			}
		}
		// One -0: the pair path, and still the closure.
		a.Data[(n-1)*n] = float32(math.Copysign(0, -1))
		want := a.Clone()
		if _, err := cpuapsp.SGJE(ctx, semiring.MinPlus[float32]{}, want); err != nil {
			t.Fatal(err)
		}
		got = a.Clone()
		if st, err = Fast(ctx, semiring.MinPlus[float32]{}, got, Options{}); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if st.NonNeg {
			t.Fatalf("n=%d: the non-negative path taken with a -0", n)
		}
		for i, v := range want.Data {
			if !equalF32(got.Data[i], v) {
				t.Fatalf("n=%d with -0: (%d,%d) = %v, cpu/sgje %v", n, i/n+1, i%n+1, got.Data[i], v)
			}
		}
	}
}

func TestGPUFastMinPlusFloat(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range gpuSizes {
		a := apsp.NewMatrix(n, float32(math.Inf(1)))
		for i := range a.Data {
			if r.Float64() < 0.3 {
				a.Data[i] = float32(r.Float64())
			}
		}
		want := a.Clone()
		if _, err := cpuapsp.SGJE(ctx, semiring.MinPlus[float32]{}, want); err != nil {
			t.Fatal(err)
		}
		got := a.Clone()
		if _, err := Fast(ctx, semiring.MinPlus[float32]{}, got, Options{}); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		bound := apsp.FloatBound(n, 1, 24)
		worst := 0.0
		for i, v := range want.Data {
			g := got.Data[i]
			if math.IsInf(float64(v), 0) || math.IsInf(float64(g), 0) {
				if g != v {
					t.Fatalf("n=%d: (%d,%d) = %v, cpu/sgje %v", n, i/n+1, i%n+1, g, v)
				}
				continue
			}
			worst = max(worst, math.Abs(float64(g)-float64(v)))
		}
		if !(worst <= bound) {
			t.Fatalf("n=%d: largest difference %g above the bound %g", n, worst, bound)
		}
		t.Logf("n=%d: largest difference from cpu/sgje %.3g (bound %.3g)", n, worst, bound)
	}
}

func TestGPUFastBoolean(t *testing.T) {
	needGPU(t)
	bothPaths(t, testGPUFastBoolean)
}

func testGPUFastBoolean(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range gpuSizes {
		a := apsp.NewMatrix(n, false)
		for i := range a.Data {
			a.Data[i] = r.Float64() < 1.3/float64(n)
		}
		want := a.Clone()
		if _, err := cpuapsp.SGJE(ctx, semiring.Boolean{}, want); err != nil {
			t.Fatal(err)
		}
		bfs := apsp.BFSClosure(a)
		got := a.Clone()
		if _, err := Fast(ctx, semiring.Boolean{}, got, Options{}); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for i, v := range want.Data {
			if got.Data[i] != v || bfs.Data[i] != v {
				t.Fatalf("n=%d: (%d,%d) = %v, cpu/sgje %v, BFS %v", n, i/n+1, i%n+1, got.Data[i], v, bfs.Data[i])
			}
		}
	}
}

func TestGPUFastReal(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range gpuSizes {
		a := apsp.NewMatrix(n, 0.0)
		for i := range a.Data {
			a.Data[i] = (2*r.Float64() - 1) / math.Sqrt(float64(n))
		}
		want := a.Clone()
		if _, err := cpuapsp.SGJE(ctx, semiring.Real[float64]{}, want); err != nil {
			t.Fatal(err)
		}
		got := a.Clone()
		if _, err := Fast(ctx, semiring.Real[float64]{}, got, Options{}); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		worst := 0.0
		for i, v := range want.Data {
			worst = max(worst, math.Abs(got.Data[i]-v)/math.Max(1, math.Abs(v)))
		}
		if !(worst <= 1e-9) {
			t.Fatalf("n=%d: relative error %g", n, worst)
		}
		// The inverse of a diagonally dominant matrix.
		m := apsp.NewMatrix(n, 0.0)
		for i := range m.Data {
			m.Data[i] = (2*r.Float64() - 1) / float64(n)
		}
		for i := 0; i < n; i++ {
			m.Set(i, i, 2+r.Float64())
		}
		ref, err := apsp.InvertPivot(m)
		if err != nil {
			t.Fatal(err)
		}
		inv := m.Clone()
		if _, err := Inverse(ctx, inv, Options{}); err != nil {
			t.Fatalf("inverse n=%d: %v", n, err)
		}
		worstInv := 0.0
		for i, v := range ref.Data {
			worstInv = max(worstInv, math.Abs(inv.Data[i]-v)/math.Max(1, math.Abs(v)))
		}
		if !(worstInv <= 1e-9) {
			t.Fatalf("inverse n=%d: relative error %g", n, worstInv)
		}
		t.Logf("n=%d: closure within %.3g of cpu/sgje, inverse within %.3g of partial pivoting", n, worst, worstInv)
	}
	// An undefined star: a pivot equal to 1 (the third, after eliminating
	// two rows that do not touch it).
	a := apsp.NewMatrix(200, 0.0)
	a.Set(2, 2, 1)
	_, err := Fast(ctx, semiring.Real[float64]{}, a, Options{})
	if !errors.Is(err, apsp.ErrStar) || !errors.Is(err, semiring.ErrNoStar) || !strings.Contains(err.Error(), "(3,3)") {
		t.Errorf("star of 1: %v", err)
	}
	if a.At(2, 2) != 1 {
		t.Errorf("the matrix changed after an error")
	}
}

// sysCompare runs both simulators and compares everything they report.
func sysCompare[T comparable, S semiring.Semiring[T]](t *testing.T, s S, n int, mats [][]T, tracks int) {
	t.Helper()
	ctx := context.Background()
	cfg := systolic.Config{Tracks: tracks}
	if tracks == 3 {
		_, cfg.Window = systolic.SteadyState(n, systolic.GJE0)
	}
	want, err := systolic.Simulate(ctx, n, systolic.SemiringOps(s), mats, cfg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Systolic(ctx, s, n, mats, cfg, Options{})
	if err != nil {
		t.Fatalf("%s n=%d: %v", s.Name(), n, err)
	}
	if d := systolic.Diff(got, want); d != "" {
		t.Fatalf("%s n=%d tracks=%d: %s", s.Name(), n, tracks, d)
	}
}

func TestGPUSystolic(t *testing.T) {
	needGPU(t)
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 3, 5, 8, 13, 24} {
		for _, count := range []int{1, 7} {
			tracks := 1
			if count > 1 {
				tracks = 3
			}
			re := make([][]float64, count)
			mp := make([][]float64, count)
			bo := make([][]bool, count)
			for m := range count {
				re[m] = make([]float64, n*n)
				mp[m] = make([]float64, n*n)
				bo[m] = make([]bool, n*n)
				for i := range n * n {
					re[m][i] = (2*r.Float64() - 1) / float64(n+1)
					mp[m][i] = math.Inf(1)
					if r.Float64() < 0.4 {
						mp[m][i] = float64(r.IntN(20) - 2)
					}
					bo[m][i] = r.Float64() < 1.5/float64(n)
				}
			}
			sysCompare(t, semiring.Real[float64]{}, n, re, tracks)
			sysCompare(t, semiring.MinPlus[float64]{}, n, mp, tracks)
			sysCompare(t, semiring.Boolean{}, n, bo, tracks)
		}
		t.Logf("n=%d: GJE0 on the GPU equals systolic.Simulate (one matrix; seven on three tracks) in three semirings", n)
	}
	// An undefined star stops both.
	m := make([]float64, 9)
	m[0] = 1
	_, err := Systolic(context.Background(), semiring.Real[float64]{}, 3, [][]float64{m}, systolic.Config{Tracks: 1}, Options{})
	if !errors.Is(err, semiring.ErrNoStar) || !strings.Contains(err.Error(), "pivot (1,1)") {
		t.Errorf("star of 1: %v", err)
	}
}
