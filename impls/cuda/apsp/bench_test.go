package cudaapsp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	cpuapsp "github.com/semibench/semibench/impls/cpu/apsp"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// Benchmarks of the GPU implementations; each skips without a CUDA device.
// For example, on a machine with one:
//
//	go test -run - -bench . ./impls/cuda/apsp
//	go test -run - -bench 'FastMinPlus32/n=8192' ./impls/cuda/apsp
//
// Each reports the closure's rate in T updates per second from its CUDA
// event time (n³ updates per closure) and the mean of each phase in ms;
// the inputs are dense with integer weights. None asserts a time.

// logDevice logs the CUDA driver and the devices once per benchmark.
func logDevice(b *testing.B) {
	info, gpus := cuda.Probe()
	b.Logf("CUDA %+v", *info)
	for _, g := range gpus {
		b.Logf("GPU %+v", g)
	}
}

// benchClosure runs fast on a fresh copy of a for each iteration (the copy
// untimed) and reports the rate of the closure phase and the mean phases.
func benchClosure[T any](b *testing.B, a *apsp.Matrix[T], fast func(c *apsp.Matrix[T]) (Stats, error)) *apsp.Matrix[T] {
	c := a.Clone()
	if _, err := fast(c); err != nil { // warm-up: kernels loaded, buffers held
		b.Fatal(err)
	}
	var sum Stats
	for b.Loop() {
		b.StopTimer()
		copy(c.Data, a.Data)
		b.StartTimer()
		st, err := fast(c)
		if err != nil {
			b.Fatal(err)
		}
		sum.Closure += st.Closure
		sum.H2D += st.H2D
		sum.D2H += st.D2H
		sum.KernelPath = st.KernelPath
	}
	runs := float64(b.N)
	b.ReportMetric(Updates(a.N)*runs/sum.Closure.Seconds()/1e12, "Tupdates/s")
	b.ReportMetric(sum.Closure.Seconds()*1e3/runs, "closure-ms")
	b.ReportMetric(sum.H2D.Seconds()*1e3/runs, "h2d-ms")
	b.ReportMetric(sum.D2H.Seconds()*1e3/runs, "d2h-ms")
	b.Logf("kernels: %s", sum.KernelPath)
	return c
}

// BenchmarkFastMinPlus32 times cuda/fast's min-plus float32 closure at
// n = 4096, 8192 and 16384 on positive weights, by each path of its
// products: "3way" (the non-negative path, where the device has it) and
// "pair" (FADD and FMNMX, the path of inputs with negative values), with
// the measured limit of each. At n <= 4096 the result is checked against
// cpu/fast exactly; one traced run logs the GPU time by kind of launch.
func BenchmarkFastMinPlus32(b *testing.B) {
	needGPU(b)
	logDevice(b)
	ctx := context.Background()
	limits := map[string]float64{}
	var err error
	if limits["pair"], err = PeakMinPlus32(ctx, Options{}); err != nil {
		b.Fatal(err)
	}
	if limits["3way"], err = PeakMinPlus32NonNeg(ctx, Options{}); err != nil {
		b.Logf("no 3-way path: %v", err)
	}
	b.Logf("measured limits (T updates/s): pair %.2f, 3way %.2f", limits["pair"]/1e12, limits["3way"]/1e12)
	for _, n := range []int{4096, 8192, 16384} {
		r := rand.New(rand.NewPCG(uint64(n), 11))
		a := apsp.NewMatrix(n, float32(math.Inf(1)))
		for i := range a.Data {
			if r.Float64() < 0.5 {
				a.Data[i] = float32(1 + r.IntN(1000))
			}
		}
		for _, path := range []string{"3way", "pair"} {
			if limits[path] == 0 {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/path=%s", n, path), func(b *testing.B) {
				old := allowNonNeg
				allowNonNeg = path == "3way"
				defer func() { allowNonNeg = old }()
				var last Stats
				c := benchClosure(b, a, func(c *apsp.Matrix[float32]) (Stats, error) {
					var err error
					last, err = Fast(ctx, semiring.MinPlus[float32]{}, c, Options{})
					return last, err
				})
				if last.NonNeg != (path == "3way") {
					b.Fatalf("path %s: Stats.NonNeg = %v", path, last.NonNeg)
				}
				b.ReportMetric(limits[path]/1e12, "limit-Tupdates/s")
				if n <= 4096 {
					want := a.Clone()
					if err := cpuapsp.Fast(ctx, semiring.MinPlus[float32]{}, want, cpuapsp.FastOptions{}); err != nil {
						b.Fatal(err)
					}
					for i, v := range want.Data {
						if c.Data[i] != v {
							b.Fatalf("n=%d: (%d,%d) = %v, cpu/fast %v", n, i/n+1, i%n+1, c.Data[i], v)
						}
					}
				}
				// One traced run: GPU time by kind of launch.
				var parts []string
				traceFast = func(what string, d time.Duration) { parts = append(parts, what+" "+d.String()) }
				copy(c.Data, a.Data)
				_, err := Fast(ctx, semiring.MinPlus[float32]{}, c, Options{})
				traceFast = nil
				if err != nil {
					b.Fatal(err)
				}
				b.Logf("traced: %s", strings.Join(parts, ", "))
			})
		}
	}
}

