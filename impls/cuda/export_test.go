package cuda

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cuda/nvrtc"
	"github.com/semibench/semibench/kernels"
)

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
	if err := ExportPTX(dir); errors.Is(err, ErrFallbackArch) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	for _, s := range kernels.Sources() {
		b, err := os.ReadFile(filepath.Join(dir, s.Name+".ptx"))
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := kernels.Stamp(b); !ok || h != s.SHA256() {
			t.Errorf("%s.ptx: stamp %q, want %q", s.Name, h, s.SHA256())
		}
		if !strings.Contains(string(b), ".target sm_70") {
			t.Errorf("%s.ptx does not target sm_70", s.Name)
		}
	}
}
