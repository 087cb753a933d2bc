package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/cmd/semibench/internal/current"
	"github.com/semibench/semibench/internal/gitrepo"
)

// maxResultsBytes bounds the committed results/: the evidence a reader
// needs now (issue 57), so that the working tree travels whole to a GPU
// machine; every other run lives in git.
const maxResultsBytes = 12_000_000

// TestResultsLean holds the committed results/ to what it keeps: no Go
// code; every run results/CURRENT names reads; plots only beside a run
// CURRENT names or HISTORY.md, PNG only (the report shows them; semibench plot FILE
// draws the SVGs); every result file outside peers/ either named by
// CURRENT or cited by a document (citations), and gzipped unless CURRENT
// names it plain; under maxResultsBytes in all.
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
	bases := map[string]bool{} // and their names without .jsonl(.gz)
	for _, r := range slices.Concat(runs, beyond) {
		for _, p := range r.Paths {
			rel, _ := filepath.Rel(root, p)
			named[filepath.ToSlash(rel)] = true
			bases[runBase(filepath.ToSlash(rel))] = true
			if _, err := bench.ReadFile(p); err != nil {
				t.Errorf("results/CURRENT names %s: %v", rel, err)
			}
		}
	}
	cited := map[string]bool{}
	for _, c := range citations(t, root) {
		if c.commit == "" {
			cited[c.path] = true
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
		run := strings.HasSuffix(f, ".jsonl") || strings.HasSuffix(f, ".jsonl.gz")
		switch {
		case strings.HasSuffix(f, ".go"):
			t.Errorf("%s: results/ holds no code", f)
		case dir == "peers":
			if run {
				peers++
			}
		case strings.Contains(f, ".plots/"):
			base, _, _ := strings.Cut(f, ".plots/")
			if !bases[base] && base != "results/HISTORY" {
				t.Errorf("%s: plots of a run results/CURRENT does not name (git rm it: semibench plot FILE draws them)", f)
			} else if !strings.HasSuffix(f, ".png") {
				t.Errorf("%s: a current run keeps the PNGs its report shows (git rm the rest: semibench plot FILE draws them)", f)
			}
		case run && !named[f] && !cited[f]:
			t.Errorf("%s: a run neither results/CURRENT names nor a document cites: git rm it (git keeps it; cite it as COMMIT:PATH)", f)
		case strings.HasSuffix(f, ".jsonl") && !named[f]:
			t.Errorf("%s: a run results/CURRENT does not name is kept gzipped (gzip -9n)", f)
		}
	}
	if peers == 0 {
		t.Error("results/peers holds no result file")
	}
	if total >= maxResultsBytes {
		t.Errorf("results/ holds %d bytes, the bound is %d", total, maxResultsBytes)
	}
	t.Logf("results/: %d files, %d bytes, %d peer files", len(files), total, peers)
}

// TestCitedPathsRead: every path under results/ that a document cites
// reads: a file, folder or pattern in the tree, or COMMIT:PATH (a file,
// folder or pattern as the commit holds it) from git. In a shallow clone
// the citations from git are skipped, and said so.
func TestCitedPathsRead(t *testing.T) {
	root := filepath.Join("..", "..")
	cs := citations(t, root)
	if len(cs) < 50 {
		t.Fatalf("found %d citations of results/ in the documents; want at least 50 (is the reader broken?)", len(cs))
	}
	ctx := t.Context()
	repo, gitErr := gitrepo.Open(ctx, root)
	shallow := false
	if gitErr == nil {
		shallow, gitErr = repo.IsShallow(ctx)
	}
	skipped, fromGit := 0, 0
	for _, c := range cs {
		if c.commit == "" {
			if !inTree(root, c.path) {
				t.Errorf("%s: cites %s, which is not in the tree (cite a run that left it as COMMIT:PATH)", c.where, c.path)
			}
			continue
		}
		if gitErr != nil || shallow {
			skipped++
			continue
		}
		fromGit++
		if err := inCommit(ctx, repo, c.commit, c.path); err != nil {
			t.Errorf("%s: cites %s:%s: %v", c.where, c.commit, c.path, err)
		}
	}
	switch {
	case gitErr != nil:
		t.Logf("no git repository (%v): %d citations of COMMIT:PATH not checked", gitErr, skipped)
	case shallow:
		t.Logf("a shallow clone: %d citations of COMMIT:PATH not checked (git fetch --unshallow checks them)", skipped)
	}
	t.Logf("%d citations, %d read from git", len(cs), fromGit)
}

