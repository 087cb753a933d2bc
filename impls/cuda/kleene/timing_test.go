package cudakleene

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/impls/cpu/kleene"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/maxplus"
)

// TestGPUTiming times cuda/paper and cuda/fast with the benchmark protocol
// (one warm-up, five repetitions, medians) on the paper's DAG, where a
// device is present and SEMIBENCH_GPU_TIMING is set (to the sizes, e.g.
// "4000" or "1000,4000"; "1" means 4000). It prints the phases, the
// per-launch times of one traced cuda/fast run, and the transfer rates of
// the staged and the driver's own pageable copies. It asserts no time.
func TestGPUTiming(t *testing.T) {
	env := os.Getenv("SEMIBENCH_GPU_TIMING")
	if env == "" {
		t.Skip("set SEMIBENCH_GPU_TIMING to time the implementations")
	}
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	sizes := []int{4000}
	if env != "1" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("SEMIBENCH_GPU_TIMING=%q: %v", env, err)
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
	for _, n := range sizes {
		x, err := dag.Generate(n, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := kleene.Reference(ctx, x, 0)
		if err != nil {
			t.Fatal(err)
		}
		totals := map[string]float64{}
		impls := Impls
		if g, _ := strconv.Atoi(os.Getenv("SEMIBENCH_GPU_TIMING_GPUS")); g > 1 {
			impls = append(impls[:len(impls):len(impls)], kleene.Impl{Name: fmt.Sprintf("cuda/fast --gpus %d", g),
				Run: func(ctx context.Context, x *maxplus.Matrix, opt kleene.Options, rec *bench.Recorder) (*maxplus.Matrix, error) {
					opt.GPUs = g
					return Fast(ctx, x, opt, rec)
				}})
		}
		for _, im := range impls {
			var w *maxplus.Matrix
			phases, err := bench.Measure(ctx, bench.Protocol{Warmup: 1, Reps: 5, Statistic: bench.StatMedian},
				func(ctx context.Context, rec *bench.Recorder) error {
					Recycle(w) // as the experiments do: the previous result is given back
					out, err := im.Run(ctx, x, kleene.Options{}, rec)
					w = out
					return err
				})
			if err != nil {
				t.Fatalf("%s n=%d: %v", im.Name, n, err)
			}
			ck := kleene.Verify(x, w, ref, false)
			if !ck.OK {
				t.Errorf("%s n=%d: %s", im.Name, n, ck.Detail)
			}
			var b strings.Builder
			for _, p := range phases {
				fmt.Fprintf(&b, " %s=%.3f", p.Name, p.MedianMS)
				if p.Unsteady() {
					fmt.Fprintf(&b, "(±%.0f%% %v)", 100*p.Spread(), p.SamplesMS)
				}
				if p.Name == bench.TotalPhase {
					totals[im.Name] = p.MedianMS
				}
			}
			t.Logf("n=%d %-10s check ok=%v max_err=%.3g bound=%.3g; median ms:%s", n, im.Name, ck.OK, ck.MaxErr, ck.Bound, b.String())
		}
		t.Logf("n=%d total cuda/paper / cuda/fast = %.1f", n, totals["cuda/paper"]/totals["cuda/fast"])
		variants := []bool{false}
		if os.Getenv("SEMIBENCH_GPU_TIMING_TILES") != "" {
			variants = append(variants, true)
		}
		for _, small := range variants {
			smallTilesOnly = small
			t.Logf("traced cuda/fast, 64x64 tiles only: %v", small)
			traceStep = func(i int, what string, d time.Duration) {
				t.Logf("  step %2d %-48s %8.3f ms", i, what, float64(d.Microseconds())/1000)
			}
			tracePhase = func(what string, d time.Duration) {
				t.Logf("  %-51s %8.3f ms", what, float64(d.Microseconds())/1000)
			}
			rec := &bench.Recorder{}
			if _, err := Fast(ctx, x, kleene.Options{}, rec); err != nil {
				t.Fatal(err)
			}
			traceStep, tracePhase = nil, nil
			for k := 0; k < 3; k++ {
				rec = &bench.Recorder{}
				if _, err := Fast(ctx, x, kleene.Options{}, rec); err != nil {
					t.Fatal(err)
				}
				names, durs := rec.Durations()
				t.Logf("  untraced run %d: %v %v", k, names, durs)
			}
		}
		smallTilesOnly = false
	}
	transferRates(t, 64<<20)
}

func transferRates(t *testing.T, bytes int) {
	dev, err := cuda.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	host := make([]float32, bytes/4)
	for i := range host {
		host[i] = float32(i)
	}
	back := make([]float32, len(host))
	err = dev.Run(context.Background(), func(th *driver.Thread) error {
		p, err := dev.Buffer(th, "timing.buf", uint64(bytes))
		if err != nil {
			return err
		}
		defer func() { _ = dev.FreeBuffers(th) }()
		rate := func(what string, f func() error) error {
			best := time.Duration(1 << 62)
			for range 3 {
				t0 := time.Now()
				if err := f(); err != nil {
					t.Logf("  %-30s failed: %v", what, err)
					return err
				}
				best = min(best, time.Since(t0))
			}
			t.Logf("  %-30s %6.2f ms  %5.1f GB/s", what, float64(best.Microseconds())/1000, float64(bytes)/best.Seconds()/1e9)
			return nil
		}
		if err := rate("staged upload", func() error { return cuda.Upload(th, dev, p, host) }); err != nil {
			return err
		}
		if err := rate("staged download", func() error { return cuda.Download(th, dev, back, p) }); err != nil {
			return err
		}
		if err := rate("pageable cuMemcpyHtoD", func() error { return driver.CopyToDevice(th, p, host) }); err != nil {
			return err
		}
		if err := rate("pageable cuMemcpyDtoH", func() error { return driver.CopyFromDevice(th, back, p) }); err != nil {
			return err
		}
		// Pinned DMA alone, from and to one staging-sized buffer.
		hb, err := th.HostAlloc(int64(bytes), driver.HostAllocPortable)
		if err != nil {
			return err
		}
		defer th.FreeHost(hb)
		if err := rate("pinned DMA HtoD", func() error {
			if err := th.CopyToDeviceAsync(p, hb, 0, int64(bytes), dev.Stream()); err != nil {
				return err
			}
			return th.StreamSynchronize(dev.Stream())
		}); err != nil {
			return err
		}
		if err := rate("pinned DMA DtoH", func() error {
			if err := th.CopyFromDeviceAsync(hb, 0, p, int64(bytes), dev.Stream()); err != nil {
				return err
			}
			return th.StreamSynchronize(dev.Stream())
		}); err != nil {
			return err
		}
		if err := rate("host parallel copy", func() error {
			cuda.Prefault(cuda.Bytes(back))
			copy(back, host)
			return nil
		}); err != nil {
			return err
		}
		_ = rate("host parallel copy (Go)", func() error { parallelCopyF(back, host); return nil })
		// Fresh output memory, as a run's W is.
		_ = rate("fresh make only", func() error { back = make([]float32, len(host)); return nil })
		_ = rate("fresh make + staged download", func() error {
			back = make([]float32, len(host))
			return cuda.Download(th, dev, back, p)
		})
		_ = rate("fresh make + prefault", func() error {
			back = make([]float32, len(host))
			cuda.Prefault(cuda.Bytes(back))
			return nil
		})
		_ = rate("  then staged download", func() error { return cuda.Download(th, dev, back, p) })
		var reg *driver.Registered
		_ = rate("fresh make + register", func() error {
			if err := th.Unregister(reg); err != nil {
				return err
			}
			back = make([]float32, len(host))
			reg, err = driver.Register(th, back, 0)
			return err
		})
		_ = rate("  register: DMA DtoH", func() error {
			if err := th.CopyDeviceToRegisteredAsync(reg, 0, p, int64(bytes), dev.Stream()); err != nil {
				return err
			}
			return th.StreamSynchronize(dev.Stream())
		})
		_ = rate("  unregister", func() error { return th.Unregister(reg) })
		_ = rate("register input + DMA + unreg", func() error {
			r, err := driver.Register(th, host, driver.HostRegisterReadOnly)
			if err != nil {
				return err
			}
			if err := th.CopyRegisteredToDeviceAsync(p, r, 0, int64(bytes), dev.Stream()); err != nil {
				return err
			}
			if err := th.StreamSynchronize(dev.Stream()); err != nil {
				return err
			}
			return th.Unregister(r)
		})
		_ = th.Unregister(reg)
		return cuda.Download(th, dev, back, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range host {
		if back[i] != host[i] {
			t.Fatalf("transfer round trip differs at %d", i)
		}
	}
}

func parallelCopyF(dst, src []float32) {
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	step := (len(src) + w - 1) / w
	for lo := 0; lo < len(src); lo += step {
		hi := min(lo+step, len(src))
		wg.Add(1)
		go func() { defer wg.Done(); copy(dst[lo:hi], src[lo:hi]) }()
	}
	wg.Wait()
}
