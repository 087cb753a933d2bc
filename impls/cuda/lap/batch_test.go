package cudalap

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/lap"
)

// TestBatchPlan: the plan's bytes per problem and their scaling with k.
func TestBatchPlan(t *testing.T) {
	one := BatchPlan(1, 3, 5, 4)
	// costs 3*5*4, u 8*4, v 8*6, p 4*6, way 4*6, minv 8*6, used 6
	if want := uint64(60 + 32 + 48 + 24 + 24 + 48 + 6); one.Total() != want {
		t.Fatalf("one problem: %d bytes, want %d", one.Total(), want)
	}
	if got := BatchPlan(1000, 3, 5, 4).Total(); got != 1000*one.Total() {
		t.Fatalf("1000 problems: %d bytes, want %d", got, 1000*one.Total())
	}
	if d := BatchPlan(1, 3, 5, 8).Total() - one.Total(); d != 60 {
		t.Fatalf("float64 costs add %d bytes, want 60", d)
	}
	// batchRun uploads into the first buffer before the timed window and
	// allocates the rest inside it: the first must be the costs'.
	if b := one.Buffers[0]; b.Name != "lap.batch.c" || b.Bytes != 60 {
		t.Fatalf("first buffer %s of %d bytes, want the costs", b.Name, b.Bytes)
	}
}

// TestBatchSlab: the slab is as large as memory allows, never beyond the
// batch or maxSlab, and it fits; held batch buffers count as free.
func TestBatchSlab(t *testing.T) {
	r, c := 32, 32
	per := BatchPlan(1, r, c, 4).Total()
	free := uint64(cuda.Reserve) + 100*per + per/2
	k, err := BatchSlab(10000, r, c, 4, free, nil)
	if err != nil || k != 100 {
		t.Fatalf("slab = %d, %v; want 100", k, err)
	}
	if err := cuda.Fits(BatchPlan(k, r, c, 4), free, nil); err != nil {
		t.Fatal(err)
	}
	if cuda.Fits(BatchPlan(k+1, r, c, 4), free, nil) == nil {
		t.Fatal("the slab is not the largest that fits")
	}
	if k, err := BatchSlab(40, r, c, 4, free, nil); err != nil || k != 40 {
		t.Fatalf("a small batch: slab %d, %v; want all 40", k, err)
	}
	held := map[string]uint64{}
	for _, b := range BatchPlan(50, r, c, 4).Buffers {
		held[b.Name] = b.Bytes
	}
	if k, err := BatchSlab(10000, r, c, 4, free, held); err != nil || k != 150 {
		t.Fatalf("with 50 problems' buffers held: slab %d, %v; want 150", k, err)
	}
	if k, err := BatchSlab(math.MaxInt32, 1, 1, 4, 1<<50, nil); err != nil || k != maxSlab {
		t.Fatalf("huge memory: slab %d, %v; want %d", k, err, maxSlab)
	}
	if _, err := BatchSlab(10, r, c, 4, cuda.Reserve+per-1, nil); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Fatalf("no room for one problem: %v", err)
	}
	for _, bad := range [][4]int{{0, 2, 2, 4}, {1, 3, 2, 4}, {1, 2, 2, 3}} {
		if _, err := BatchSlab(bad[0], bad[1], bad[2], bad[3], 1<<40, nil); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
}

func TestSlabs(t *testing.T) {
	got := Slabs(10, 4)
	want := []cuda.Range{{Lo: 0, Hi: 4}, {Lo: 4, Hi: 8}, {Lo: 8, Hi: 10}}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%v, want %v", got, want)
		}
	}
	if s := Slabs(8, 8); len(s) != 1 || s[0].Len() != 8 {
		t.Fatalf("%v", s)
	}
	if Slabs(5, 0) != nil {
		t.Fatal("per 0 split something")
	}
}

