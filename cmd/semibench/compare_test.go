package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
)

func TestCaseScale(t *testing.T) {
	paper, err := bench.ReadFile(filepath.Join("testdata", "runs", "paper-kleene-table2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range paper.Records {
		if got := caseScale(r.Experiment, r.Params); got != "paper" {
			t.Errorf("%s: scale %q, want paper", r.Key(), got)
		}
	}
	if got := caseScale("kleene/table2", bench.Params{{Name: "n", Value: "3"}, {Name: "weights", Value: "normal"}}); got != "" {
		t.Errorf("a size no scale runs: %q", got)
	}
	if got := caseScale("no/such", nil); got != "" {
		t.Errorf("an unknown experiment: %q", got)
	}
}

// TestCompareQuickRunWithPaper is the case: after a quick run of
// kleene/table2, comparing the paper's file with it prints the paper's
// rows, marks those with no counterpart and names the scale that aligns
// them.
func TestCompareQuickRunWithPaper(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run.json")
	if code, _, stderr := capture(t, "run", "kleene/table2", "--impl", "cpu/fast", "--reps", "1", "--warmup", "0", "--out", run); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	paper := filepath.Join("testdata", "runs", "paper-kleene-table2.jsonl")
	code, out, stderr := capture(t, "compare", paper, run, "--phase", "total")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	for _, w := range []string{"67,249.1", report.NoRecord, "--scale paper --impl cpu/paper", "the paper reports no such cell"} {
		if !strings.Contains(out, w) {
			t.Errorf("compare output lacks %q:\n%s", w, out)
		}
	}
	if !strings.HasPrefix(out, "Summary — total, per experiment") || strings.Contains(out, "Claims whose class differs") {
		t.Errorf("compare of a paper's table and a run: want the summary first and no claims (one measured file):\n%.400s", out)
	}
	// Two measured runs: the claims judged on each, and the count of
	// those whose class differs.
	run2 := filepath.Join(dir, "run2.json")
	if code, _, stderr := capture(t, "run", "kleene/table2", "--impl", "cpu/fast", "--reps", "1", "--warmup", "0", "--out", run2); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if code, out, stderr := capture(t, "compare", run, run2); code != 0 || !strings.Contains(out, "claims differ in class between the files") {
		t.Errorf("compare of two runs: exit %d, %s, no claims:\n%.600s", code, stderr, out)
	}
	lap := filepath.Join("testdata", "runs", "paper-hungarian-table1.jsonl")
	if code, _, stderr := capture(t, "compare", lap, run); code != 1 || !strings.Contains(stderr, "no experiment appears in more than one file") {
		t.Errorf("files sharing no experiment: exit %d, %q", code, stderr)
	}
}

// TestReportCommand: report writes the summary-led report and the plots of
// an existing result file beside it, takes the budget from --budget for a
// file that does not record it, and refuses bad usage with exit 2.
func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "runs", "amd-epyc-kleene-paper.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "run.json")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := capture(t, "report", in, "--budget", "7m"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(dir, "run.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "7m0s") || !strings.Contains(string(md), "run.plots/") {
		t.Errorf("report lacks the budget or its plots' links:\n%.600s", md)
	}
	if pngs, _ := filepath.Glob(filepath.Join(dir, "run.plots", "*.png")); len(pngs) == 0 {
		t.Error("no plots written")
	}
	for _, args := range [][]string{{"report"}, {"report", in, in}, {"report", in, "--budget", "-1s"}, {"report", in, "--bogus"}} {
		if code, _, _ := capture(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
