package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/problems/lap"
)

// TestSolveLAP runs solve lap end to end: every CPU implementation gives
// the optimum of a 3 x 4 instance; --maximize; the CUDA ones give it too
// with a GPU and a clear "unavailable" without; an unknown name lists the
// CUDA ones.
func TestSolveLAP(t *testing.T) {
	in := filepath.Join(t.TempDir(), "c.csv")
	if err := os.WriteFile(in, []byte("4,1,3,9\n2,0,5,9\n3,2,2,9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gpu := false
	if n, err := cuda.DeviceCount(); err == nil && n > 0 {
		gpu = true
	}
	for _, im := range impls.LAP.All() {
		code, stdout, stderr := capture(t, "solve", "lap", "--in", in, "--impl", im.Name)
		if strings.HasPrefix(im.Name, "cuda/") && !gpu {
			if code != 1 || !strings.Contains(stderr, "unavailable") || !strings.Contains(stderr, im.Name) {
				t.Errorf("%s without a GPU: exit %d, %q", im.Name, code, stderr)
			}
			continue
		}
		var sol struct {
			Cost       json.Number `json:"cost"`
			Assignment []int       `json:"assignment"`
			Impl       string      `json:"impl"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &sol) != nil {
			t.Fatalf("%s: exit %d, %q %q", im.Name, code, stdout, stderr)
		}
		// Rows 0, 1, 2 to columns 1, 0, 2: 1 + 2 + 2 = 5 is the optimum.
		if sol.Cost != "5" || sol.Impl != im.Name || len(sol.Assignment) != 3 {
			t.Errorf("%s: %+v", im.Name, sol)
		}
	}
	// Maximising: only one row can take a 9; 4 + 5 + 9 = 18 is the best.
	code, stdout, _ := capture(t, "solve", "lap", "--in", in, "--maximize")
	if code != 0 || !strings.Contains(stdout, `"cost":18`) {
		t.Errorf("maximize: exit %d, %s", code, stdout)
	}
	code, _, stderr := capture(t, "solve", "lap", "--in", in, "--impl", "cuda/nope")
	if code != 2 || !strings.Contains(stderr, "cuda/fast") || !strings.Contains(stderr, "cuda/hungarian-n3") {
		t.Errorf("unknown impl: exit %d, %q", code, stderr)
	}
}

// TestGenLAP writes the paper's costs with gen lap and reads them back as
// solve lap does: the same matrix as lapcost's, deterministic from the
// seed, every entry in [0, range); bad flags (--dist uniform01's too) exit
// 2 naming the flag.
func TestGenLAP(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "c.csv")
	if code, _, stderr := capture(t, "gen", "lap", "--n", "6", "--cols", "8", "--range", "10n", "--seed", "3", "--out", out); code != 0 {
		t.Fatalf("gen lap: exit %d %s", code, stderr)
	}
	got, err := lap.ReadCostsFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lapcost.Generate(6, 8, 80, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows != 6 || got.Cols != 8 || !slices.Equal(got.Int, want) {
		t.Fatalf("read back %dx%d %v, want the 6x8 lapcost matrix %v", got.Rows, got.Cols, got.Int, want)
	}
	if code, stdout, stderr := capture(t, "solve", "lap", "--in", out); code != 0 || !strings.Contains(stdout, `"assignment"`) {
		t.Errorf("solve the generated file: exit %d %s %s", code, stdout, stderr)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--n", "0", "--out", out}, "--n"},
		{[]string{"--n", "4", "--cols", "3", "--out", out}, "--cols"},
		{[]string{"--n", "4", "--range", "7", "--out", out}, "--range"},
		{[]string{"--n", "4"}, "--out"},
		{[]string{"--dist", "uniform01", "--n", "4", "--range", "n", "--out", out}, "--range is for --dist int"},
		{[]string{"--dist", "normal", "--n", "4", "--out", out}, "--dist"},
	} {
		code, _, stderr := capture(t, append([]string{"gen", "lap"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.msg) {
			t.Errorf("gen lap %v: exit %d %q, want 2 naming %s", c.args, code, stderr, c.msg)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// TestGenLAPUniform01 writes a batch of float32 costs in [0, 1) with gen
// lap --dist uniform01 and reads it back as the peers' check does: every
// cost rounded to float32 is the generator's, bit for bit; the file is
// the fixture the cli package's peer test reads (TestGenLAP has its bad
// flags).
func TestGenLAPUniform01(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "b.txt")
	if code, _, stderr := capture(t, "gen", "lap", "--dist", "uniform01", "--n", "4", "--cols", "5", "--count", "3", "--out", out); code != 0 {
		t.Fatalf("gen lap: exit %d %s", code, stderr)
	}
	b, err := lap.ReadBatchFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lapcost.GenerateUniform01Batch(context.Background(), 3, 4, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b.IsInt() || b.Count != 3 || b.Rows != 4 || b.Cols != 5 || len(b.Float) != len(want) {
		t.Fatalf("read back %d problems of %dx%d (integers %v)", b.Count, b.Rows, b.Cols, b.IsInt())
	}
	for i, x := range b.Float {
		if float32(x) != want[i] {
			t.Fatalf("cost %d reads back as %v, want %v", i, float32(x), want[i])
		}
	}
	got, _ := os.ReadFile(out)
	fixture, err := os.ReadFile(filepath.Join("internal", "cli", "testdata", "uniform01-3x4x5.txt"))
	if err != nil || string(got) != string(fixture) {
		t.Errorf("gen lap's batch differs from internal/cli/testdata/uniform01-3x4x5.txt (%v): regenerate the fixture and its answers", err)
	}
}
