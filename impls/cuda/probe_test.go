package cuda

import (
	"errors"
	"testing"

	"github.com/semibench/semibench/impls/cuda/driver"
)

// TestProbe checks that Probe never panics and, on a machine without a GPU
// (such as CI), reports CUDA unavailable with a reason.
func TestProbe(t *testing.T) {
	info, gpus := Probe()
	if info == nil {
		t.Fatal("Probe returned no CUDAInfo")
	}
	if _, err := driver.DeviceCount(); err != nil {
		if info.Error == "" || len(gpus) != 0 {
			t.Errorf("no device, but Probe says %+v with %d GPUs", info, len(gpus))
		}
		if _, err := Open(0); !errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("Open without a device: %v", err)
		}
		t.Logf("unavailable: %s (NVRTC %q)", info.Error, info.NVRTC)
		return
	}
	if info.Error != "" || len(gpus) == 0 || info.Driver == "" || info.KernelPath == "" {
		t.Errorf("device present, but Probe says %+v with %d GPUs", info, len(gpus))
	}
	for _, g := range gpus {
		t.Logf("GPU %d: %+v", g.Index, g)
	}
}

func TestParallelCopy(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3<<20 + 7} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i * 7)
		}
		dst := make([]byte, n)
		parallelCopy(dst, src)
		for i := range src {
			if dst[i] != src[i] {
				t.Fatalf("n=%d: byte %d differs", n, i)
			}
		}
	}
}
