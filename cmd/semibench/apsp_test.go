package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveAPSP runs `semibench solve apsp` on a three-vertex chain with
// cpu/fast and cuda/fast: cuda/fast gives the same file on a GPU and says
// unavailable without one; an unknown implementation lists cuda/fast.
func TestSolveAPSP(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "chain.mtx")
	if err := os.WriteFile(in, []byte("%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n2 3 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "3 3 6\n1 1 0\n1 2 4\n1 3 9\n2 2 0\n2 3 5\n3 3 0\n"
	for _, impl := range []string{"cpu/fast", "cpu/sgje", "cuda/fast"} {
		out := filepath.Join(dir, strings.ReplaceAll(impl, "/", "-")+".mtx")
		code, _, stderr := capture(t, "solve", "apsp", "--semiring", "min-plus", "--in", in, "--out", out, "--impl", impl)
		if impl == "cuda/fast" && code != 0 {
			if !strings.Contains(stderr, "unavailable") {
				t.Errorf("cuda/fast: exit %d, stderr %q; want the result or unavailable", code, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("cuda/fast failed but left %s behind", out)
			}
			continue
		}
		got, err := os.ReadFile(out)
		if code != 0 || err != nil || !strings.HasSuffix(string(got), want) || !strings.Contains(string(got), "by "+impl) {
			t.Errorf("%s: exit %d, stderr %q, output %q (%v)", impl, code, stderr, got, err)
		}
	}
	code, _, stderr := capture(t, "solve", "apsp", "--in", in, "--impl", "gpu/fast")
	if code == 0 || !strings.Contains(stderr, "cuda/fast") {
		t.Errorf("unknown implementation: exit %d, stderr %q", code, stderr)
	}
}
