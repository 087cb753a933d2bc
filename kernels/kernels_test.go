package kernels

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cuda/nvrtc"
)

var update = flag.Bool("update", false, "regenerate kernels/ptx with NVRTC (as `semibench kernels export` does)")

// TestUpdatePTX regenerates the fallback PTX in place when run with
// -update: go test ./kernels -run UpdatePTX -update.
func TestUpdatePTX(t *testing.T) {
	if !*update {
		t.Skip("run with -update to regenerate kernels/ptx")
	}
	if err := Export("ptx"); err != nil {
		t.Fatal(err)
	}
}

// TestPTXStamps fails when a kernel source has no fallback PTX, when a PTX
// file has no source, or when a source was edited without regenerating its
// PTX (`make ptx`).
func TestPTXStamps(t *testing.T) {
	srcs := Sources()
	if len(srcs) == 0 {
		t.Fatal("no kernel sources embedded")
	}
	ptx := PTXFiles()
	for _, s := range srcs {
		if !slices.Contains(ptx, s.Name) {
			t.Errorf("%s.cu has no kernels/ptx/%s.ptx: run `make ptx`", s.Name, s.Name)
			continue
		}
		if _, err := FallbackPTX(s.Name); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
	for _, p := range ptx {
		if _, err := Get(p); err != nil {
			t.Errorf("kernels/ptx/%s.ptx has no source: %v", p, err)
		}
	}
}

func TestStamp(t *testing.T) {
	h := strings.Repeat("ab", 32)
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{StampPrefix + h + "\n.version 7.8\n", h, true},
		{StampPrefix + h, h, true},
		{"//\n" + StampPrefix + h + "\n", "", false},
		{StampPrefix + "abc\n", "", false},
		{StampPrefix + strings.Repeat("zz", 32) + "\n", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := Stamp([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("Stamp(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestFallbackPTXIsTerminated(t *testing.T) {
	b, err := FallbackPTX("kleene")
	if err != nil {
		t.Fatal(err)
	}
	if b[len(b)-1] != 0 {
		t.Error("fallback PTX is not NUL-terminated")
	}
	for _, entry := range []string{"kleene_paper_update", "kleene_gemm128", "kleene_permute"} {
		if !strings.Contains(string(b), ".entry "+entry) {
			t.Errorf("fallback PTX lacks entry %s", entry)
		}
	}
	if _, err := FallbackPTX("nosuch"); err == nil {
		t.Error("a missing source must be an error")
	}
}

// TestExport regenerates the PTX into a scratch folder where NVRTC is
// installed, and checks the stamps; it is skipped elsewhere.
func TestExport(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles with NVRTC")
	}
	if err := nvrtc.Load(); err != nil {
		if errors.Is(err, nvrtc.ErrNotFound) {
			t.Skip("no NVRTC on this machine")
		}
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Export(dir); err != nil {
		t.Fatal(err)
	}
	for _, s := range Sources() {
		b, err := os.ReadFile(filepath.Join(dir, s.Name+".ptx"))
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := Stamp(b); !ok || h != s.SHA256() {
			t.Errorf("%s.ptx: stamp %q, want %q", s.Name, h, s.SHA256())
		}
		if !strings.Contains(string(b), ".target sm_70") {
			t.Errorf("%s.ptx does not target sm_70", s.Name)
		}
	}
}
