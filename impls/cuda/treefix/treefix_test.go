package cudatreefix

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/kernels"
	"github.com/semibench/semibench/problems/treefix"
)

func TestPlanAndNames(t *testing.T) {
	for _, impl := range names {
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			p := Plan(impl, op, 1<<20, 4)
			if p.Total() < 5*4<<20 {
				t.Errorf("%s %s: plan of %d bytes is below the weights, outputs and CSR", impl, op, p.Total())
			}
			seen := map[string]bool{}
			for _, b := range p.Buffers {
				if seen[b.Name] {
					t.Errorf("%s %s: buffer %s twice", impl, op, b.Name)
				}
				seen[b.Name] = true
			}
		}
	}
	tr, _ := treefix.NewTree([]int32{-1, 0})
	if err := run(t.Context(), "cuda/nope", treefix.Rootfix, tr, []float32{1, 2}, make([]float32, 2), Options{}); err == nil {
		t.Error("unknown implementation accepted")
	}
	if err := run(t.Context(), Vectorial, treefix.Rootfix, tr, []float32{1}, make([]float32, 2), Options{}); err == nil {
		t.Error("short weights accepted")
	}
}

func needGPU(t testing.TB) {
	t.Helper()
	if _, err := cuda.DeviceCount(); err != nil {
		if !errors.Is(err, driver.ErrUnavailable) {
			t.Fatal(err)
		}
		t.Skip("no CUDA device")
	}
}

// testTrees are shapes that exercise the narrow and wide levels, the
// ruling set and the scan's tiles, in three numberings.
func testTrees(t *testing.T) map[string]*trees.Tree {
	out := map[string]*trees.Tree{}
	add := func(name string, tr *trees.Tree, err error) {
		if err != nil {
			t.Fatal(err)
		}
		for _, nb := range []trees.Numbering{trees.BreadthFirst, trees.DepthFirst, trees.RandomOrder} {
			r, err := trees.Renumber(tr, nb, 7)
			if err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("%s/%s", name, nb)] = r
		}
	}
	for _, n := range []int{1, 2, 3, 1000, 70000} {
		tr, err := trees.Star(n)
		add(fmt.Sprintf("star%d", n), tr, err)
		tr, err = trees.Caterpillar(n)
		add(fmt.Sprintf("caterpillar%d", n), tr, err)
	}
	for _, c := range []struct{ n, levels int }{{5000, 7}, {200000, 40}, {300000, 3000}, {100000, 2}} {
		tr, err := trees.Random(c.n, c.levels, trees.Bell, uint64(c.n))
		add(fmt.Sprintf("random%d-%d", c.n, c.levels), tr, err)
	}
	return out
}

