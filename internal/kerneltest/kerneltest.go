// Package kerneltest checks, for the packages whose vector kernels are
// chosen at start-up by the CPU's features (impls/cpu/minplus,
// impls/cpu/kleene), that a CPU without those features gets the plain-Go
// kernels: it runs the test binary again with the features switched off
// through GODEBUG (cpu.avx2=off, cpu.avx512f=off) and reads which kernel
// the package chose.
package kerneltest

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// probeEnv, set in the child process, makes Fallback print the kernel name.
const probeEnv = "SEMIBENCH_KERNELTEST_PROBE"

// Fallback is the body of a test: it runs the calling test again in a
// child process with AVX-512 switched off, and with AVX2 too, and checks
// the name kernel() returns there: "avx2" (where the CPU has AVX2, as
// hasAVX2 says) or "go", then "go". In the child it prints kernel() and
// returns.
func Fallback(t *testing.T, kernel func() string, hasAVX2 bool) {
	t.Helper()
	if os.Getenv(probeEnv) != "" {
		fmt.Printf("\nkernel=%s\n", kernel())
		return
	}
	want := map[string]string{"cpu.avx512f=off": "go", "cpu.avx512f=off,cpu.avx2=off": "go"}
	if hasAVX2 {
		want["cpu.avx512f=off"] = "avx2"
	}
	if runtime.GOARCH != "amd64" {
		t.Skipf("no vector kernels on %s", runtime.GOARCH)
	}
	if l := goamd64(); l == "v3" || l == "v4" {
		t.Skipf("GOAMD64=%s assumes AVX2: GODEBUG cannot switch it off", l)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for setting, w := range want {
		cmd := exec.Command(exe, "-test.run=^"+t.Name()+"$", "-test.count=1")
		cmd.Env = append(os.Environ(), probeEnv+"=1", "GODEBUG="+setting)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v\n%s", setting, err, out)
		}
		if !strings.Contains(string(out), "\nkernel="+w+"\n") {
			t.Errorf("GODEBUG=%s: the kernel chosen is not %q:\n%s", setting, w, out)
		}
	}
}

// goamd64 is the GOAMD64 level the binary was built for ("v1" when unset).
func goamd64() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "GOAMD64" {
				return s.Value
			}
		}
	}
	return "v1"
}
