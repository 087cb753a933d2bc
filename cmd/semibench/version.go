package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/internal/outfile"
)

func init() {
	register(&command{
		name:    "version",
		summary: "the version, commit, Go toolchain and kernel paths of this binary (also --version)",
		usage:   "version (or semibench --version)",
		run:     versionCmd,
	})
}

func versionCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if err := parseFlags(fs, commands["version"], args); err != nil {
		return err
	}
	info, gpus := probeCUDA()
	return withOutput(ctx, outfile.Stdout, func(w *bufio.Writer) error {
		writeVersion(w, bench.CurrentBuild(), goExperiments(), cpuKernel(), info, gpus)
		return nil
	})
}

// probeCUDA is cuda.Probe (what `semibench info` records) once a driver
// answers. Without one it says why at once: Probe would first look for
// NVRTC, and with none installed that runs python3 for its site-packages,
// a quarter of a second, to name a library no kernel can use here.
func probeCUDA() (info *bench.CUDAInfo, gpus int) {
	defer func() {
		if r := recover(); r != nil {
			info, gpus = &bench.CUDAInfo{Error: fmt.Sprintf("probing CUDA failed: %v", r)}, 0
		}
	}()
	if _, err := driver.DriverVersion(); err != nil {
		return &bench.CUDAInfo{Error: err.Error()}, 0
	}
	info, g := cuda.Probe()
	return info, len(g)
}

// writeVersion prints what `semibench version` prints: the build (version
// and commit), the Go toolchain and experiments it was built with, the
// CPU kernel path and the CUDA one.
func writeVersion(w io.Writer, b bench.Build, experiments []string, kernel string, info *bench.CUDAInfo, gpus int) {
	commit := b.Commit
	if commit == "" {
		commit = "unknown (not stamped: `make build` or `make install` in a git checkout stamps it)"
	}
	// runtime.Version names the experiments too: "go1.26.8-X:simd".
	goLine := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	fmt.Fprintf(w, "semibench %s\ncommit      %s\ngo          %s\ncpu kernel  %s\ncuda        %s\n",
		b.Version, commit, goLine, cpuKernelText(kernel, experiments), cudaText(info, gpus))
}

// goExperiments lists the GOEXPERIMENT settings this binary was built
// with, from its build information.
func goExperiments() []string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	for _, s := range info.Settings {
		if s.Key == "GOEXPERIMENT" && s.Value != "" {
			return strings.Split(s.Value, ",")
		}
	}
	return nil
}

// cpuKernelText is the CPU kernel path and, for plain Go on amd64, why no
// vector kernel runs: a build without GOEXPERIMENT=simd, or a CPU with
// neither AVX2 nor AVX-512.
func cpuKernelText(kernel string, experiments []string) string {
	if kernel != "go" || runtime.GOARCH != "amd64" {
		return kernel
	}
	if !slices.Contains(experiments, "simd") {
		return kernel + " (plain Go: built without GOEXPERIMENT=simd; `make build SIMD=1` sets it)"
	}
	return kernel + " (plain Go: this CPU has neither AVX2 nor AVX-512)"
}

// cudaText says whether CUDA is usable and, when it is, its driver, NVRTC
// and kernel path (nvrtc or fallback-ptx), as `semibench info` shows it.
func cudaText(info *bench.CUDAInfo, gpus int) string {
	if info == nil || info.Error != "" {
		reason := "no CUDA driver"
		if info != nil {
			reason = info.Error
		}
		// The driver's own error already opens with "CUDA unavailable".
		return "unavailable: " + strings.TrimPrefix(reason, "CUDA unavailable: ")
	}
	nvrtc := info.NVRTC
	if nvrtc == "" {
		nvrtc = "not found"
	}
	return fmt.Sprintf("available: driver %s, %d GPU(s), NVRTC %s, kernel path %s", info.Driver, gpus, nvrtc, info.KernelPath)
}
