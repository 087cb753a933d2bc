package cudaminplus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/minplus"
)

// firstDiff returns a description of the first entry where got and want
// differ, or "".
func firstDiff(n int, got, want []int16) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d entries, want %d", len(got), len(want))
	}
	bad := 0
	first := -1
	for i := range want {
		if got[i] != want[i] {
			if first < 0 {
				first = i
			}
			bad++
		}
	}
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d entries differ, first C[%d][%d] = %d, want %d", bad, len(want), first/n, first%n, got[first], want[first])
}

// withFast runs f once per cuda/fast kernel variant.
func withFast(t *testing.T, f func(variant string)) {
	t.Helper()
	old := fastKernel
	defer func() { fastKernel = old }()
	for _, v := range []string{"minplus_fast128", "minplus_fast256"} {
		fastKernel = v
		f(v)
	}
}

// TestGPUExact checks all three implementations (both cuda/fast kernels)
// for exact equality with the CPU reference on random matrices with
// infinities (Inf and values above it) at orders that are and are not
// multiples of the tile sizes.
func TestGPUExact(t *testing.T) {
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	info, gpus := cuda.Probe()
	t.Logf("CUDA %+v", *info)
	for _, g := range gpus {
		t.Logf("GPU %+v", g)
	}
	r := rand.New(rand.NewPCG(11, 12))
	sizes := []int{1, 2, 7, 8, 31, 32, 33, 100, 127, 128, 129, 255, 256, 257, 300, 513}
	if !testing.Short() {
		sizes = append(sizes, 1000)
	}
	for _, n := range sizes {
		for _, inf := range []float64{0, 0.3, 0.97} {
			a := minplus.Random(r, n, inf)
			b := minplus.Random(r, n, inf)
			want := refProduct(n, a, b)
			rec := &bench.Recorder{}
			got, err := product(ctx, NamePaper, n, a, b, rec)
			if err != nil {
				t.Fatalf("cuda/paper n=%d: %v", n, err)
			}
			if d := firstDiff(n, got, want); d != "" {
				t.Errorf("cuda/paper n=%d inf=%.2f: %s", n, inf, d)
			}
			withFast(t, func(v string) {
				got, err := product(ctx, NameFast, n, a, b, rec)
				if err != nil {
					t.Fatalf("cuda/fast (%s) n=%d: %v", v, n, err)
				}
				if d := firstDiff(n, got, want); d != "" {
					t.Errorf("cuda/fast (%s) n=%d inf=%.2f: %s", v, n, inf, d)
				}
			})
			csr, err := CSRFromDense(n, a)
			if err != nil {
				t.Fatal(err)
			}
			got, err = productCSR(ctx, csr, b, rec)
			if err != nil {
				t.Fatalf("cuda/sparse n=%d: %v", n, err)
			}
			if d := firstDiff(n, got, want); d != "" {
				t.Errorf("cuda/sparse n=%d inf=%.2f: %s", n, inf, d)
			}
			// A CSR with repeated columns and empty rows.
			sp := randomCSR(r, n, 4)
			if got, err = productCSR(ctx, sp, b, nil); err != nil {
				t.Fatal(err)
			}
			if d := firstDiff(n, got, refSparse(sp, b)); d != "" {
				t.Errorf("cuda/sparse random CSR n=%d: %s", n, d)
			}
		}
	}
	// Negative entries are refused with their position.
	a := minplus.Random(r, 50, 0.2)
	a[3*50+7] = -4
	for _, f := range []func() error{
		func() error { _, err := product(ctx, NamePaper, 50, a, a, nil); return err },
		func() error { _, err := product(ctx, NameFast, 50, make([]int16, 2500), a, nil); return err },
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "[3][7] = -4") {
			t.Errorf("negative entry: %v", err)
		}
	}
}

