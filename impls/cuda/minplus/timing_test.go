package cudaminplus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestGPUTiming prints the (min,+) updates per second of every
// implementation (both cuda/fast kernels) where a device is present and
// SEMIBENCH_MINPLUS_TIMING is set: to "1" for the paper's N = 8568 (m = 10)
// and 21294 (m = 11), or to a comma-separated list of orders. Each
// implementation runs a Session on a random sparse A with about 10 entries
// per row (A(D_m) is sparse too): one warm-up product (A^2, checked against
// the CPU), then 5 timed products (CUDA events), the median reported; the
// statistics of A^7 must agree across all implementations. The dense
// kernels' time does not depend on the values. It asserts no time.
func TestGPUTiming(t *testing.T) {
	env := os.Getenv("SEMIBENCH_MINPLUS_TIMING")
	if env == "" {
		t.Skip("set SEMIBENCH_MINPLUS_TIMING to time the implementations")
	}
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	sizes := []int{8568, 21294}
	if env != "1" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("SEMIBENCH_MINPLUS_TIMING=%q: %v", env, err)
			}
			sizes = append(sizes, n)
		}
	}
	ctx := context.Background()
	old := fastKernel
	defer func() { fastKernel = old }()
	type variant struct{ label, impl, kernel string }
	variants := []variant{
		{"cuda/paper", NamePaper, ""},
		{"cuda/fast (128x256)", NameFast, "minplus_fast128"},
		{"cuda/fast (256x256)", NameFast, "minplus_fast256"},
		{"cuda/sparse", NameSparse, ""},
	}
	var table []string
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(n), 99))
		a := randomCSR(r, n, 10)
		t0 := time.Now()
		a2 := StatsOf(n, refSparse(a, toDense(a)))
		t.Logf("n=%d nnz=%d: CPU reference A^2 in %v", n, a.NNZ(), time.Since(t0))
		var final []Stats
		for _, v := range variants {
			if v.kernel != "" {
				fastKernel = v.kernel
			}
			s, err := NewSession(ctx, v.impl, a, Options{})
			if err != nil {
				t.Fatalf("%s n=%d: %v", v.label, n, err)
			}
			if err := s.Step(ctx); err != nil {
				t.Fatal(err)
			}
			st, err := s.Stats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			a2.Power = 2
			if st != a2 {
				t.Errorf("%s n=%d: A^2 stats %+v, want %+v", v.label, n, st, a2)
			}
			var ms []float64
			for rep := 0; rep < 5; rep++ {
				if err := s.Step(ctx); err != nil {
					t.Fatal(err)
				}
				ms = append(ms, float64(s.LastStep().Nanoseconds())/1e6)
			}
			st, err = s.Stats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			final = append(final, st)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			sorted := slices.Clone(ms)
			slices.Sort(sorted)
			med := sorted[len(sorted)/2]
			rate := s.Updates() / (med / 1e3)
			line := fmt.Sprintf("n=%-6d %-20s median %10.3f ms  %8.3f T updates/s  (samples %v)", n, v.label, med, rate/1e12, fmtMS(ms))
			t.Log(line)
			table = append(table, line)
		}
		for i, st := range final {
			if st != final[0] {
				t.Errorf("n=%d: %s A^%d stats %+v differ from %s's %+v", n, variants[i].label, st.Power, st, variants[0].label, final[0])
			}
		}
		t.Logf("n=%d: A^7 min %d, diagonal min %d, fingerprint %x: equal across implementations: %v", n, final[0].Min, final[0].DiagMin,
			final[0].Fingerprint(), !t.Failed())
	}
	for _, l := range table {
		t.Log(l)
	}
}

func fmtMS(ms []float64) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = strconv.FormatFloat(m, 'f', 2, 64)
	}
	return strings.Join(parts, " ")
}

// BenchmarkSessionStep times one Step of each implementation at n = 4096
// on a device (skipped without one), reporting updates per second.
func BenchmarkSessionStep(b *testing.B) {
	if gpuCount() == 0 {
		b.Skip("no CUDA device")
	}
	const n = 4096
	a := randomCSR(rand.New(rand.NewPCG(1, 1)), n, 10)
	for _, impl := range Names {
		b.Run(impl, func(b *testing.B) {
			s, err := NewSession(context.Background(), impl, a, Options{})
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

// TestGPULarge runs the sizes of m = 12 and m = 13 where a device is present
// and SEMIBENCH_MINPLUS_LARGE is set: at N = 52929 (m = 12) cuda/fast's
// A^4 must equal cuda/sparse's (statistics) and its product time is
// printed; at N = 131562 (m = 13) a cuda/sparse Session must fit (two
// powers of 34.6 GB) and run a few powers, and a dense Session must be
// refused with the bytes needed and free.
func TestGPULarge(t *testing.T) {
	if os.Getenv("SEMIBENCH_MINPLUS_LARGE") == "" {
		t.Skip("set SEMIBENCH_MINPLUS_LARGE to run the m = 12 and m = 13 sizes")
	}
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	powers := func(impl string, a *CSR, K int) Stats {
		t0 := time.Now()
		s, err := NewSession(ctx, impl, a, Options{})
		if err != nil {
			t.Fatalf("%s n=%d: %v", impl, a.N, err)
		}
		defer s.Close()
		setup := time.Since(t0)
		var last Stats
		var steps []string
		err = s.Powers(ctx, K, func(st Stats) error {
			last = st
			if st.Power > 1 {
				steps = append(steps, fmt.Sprintf("%.1f", float64(s.LastStep().Microseconds())/1e3))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s n=%d: %v", impl, a.N, err)
		}
		t.Logf("%-11s n=%d nnz=%d: session set up in %v; products (ms): %s = %.2f T updates/s at the last; A^%d min %d diag %d fp %x; wall %v",
			impl, a.N, a.NNZ(), setup.Round(time.Millisecond), strings.Join(steps, " "),
			s.Updates()/s.LastStep().Seconds()/1e12, last.Power, last.Min, last.DiagMin, last.Fingerprint(), time.Since(t0).Round(time.Millisecond))
		return last
	}
	a := randomCSR(rand.New(rand.NewPCG(12, 12)), 52929, 10)
	sp := powers(NameSparse, a, 4)
	fa := powers(NameFast, a, 4)
	if sp != fa {
		t.Errorf("n=52929: cuda/fast A^4 %+v, cuda/sparse %+v", fa, sp)
	}
	a = randomCSR(rand.New(rand.NewPCG(13, 13)), 131562, 10)
	powers(NameSparse, a, 4)
	_, err := NewSession(ctx, NameFast, a, Options{})
	if err == nil || !strings.Contains(err.Error(), "does not fit") || !strings.Contains(err.Error(), "are free") {
		t.Errorf("dense session at n=131562: %v", err)
	} else {
		t.Logf("dense session at n=131562 refused: %v", err)
	}
}