// TestExact holds every CUDA implementation to the reference sums
// (treefix.Reference, the sequential traversal of the definitions), exactly, on integer weights in int64 and in float32, and the
// GPU's Euler tour to the CPU's.
func TestExact(t *testing.T) {
	needGPU(t)
	ctx := t.Context()
	trees := slices.Sorted(func(yield func(string) bool) {
		for k := range testTrees(t) {
			if !yield(k) {
				return
			}
		}
	})
	all := testTrees(t)
	for _, name := range trees {
		tr := all[name]
		pt, err := treefix.NewTree(tr.Parent)
		if err != nil {
			t.Fatal(err)
		}
		n := tr.N()
		v, err := BuildVector(ctx, pt, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cv := pt.BuildVector()
		if !slices.Equal(v.Open, cv.Open) || !slices.Equal(v.Close, cv.Close) {
			t.Errorf("%s: GPU Euler tour differs from the CPU's", name)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		wi := make([]int64, n)
		wf := make([]float32, n)
		for i := range wi {
			wi[i] = int64(rng.IntN(2001) - 1000)
			wf[i] = float32(rng.IntN(3) - 1)
		}
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			ref := make([]int64, n)
			if err := treefix.Reference(pt, op, wi, ref); err != nil {
				t.Fatal(err)
			}
			reff := make([]float32, n)
			if err := treefix.Reference(pt, op, wf, reff); err != nil {
				t.Fatal(err)
			}
			for _, impl := range names {
				got := make([]int64, n)
				if err := run(ctx, impl, op, pt, wi, got, Options{}); err != nil {
					t.Fatalf("%s %s %s: %v", name, impl, op, err)
				}
				if i := firstDiff(got, ref); i >= 0 {
					t.Errorf("%s %s %s int64: vertex %d = %d, want %d", name, impl, op, i, got[i], ref[i])
				}
				gotf := make([]float32, n)
				if err := run(ctx, impl, op, pt, wf, gotf, Options{}); err != nil {
					t.Fatalf("%s %s %s: %v", name, impl, op, err)
				}
				if i := firstDiff(gotf, reff); i >= 0 {
					t.Errorf("%s %s %s float32: vertex %d = %g, want %g", name, impl, op, i, gotf[i], reff[i])
				}
			}
		}
	}
}

func firstDiff[T comparable](a, b []T) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestCompensatedBound checks cuda/vectorial-compensated against Bound on
// ill-conditioned GenSum chains (float32), and that it beats cuda/vectorial.
func TestCompensatedBound(t *testing.T) {
	needGPU(t)
	ctx := t.Context()
	const n = 10000
	for i, cond := range []float64{1e3, 1e6, 1e9} {
		x, _, err := trees.GenSum(n, cond, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		chain, _ := trees.Caterpillar(n)
		for v := range x {
			chain.Weight[v] = float64(x[v])
		}
		tr, err := trees.Renumber(chain, trees.RandomOrder, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		pt, _ := treefix.NewTree(tr.Parent)
		w := make([]float32, n)
		w64 := make([]float64, n)
		var sumAbs float64
		for v, y := range tr.Weight {
			w[v], w64[v] = float32(y), y
			sumAbs += math.Abs(y)
		}
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			// the reference: the exact sums rounded to float64 (within
			// U64·|R|, inside the slack below, which covers the float64
			// Sum2 reference this test had when it ran on the CPU's
			// cpu/vectorial-compensated: U64·|R| + 2·γ_2n²·Σ|w|)
			ref, err := treefix.Exact(pt, op, w64)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float32, n)
			if err := run(ctx, VectorialCompensated, op, pt, w, got, Options{}); err != nil {
				t.Fatal(err)
			}
			plain := make([]float32, n)
			if err := run(ctx, Vectorial, op, pt, w, plain, Options{}); err != nil {
				t.Fatal(err)
			}
			var worstC, worstP float64
			for v := range got {
				g := 2 * n * treefix.U64
				b := Bound(op, n, ref[v], sumAbs) + 3*treefix.U64*(2*sumAbs) + 2*g*g*sumAbs
				e := math.Abs(float64(got[v]) - ref[v])
				if e > b {
					t.Fatalf("cond %g %s vertex %d: error %g above the bound %g", cond, op, v, e, b)
				}
				worstC = max(worstC, e)
				worstP = max(worstP, math.Abs(float64(plain[v])-ref[v]))
			}
			t.Logf("cond %.0e %s: largest absolute error compensated %.3g, plain %.3g", cond, op, worstC, worstP)
			if cond >= 1e6 && worstC >= worstP {
				t.Errorf("cond %g %s: compensated error %g not below plain %g", cond, op, worstC, worstP)
			}
		}
	}
}

// BenchmarkTreefix times +Rootfix per implementation at paper scale (2^24
// vertices: a depth-first numbered bell-shaped random tree, a star and a
// caterpillar, float32 weights), reporting each run's phases in ms and the
// compute ratios parallel/vectorial and compensated/vectorial; and a device
// copy of 2^25 float32 (the bytes of the Euler-tour vector) beside them.
// Without a GPU it is skipped.
func BenchmarkTreefix(b *testing.B) {
	needGPU(b)
	ctx := b.Context()
	const n = 1 << 24
	shapes := map[string]func() (*trees.Tree, error){
		"random-dfs": func() (*trees.Tree, error) {
			tr, err := trees.Random(n, 4000, trees.Bell, 1)
			if err != nil {
				return nil, err
			}
			return trees.Renumber(tr, trees.DepthFirst, 1)
		},
		"star":        func() (*trees.Tree, error) { return trees.Star(n) },
		"caterpillar": func() (*trees.Tree, error) { return trees.Caterpillar(n) },
	}
	for _, name := range []string{"random-dfs", "star", "caterpillar"} {
		tr, err := shapes[name]()
		if err != nil {
			b.Fatal(err)
		}
		pt, err := treefix.NewTree(tr.Parent)
		if err != nil {
			b.Fatal(err)
		}
		w := make([]float32, n)
		for i := range w {
			w[i] = float32(i%3 - 1)
		}
		out := make([]float32, n)
		compute := map[string]time.Duration{}
		for _, impl := range names {
			b.Run(name+"/"+impl[len("cuda/"):], func(b *testing.B) {
				var rec *bench.Recorder
				for b.Loop() {
					rec = &bench.Recorder{}
					if err := run(ctx, impl, treefix.Rootfix, pt, w, out, Options{Rec: rec}); err != nil {
						b.Fatal(err)
					}
				}
				phases, durs := rec.Durations()
				for i, ph := range phases {
					b.ReportMetric(float64(durs[i].Nanoseconds())/1e6, ph+"-ms")
					if ph == treefix.PhaseCompute {
						compute[impl] = durs[i]
					}
				}
				if impl == VectorialCompensated && compute[Vectorial] > 0 { // the last: the ratios
					b.ReportMetric(compute[Parallel].Seconds()/compute[Vectorial].Seconds(), "parallel/vectorial")
					b.ReportMetric(compute[VectorialCompensated].Seconds()/compute[Vectorial].Seconds(), "compensated/vectorial")
				}
			})
		}
	}
	b.Run("device-copy-2^25-float32", func(b *testing.B) {
		dev, err := cuda.Open(0)
		if err != nil {
			b.Fatal(err)
		}
		var last time.Duration
		err = dev.Run(ctx, func(th *driver.Thread) error {
			a, err := dev.Buffer(th, "treefix.copy.a", 4<<25)
			if err != nil {
				return err
			}
			c, err := dev.Buffer(th, "treefix.copy.b", 4<<25)
			if err != nil {
				return err
			}
			for b.Loop() {
				if err := dev.StartTimer(th); err != nil {
					return err
				}
				if err := th.CopyDeviceAsync(c, a, 4<<25, dev.Stream()); err != nil {
					return err
				}
				if last, err = dev.StopTimer(th); err != nil {
					return err
				}
			}
			return dev.FreeBuffers(th)
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(last.Nanoseconds())/1e6, "copy-ms")
	})
}

// TestFallbackPTX JIT-compiles kernels/ptx/treefix.ptx (the path taken
// without NVRTC) and finds every kernel the package launches in it.
func TestFallbackPTX(t *testing.T) {
	needGPU(t)
	dev, err := cuda.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	err = dev.Run(t.Context(), func(th *driver.Thread) error {
		ptx, err := kernels.FallbackPTX(module)
		if err != nil {
			return err
		}
		m, _, err := th.ModuleLoadData(ptx)
		if err != nil {
			return err
		}
		defer th.ModuleUnload(m)
		names := []string{"tf_pos", "tf_succ", "tf_rulers", "tf_walk", "tf_jump", "tf_rank", "tf_read_leaf_dd_f32", "tf_read_leaf_dd_f64",
			"tf_scan_local_f32", "tf_scan_tiles_f32", "tf_read_root_tiled_f32", "tf_read_leaf_tiled_f32", "tf_read_root_f32"}
		for _, s := range []string{"f32", "f64", "i64"} {
			names = append(names, "tf_write_"+s, "tf_bfs_"+s)
			if s != "f32" {
				names = append(names, "tf_read_root_"+s, "tf_read_leaf_"+s, "tf_scan_"+s)
			}
		}
		names = append(names, "tf_scan_dd_f32", "tf_scan_dd_f64", "tf_scan_ddw_f32", "tf_scan_ddw_f64")
		for _, fn := range names {
			if _, err := th.Function(m, fn); err != nil {
				return fmt.Errorf("%s: %w", fn, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestInputPlan checks that the part of each plan allocated before the
// window holds exactly the buffers the run uploads into, with the plan's
// sizes, so that the full plan allocated inside the window reuses them.
func TestInputPlan(t *testing.T) {
	for _, impl := range names {
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			p := Plan(impl, op, 1000, 8)
			in := InputPlan(p)
			if len(in.Buffers) != len(inputNames) {
				t.Fatalf("%s %s: input plan %v, want the buffers %v", impl, op, in.Buffers, inputNames)
			}
			for _, b := range in.Buffers {
				if !slices.Contains(p.Buffers, b) {
					t.Errorf("%s %s: input buffer %v is not in the plan", impl, op, b)
				}
			}
			if in.Total() >= p.Total() {
				t.Errorf("%s %s: input plan of %d bytes is not a part of the plan's %d", impl, op, in.Total(), p.Total())
			}
		}
	}
}

// TestProtocol measures every implementation with bench.Measure and checks
// the timing protocol: the transfers lie outside total, the euler_tour and
// write/scan/read phases inside, compute is a summary for the vectorial
// ones and a part of the breakdown for cuda/parallel, and total lies within
// end_to_end.
func TestProtocol(t *testing.T) {
	needGPU(t)
	tr, err := trees.Random(200000, 40, trees.Bell, 3)
	if err != nil {
		t.Fatal(err)
	}
	pt, _ := treefix.NewTree(tr.Parent)
	n := pt.N()
	w, out := make([]float32, n), make([]float32, n)
	for i := range w {
		w[i] = float32(i%3 - 1)
	}
	for _, impl := range names {
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			ph, err := bench.Measure(t.Context(), bench.Protocol{Warmup: 1, Reps: 3, Statistic: bench.StatMedian},
				func(ctx context.Context, rec *bench.Recorder) error {
					return run(ctx, impl, op, pt, w, out, Options{Rec: rec})
				})
			if err != nil {
				t.Fatalf("%s %s: %v", impl, op, err)
			}
			scope := map[string]string{}
			ms := map[string]float64{}
			for _, p := range ph {
				scope[p.Name], ms[p.Name] = p.Scope, p.MedianMS
			}
			want := map[string]string{treefix.PhaseH2D: bench.ScopeEndToEnd, treefix.PhaseD2H: bench.ScopeEndToEnd, bench.OtherPhase: bench.ScopeTotal}
			if impl == Parallel {
				want[treefix.PhaseCompute] = bench.ScopeTotal
			} else {
				want[treefix.PhaseCompute] = bench.ScopeSummary
				for _, p := range []string{treefix.PhaseEulerTour, treefix.PhaseWrite, treefix.PhaseScan, treefix.PhaseRead} {
					want[p] = bench.ScopeTotal
				}
			}
			for name, s := range want {
				if scope[name] != s {
					t.Errorf("%s %s: phase %s has scope %q, want %q (phases %v)", impl, op, name, scope[name], s, scope)
				}
			}
			if ms[bench.TotalPhase] <= 0 || ms[bench.TotalPhase] > ms[bench.EndToEndPhase] {
				t.Errorf("%s %s: total %.3f ms outside (0, end_to_end %.3f ms]", impl, op, ms[bench.TotalPhase], ms[bench.EndToEndPhase])
			}
		}
	}
}
