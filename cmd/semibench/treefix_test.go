package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// treefixInput is the tree 0 -> {1, 2}, 1 -> {3} with weights 1, 2, 3, 4.
const treefixInput = "# parent weight\n-1 1\n0 2\n0 3\n1 4\n"

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSolveTreefix(t *testing.T) {
	in := writeTemp(t, "tree.txt", treefixInput)
	impls := []string{"cpu/sequential", "parallel", "cpu/vectorial", "cpu/vectorial-compensated"}
	if _, err := cuda.DeviceCount(); err == nil {
		impls = append(impls, "cuda/parallel", "cuda/vectorial", "cuda/vectorial-compensated")
	}
	for _, impl := range impls {
		for _, c := range []struct{ op, want string }{{"rootfix", "1\n3\n4\n7\n"}, {"leaffix", "10\n6\n3\n4\n"}} {
			code, out, stderr := capture(t, "solve", "treefix", "--op", c.op, "--in", in, "--impl", impl)
			if code != 0 || out != c.want {
				t.Errorf("%s %s: exit %d, output %q (stderr %q), want %q", impl, c.op, code, out, stderr, c.want)
			}
		}
	}
	// float32: 0.1 rounds, so the sums print as float32 values
	fin := writeTemp(t, "f.txt", "-1 0.1\n0 0.2\n")
	code, out, _ := capture(t, "solve", "treefix", "--op", "rootfix", "--in", fin, "--float32")
	if code != 0 || out != "0.1\n0.3\n" {
		t.Errorf("--float32: exit %d, output %q", code, out)
	}
	// --out writes the file
	dst := filepath.Join(t.TempDir(), "out.txt")
	if code, _, stderr := capture(t, "solve", "treefix", "--op", "leaffix", "--in", in, "--out", dst); code != 0 {
		t.Fatalf("--out: exit %d, %s", code, stderr)
	}
	if b, _ := os.ReadFile(dst); string(b) != "10\n6\n3\n4\n" {
		t.Errorf("--out file holds %q", b)
	}
}

func TestSolveTreefixErrors(t *testing.T) {
	good := writeTemp(t, "tree.txt", treefixInput)
	cases := []struct {
		name, text string
		args       []string
		code       int
		want       string
	}{
		{"no op", "", []string{"--in", good}, 2, "--op is required"},
		{"bad op", "", []string{"--op", "midfix", "--in", good}, 2, "unknown treefix operation"},
		{"no in", "", []string{"--op", "rootfix"}, 2, "--in is required"},
		{"bad impl", "", []string{"--op", "rootfix", "--in", good, "--impl", "gpu/fast"}, 2, "cuda/vectorial"},
		{"overflow", "-1 9223372036854775807\n0 1\n", nil, 1, ":2: bad treefix input: sum overflows: vertex 1: its rootfix sum"},
		{"two roots", "-1 1\n-1 2\n", nil, 1, ":2: bad treefix input: vertex 1 is a second root"},
		{"range", "-1 1\n7 2\n", nil, 1, ":2: bad treefix input: vertex 1: parent 7 out of range"},
		{"cycle", "-1 1\n2 1\n1 1\n", nil, 1, "on a cycle"},
		{"malformed", "-1 1\n0\n", nil, 1, ":2: bad treefix input: want 'parent weight'"},
	}
	for _, c := range cases {
		args := c.args
		if c.text != "" {
			args = []string{"--op", "rootfix", "--in", writeTemp(t, "bad.txt", c.text)}
		}
		code, _, stderr := capture(t, append([]string{"solve", "treefix"}, args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", c.name, code, stderr, c.code, c.want)
		}
	}
}

// TestSolveTreefixNoGPU: without a GPU a CUDA implementation says so.
func TestSolveTreefixNoGPU(t *testing.T) {
	if _, err := cuda.DeviceCount(); err == nil || !errors.Is(err, driver.ErrUnavailable) {
		t.Skip("a CUDA device is present")
	}
	in := writeTemp(t, "tree.txt", treefixInput)
	code, _, stderr := capture(t, "solve", "treefix", "--op", "rootfix", "--in", in, "--impl", "cuda/vectorial")
	if code == 0 || !strings.Contains(stderr, "unavailable") {
		t.Errorf("cuda/vectorial without a GPU: exit %d, stderr %q", code, stderr)
	}
}
