package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/internal/gitrepo/gitrepotest"
)

// TestReadFromGit: table, claims, compare, export, report and plot read
// a run as COMMIT:PATH after it left the tree; an unknown commit, an
// unknown path (the closest named) and a missing plain file (its gzipped
// twin named) are clear errors.
func TestReadFromGit(t *testing.T) {
	dir, git := gitrepotest.New(t)
	git("commit", "-q", "--allow-empty", "-m", "start")
	c := git("rev-parse", "HEAD")
	p := filepath.Join(dir, "results", "box", "run.jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, lapRun(t, c, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), 12.5), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "a run")
	kept := git("rev-parse", "--short", "HEAD")
	git("rm", "-q", "results/box/run.jsonl")
	git("commit", "-q", "-m", "the run leaves the tree")
	os.WriteFile(filepath.Join(dir, "other.jsonl.gz"), []byte("x"), 0o644)
	t.Chdir(dir)
	t.Setenv("TMPDIR", t.TempDir())

	ref := kept + ":results/box/run.jsonl"
	for _, args := range [][]string{
		{"table", ref},
		{"claims", ref},
		{"compare", ref, ref},
		{"export", "--benchfmt", ref, "--out", filepath.Join(t.TempDir(), "x.txt")},
		{"report", ref},
		{"plot", ref, "--dir", t.TempDir()},
	} {
		if code, _, stderr := capture(t, args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	if code, stdout, _ := capture(t, "table", ref); code != 0 || !strings.Contains(stdout, "12.5") {
		t.Errorf("table %s: exit %d, want the cell's 12.5 ms:\n%s", ref, code, stdout)
	}
	for _, tc := range []struct{ name, want string }{
		{"deadbee:results/box/run.jsonl", `no commit "deadbee"`},
		{kept + ":results/box/rnu.jsonl", "did you mean results/box/run.jsonl"},
		{"other.jsonl", "did you mean other.jsonl.gz"},
	} {
		if code, _, stderr := capture(t, "table", tc.name); code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("table %s: exit %d, stderr %q; want 1 and %q", tc.name, code, stderr, tc.want)
		}
	}
}
