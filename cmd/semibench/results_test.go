package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/cmd/semibench/internal/current"
)

// maxResultsBytes bounds the committed results/: measured runs only, so
// that the working tree travels whole to a GPU machine.
const maxResultsBytes = 25_000_000

// TestResultsLean holds the committed results/ to what it keeps: no Go
// code; every run results/CURRENT names, plain and readable, and every
// peer file; plots only beside a run CURRENT names (the rest are drawn on
// demand, semibench plot FILE); every other result file gzipped; and
// under maxResultsBytes in all.
func TestResultsLean(t *testing.T) {
	root := filepath.Join("..", "..")
	files := committed(t, root, "results")
	if len(files) == 0 {
		t.Fatal("no file under results/")
	}
	runs, beyond, err := current.Read(filepath.Join(root, "results", "CURRENT"))
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{} // the runs CURRENT names, relative to root
	for _, r := range slices.Concat(runs, beyond) {
		for _, p := range r.Paths {
			rel, _ := filepath.Rel(root, p)
			named[filepath.ToSlash(rel)] = true
			if _, err := bench.ReadFile(p); err != nil {
				t.Errorf("results/CURRENT names %s: %v", rel, err)
			}
		}
	}
	var total int64
	peers := 0
	for _, f := range files {
		st, err := os.Stat(filepath.Join(root, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		total += st.Size()
		dir, _, _ := strings.Cut(strings.TrimPrefix(f, "results/"), "/")
		switch {
		case strings.HasSuffix(f, ".go"):
			t.Errorf("%s: results/ holds no code", f)
		case dir == "peers":
			if strings.HasSuffix(f, ".jsonl") {
				peers++
			}
		case strings.Contains(f, ".plots/"):
			run, _, _ := strings.Cut(f, ".plots/")
			if !named[run+".jsonl"] {
				t.Errorf("%s: plots of a run results/CURRENT does not name (semibench plot FILE draws them)", f)
			}
		case strings.HasSuffix(f, ".jsonl") && !named[f]:
			t.Errorf("%s: a run results/CURRENT does not name is kept gzipped (gzip -9n)", f)
		}
	}
	if peers == 0 {
		t.Error("results/peers holds no result file")
	}
	readme, err := os.ReadFile(filepath.Join(root, "results", "peers", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range strings.Fields(string(readme)) {
		if p := strings.Trim(w, "`'\"(),.;:"); strings.HasPrefix(p, "results/peers/") && strings.HasSuffix(p, ".jsonl") {
			if m, _ := filepath.Glob(filepath.Join(root, p)); len(m) == 0 {
				t.Errorf("results/peers/README.md names %s: no such file", p)
			}
		}
	}
	if total >= maxResultsBytes {
		t.Errorf("results/ holds %d bytes, the bound is %d", total, maxResultsBytes)
	}
	t.Logf("results/: %d files, %d bytes, %d peer files", len(files), total, peers)
}

// committed lists the files under dir (relative to root, slash-separated)
// that git tracks, or every file there outside a git checkout, so that
// runs made here and not committed do not count.
func committed(t *testing.T, root, dir string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--", dir).Output()
	if err == nil && len(out) > 0 {
		return strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	}
	var files []string
	err = filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
