package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/gitrepo"
	"github.com/semibench/semibench/internal/suggest"
)

// readResult reads the result file path names: a file (gzipped or not),
// or COMMIT:PATH, the file as a commit of the repository around the
// working folder holds it (a run that has left the tree: git keeps it;
// PATH from the repository's top level). Every command that reads result
// files reads them here. A missing file's error names its gzipped twin or
// the closest names beside it; an unknown commit or path says which.
func readResult(ctx context.Context, name string) (*bench.File, error) {
	if _, err := os.Lstat(name); err == nil {
		return bench.ReadFileContext(ctx, name)
	}
	if commit, p, ok := gitrepo.SplitRef(name); ok {
		return readFromGit(ctx, name, commit, p)
	}
	f, err := bench.ReadFileContext(ctx, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w%s", err, nearFile(name))
	}
	return f, err
}

// nearFile says which file beside a missing one was probably meant: its
// gzipped twin (a run kept compressed), or the closest names in its
// folder; "" when none is close.
func nearFile(name string) string {
	for _, twin := range []string{name + ".gz", strings.TrimSuffix(name, ".gz")} {
		if twin != name {
			if st, err := os.Stat(twin); err == nil && st.Mode().IsRegular() {
				return "; did you mean " + twin + "?"
			}
		}
	}
	entries, err := os.ReadDir(filepath.Dir(name))
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if s := suggest.Closest(filepath.Base(name), names); strings.HasPrefix(s, "; did you mean") {
		return s
	}
	return ""
}

// maxGitInflate bounds what a gzipped blob may inflate to before it is
// decoded (the decoder holds the file to bench's limits after).
const maxGitInflate = 2 * bench.MaxFileBytes

// readFromGit reads COMMIT:PATH (name) from the repository around the
// working folder.
func readFromGit(ctx context.Context, name, commit, p string) (*bench.File, error) {
	repo, err := gitrepo.Open(ctx, ".")
	if err != nil {
		return nil, fmt.Errorf("%s: no such file, and no git repository here to read it from as COMMIT:PATH: %w", name, err)
	}
	full, err := repo.Resolve(ctx, commit)
	if err != nil {
		return nil, fmt.Errorf("%s: the repository at %s has no commit %q (a shallow clone? git fetch --unshallow)", name, repo.Root(), commit)
	}
	o, err := repo.Read(ctx, full+":"+p)
	if errors.Is(err, gitrepo.ErrMissing) {
		near := ""
		if files, lerr := repo.Files(ctx, full, path.Dir(p)+"/"); lerr == nil && len(files) > 0 {
			if s := suggest.Closest(p, files); strings.HasPrefix(s, "; did you mean") {
				near = s
			}
		}
		return nil, fmt.Errorf("%s: commit %s holds no file %s%s", name, full[:7], p, near)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if o.Type != "blob" {
		return nil, fmt.Errorf("%s: a %s in commit %s, not a file", name, o.Type, full[:7])
	}
	data, err := gitrepo.Gunzip(o.Data, maxGitInflate)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f, err := bench.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if f.Torn != nil {
		slog.Warn(fmt.Sprintf("%s:%d: %v", name, f.Torn.Line, f.Torn))
	}
	return f, nil
}

// isGitRef reports whether name reads from git (COMMIT:PATH) rather than
// a file: no file has the name, and it has the form.
func isGitRef(name string) bool {
	if _, err := os.Lstat(name); err == nil {
		return false
	}
	_, _, ok := gitrepo.SplitRef(name)
	return ok
}
