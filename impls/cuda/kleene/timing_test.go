package cudakleene

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
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
		for _, im := range Impls {
			var w *maxplus.Matrix
			phases, err := bench.Measure(ctx, bench.Protocol{Warmup: 1, Reps: 5, Statistic: bench.StatMedian},
				func(ctx context.Context, rec *bench.Recorder) error {
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
				if p.Name == bench.TotalPhase {
					totals[im.Name] = p.MedianMS
				}
			}
			t.Logf("n=%d %-10s check ok=%v max_err=%.3g bound=%.3g; median ms:%s", n, im.Name, ck.OK, ck.MaxErr, ck.Bound, b.String())
		}
		t.Logf("n=%d total cuda/paper / cuda/fast = %.1f", n, totals["cuda/paper"]/totals["cuda/fast"])
		traceStep = func(i int, what string, d time.Duration) {
			t.Logf("  step %2d %-48s %8.3f ms", i, what, float64(d.Microseconds())/1000)
		}
		if _, err := Fast(ctx, x, kleene.Options{}, nil); err != nil {
			t.Fatal(err)
		}
		traceStep = nil
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
					return err
				}
				best = min(best, time.Since(t0))
			}
			t.Logf("  %-28s %6.2f ms  %5.1f GB/s", what, float64(best.Microseconds())/1000, float64(bytes)/best.Seconds()/1e9)
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
		return nil
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
