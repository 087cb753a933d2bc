package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// TestClaimsCommand: `claims` judges every claim from a quick run's file,
// scores none of them (quick scale is below the papers' sizes), gives
// JSON for scripts, refuses files of two scales, and exits 0 whatever the
// verdicts.
func TestClaimsCommand(t *testing.T) {
	dir := t.TempDir()
	quick := filepath.Join(dir, "quick.json")
	if code, _, stderr := captureCtx(t, context.Background(), "run", "kleene/table2", "apsp/systolic", "--scale", "quick", "--reps", "1", "--out", quick); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, out, stderr := captureCtx(t, context.Background(), "claims", "--format", "json", quick)
	if code != 0 {
		t.Fatalf("claims: exit %d: %s", code, stderr)
	}
	var rows []claimRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("claims --format json: %v\n%s", err, out)
	}
	if len(rows) < 40 {
		t.Fatalf("%d claims, want every claim of the five papers", len(rows))
	}
	decided := 0
	for _, r := range rows {
		if r.Scored {
			t.Errorf("%s scored (%s) at quick scale", r.ID, r.Verdict)
		}
		if r.Verdict != "not run" {
			decided++
		}
		if r.ID == "kleene/table2#growth" && (r.Figure == nil || !strings.Contains(r.Ours, experiments.RatioText(*r.Figure))) {
			t.Errorf("%s: figure %v, ours %q: the growth's figure is the ratio ours shows", r.ID, r.Figure, r.Ours)
		}
		if r.ID == "kleene/table2#arcs" && r.Figure != nil {
			t.Errorf("%s: figure %v for a claim of many counts", r.ID, *r.Figure)
		}
		if strings.HasPrefix(r.ID, "kleene/table2") && !strings.Contains(r.Rerun, "semibench run kleene/table2 --scale quick") {
			t.Errorf("%s: re-run %q", r.ID, r.Rerun)
		}
	}
	if decided == 0 {
		t.Error("no claim decided from the run's cells")
	}
	paper := filepath.Join(dir, "paper.json")
	if code, _, stderr := captureCtx(t, context.Background(), "run", "kleene/table2", "--impl", "cpu/fast", "--where", "n=500", "--reps", "1", "--scale", "paper", "--out", paper); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if code, _, stderr := captureCtx(t, context.Background(), "claims", quick, paper); code != 2 || !strings.Contains(stderr, "scale") {
		t.Errorf("claims over two scales: exit %d, %s", code, stderr)
	}
}

// TestReproduceDocIsCurrent: REPRODUCE.md's generated part is what the
// committed runs named in results/CURRENT give (make reproduce-doc writes
// it again).
func TestReproduceDocIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "REPRODUCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, part, _, err := generatedPart(string(doc), "REPRODUCE.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := currentClaims(context.Background(), filepath.Join(root, "results", "CURRENT"), root)
	if err != nil {
		t.Fatal(err)
	}
	if part != want {
		t.Errorf("REPRODUCE.md's generated part differs from what results/CURRENT's runs give: run make reproduce-doc")
	}
}

// countNotRun counts the claims not run in `claims --format json` output.
func countNotRun(t *testing.T, out string) int {
	t.Helper()
	var rows []claimRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	n := 0
	for _, r := range rows {
		if r.Verdict == "not run" {
			n++
		}
	}
	return n
}

// TestCurrentBeyond: a CURRENT line starting with "beyond" names a run
// beyond the papers' sizes: it gets no verdict column, and the generated
// part lists its results (run, commit, wall time, how each was checked)
// and its experiments' tables with the paper's rows beside them; a
// "beyond" line without files is refused with its line number.
func TestCurrentBeyond(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"amd-epyc-kleene-paper.jsonl", "beyond-domination.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", "runs", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	current := filepath.Join(dir, "CURRENT")
	if err := os.WriteFile(current, []byte("EPYC amd-epyc-kleene-paper.jsonl\n# beyond\nbeyond 4GPU beyond-domination.jsonl\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := currentClaims(context.Background(), current, dir)
	if err != nil {
		t.Fatal(err)
	}
	_, beyond, ok := strings.Cut(doc, "## Results beyond the papers")
	if !ok || strings.Contains(doc, "| 4GPU |") {
		t.Fatalf("no beyond section, or the beyond run judged as a machine's:\n%s", doc)
	}
	for _, want := range []string{
		"| 2-domination (002) | m=14 | table4, formula | **4GPU**, commit 0123456, 8m0s from the run's start to its last record | fixture: A^32 = 16 ⊗ A^29 checked entry by entry on the host; 38 witnesses checked |",
		"**4GPU** (beyond-domination.jsonl): m=14",
		"| 12 | 26 |", // Table 4's paper rows beside ours
		"| 14 | — | 29 | — | 3 | — | 16 |",
	} {
		if !strings.Contains(beyond, want) {
			t.Errorf("beyond section lacks %q:\n%s", want, beyond)
		}
	}
	// claims FILE lists them after the claims, its run named by the machine.
	code, out, stderr := captureCtx(t, context.Background(), "claims", "--format", "markdown", filepath.Join(dir, "beyond-domination.jsonl"))
	if code != 0 || !strings.Contains(out, "results beyond the papers' sizes") || !strings.Contains(out, "| 2-domination (002) | m=14 | table4, formula | **fixture-4gpu**") {
		t.Errorf("claims FILE: exit %d, %s\n%s", code, stderr, out)
	}
	if err := os.WriteFile(current, []byte("EPYC amd-epyc-kleene-paper.jsonl\nbeyond 4GPU\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := currentClaims(context.Background(), current, dir); err == nil || !strings.Contains(err.Error(), "CURRENT:2") {
		t.Errorf("a beyond line without files: %v", err)
	}
}

// TestClaimsUseTheFilesNoise: claims judges a file at the noise its A/A
// pairs measured, as the file's own report does (experiments.JudgeFile),
// not at the default: testdata/runs/noise-kleene.jsonl (Kleene's cells at
// n = 2000 and 4000 from an H100 reproduce, noise 1.7%) holds a CPU/GPU
// speedup of 80x, far above its band, from one CPU sample, which the
// default noise of 10% would leave inconclusive.
func TestClaimsUseTheFilesNoise(t *testing.T) {
	path := filepath.Join("testdata", "runs", "noise-kleene.jsonl")
	f, err := bench.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]experiments.Verdict{}
	for _, c := range experiments.JudgeFile(f) {
		want[c.ID] = c.Verdict
	}
	if v := want["kleene/table3#speedup"]; v != experiments.Exceeded {
		t.Fatalf("the file's report gives kleene/table3#speedup %s, want exceeded (the fixture changed?)", v)
	}
	code, out, stderr := captureCtx(t, context.Background(), "claims", "--format", "json", path)
	if code != 0 {
		t.Fatalf("claims: exit %d: %s", code, stderr)
	}
	var rows []claimRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if string(want[r.ID]) != r.Verdict {
			t.Errorf("%s: claims gives %s, the file's report %s", r.ID, r.Verdict, want[r.ID])
		}
	}
}
