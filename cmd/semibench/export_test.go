package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench/benchfmt"

	"github.com/semibench/semibench/bench"
)

// TestExportWarnsFewSamples: a file measured with the runner's default 5
// repetitions exports with a warning naming --reps 6; one measured with 6
// exports silently, every sample a line; a paper's transcription is named
// as such, with no advice to rerun it.
func TestExportWarnsFewSamples(t *testing.T) {
	// export writes its warning to os.Stderr, like run's progress lines.
	export := func(args ...string) (int, string, string) {
		t.Helper()
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		old := os.Stderr
		os.Stderr = w
		done := make(chan string)
		go func() {
			var b strings.Builder
			io.Copy(&b, r)
			done <- b.String()
		}()
		code, stdout, stderr := capture(t, append([]string{"export"}, args...)...)
		w.Close()
		os.Stderr = old
		return code, stdout, stderr + <-done
	}
	dir := t.TempDir()
	five := filepath.Join("..", "..", "bench", "benchfmt", "testdata", "benchfmt", "amd-epyc.json")
	out := filepath.Join(dir, "five.txt")
	code, _, stderr := export("--benchfmt", five, "--out", out)
	if code != 0 || !strings.Contains(stderr, "2 of 2 records have fewer than 6 samples (fewest 5)") ||
		!strings.Contains(stderr, "semibench run --reps 6") || !strings.Contains(stderr, "± ∞") {
		t.Errorf("5 samples: exit %d, stderr %q", code, stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(data), "pkg: semibench\n") {
		t.Errorf("--out: %v %q", err, data)
	}

	six := filepath.Join(dir, "six.json")
	if code, _, stderr := capture(t, "run", "test/cli", "--impl", "cpu/fast", "--reps", "6", "--warmup", "0", "--out", six); code != 0 {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	code, stdout, stderr := export(six)
	if code != 0 || stderr != "" {
		t.Errorf("6 samples: exit %d, stderr %q", code, stderr)
	}
	f, err := bench.ReadFile(six)
	if err != nil {
		t.Fatal(err)
	}
	records, short, fewest := benchfmt.Samples(f, benchfmt.BenchstatMinSamples)
	lines := strings.Count(stdout, " ns/op\n")
	if records == 0 || short != 0 || fewest != 6 || lines < 6*records {
		t.Errorf("6 samples: %d records, %d short, fewest %d, %d lines:\n%s", records, short, fewest, lines, stdout)
	}

	paper := filepath.Join("testdata", "runs", "paper-kleene-table2.jsonl")
	code, _, stderr = export("--benchfmt", paper, "--out", filepath.Join(dir, "paper.txt"))
	if code != 0 || !strings.Contains(stderr, "a paper's numbers") || strings.Contains(stderr, "--reps") {
		t.Errorf("paper: exit %d, stderr %q", code, stderr)
	}
}