// BenchmarkFastBoolean times cuda/fast's Boolean closure (32-bit words) at
// n = 8192 on a sparse relation.
func BenchmarkFastBoolean(b *testing.B) {
	needGPU(b)
	const n = 8192
	r := rand.New(rand.NewPCG(n, 11))
	a := apsp.NewMatrix(n, false)
	for i := range a.Data {
		a.Data[i] = r.Float64() < 0.5/float64(n)
	}
	b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
		benchClosure(b, a, func(c *apsp.Matrix[bool]) (Stats, error) {
			return Fast(context.Background(), semiring.Boolean{}, c, Options{})
		})
	})
}

// BenchmarkFastReal64 times cuda/fast's real float64 closure at n = 8192,
// entries uniform in ±1/√n.
func BenchmarkFastReal64(b *testing.B) {
	needGPU(b)
	const n = 8192
	r := rand.New(rand.NewPCG(n, 12))
	a := apsp.NewMatrix(n, 0.0)
	for i := range a.Data {
		a.Data[i] = (2*r.Float64() - 1) / math.Sqrt(float64(n))
	}
	b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
		benchClosure(b, a, func(c *apsp.Matrix[float64]) (Stats, error) {
			return Fast(context.Background(), semiring.Real[float64]{}, c, Options{})
		})
	})
}

// BenchmarkSystolic times cuda/systolic against systolic.Simulate on one
// min-plus matrix (GJE0) at n = 64 and 256, reporting both in simulated
// steps per second; the two runs must agree in steps, results and outputs.
func BenchmarkSystolic(b *testing.B) {
	needGPU(b)
	ctx := context.Background()
	for _, n := range []int{64, 256} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
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
			if _, err := Systolic(ctx, semiring.MinPlus[float64]{}, n, mats, cfg, Options{}); err != nil { // warm-up
				b.Fatal(err)
			}
			var g *systolic.Run[float64]
			for b.Loop() {
				var err error
				if g, err = Systolic(ctx, semiring.MinPlus[float64]{}, n, mats, cfg, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			c, err := systolic.Simulate(ctx, n, systolic.SemiringOps(semiring.MinPlus[float64]{}), mats, cfg)
			if err != nil {
				b.Fatal(err)
			}
			if g.Steps != c.Steps || !slices.Equal(g.Result[0], c.Result[0]) || !slices.Equal(g.Out[0], c.Out[0]) {
				b.Errorf("systolic n=%d: GPU and CPU differ", n)
			}
			b.ReportMetric(g.StepsPerSecond(), "gpu-steps/s")
			b.ReportMetric(c.StepsPerSecond(), "cpu-steps/s")
		})
	}
}
