package cudakleene

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

var timingSizes = flag.String("kleene.sizes", "4000", "comma-separated n of BenchmarkGPU and BenchmarkGPUFastSteps")

// benchSizes parses -kleene.sizes.
func benchSizes(b *testing.B) []int {
	var sizes []int
	for _, f := range strings.Split(*timingSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("-kleene.sizes=%q: %q is not a positive n", *timingSizes, f)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// needGPU skips b where no CUDA device answers and returns the device count.
func needGPU(b *testing.B) int {
	g := gpuCount()
	if g == 0 {
		b.Skip("no CUDA device")
	}
	return g
}

// BenchmarkGPU times cuda/paper and cuda/fast (and, with several devices,
// cuda/fast on all of them) on the paper's DAG (N(0,1) weights, seed 1) at
// each n of -kleene.sizes, giving back each result before the next solve as
// the experiments do. Besides ns/op it reports every phase (ms/op) and, for
// cuda/fast, the ratio of cuda/paper's total to its own. The last result is
// checked against the reference.
//
//	go test -run '^$' -bench 'GPU$' ./impls/cuda/kleene -args -kleene.sizes=1000,4000
func BenchmarkGPU(b *testing.B) {
	ngpu := needGPU(b)
	info, gpus := cuda.Probe()
	b.Logf("CUDA %+v", *info)
	for _, g := range gpus {
		b.Logf("GPU %+v", g)
	}
	type variant struct {
		name string
		im   kleene.Impl
		opt  kleene.Options
	}
	var variants []variant
	for _, im := range Impls() {
		variants = append(variants, variant{im.Name, im, kleene.Options{}})
	}
	if ngpu > 1 {
		fast := Impls()[1]
		variants = append(variants, variant{fmt.Sprintf("%s/gpus=%d", fast.Name, ngpu), fast, kleene.Options{GPUs: ngpu}})
	}
	for _, n := range benchSizes(b) {
		x, err := dag.Generate(n, 1, false)
		if err != nil {
			b.Fatal(err)
		}
		ref, err := kleene.Reference(context.Background(), x, 0)
		if err != nil {
			b.Fatal(err)
		}
		totals := map[string]float64{} // ms/op of the total phase, per variant
		for _, v := range variants {
			b.Run(fmt.Sprintf("n=%d/%s", n, v.name), func(b *testing.B) {
				var w *maxplus.Matrix
				sums := map[string]time.Duration{}
				var order []string
				for b.Loop() {
					v.im.Recycle(w)
					rec := &bench.Recorder{}
					out, err := v.im.Run(context.Background(), x, v.opt, rec)
					if err != nil {
						b.Fatalf("%s n=%d: %v", v.name, n, err)
					}
					w = out
					names, durs := rec.Durations()
					for i, name := range names {
						if _, ok := sums[name]; !ok {
							order = append(order, name)
						}
						sums[name] += durs[i]
					}
				}
				b.StopTimer()
				if ck := kleene.Verify(x, w, ref, false); !ck.OK {
					b.Errorf("%s n=%d: %s", v.name, n, ck.Detail)
				}
				for _, name := range order {
					ms := float64(sums[name].Nanoseconds()) / 1e6 / float64(b.N)
					b.ReportMetric(ms, name+"-ms/op")
					if name == bench.TotalPhase {
						totals[v.name] = ms
					}
				}
				if p, f := totals["cuda/paper"], totals[v.name]; v.im.Name == "cuda/fast" && p > 0 && f > 0 {
					b.ReportMetric(p/f, "paper/fast")
				}
			})
		}
	}
}

// BenchmarkGPUFastSteps traces cuda/fast at each n of -kleene.sizes, with
// its own choice of tiles and with 64 x 64 tiles only: it reports each
// launch's GPU time and the parts of the host phases (ms/op, logged by
// name, as their names are not metric units) and update_w (ms/op).
func BenchmarkGPUFastSteps(b *testing.B) {
	needGPU(b)
	for _, n := range benchSizes(b) {
		x, err := dag.Generate(n, 1, false)
		if err != nil {
			b.Fatal(err)
		}
		for _, small := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/small_tiles=%v", n, small), func(b *testing.B) {
				steps := map[string]time.Duration{}
				smallTilesOnly = small
				traceStep = func(i int, what string, d time.Duration) {
					steps[fmt.Sprintf("step %2d %s", i, what)] += d
				}
				tracePhase = func(what string, d time.Duration) { steps[what] += d }
				defer func() { traceStep, tracePhase, smallTilesOnly = nil, nil, false }()
				var update time.Duration
				for b.Loop() {
					rec := &bench.Recorder{}
					w, err := Fast(context.Background(), x, kleene.Options{}, rec)
					if err != nil {
						b.Fatal(err)
					}
					Recycle(w)
					names, durs := rec.Durations()
					for i, name := range names {
						if name == kleene.PhaseUpdateW {
							update += durs[i]
						}
					}
				}
				b.ReportMetric(float64(update.Nanoseconds())/1e6/float64(b.N), "update_w-ms/op")
				keys := make([]string, 0, len(steps))
				for k := range steps {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					b.Logf("  %-56s %8.3f ms/op", k, float64(steps[k].Nanoseconds())/1e6/float64(b.N))
				}
			})
		}
	}
}

