package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cuda"
)

// TestSolveLAPBatch runs solve lap --batch end to end with cpu/jv (and
// cuda/fast with a GPU, unavailable without): one line per problem, cost
// then assignment; --maximize; --out; errors name the file and line;
// argument checks.
func TestSolveLAPBatch(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "b.txt")
	// Problem 1 is TestSolveLAP's 3 x 4 instance (optimum 5, maximum 18);
	// problem 2 has float costs in a float file.
	body := "lapbatch 2 3 4\n4,1,3,9\n2,0,5,9\n3,2,2,9\n\n1,1,1,1\n1,0,1,1\n1,1,1,0\n"
	if err := os.WriteFile(in, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	gpu := false
	if n, err := cuda.DeviceCount(); err == nil && n > 0 {
		gpu = true
	}
	for _, impl := range []string{"cpu/jv", "cuda/fast"} {
		code, stdout, stderr := capture(t, "solve", "lap", "--batch", in, "--impl", impl)
		if impl == "cuda/fast" && !gpu {
			if code != 1 || !strings.Contains(stderr, "unavailable") {
				t.Errorf("%s without a GPU: exit %d, %q", impl, code, stderr)
			}
			continue
		}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "5,1,0,") || !strings.HasPrefix(lines[1], "1,") {
			t.Fatalf("%s: exit %d, %q %q", impl, code, stdout, stderr)
		}
	}
	out := filepath.Join(dir, "out.txt")
	if code, _, stderr := capture(t, "solve", "lap", "--batch", in, "--maximize", "--out", out); code != 0 {
		t.Fatalf("maximize: exit %d, %q", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(got), "18,") || strings.Count(string(got), "\n") != 2 {
		t.Fatalf("maximize --out: %q, %v", got, err)
	}
	// Floats.
	fin := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(fin, []byte("lapbatch 1 2 2\n0.5,1\n1,0.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := capture(t, "solve", "lap", "--batch", fin); code != 0 || stdout != "0.75,0,1\n" {
		t.Fatalf("floats: exit %d, %q %q", code, stdout, stderr)
	}
	// A bad line is named.
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("lapbatch 1 2 2\n1,2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := capture(t, "solve", "lap", "--batch", bad); code != 1 || !strings.Contains(stderr, bad+":3:") {
		t.Fatalf("bad file: exit %d, %q", code, stderr)
	}
	for _, args := range [][]string{
		{"--batch", in, "--impl", "cpu/paper"},
		{"--batch", in, "--in", in},
		{"--batch", in, "--ms"},
	} {
		if code, _, _ := capture(t, append([]string{"solve", "lap"}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
