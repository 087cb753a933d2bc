package nvrtc

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestCandidates(t *testing.T) {
	t.Setenv("CUDA_HOME", "/opt/cudax")
	c := Candidates()
	if c[0] != "libnvrtc.so.13" || c[1] != "libnvrtc.so.12" || c[2] != "libnvrtc.so.11.2" {
		t.Errorf("sonames first, newest first: %v", c[:3])
	}
	var home, local bool
	for _, p := range c {
		home = home || strings.HasPrefix(p, "/opt/cudax/lib64/")
		local = local || strings.HasPrefix(p, "/usr/local/cuda/lib64/")
	}
	if !home || !local {
		t.Errorf("CUDA_HOME (%v) and /usr/local/cuda (%v) must be searched", home, local)
	}
}

// TestCompile compiles a tiny kernel where NVRTC is installed, and checks
// that a compilation error returns the compiler's log.
func TestCompile(t *testing.T) {
	if err := Load(); err != nil {
		if errors.Is(err, ErrNotFound) {
			t.Skip("no NVRTC on this machine")
		}
		t.Fatal(err)
	}
	v, err := Version()
	if err != nil || v == "" {
		t.Fatalf("Version: %q, %v", v, err)
	}
	t.Logf("NVRTC %s from %s", v, Path())
	out, err := Compile(`extern "C" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }`, "k.cu", nil, []string{oldestArch(t)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Cubin || !strings.Contains(string(out.Code), ".entry k") {
		t.Errorf("expected PTX with entry k, got cubin=%v", out.Cubin)
	}
	_, err = Compile(`extern "C" __global__ void k(float* x) { x[threadIdx.x] += undefined_name; }`, "bad.cu", nil, []string{oldestArch(t)})
	var e *Error
	if !errors.As(err, &e) || e.Call != "nvrtcCompileProgram" || !strings.Contains(e.Log, "undefined_name") {
		t.Fatalf("compile error should carry the log: %v", err)
	}
	if archs, err := SupportedArchs(); err != nil {
		t.Error(err)
	} else {
		t.Logf("supported archs: %v", archs)
	}
}

// TestCompileHeaders checks, where NVRTC is installed, that headers handed
// to Compile resolve quoted includes, also from one header to another, and
// that a program whose header is not handed over fails with the log.
func TestCompileHeaders(t *testing.T) {
	if err := Load(); err != nil {
		if errors.Is(err, ErrNotFound) {
			t.Skip("no NVRTC on this machine")
		}
		t.Fatal(err)
	}
	src := "#include \"outer.cuh\"\nextern \"C\" __global__ void k(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]) + INNER; }\n"
	headers := []Header{
		{Name: "outer.cuh", Code: "#include \"inner.cuh\"\n__device__ float twice(float v) { return 2.0f * v; }\n"},
		{Name: "inner.cuh", Code: "#define INNER 3.0f\n"},
	}
	out, err := Compile(src, "k.cu", headers, []string{oldestArch(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.Code), ".entry k") {
		t.Error("expected PTX with entry k")
	}
	_, err = Compile(src, "k.cu", headers[:1], []string{oldestArch(t)})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Log, "inner.cuh") {
		t.Fatalf("a missing header must fail with the log naming it: %v", err)
	}
}

// TestNotFoundMessage checks the error when nothing loads: it matches
// ErrNotFound, lists the names tried, and keeps dlerror's text only for
// candidates that exist but did not load.
func TestNotFoundMessage(t *testing.T) {
	err := notFound([]string{"libnvrtc.so.13", "/x/libnvrtc.so.12"}, []string{"/x/libnvrtc.so.12: wrong ELF class: ELFCLASS32"})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("%v does not match ErrNotFound", err)
	}
	want := "NVRTC not found: tried libnvrtc.so.13, /x/libnvrtc.so.12; /x/libnvrtc.so.12: wrong ELF class: ELFCLASS32"
	if err.Error() != want {
		t.Errorf("got %q\nwant %q", err, want)
	}
	if !absent("libnvrtc.so.13: cannot open shared object file: No such file or directory") || absent("/x/libnvrtc.so.12: wrong ELF class: ELFCLASS32") {
		t.Error("absent must tell a missing file from one that does not load")
	}
	if err := Load(); err != nil && !errors.Is(err, ErrNotFound) {
		t.Errorf("Load: %v", err)
	} else if err != nil && strings.Contains(err.Error(), "; ;") {
		t.Errorf("Load: empty reason in %q", err)
	}
}

// oldestArch is the option that targets the oldest virtual architecture this
// NVRTC supports: compute_70 stopped compiling with NVRTC 13 (sm_75 up).
func oldestArch(t *testing.T) string {
	t.Helper()
	archs, err := SupportedArchs()
	if err != nil || len(archs) == 0 {
		t.Logf("supported archs unknown (%v): compute_70", err)
		return "--gpu-architecture=compute_70"
	}
	return fmt.Sprintf("--gpu-architecture=compute_%d", slices.Min(archs))
}