// TestBatchKernel: the shared-memory workspace's bytes, and the kernel
// chosen on either side of the 48 KB limit and when the global workspace is
// asked for.
func TestBatchKernel(t *testing.T) {
	// u: 4 duals, v and minv: 6 each, p and way: 6 int32 each, the free
	// rows: 4 int32, used: 6 bytes.
	if got := BatchShared(3, 5); got != 8*4+16*6+8*6+4*4+6 {
		t.Fatalf("BatchShared(3, 5) = %d", got)
	}
	if name, sh := batchKernel("", 256, 256, Options{}); name != "lap_n3_batch_shared" || sh != BatchShared(256, 256) {
		t.Fatalf("n = 256: %s %d", name, sh)
	}
	if name, sh := batchKernel("_f64", 256, 256, Options{GlobalWorkspace: true}); name != "lap_n3_batch_f64" || sh != 0 {
		t.Fatalf("global workspace asked for: %s %d", name, sh)
	}
	c := 1
	for BatchShared(c, c+1) <= MaxBatchShared {
		c++
	}
	if name, _ := batchKernel("_f32", c-1, c, Options{}); name != "lap_n3_batch_shared_f32" {
		t.Fatalf("largest shape that fits (%d): %s", c, name)
	}
	if name, sh := batchKernel("_f32", c, c+1, Options{}); name != "lap_n3_batch_f32" || sh != 0 {
		t.Fatalf("beyond 48 KB (%d): %s %d", c+1, name, sh)
	}
}

// TestBatchGreedy: the greedy start at the paper's ranges n and 10n, not
// at 0.1n (costs in [0, range) over many problems take range values).
func TestBatchGreedy(t *testing.T) {
	for _, c := range []struct {
		n, rng int64
		want   bool
	}{{128, 13, false}, {128, 128, true}, {128, 1280, true}, {32, 3, false}, {256, 255, false}} {
		if got := BatchGreedy(c.rng, int(c.n)); got != c.want {
			t.Errorf("n = %d, %d values: %v", c.n, c.rng, got)
		}
	}
}

func TestBatchThreads(t *testing.T) {
	for c, want := range map[int]int{1: 32, 16: 32, 32: 32, 33: 64, 64: 64, 128: 128, 200: 224, 256: 256, 4096: 256} {
		if got := BatchThreads(c); got != want {
			t.Errorf("BatchThreads(%d) = %d, want %d", c, got, want)
		}
	}
}

