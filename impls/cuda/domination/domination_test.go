package cudadomination_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/impls/cuda"
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
