package cuda

import (
	"testing"

	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/nvrtc"
	"github.com/semibench/semibench/kernels"
)

// TestGPUModule loads the kernels on the first device, where there is one,
// by NVRTC (or the fallback when NVRTC is absent) and, separately, from the
// fallback PTX, and reports both.
func TestGPUModule(t *testing.T) {
	if _, err := DeviceCount(); err != nil {
		t.Skip("no CUDA device")
	}
	d, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	err = d.Run(t.Context(), func(th *driver.Thread) error {
		m, err := d.Module(th, "kleene")
		if err != nil {
			return err
		}
		t.Logf("kleene: path %s, arch %s, NVRTC %q, cached %v, %v; note %q", m.Path, m.Arch, m.NVRTC, m.Cached, m.Elapsed, m.Note)
		if _, err := m.Function(th, "kleene_gemm128"); err != nil {
			return err
		}
		for _, fn := range []string{"kleene_gemm128", "kleene_gemm64", "kleene_paper_update"} {
			f, _ := m.Function(th, fn)
			regs, _ := th.FuncGetAttribute(f, driver.FuncNumRegs)
			local, _ := th.FuncGetAttribute(f, driver.FuncLocalSizeBytes)
			t.Logf("  %s: %d registers, %d bytes local", fn, regs, local)
		}
		ptx, err := kernels.FallbackPTX("kleene")
		if err != nil {
			return err
		}
		h, _, err := th.ModuleLoadData(ptx)
		if err != nil {
			return err
		}
		t.Logf("fallback PTX JIT-compiled for %s", d.Props.ComputeCapability())
		return th.ModuleUnload(h)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := nvrtc.Load(); err == nil {
		arch := ArchCandidates(d.Props.Major, d.Props.Minor, 13, nil)[0]
		src := `extern "C" __global__ void k(int* x) { x[threadIdx.x] = __viaddmax_s32(x[threadIdx.x], 1, 2); }`
		_, err := nvrtc.Compile(src, "dpx.cu", nil, []string{"--gpu-architecture=" + arch})
		t.Logf("DPX __viaddmax_s32 for %s with NVRTC: %v", arch, err)
	}
}