// TestBatchArgumentChecks: what the batch solver refuses before any device
// work.
func TestBatchArgumentChecks(t *testing.T) {
	ctx := context.Background()
	if _, err := SolveBatch(ctx, nil, Options{}); err == nil {
		t.Fatal("nil batch accepted")
	}
	// Beyond int32: solved exactly by the float64 batch kernel.
	wide := &lap.Batch{Name: "w", Count: 2, Rows: 1, Cols: 2, Int: []int64{0, 1, 2, 1 << 31}}
	out, err := SolveBatch(ctx, wide, Options{})
	switch {
	case !hasGPU() && !errors.Is(err, driver.ErrUnavailable):
		t.Fatalf("beyond int32 without a GPU: %v, want the float64 kernel unavailable", err)
	case hasGPU() && (err != nil || out.Int[1].Cost != 2 || lap.CertifyBatch(wide, out, 0) != nil):
		t.Fatalf("beyond int32: %v, %+v", err, out)
	}
	// The first offending cost in batch order is named, whichever bound it
	// breaks, across the parallel scan's parts (a batch of several parts).
	big := &lap.Batch{Name: "b", Count: 4096, Rows: 16, Cols: 16, Int: make([]int64, 4096*256)}
	big.Int[3000*256+17] = lap.MaxAbsCost(16) + 1
	big.Int[3500*256] = 1 << 31
	if _, err := SolveBatch(ctx, big, Options{}); !errors.Is(err, lap.ErrOverflow) || !strings.Contains(err.Error(), "problem 3001, row 2, column 2") || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("beyond the bound: %v", err)
	}
	big.Int[100*256+255] = -(1 << 32)
	if _, err := SolveBatch(ctx, big, Options{}); !errors.Is(err, lap.ErrOverflow) || !strings.Contains(err.Error(), "problem 3001") || !strings.Contains(err.Error(), "row 2, column 2") {
		t.Fatalf("beyond int32, then beyond the bound: %v", err)
	}
	big.Int[3000*256+17] = 0
	big.Int[200*256+3] = ExactFloatLimit(16) + 1
	if _, err := SolveBatch(ctx, big, Options{}); !errors.Is(err, lap.ErrRange) || !strings.Contains(err.Error(), "problem 101, row 16, column 16") ||
		!strings.Contains(err.Error(), "int32") || !strings.Contains(err.Error(), "problem 201, row 1, column 4") {
		t.Fatalf("beyond int32 and the float64 kernel's exact range: %v", err)
	}
	short := &lap.Batch{Name: "s", Count: 2, Rows: 2, Cols: 2, Int: make([]int64, 7)}
	if _, err := SolveBatch(ctx, short, Options{}); !errors.Is(err, lap.ErrShape) {
		t.Fatalf("short: %v", err)
	}
	nan := &lap.Batch{Name: "n", Count: 1, Rows: 1, Cols: 2, Float: []float64{0, math.NaN()}}
	if _, err := SolveBatch(ctx, nan, Options{}); !errors.Is(err, lap.ErrNotFinite) {
		t.Fatalf("NaN: %v", err)
	}
	if _, err := SolveBatchFloat(ctx, 2, 3, 2, make([]float32, 12), Options{}); !errors.Is(err, lap.ErrShape) {
		t.Fatalf("rows > cols: %v", err)
	}
	if _, err := SolveFloat(ctx, &lap.FloatMatrix{Rows: 1, Cols: 2, C: []float64{math.Inf(1), 0}}, Options{}); !errors.Is(err, lap.ErrNotFinite) {
		t.Fatalf("single inf: %v", err)
	}
	if _, err := SolveFloat32(ctx, 2, 1, make([]float32, 2), Options{}); !errors.Is(err, lap.ErrShape) {
		t.Fatalf("single rows > cols: %v", err)
	}
	if hasGPU() {
		return
	}
	ok := &lap.Batch{Name: "ok", Count: 1, Rows: 1, Cols: 1, Float: []float64{1}}
	if _, err := SolveBatch(ctx, ok, Options{}); !errors.Is(err, driver.ErrUnavailable) {
		t.Fatalf("no GPU: %v", err)
	}
}

