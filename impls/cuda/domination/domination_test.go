package cudadomination_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	cudaminplus "github.com/semibench/semibench/impls/cuda/minplus"
	"github.com/semibench/semibench/problems/domination"
)

// lookup returns the named implementation of the registry.
func lookup(t *testing.T, name string) domination.Impl {
	t.Helper()
	im, err := impls.Domination.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return im
}

// TestMemoryLimitReachesSession: the caller's memory limit reaches the
// device session, whose plan is refused for it before the device is
// touched (so also without a GPU): a limit that holds the host's two
// powers cannot hold the session's padded powers and A in CSR.
func TestMemoryLimitReachesSession(t *testing.T) {
	im := lookup(t, cudaminplus.NameSparse)
	need, _, err := domination.MemoryNeeded(4, im.Product)
	if err != nil {
		t.Fatal(err)
	}
	_, err = domination.Analyze(context.Background(), 4, domination.Options{Impl: im, MemoryLimit: need})
	if err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("Analyze on %s within a %d-byte limit: %v, want the session refused over the limit", im.Name, need, err)
	}
}

// TestGPUAgrees runs Algorithm 2 on each GPU product (skipped without a
// CUDA device) and holds every power's summary equal to cpu/sparse's; the
// GPU's exact re-check and a witness from the GPU's analysis must pass.
func TestGPUAgrees(t *testing.T) {
	if n, err := cuda.DeviceCount(); err != nil || n == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	for m := 2; m <= 8; m++ {
		ref, err := domination.Analyze(ctx, m, domination.Options{Impl: lookup(t, "cpu/sparse")})
		if err != nil {
			t.Fatal(err)
		}
		for _, impl := range []string{cudaminplus.NamePaper, cudaminplus.NameFast, cudaminplus.NameSparse} {
			if impl != cudaminplus.NameSparse && m > 7 {
				continue
			}
			an, err := domination.Analyze(ctx, m, domination.Options{Impl: lookup(t, impl)})
			if err != nil {
				t.Fatalf("m=%d %s: %v", m, impl, err)
			}
			if !reflect.DeepEqual(an.Powers, ref.Powers) {
				for i := range ref.Powers {
					if i < len(an.Powers) && an.Powers[i] != ref.Powers[i] {
						t.Errorf("m=%d %s: A^%d %+v, cpu/sparse %+v", m, impl, i, an.Powers[i], ref.Powers[i])
						break
					}
				}
				t.Errorf("m=%d %s: %d powers, cpu/sparse %d", m, impl, len(an.Powers), len(ref.Powers))
			}
			if an.R0 != ref.R0 || an.A != ref.A || an.B != ref.B || an.N0 != ref.N0 || !strings.Contains(an.Verified, "on "+impl) {
				t.Errorf("m=%d %s: (r0, a, b, n0) = (%d, %d, %d, %d), verified %q", m, impl, an.R0, an.A, an.B, an.N0, an.Verified)
			}
			if _, err := an.Witness(ctx, 11, 1<<30); err != nil {
				t.Errorf("m=%d %s: witness: %v", m, impl, err)
			}
		}
		// Stopped at the first repetition, checked on the device's download.
		an, err := domination.Analyze(ctx, m, domination.Options{Impl: lookup(t, cudaminplus.NameSparse), StopAtRepetition: true})
		if err != nil {
			t.Fatalf("m=%d stopped: %v", m, err)
		}
		if an.R0 != ref.R0 || an.N0 != ref.N0 || an.Computed != ref.N0+ref.A || !strings.Contains(an.Verified, "downloaded at the repetition") {
			t.Errorf("m=%d stopped: r0 %d n0 %d after %d powers, verified %q; want r0 %d n0 %d", m, an.R0, an.N0, an.Computed, an.Verified, ref.R0, ref.N0)
		}
	}
}