// citation is a path under results/ a document cites, with the commit it
// names (COMMIT:PATH), or none for a path in the tree.
type citation struct {
	where, commit, path string
}

// citePattern finds a path under results/ in a document, with the commit
// before it when there is one (COMMIT:results/...). A path may be a
// pattern (* and [...]).
var citePattern = regexp.MustCompile(`(?:\b([0-9a-f]{7,40}):)?(results/[A-Za-z0-9_.+\-/*\[\]]*)`)

// linkPattern finds a Markdown link's target.
var linkPattern = regexp.MustCompile(`\]\(([^)\s#]+)`)

// citations reads the documents (README.md, REPRODUCE.md,
// ARCHITECTURE.md, NOTES.md, docs/, every README.md under results/ and
// experiments/, the notes under impls/) for the paths under results/
// they cite: written out (results/...; a template such as
// results/<machine-label>/ is none) or as a Markdown link's target
// (relative to the document).
func citations(t *testing.T, root string) []citation {
	t.Helper()
	docs := []string{"README.md", "REPRODUCE.md", "ARCHITECTURE.md", "NOTES.md"}
	for _, pat := range []string{"docs/*.md", "docs/*/*.md", "results/README.md", "results/*/README.md", "results/*/*/README.md",
		"experiments/*/README.md", "experiments/*/*/README.md", "impls/*/*/NOTES.md", "impls/*/NOTES.md"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for _, p := range m {
			rel, _ := filepath.Rel(root, p)
			docs = append(docs, filepath.ToSlash(rel))
		}
	}
	var out []citation
	for _, d := range slices.Compact(docs) {
		data, err := os.ReadFile(filepath.Join(root, d))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			where := fmt.Sprintf("%s:%d", d, i+1)
			for _, m := range citePattern.FindAllStringSubmatchIndex(line, -1) {
				p := strings.TrimRight(line[m[4]:m[5]], ".")
				if p == "results/" && m[5] < len(line) && line[m[5]] == '<' || m[4] > 0 && isPathChar(line[m[4]-1]) {
					continue // a template, or results/ inside another path
				}
				commit := ""
				if m[2] >= 0 {
					commit = line[m[2]:m[3]]
				}
				out = append(out, citation{where, commit, p})
			}
			for _, m := range linkPattern.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				p := filepath.ToSlash(filepath.Join(filepath.Dir(d), target))
				if strings.HasPrefix(p, "results/") && !strings.HasPrefix(target, "results/") {
					out = append(out, citation{where, "", p})
				}
			}
		}
	}
	return out
}

func isPathChar(c byte) bool {
	return c == '/' || c == '-' || c == '_' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// inTree reports whether a path (or a pattern) under root names a file
// or folder there.
func inTree(root, p string) bool {
	m, err := filepath.Glob(filepath.Join(root, p))
	return err == nil && len(m) > 0
}

// inCommit says why a path (or a pattern) names nothing in commit, or nil.
func inCommit(ctx context.Context, repo *gitrepo.Repo, commit, p string) error {
	full, err := repo.Resolve(ctx, commit)
	if err != nil {
		return fmt.Errorf("no commit %s in the repository", commit)
	}
	dir := path.Dir(strings.TrimSuffix(p, "/"))
	files, err := repo.Files(ctx, full, dir+"/")
	if err != nil {
		return err
	}
	want := strings.TrimSuffix(p, "/")
	for _, f := range files {
		if ok, _ := path.Match(want, f); ok || f == want || strings.HasPrefix(f, want+"/") {
			return nil
		}
	}
	return fmt.Errorf("commit %s holds no %s", commit, p)
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