// TestCertifyFloat: an optimal float solution passes, a non-optimal one
// (or duals off by more than the tolerance) fails, and the message states
// the tolerance.
func TestCertifyFloat(t *testing.T) {
	// [[1.5, 2.25], [2.5, 4.0]]: the optimum is 2.25 + 2.5 = 4.75 against
	// 1.5 + 4.0 = 5.5; u = (1.5, 2.5), v = (0, 0.75) certify it.
	m := &lap.FloatMatrix{Rows: 2, Cols: 2, C: []float64{1.5, 2.25, 2.5, 4.0}}
	good := &lap.FloatResult{Assignment: []int{1, 0}, Cost: 4.75, U: []float64{1.5, 2.5}, V: []float64{0, 0.75}}
	if err := CertifyFloat(m, good); err != nil {
		t.Fatal(err)
	}
	// Within the tolerance: duals off by a tenth of it.
	tol := FloatTolerance * 4.0
	near := &lap.FloatResult{Assignment: []int{1, 0}, Cost: 4.75, U: []float64{1.5, 2.5 + tol/10}, V: []float64{0, 0.75}}
	if err := CertifyFloat(m, near); err != nil {
		t.Fatalf("within tolerance: %v", err)
	}
	// The other assignment with the best duals it can have is not optimal:
	// its duals are infeasible or not tight.
	bad := &lap.FloatResult{Assignment: []int{0, 1}, Cost: 5.5, U: []float64{1.5, 4.0}, V: []float64{0, 0}}
	err := CertifyFloat(m, bad)
	if err == nil || !strings.Contains(err.Error(), "tolerance 1e-09 x max(1, max |c_ij|) = 4e-09") {
		t.Fatalf("non-optimal: %v", err)
	}
	// Duals off by 10x the tolerance fail.
	off := &lap.FloatResult{Assignment: []int{1, 0}, Cost: 4.75, U: []float64{1.5, 2.5 + 10*tol}, V: []float64{0, 0.75}}
	if err := CertifyFloat(m, off); err == nil {
		t.Fatal("duals beyond the tolerance passed")
	}
	// A rectangular case: the free column must not be priced below an
	// assigned one.
	r := &lap.FloatMatrix{Rows: 1, Cols: 2, C: []float64{1, 0.5}}
	if err := CertifyFloat(r, &lap.FloatResult{Assignment: []int{1}, Cost: 0.5, U: []float64{0.5}, V: []float64{0, 0}}); err != nil {
		t.Fatal(err)
	}
	if err := CertifyFloat(r, &lap.FloatResult{Assignment: []int{0}, Cost: 1, U: []float64{1}, V: []float64{0, -0.5}}); err == nil {
		t.Fatal("a non-optimal rectangular answer passed")
	}
}

// gpuBatch is count problems of r x c uniform integers in [0, rng).
func gpuBatch(count, r, c int, rng int64, seed uint64) *lap.Batch {
	rnd := rand.New(rand.NewPCG(seed, 11))
	b := &lap.Batch{Name: "gpu", Count: count, Rows: r, Cols: c, Int: make([]int64, count*r*c)}
	for k := range b.Int {
		b.Int[k] = rnd.Int64N(rng)
	}
	return b
}

