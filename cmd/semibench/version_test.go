package main

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestVersionCommand runs `semibench --version` and `semibench version`:
// the same five lines, each naming what this binary is.
func TestVersionCommand(t *testing.T) {
	code, out, stderr := capture(t, "--version")
	if code != 0 {
		t.Fatalf("--version: exit %d, stderr %q", code, stderr)
	}
	if code, again, _ := capture(t, "version"); code != 0 || again != out {
		t.Fatalf("version: exit %d, output %q differs from --version's %q", code, again, out)
	}
	commit := bench.CurrentBuild().Commit
	if commit == "" {
		commit = "unknown"
	}
	for _, want := range []string{
		"semibench " + bench.Version + "\n",
		"\ncommit      " + commit,
		"\ngo          " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n",
		"\ncpu kernel  " + cpuKernel(),
		"\ncuda        ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--version output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 5 {
		t.Errorf("--version printed %d lines, want 5:\n%s", n, out)
	}
	if code, _, stderr := capture(t, "version", "extra"); code != 2 || !strings.Contains(stderr, "usage: semibench version") {
		t.Errorf("version extra: exit %d, stderr %q; want 2 and the usage", code, stderr)
	}
}

// TestWriteVersion holds each line of the version text to its inputs: the
// commit or why there is none, a plain-Go kernel's reason, and the CUDA
// kernel path.
func TestWriteVersion(t *testing.T) {
	var b strings.Builder
	writeVersion(&b, bench.Build{Version: "9.9.9", Commit: "abc123+dirty"}, []string{"simd"}, "avx2",
		&bench.CUDAInfo{Driver: "13.0", NVRTC: "13.0", KernelPath: "nvrtc"}, 2)
	for _, want := range []string{"semibench 9.9.9\n", "commit      abc123+dirty\n", "cpu kernel  avx2\n",
		"cuda        available: driver 13.0, 2 GPU(s), NVRTC 13.0, kernel path nvrtc\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	writeVersion(&b, bench.Build{Version: "9.9.9"}, nil, "go", &bench.CUDAInfo{Error: "no libcuda"}, 0)
	for _, want := range []string{"commit      unknown (not stamped", "cuda        unavailable: no libcuda\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	if runtime.GOARCH == "amd64" {
		if got := cpuKernelText("go", nil); !strings.Contains(got, "built without GOEXPERIMENT=simd") {
			t.Errorf("plain-Go kernel of a build without simd: %q does not say why", got)
		}
		if got := cpuKernelText("go", []string{"simd"}); !strings.Contains(got, "neither AVX2 nor AVX-512") {
			t.Errorf("plain-Go kernel of a simd build: %q does not say why", got)
		}
	}
	if got := cudaText(nil, 0); got != "unavailable: no CUDA driver" {
		t.Errorf("cudaText(nil) = %q", got)
	}
}

// TestRunRecordsCPUKernel checks that the result file of `semibench run`
// and `semibench info --json` both carry the CPU kernel path.
func TestRunRecordsCPUKernel(t *testing.T) {
	if cpuKernel() == "" {
		t.Fatal("cpuKernel is empty")
	}
	out := filepath.Join(t.TempDir(), "run.jsonl")
	if code, _, stderr := capture(t, "run", "kleene/table2", "--scale", "quick", "--reps", "1", "--warmup", "0", "--impl", "cpu/fast", "--out", out); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	f, err := bench.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Machine.CPUKernel != cpuKernel() {
		t.Errorf("result file's machine.cpu_kernel = %q, want %q", f.Machine.CPUKernel, cpuKernel())
	}
	code, js, stderr := capture(t, "info", "--json")
	if code != 0 {
		t.Fatalf("info --json: exit %d: %s", code, stderr)
	}
	var m bench.Machine
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatalf("info --json: %v", err)
	}
	if m.CPUKernel != cpuKernel() {
		t.Errorf("info --json: cpu_kernel = %q, want %q", m.CPUKernel, cpuKernel())
	}
}
