package cudaminplus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/problems/minplus"
)

// benchVariant is one implementation to time, with its cuda/fast kernel
// ("" for the others).
type benchVariant struct{ label, impl, kernel string }

// benchVariants are every implementation, both cuda/fast kernels.
var benchVariants = []benchVariant{
	{"cuda-paper", NamePaper, ""},
	{"cuda-fast-128x256", NameFast, "minplus_fast128"},
	{"cuda-fast-256x256", NameFast, "minplus_fast256"},
	{"cuda-sparse", NameSparse, ""},
}

// benchPowers times the Steps of v on A in a Session (one warm-up product
// first, A^2, whose statistics must equal want2 unless it is zero),
// reporting the updates per second and milliseconds per product by CUDA
// events; then it restarts the session and returns the statistics of
// A^check, for comparison across implementations.
func benchPowers(b *testing.B, v benchVariant, a *minplus.CSR, want2 minplus.Stats, check int) minplus.Stats {
	b.Helper()
	ctx := context.Background()
	if v.kernel != "" {
		old := fastKernel
		defer func() { fastKernel = old }()
		fastKernel = v.kernel
	}
	s, err := NewSession(ctx, v.impl, a, minplus.SessionOptions{})
	if err != nil {
		b.Fatalf("%s n=%d: %v", v.label, a.N, err)
	}
	defer s.Close()
	if err := s.Step(ctx); err != nil {
		b.Fatal(err)
	}
	if want2.Power != 0 {
		st, err := s.Stats(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if st != want2 {
			b.Errorf("%s n=%d: A^2 stats %+v, want %+v", v.label, a.N, st, want2)
		}
	}
	var gpu time.Duration
	steps := 0
	for b.Loop() {
		if err := s.Step(ctx); err != nil {
			b.Fatal(err)
		}
		gpu += s.LastStep()
		steps++
	}
	b.ReportMetric(s.Updates()*float64(steps)/gpu.Seconds(), "updates/s")
	b.ReportMetric(float64(gpu.Nanoseconds())/1e6/float64(steps), "ms/product")
	if err := s.Restart(ctx); err != nil {
		b.Fatal(err)
	}
	var last minplus.Stats
	if err := s.Powers(ctx, check, func(st minplus.Stats) error { last = st; return nil }); err != nil {
		b.Fatalf("%s n=%d: %v", v.label, a.N, err)
	}
	return last
}

// BenchmarkPowers times the products of every implementation (both
// cuda/fast kernels) at the paper's N = 8568 (m = 10) and 21294 (m = 11),
// each in a Session on a random sparse A with about 10 entries per row
// (A(D_m) is sparse too): a warm-up product (A^2, checked against the CPU),
// then the timed products (CUDA events). The statistics of A^7 must agree
// across all implementations. Skipped without a device.
func BenchmarkPowers(b *testing.B) {
	if gpuCount() == 0 {
		b.Skip("no CUDA device")
	}
	for _, n := range []int{8568, 21294} {
		r := rand.New(rand.NewPCG(uint64(n), 99))
		a := randomCSR(r, n, 10)
		a2 := minplus.StatsOf(n, refSparse(a, toDense(a)))
		a2.Power = 2
		var final []minplus.Stats
		for _, v := range benchVariants {
			b.Run(fmt.Sprintf("n=%d/%s", n, v.label), func(b *testing.B) {
				final = append(final, benchPowers(b, v, a, a2, 7))
			})
		}
		for i, st := range final {
			if st != final[0] {
				b.Errorf("n=%d: %s A^%d stats %+v differ from %s's %+v", n, benchVariants[i].label, st.Power, st, benchVariants[0].label, final[0])
			}
		}
	}
}

// BenchmarkSessionStep times one Step of each implementation at n = 4096
// on a device (skipped without one), reporting updates per second.
func BenchmarkSessionStep(b *testing.B) {
	if gpuCount() == 0 {
		b.Skip("no CUDA device")
	}
	const n = 4096
	a := randomCSR(rand.New(rand.NewPCG(1, 1)), n, 10)
	for _, impl := range names() {
		b.Run(impl, func(b *testing.B) {
			s, err := NewSession(context.Background(), impl, a, minplus.SessionOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var gpu time.Duration
			for b.Loop() {
				if err := s.Step(context.Background()); err != nil {
					b.Fatal(err)
				}
				gpu += s.LastStep()
			}
			b.ReportMetric(s.Updates()*float64(b.N)/gpu.Seconds(), "updates/s")
		})
	}
}

// BenchmarkLarge runs the sizes of m = 12 and m = 13 (skipped without a
// device; run it with -benchtime=1x): at N = 52929 (m = 12) cuda/fast's A^4
// must equal cuda/sparse's (statistics) and both products are timed; at
// N = 131562 (m = 13) a cuda/sparse Session must fit (two powers of
// 34.6 GB) and run, and a dense Session must be refused with the bytes
// needed and free.
func BenchmarkLarge(b *testing.B) {
	if gpuCount() == 0 {
		b.Skip("no CUDA device")
	}
	sparseV, fastV := benchVariants[3], benchVariants[2]
	a := randomCSR(rand.New(rand.NewPCG(12, 12)), 52929, 10)
	var sp, fa minplus.Stats
	b.Run("n=52929/"+sparseV.label, func(b *testing.B) { sp = benchPowers(b, sparseV, a, minplus.Stats{}, 4) })
	b.Run("n=52929/"+fastV.label, func(b *testing.B) { fa = benchPowers(b, fastV, a, minplus.Stats{}, 4) })
	if sp != fa {
		b.Errorf("n=52929: cuda/fast A^4 %+v, cuda/sparse %+v", fa, sp)
	}
	a = randomCSR(rand.New(rand.NewPCG(13, 13)), 131562, 10)
	b.Run("n=131562/"+sparseV.label, func(b *testing.B) { benchPowers(b, sparseV, a, minplus.Stats{}, 4) })
	_, err := NewSession(context.Background(), NameFast, a, minplus.SessionOptions{})
	if err == nil || !strings.Contains(err.Error(), "does not fit") || !strings.Contains(err.Error(), "are free") {
		b.Errorf("dense session at n=131562: %v", err)
	}
}