// TestGPUSession runs Algorithm 2's loop with every implementation on
// random sparse matrices, checking every power's statistics and several
// whole powers against the CPU reference, and the implementations against
// each other.
func TestGPUSession(t *testing.T) {
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{3, 90, 225, 301} {
		a := randomCSR(r, n, 3)
		ad := toDense(a)
		const K = 8
		// The reference powers.
		pow := [][]int16{nil, ad}
		for k := 2; k <= K; k++ {
			pow = append(pow, refSparse(a, pow[k-1]))
		}
		run := func(label, impl string) {
			s, err := NewSession(ctx, impl, a, minplus.SessionOptions{})
			if err != nil {
				t.Fatalf("%s n=%d: %v", label, n, err)
			}
			defer s.Close()
			err = s.Powers(ctx, K, func(st minplus.Stats) error {
				want := minplus.StatsOf(n, pow[st.Power])
				want.Power = st.Power
				if st != want {
					return fmt.Errorf("A^%d stats %+v, want %+v", st.Power, st, want)
				}
				if st.Power%3 == 1 || st.Power == K {
					got := make([]int16, n*n)
					if err := s.Download(ctx, got); err != nil {
						return err
					}
					if d := firstDiff(n, got, pow[st.Power]); d != "" {
						return fmt.Errorf("A^%d: %s", st.Power, d)
					}
				}
				return nil
			})
			if err != nil {
				t.Errorf("%s n=%d: %v", label, n, err)
			}
			if s.Power() != K {
				t.Errorf("%s n=%d: at A^%d after the loop", label, n, s.Power())
			}
			// Restart: back to A^1, and the powers come out the same again.
			if err := s.Restart(ctx); err != nil {
				t.Fatalf("%s n=%d: restart: %v", label, n, err)
			}
			for k := 1; k <= 3; k++ {
				st, err := s.Stats(ctx)
				want := minplus.StatsOf(n, pow[k])
				want.Power = k
				if err != nil || st != want {
					t.Errorf("%s n=%d: A^%d after restart: %+v, %v; want %+v", label, n, k, st, err, want)
				}
				if err := s.Step(ctx); err != nil {
					t.Fatalf("%s n=%d: step after restart: %v", label, n, err)
				}
			}
			if err := s.Close(); err != nil {
				t.Errorf("%s n=%d: close: %v", label, n, err)
			}
			if err := s.Step(ctx); err == nil {
				t.Errorf("%s: a closed session stepped", label)
			}
		}
		run("cuda/paper", NamePaper)
		run("cuda/sparse", NameSparse)
		withFast(t, func(v string) { run("cuda/fast "+v, NameFast) })
	}
}

// TestGPUKernelPath logs how kernels/minplus.cu was loaded and whether its
// inner step compiled to Hopper's DPX instruction.
func TestGPUKernelPath(t *testing.T) {
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	dev, err := cuda.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	err = dev.Run(context.Background(), func(th *driver.Thread) error {
		m, err := dev.Module(th, module)
		if err != nil {
			return err
		}
		fn, err := m.Function(th, "minplus_dpx")
		if err != nil {
			return err
		}
		buf, err := dev.Buffer(th, "minplus.flag", flagBytes)
		if err != nil {
			return err
		}
		if err := th.Launch(fn, driver.D1(1), driver.D1(1), 0, dev.Stream(), buf); err != nil {
			return err
		}
		var dpx [1]int32
		if err := driver.CopyFromDevice(th, dpx[:], buf); err != nil {
			return err
		}
		t.Logf("kernels/minplus.cu: path %s, arch %s, NVRTC %s, cached %v, load %v, DPX %v (device %s, cc %s) %s",
			m.Path, m.Arch, m.NVRTC, m.Cached, m.Elapsed, dpx[0] == 1, dev.Props.Name, dev.Props.ComputeCapability(), m.Note)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestProductProtocol measures the one-shot products with bench.Measure:
// the transfers lie outside total, the product inside, and total within
// end_to_end.
func TestProductProtocol(t *testing.T) {
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	const n = 300
	r := rand.New(rand.NewPCG(5, 6))
	a, b := minplus.Random(r, n, 0.3), minplus.Random(r, n, 0.3)
	csr, err := CSRFromDense(n, a)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]func(ctx context.Context, rec *bench.Recorder) error{
		NamePaper: func(ctx context.Context, rec *bench.Recorder) error {
			_, err := product(ctx, NamePaper, n, a, b, rec)
			return err
		},
		NameFast: func(ctx context.Context, rec *bench.Recorder) error {
			_, err := product(ctx, NameFast, n, a, b, rec)
			return err
		},
		NameSparse: func(ctx context.Context, rec *bench.Recorder) error {
			_, err := productCSR(ctx, csr, b, rec)
			return err
		},
	}
	for _, impl := range names() {
		ph, err := bench.Measure(t.Context(), bench.Protocol{Warmup: 1, Reps: 3, Statistic: bench.StatMedian}, runs[impl])
		if err != nil {
			t.Fatalf("%s: %v", impl, err)
		}
		scope, ms := map[string]string{}, map[string]float64{}
		for _, p := range ph {
			scope[p.Name], ms[p.Name] = p.Scope, p.MedianMS
		}
		for name, want := range map[string]string{PhaseH2D: bench.ScopeEndToEnd, PhaseD2H: bench.ScopeEndToEnd, PhaseProduct: bench.ScopeTotal} {
			if scope[name] != want {
				t.Errorf("%s: phase %s has scope %q, want %q", impl, name, scope[name], want)
			}
		}
		if ms[bench.TotalPhase] <= 0 || ms[bench.TotalPhase] > ms[bench.EndToEndPhase] {
			t.Errorf("%s: total %.3f ms outside (0, end_to_end %.3f ms]", impl, ms[bench.TotalPhase], ms[bench.EndToEndPhase])
		}
	}
}
