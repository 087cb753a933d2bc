package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestScratchDefaults: without --out and --dir, `run` writes its result
// file and `plot` its figures under $TMPDIR/semibench/<machine-label>/,
// laid out as results/ is, and nothing into the working folder; `plot` of
// a gzipped file names its folder without .jsonl.gz.
func TestScratchDefaults(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Chdir(t.TempDir())
	if code, _, stderr := capture(t, "run", "test/cli", "--reps", "1", "--impl", "cpu/fast"); code != 0 {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	label := currentMachine().Label
	runs, _ := filepath.Glob(filepath.Join(tmp, "semibench", label, "*.jsonl"))
	if len(runs) != 1 {
		t.Fatalf("run wrote %v under $TMPDIR/semibench/%s, want one result file", runs, label)
	}
	if here, _ := os.ReadDir("."); len(here) != 0 {
		t.Errorf("run wrote %d entries into the working folder", len(here))
	}
	data, err := os.ReadFile(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	zipped := filepath.Join(t.TempDir(), "old.jsonl.gz")
	if err := os.WriteFile(zipped, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := capture(t, "plot", zipped); code != 0 {
		t.Fatalf("plot: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(tmp, "semibench", label, "old.plots", "test-cli.png")); err != nil {
		t.Errorf("plot of %s: %v", zipped, err)
	}
}