// outcome is what a split or resumed analysis must reproduce exactly: the
// powers' summaries, the recurrence, γ2, the formula and witnesses.
func outcome(t *testing.T, an *domination.Analysis) string {
	t.Helper()
	out, err := an.Summary(context.Background(), []int{3, 10, 17, 24})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGPUSlabsAgree (skipped without a CUDA device): Algorithms 1 to 5 with
// the powers split into 2, 3 and 4 column slabs on ONE device (OneDevice),
// and over several GPUs where the machine has them, give exactly the
// single-slab analysis (summaries, recurrence checked exactly, γ2,
// witnesses) for m = 4..7 on cuda/sparse and cuda/fast, stopped at the
// first repetition and over all K powers; a split run stopped at a
// checkpoint and resumed split differently gives it too.
func TestGPUSlabsAgree(t *testing.T) {
	count, err := cuda.DeviceCount()
	if err != nil || count == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	for m := 4; m <= 7; m++ {
		for _, impl := range []string{cudaminplus.NameSparse, cudaminplus.NameFast} {
			for _, stop := range []bool{true, false} {
				base := domination.Options{Impl: lookup(t, impl), StopAtRepetition: stop}
				ref, err := domination.Analyze(ctx, m, base)
				if err != nil {
					t.Fatalf("m=%d %s: %v", m, impl, err)
				}
				want := outcome(t, ref)
				for gpus := 2; gpus <= 4; gpus++ {
					opts := []domination.Options{base, base}
					opts[0].GPUs, opts[0].OneDevice = gpus, true
					opts[1].GPUs = gpus
					if gpus > count {
						opts = opts[:1]
					}
					for _, opt := range opts {
						label := fmt.Sprintf("m=%d %s stop %v, %d slabs (one device: %v)", m, impl, stop, gpus, opt.OneDevice)
						an, err := domination.Analyze(ctx, m, opt)
						if err != nil {
							t.Fatalf("%s: %v", label, err)
						}
						if got := outcome(t, an); got != want {
							t.Errorf("%s:\n%s\nsingle slab:\n%s", label, got, want)
						}
						if stop && an.Verified == "" {
							t.Errorf("%s: the repetition was not checked exactly", label)
						}
					}
				}
				// Stopped at a checkpoint with 3 slabs, resumed with 2.
				path := filepath.Join(t.TempDir(), "ck")
				opt := base
				opt.GPUs, opt.OneDevice, opt.CheckpointPath, opt.StopAfter = 3, true, path, ref.Computed/2
				if _, err := domination.Analyze(ctx, m, opt); !errors.Is(err, domination.ErrCheckpointed) {
					t.Fatalf("m=%d %s: stopping at A^%d: %v", m, impl, opt.StopAfter, err)
				}
				opt.GPUs, opt.StopAfter = 2, 0
				an, err := domination.Analyze(ctx, m, opt)
				if err != nil {
					t.Fatalf("m=%d %s: resuming: %v", m, impl, err)
				}
				if got := outcome(t, an); got != want {
					t.Errorf("m=%d %s stop %v resumed:\n%s\nstraight:\n%s", m, impl, stop, got, want)
				}
			}
		}
	}
}

// TestGPUsRefused: more GPUs than the machine has are refused by the
// session, naming --gpus and the count found (skipped without a device).
func TestGPUsRefused(t *testing.T) {
	count, err := cuda.DeviceCount()
	if err != nil || count == 0 {
		t.Skip("no CUDA device")
	}
	_, err = domination.Analyze(context.Background(), 5, domination.Options{Impl: lookup(t, cudaminplus.NameSparse), GPUs: count + 1})
	if want := fmt.Sprintf("--gpus %d asks for more GPUs than the %d this machine has", count+1, count); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("--gpus %d: %v, want %q", count+1, err, want)
	}
}

// TestVersion3WithoutDevice: without a driver or GPU, cuda/v3-gpu fails
// with driver.ErrUnavailable (the runner's "unavailable"), as the other
// GPU implementations do.
func TestVersion3WithoutDevice(t *testing.T) {
	if n, err := cuda.DeviceCount(); err == nil && n > 0 {
		t.Skip("a CUDA device is present")
	}
	_, err := domination.Analyze(context.Background(), 4, domination.Options{Impl: lookup(t, "cuda/v3-gpu")})
	if !errors.Is(err, driver.ErrUnavailable) {
		t.Errorf("cuda/v3-gpu without a device: %v, want driver.ErrUnavailable", err)
	}
}

// TestGPUVersions3And4 (skipped without a CUDA device): Table 5's versions
// 3 (differences on the GPU) and 4 (on the CPU) give cpu/whole-par's
// analysis, m = 2..7, and version 3 says its differences ran on the device.
func TestGPUVersions3And4(t *testing.T) {
	if n, err := cuda.DeviceCount(); err != nil || n == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	for m := 2; m <= 7; m++ {
		ref, err := domination.Analyze(ctx, m, domination.Options{Impl: lookup(t, "cpu/whole-par")})
		if err != nil {
			t.Fatal(err)
		}
		want := outcome(t, ref)
		for _, impl := range []string{"cuda/v3-gpu", "cuda/v4-gpu+cpu-par"} {
			an, err := domination.Analyze(ctx, m, domination.Options{Impl: lookup(t, impl)})
			if err != nil {
				t.Fatalf("m=%d %s: %v", m, impl, err)
			}
			if got := outcome(t, an); got != want {
				t.Errorf("m=%d %s:\n%s\ncpu/whole-par:\n%s", m, impl, got, want)
			}
			if onDevice := strings.Contains(an.Verified, "on the device"); onDevice != (impl == "cuda/v3-gpu") {
				t.Errorf("m=%d %s: verified %q", m, impl, an.Verified)
			}
		}
	}
}
