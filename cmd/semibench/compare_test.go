package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

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
	if !strings.HasPrefix(out, "Comparing ") || !strings.Contains(out, "Summary: where the time goes") || strings.Contains(out, "Claims whose class differs") {
		t.Errorf("compare of a paper's table and a run: want the preface and summary first and no claims (one measured file):\n%.400s", out)
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

// TestCompareGolden pins `semibench compare` on two H100 runs of one
// commit (testdata/compare: two reproduces of 3393cf4, trimmed), and holds
// it to the terminal: at most 200 lines, none wider than COLUMNS.
func TestCompareGolden(t *testing.T) {
	t.Setenv("COLUMNS", "120")
	args := []string{"compare", "testdata/compare/h100-3393cf4-r1.jsonl", "testdata/compare/h100-3393cf4-r2.jsonl"}
	code, out, stderr := capture(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > 200 {
		t.Errorf("%d lines, want at most 200", len(lines))
	}
	for i, l := range lines {
		if w := runewidth.StringWidth(l); w > 120 {
			t.Errorf("line %d is %d wide: %q", i+1, w, l)
		}
	}
	for _, w := range []string{"One commit: A and B both ran 3393cf4.", "treefix/fig7     │ device    │     2 │", "neither 8.4% · 8.3%"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	path := filepath.Join("testdata", "golden", "compare.stdout")
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("semibench %s differs from %s:\n%s", strings.Join(args, " "), path, out)
	}
}

// TestCompareOneFileTwice: one file named twice is said to be one
// (issue 56, item 14), by the same path or by two.
func TestCompareOneFileTwice(t *testing.T) {
	r1 := "testdata/compare/h100-3393cf4-r1.jsonl"
	for _, args := range [][]string{{"compare", r1, r1}, {"compare", r1, "./" + r1}} {
		code, _, stderr := capture(t, args...)
		if code != 0 || !strings.Contains(stderr, "are one file") {
			t.Errorf("%v: exit %d, stderr %q; want 0 and a word on it", args, code, stderr)
		}
	}
	if _, _, stderr := capture(t, "compare", r1, "testdata/compare/h100-3393cf4-r2.jsonl"); strings.Contains(stderr, "one file") {
		t.Errorf("two files called one: %q", stderr)
	}
}

// TestCompareWith: --with adds a file's records to the compared file of
// its machine, and refuses one of no compared machine.
func TestCompareWith(t *testing.T) {
	r1, r2 := "testdata/compare/h100-3393cf4-r1.jsonl", "testdata/compare/h100-3393cf4-r2.jsonl"
	code, _, stderr := capture(t, "compare", r1, r2, "--with", "testdata/runs/amd-epyc-kleene-paper.jsonl")
	if code != 2 || !strings.Contains(stderr, "is not one of the compared files'") {
		t.Errorf("--with of another machine: exit %d, stderr %q", code, stderr)
	}
}

// TestCompareNeverSuggestsAnUnknownImpl (issue 56, item 12): a paper's
// file with a cell of an implementation this build lacks, beside a run
// that lacks that cell: the note names the implementation as one no run
// has, and suggests no run of it.
func TestCompareNeverSuggestsAnUnknownImpl(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "runs", "paper-kleene-table2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	nosuch := strings.Replace(lines[1], `"cpu/paper"`, `"cpu/nosuch"`, 1)
	odd := filepath.Join(t.TempDir(), "odd.jsonl")
	if err := os.WriteFile(odd, []byte(lines[0]+lines[1]+nosuch), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := capture(t, "compare", odd, filepath.Join("testdata", "runs", "amd-epyc-kleene-paper.jsonl"), "--cells")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if strings.Contains(flat, "--impl cpu/nosuch") || strings.Contains(flat, ",cpu/nosuch") {
		t.Errorf("a run of an unknown implementation is suggested:\n%s", out)
	}
	if w := "1 of scale paper of implementations no `semibench run` of this build has (cpu/nosuch)"; !strings.Contains(flat, w) {
		t.Errorf("output lacks %q:\n%s", w, out)
	}
}

// TestCompareOneCommitNone: --one-commit where the repository holds no
// run of a commit both machines ran says so.
func TestCompareOneCommitNone(t *testing.T) {
	r1, err := filepath.Abs("testdata/compare/h100-3393cf4-r1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	amd, err := filepath.Abs("testdata/runs/amd-epyc-kleene-paper.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	code, _, stderr := capture(t, "compare", r1, amd, "--one-commit")
	if code != 1 || !strings.Contains(stderr, "no commit has runs of every machine") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
