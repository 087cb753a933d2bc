package cudaapsp

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/impls/cpu/apsp"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/semiring"
	"github.com/semibench/semibench/systolic"
)

// TestGPUTiming times cuda/fast's min-plus float32 closure (CUDA events;
// one warm-up, five repetitions, median) where a device is present and
// SEMIBENCH_APSP_TIMING is set: to the orders ("4096,8192"), or to "1" for
// 4096, 8192 and 16384. It prints n³/time in updates per second, and at
// 8192 also the Boolean and real float64 closures. Inputs are dense with
// integer weights, so the result at n <= 4096 is checked against cpu/fast
// exactly. It asserts no time.
func TestGPUTiming(t *testing.T) {
	env := os.Getenv("SEMIBENCH_APSP_TIMING")
	if env == "" {
		t.Skip("set SEMIBENCH_APSP_TIMING to time cuda/fast")
	}
	needGPU(t)
	sizes := []int{4096, 8192, 16384}
	if env != "1" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("SEMIBENCH_APSP_TIMING=%q: %v", env, err)
			}
			sizes = append(sizes, n)
		}
	}
	info, gpus := cuda.Probe()
	t.Logf("CUDA %+v", *info)
	for _, g := range gpus {
		t.Logf("GPU %+v", g)
	}
	ctx := context.Background()
	var table []string
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(n), 11))
		a := apsp.NewMatrix(n, float32(math.Inf(1)))
		for i := range a.Data {
			if r.Float64() < 0.5 {
				a.Data[i] = float32(1 + r.IntN(1000))
			}
		}
		c := a.Clone()
		med, st := timeRuns(t, 5, func() (Stats, error) {
			copy(c.Data, a.Data)
			return Fast(ctx, semiring.MinPlus[float32]{}, c, Options{})
		})
		line := "min-plus f32 n=" + strconv.Itoa(n) + ": closure " + med.String() + ", " +
			strconv.FormatFloat(Updates(n)/med.Seconds()/1e12, 'f', 2, 64) + " T updates/s; h2d " + st.H2D.String() + ", d2h " + st.D2H.String() + " (" + st.KernelPath + ")"
		if n <= 4096 {
			want := a.Clone()
			if err := apsp.Fast(ctx, semiring.MinPlus[float32]{}, want, apsp.FastOptions{}); err != nil {
				t.Fatal(err)
			}
			for i, v := range want.Data {
				if c.Data[i] != v {
					t.Fatalf("n=%d: (%d,%d) = %v, cpu/fast %v", n, i/n+1, i%n+1, c.Data[i], v)
				}
			}
			line += "; equal to cpu/fast"
		}
		t.Log(line)
		table = append(table, line)
		// One traced run: GPU time by kind of launch.
		var parts []string
		traceFast = func(what string, d time.Duration) { parts = append(parts, what+" "+d.String()) }
		copy(c.Data, a.Data)
		_, err := Fast(ctx, semiring.MinPlus[float32]{}, c, Options{})
		traceFast = nil
		if err != nil {
			t.Fatal(err)
		}
		table = append(table, "  traced: "+strings.Join(parts, ", "))
		if n == 8192 {
			b := apsp.NewMatrix(n, false)
			for i := range b.Data {
				b.Data[i] = r.Float64() < 0.5/float64(n)
			}
			bc := b.Clone()
			bm, _ := timeRuns(t, 3, func() (Stats, error) {
				copy(bc.Data, b.Data)
				return Fast(ctx, semiring.Boolean{}, bc, Options{})
			})
			table = append(table, "boolean n=8192: closure "+bm.String()+", "+strconv.FormatFloat(Updates(n)/bm.Seconds()/1e12, 'f', 2, 64)+" T updates/s")
			rm := apsp.NewMatrix(n, 0.0)
			for i := range rm.Data {
				rm.Data[i] = (2*r.Float64() - 1) / math.Sqrt(float64(n))
			}
			rc := rm.Clone()
			rmed, _ := timeRuns(t, 3, func() (Stats, error) {
				copy(rc.Data, rm.Data)
				return Fast(ctx, semiring.Real[float64]{}, rc, Options{})
			})
			table = append(table, "real f64 n=8192: closure "+rmed.String()+", "+strconv.FormatFloat(Updates(n)/rmed.Seconds()/1e12, 'f', 2, 64)+" T updates/s")
		}
	}
	// cuda/systolic against systolic.Simulate: steps per second, one
	// min-plus matrix.
	for _, n := range []int{64, 256} {
		r := rand.New(rand.NewPCG(uint64(n), 12))
		m := make([]float64, n*n)
		for i := range m {
			m[i] = math.Inf(1)
			if r.Float64() < 0.3 {
				m[i] = float64(r.IntN(20))
			}
		}
		mats := [][]float64{m}
		cfg := systolic.Config{Tracks: 1}
		if _, err := Systolic(ctx, semiring.MinPlus[float64]{}, n, mats, cfg, Options{}); err != nil {
			t.Fatal(err)
		}
		g, err := Systolic(ctx, semiring.MinPlus[float64]{}, n, mats, cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := systolic.Simulate(ctx, n, systolic.SemiringOps(semiring.MinPlus[float64]{}), mats, cfg)
		if err != nil {
			t.Fatal(err)
		}
		same := g.Steps == c.Steps && slices.Equal(g.Result[0], c.Result[0]) && slices.Equal(g.Out[0], c.Out[0])
		table = append(table, "systolic GJE0 n="+strconv.Itoa(n)+": "+strconv.Itoa(g.Steps)+" steps, GPU "+
			strconv.FormatFloat(g.StepsPerSecond(), 'f', 0, 64)+" steps/s, CPU "+strconv.FormatFloat(c.StepsPerSecond(), 'f', 0, 64)+
			" steps/s, equal: "+strconv.FormatBool(same))
		if !same {
			t.Errorf("systolic n=%d: GPU and CPU differ", n)
		}
	}
	for _, l := range table {
		t.Log(l)
	}
}

// timeRuns runs f once to warm up and reps times more, and returns the
// median closure time and the last run's stats.
func timeRuns(t *testing.T, reps int, f func() (Stats, error)) (time.Duration, Stats) {
	t.Helper()
	var st Stats
	var ds []time.Duration
	for i := 0; i <= reps; i++ {
		s, err := f()
		if err != nil {
			t.Fatal(err)
		}
		st = s
		if i > 0 {
			ds = append(ds, s.Closure)
		}
	}
	slices.Sort(ds)
	return ds[len(ds)/2], st
}