// TestGPUBatch solves batches of a few hundred problems at n = 32 (square
// and rectangular, integer, float64 and float32) and checks each against
// cpu/jv: certified, costs equal (exactly on integers, within the
// tolerance on floats).
func TestGPUBatch(t *testing.T) {
	if !hasGPU() {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	jv := lap.JV
	// Square integer problems start from the greedy matching (ranges with
	// many ties and few), rectangular ones and the global workspace without.
	for _, shape := range [][3]int{{32, 32, 32}, {20, 32, 32}, {128, 128, 13}, {128, 128, 1280}} {
		b := gpuBatch(300, shape[0], shape[1], int64(shape[2]), uint64(shape[0]+shape[2]))
		ref, err := lap.SolveBatch(ctx, b, jv, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, global := range []bool{false, true} { // the shared and the global workspace
			got, err := SolveBatch(ctx, b, Options{GlobalWorkspace: global})
			if err != nil {
				t.Fatal(err)
			}
			if err := lap.CertifyBatch(b, got, FloatTolerance); err != nil {
				t.Fatalf("global workspace %v: %v", global, err)
			}
			for k := range b.Count {
				if got.Int[k].Cost != ref.Int[k].Cost {
					t.Fatalf("%v global workspace %v problem %d: cost %d, cpu/jv %d", shape, global, k+1, got.Int[k].Cost, ref.Int[k].Cost)
				}
			}
		}
		// Floats: the same costs plus fractions.
		rnd := rand.New(rand.NewPCG(5, 5))
		fb := &lap.Batch{Name: "gpu-f", Count: b.Count, Rows: b.Rows, Cols: b.Cols, Float: make([]float64, len(b.Int))}
		f32 := make([]float32, len(b.Int))
		for k, x := range b.Int {
			f32[k] = float32(x) + float32(rnd.IntN(64))/64 // exact in float32
			fb.Float[k] = float64(f32[k])
		}
		fref, err := lap.SolveBatch(ctx, fb, jv, 0)
		if err != nil {
			t.Fatal(err)
		}
		f64, err := SolveBatch(ctx, fb, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r32, err := SolveBatchFloat(ctx, b.Count, b.Rows, b.Cols, f32, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]*lap.BatchOutput{"float64": f64, "float32": {Float: r32}} {
			if err := lap.CertifyBatch(fb, out, FloatTolerance); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for k := range fb.Count {
				if d := math.Abs(out.Float[k].Cost - fref.Float[k].Cost); d > FloatTolerance*float64(b.Rows)*64 {
					t.Fatalf("%s %v problem %d: cost %g, cpu/jv %g", name, shape, k+1, out.Float[k].Cost, fref.Float[k].Cost)
				}
			}
		}
	}
}

// TestGPUFloat: single float64, float32 and rectangular solves against
// cpu/jv, and maximisation through lap.SolveWith with cuda/fast.
func TestGPUFloat(t *testing.T) {
	if !hasGPU() {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(9, 9))
	var fast lap.Impl
	for _, im := range Impls() {
		if im.Name == "cuda/fast" {
			fast = im
		}
	}
	if fast.SolveFloat == nil {
		t.Fatal("cuda/fast has no SolveFloat")
	}
	for _, shape := range [][2]int{{1, 1}, {7, 7}, {50, 50}, {30, 75}, {200, 200}, {128, 513}} {
		r, c := shape[0], shape[1]
		m := &lap.FloatMatrix{Rows: r, Cols: c, C: make([]float64, r*c)}
		f32 := make([]float32, r*c)
		for k := range m.C {
			f32[k] = float32(rnd.Float64() * 1000)
			m.C[k] = float64(f32[k])
		}
		ref, err := lap.SolveJVFloat(ctx, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		tol := FloatTolerance * 1000 * float64(r)
		for name, solve := range map[string]func() (*lap.FloatResult, error){
			"float64": func() (*lap.FloatResult, error) { return SolveFloat(ctx, m, Options{}) },
			"float32": func() (*lap.FloatResult, error) { return SolveFloat32(ctx, r, c, f32, Options{}) },
		} {
			res, err := solve()
			if err != nil {
				t.Fatalf("%s %dx%d: %v", name, r, c, err)
			}
			if math.Abs(res.Cost-ref.Cost) > tol {
				t.Fatalf("%s %dx%d: cost %g, cpu/jv %g", name, r, c, res.Cost, ref.Cost)
			}
		}
		// Maximise, and integer rectangular costs, through SolveWith as
		// `solve lap` does.
		jv := lap.JV
		for _, maximize := range []bool{false, true} {
			costs := &lap.Costs{Name: "t", Rows: r, Cols: c, Float: m.C}
			got, err := lap.Solve(ctx, costs, fast, maximize)
			if err != nil {
				t.Fatal(err)
			}
			want, err := lap.Solve(ctx, costs, jv, maximize)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := got.Cost.Float64()
			w, _ := want.Cost.Float64()
			if math.Abs(g-w) > tol {
				t.Fatalf("%dx%d maximize=%v: cost %g, cpu/jv %g", r, c, maximize, g, w)
			}
			ic := &lap.Costs{Name: "t", Rows: r, Cols: c, Int: make([]int64, r*c)}
			for k := range ic.Int {
				ic.Int[k] = int64(m.C[k])
			}
			gi, err := lap.Solve(ctx, ic, fast, maximize)
			if err != nil {
				t.Fatal(err)
			}
			wi, err := lap.Solve(ctx, ic, jv, maximize)
			if err != nil {
				t.Fatal(err)
			}
			if gi.Cost != wi.Cost {
				t.Fatalf("int %dx%d maximize=%v: cost %s, cpu/jv %s", r, c, maximize, gi.Cost, wi.Cost)
			}
		}
	}
}