// BenchmarkTransfer measures host-device copies of 64 MiB on device 0, one
// sub-benchmark per way (bytes/s in the MB/s column): the staged copies
// the implementations use, the driver's own pageable copies, pinned DMA
// alone, host-side copies and the cost of fresh output memory. It checks
// that a round trip gives the data back.
func BenchmarkTransfer(b *testing.B) {
	needGPU(b)
	const bytes = 64 << 20
	ctx := context.Background()
	dev, err := cuda.Open(0)
	if err != nil {
		b.Fatal(err)
	}
	host := make([]float32, bytes/4)
	for i := range host {
		host[i] = float32(i)
	}
	back := make([]float32, len(host))
	var hb *driver.HostBuffer // pinned, staging-sized
	if err := dev.Run(ctx, func(th *driver.Thread) error {
		hb, err = th.HostAlloc(int64(bytes), driver.HostAllocPortable)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = dev.Run(ctx, func(th *driver.Thread) error {
			_ = th.FreeHost(hb)
			return dev.FreeBuffers(th)
		})
	}()
	// rate times f, run on the device's context thread with the device
	// buffer p, as the sub-benchmark what.
	rate := func(what string, f func(th *driver.Thread, p driver.DevicePtr) error) {
		b.Run(what, func(b *testing.B) {
			b.SetBytes(bytes)
			err := dev.Run(ctx, func(th *driver.Thread) error {
				p, err := dev.Buffer(th, "timing.buf", uint64(bytes))
				if err != nil {
					return err
				}
				for b.Loop() {
					if err := f(th, p); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatalf("%s: %v", what, err)
			}
		})
	}
	rate("staged_upload", func(th *driver.Thread, p driver.DevicePtr) error { return cuda.Upload(th, dev, p, host) })
	rate("staged_download", func(th *driver.Thread, p driver.DevicePtr) error { return cuda.Download(th, dev, back, p) })
	rate("pageable_cuMemcpyHtoD", func(th *driver.Thread, p driver.DevicePtr) error { return driver.CopyToDevice(th, p, host) })
	rate("pageable_cuMemcpyDtoH", func(th *driver.Thread, p driver.DevicePtr) error { return driver.CopyFromDevice(th, back, p) })
	// Pinned DMA alone, from and to one staging-sized buffer.
	rate("pinned_DMA_HtoD", func(th *driver.Thread, p driver.DevicePtr) error {
		if err := th.CopyToDeviceAsync(p, hb, 0, int64(bytes), dev.Stream()); err != nil {
			return err
		}
		return th.StreamSynchronize(dev.Stream())
	})
	rate("pinned_DMA_DtoH", func(th *driver.Thread, p driver.DevicePtr) error {
		if err := th.CopyFromDeviceAsync(hb, 0, p, int64(bytes), dev.Stream()); err != nil {
			return err
		}
		return th.StreamSynchronize(dev.Stream())
	})
	rate("host_copy_prefaulted", func(*driver.Thread, driver.DevicePtr) error {
		cuda.Prefault(cuda.Bytes(back))
		copy(back, host)
		return nil
	})
	rate("host_parallel_copy_Go", func(*driver.Thread, driver.DevicePtr) error { parallelCopyF(back, host); return nil })
	// Fresh output memory, as a run's W is.
	rate("fresh_make", func(*driver.Thread, driver.DevicePtr) error { back = make([]float32, len(host)); return nil })
	rate("fresh_make+staged_download", func(th *driver.Thread, p driver.DevicePtr) error {
		back = make([]float32, len(host))
		return cuda.Download(th, dev, back, p)
	})
	rate("fresh_make+prefault", func(*driver.Thread, driver.DevicePtr) error {
		back = make([]float32, len(host))
		cuda.Prefault(cuda.Bytes(back))
		return nil
	})
	rate("staged_download_after_prefault", func(th *driver.Thread, p driver.DevicePtr) error { return cuda.Download(th, dev, back, p) })
	rate("fresh_make+register+DMA_DtoH+unregister", func(th *driver.Thread, p driver.DevicePtr) error {
		back = make([]float32, len(host))
		reg, err := driver.Register(th, back, 0)
		if err != nil {
			return err
		}
		if err := th.CopyDeviceToRegisteredAsync(reg, 0, p, int64(bytes), dev.Stream()); err != nil {
			return err
		}
		if err := th.StreamSynchronize(dev.Stream()); err != nil {
			return err
		}
		return th.Unregister(reg)
	})
	rate("register_input+DMA_HtoD+unregister", func(th *driver.Thread, p driver.DevicePtr) error {
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
	// The round trip.
	back = make([]float32, len(host))
	if err := dev.Run(ctx, func(th *driver.Thread) error {
		p, err := dev.Buffer(th, "timing.buf", uint64(bytes))
		if err != nil {
			return err
		}
		if err := cuda.Upload(th, dev, p, host); err != nil {
			return err
		}
		return cuda.Download(th, dev, back, p)
	}); err != nil {
		b.Fatal(err)
	}
	for i := range host {
		if back[i] != host[i] {
			b.Fatalf("transfer round trip differs at %d", i)
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
