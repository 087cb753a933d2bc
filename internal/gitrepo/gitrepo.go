// Package gitrepo reads a git repository's history without a checkout:
// whether a folder is a repository and a shallow one, the order of its
// commits, every version of the files committed under a folder, the
// objects themselves (streamed through one `git cat-file --batch`
// process) and ancestry.
//
// It runs the git command rather than a Go implementation of git
// (go-git). git is present wherever a clone is, since it made the clone;
// it reads every pack, index and extension the local git wrote (commit
// graphs, multi-pack indexes, partial clones) as that git does; and
// `cat-file --batch` streams hundreds of blobs from one process faster
// than go-git inflates them. go-git would add some thirty modules to a
// binary that otherwise links a handful, for a reader that is used only
// where a repository is at hand.
package gitrepo

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrNoGit means the git command is not installed (not on PATH).
var ErrNoGit = errors.New("the git command is not installed")

// ErrNotRepo means a folder is not inside a git repository.
var ErrNotRepo = errors.New("not a git repository")

// ErrMissing means an object, a commit or a COMMIT:PATH names nothing in
// the repository.
var ErrMissing = errors.New("not in the repository")

// Repo is a git repository, read through the git command.
type Repo struct {
	root string // the work tree's top level, or the git folder of a bare repository
	git  string // the git executable
}

// Open finds the repository dir belongs to (dir or a folder above it).
// It fails with ErrNoGit when git is absent and ErrNotRepo when dir is in
// no repository.
func Open(ctx context.Context, dir string) (*Repo, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoGit, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r := &Repo{root: abs, git: git}
	out, err := r.output(ctx, "rev-parse", "--is-bare-repository", "--show-toplevel")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return nil, fmt.Errorf("%s: %w", dir, ErrNotRepo)
		}
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) == 2 && lines[0] == "false" {
		r.root = lines[1]
	}
	return r, nil
}

// Root is the repository's work tree top level (the git folder of a bare
// repository).
func (r *Repo) Root() string { return r.root }

// command is a git command run in the repository, which ends with ctx.
func (r *Repo) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, r.git, args...)
	cmd.Dir = r.root
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	return cmd
}

// output runs a git command and returns its standard output; an error
// carries git's own message.
func (r *Repo) output(ctx context.Context, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := r.command(ctx, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return "", fmt.Errorf("git %s: %w", args[0], err)
		}
		return "", fmt.Errorf("git %s: %s", args[0], firstLine(msg))
	}
	return stdout.String(), nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// IsShallow reports whether the repository is a shallow clone, whose
// history stops at a depth.
func (r *Repo) IsShallow(ctx context.Context) (bool, error) {
	out, err := r.output(ctx, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(out) == "true", nil
}

// Resolve returns the full hash of the commit rev names (a hash, a prefix
// of one, a branch, HEAD~2); ErrMissing when it names no commit.
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("commit %q: %w", rev, ErrMissing)
	}
	out, err := r.output(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if ctx.Err() != nil {
			return "", err
		}
		return "", fmt.Errorf("commit %q: %w", rev, ErrMissing)
	}
	return strings.TrimSpace(out), nil
}

// Commits lists the commits reachable from rev (HEAD when empty), oldest
// first, parents before children (git's topological order); with
// firstParent only the first parent of each merge is followed.
func (r *Repo) Commits(ctx context.Context, rev string, firstParent bool) ([]string, error) {
	if rev == "" {
		rev = "HEAD"
	}
	args := []string{"rev-list", "--topo-order", "--reverse"}
	if firstParent {
		args = append(args, "--first-parent")
	}
	out, err := r.output(ctx, append(args, "--end-of-options", rev)...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}

// IsAncestor reports whether commit a is an ancestor of commit b (a
// commit is its own ancestor).
func (r *Repo) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	cmd := r.command(ctx, "merge-base", "--is-ancestor", a, b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, nil
	case ctx.Err() != nil:
		return false, ctx.Err()
	}
	return false, fmt.Errorf("git merge-base %s %s: %s", a, b, firstLine(strings.TrimSpace(stderr.String())))
}

// Changed lists the files under paths (folders or files, from the top
// level; all when none) whose content differs between commits a and b,
// sorted: added, deleted, modified or renamed (a rename counts both
// paths). ErrMissing when a or b names no commit.
func (r *Repo) Changed(ctx context.Context, a, b string, paths ...string) ([]string, error) {
	ha, err := r.Resolve(ctx, a)
	if err != nil {
		return nil, err
	}
	hb, err := r.Resolve(ctx, b)
	if err != nil {
		return nil, err
	}
	args := []string{"diff", "-z", "--name-only", "--no-renames", "--end-of-options", ha, hb, "--"}
	out, err := r.output(ctx, append(args, paths...)...)
	if err != nil {
		return nil, err
	}
	files := nulList(out)
	slices.Sort(files)
	return files, nil
}

// Files lists the files a commit holds under dir (the whole tree when dir
// is empty), paths from the top level.
func (r *Repo) Files(ctx context.Context, commit, dir string) ([]string, error) {
	args := []string{"ls-tree", "-r", "-z", "--name-only", "--end-of-options", commit}
	if dir != "" {
		args = append(args, "--", dir)
	}
	out, err := r.output(ctx, args...)
	if err != nil {
		return nil, err
	}
	return nulList(out), nil
}

// nulList splits git's -z output into its non-empty items.
func nulList(out string) []string {
	var items []string
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			items = append(items, f)
		}
	}
	return items
}

// Version is one version of a file as a commit added or changed it.
type Version struct {
	Commit string    // the commit's full hash
	Time   time.Time // the commit's date
	Path   string    // the file's path from the repository's top level
	Blob   string    // the blob's full hash
}

// Versions lists every version of the files under paths (folders or
// files, from the top level) that a commit reachable from rev (HEAD when
// empty) added or changed, newest commit first, keeping those whose path
// keep accepts (all when nil). Renames count as a deletion and an
// addition, so a moved file is listed under its new path; deletions are
// not versions. Merges list no changes of their own.
func (r *Repo) Versions(ctx context.Context, rev string, keep func(path string) bool, paths ...string) ([]Version, error) {
	if rev == "" {
		rev = "HEAD"
	}
	args := []string{"log", "-z", "--raw", "--no-renames", "--no-abbrev", "--format=%x01%H %ct", "--end-of-options", rev, "--"}
	out, err := r.output(ctx, append(args, paths...)...)
	if err != nil {
		return nil, err
	}
	return parseVersions(out, keep)
}

// parseVersions reads `git log -z --raw --format=%x01%H %ct`: each commit
// starts with \x01, its hash and time end at a NUL, then come its changes,
// each ":meta\x00path\x00".
func parseVersions(out string, keep func(string) bool) ([]Version, error) {
	var vs []Version
	for _, chunk := range strings.Split(out, "\x01") {
		if chunk == "" {
			continue
		}
		head, rest, _ := strings.Cut(chunk, "\x00")
		hash, secs, ok := strings.Cut(head, " ")
		t, err := strconv.ParseInt(secs, 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("git log: unreadable commit line %q", head)
		}
		fields := strings.Split(strings.TrimLeft(rest, "\n"), "\x00")
		for i := 0; i+1 < len(fields); i += 2 {
			meta, path := fields[i], fields[i+1]
			m := strings.Fields(meta)
			if len(m) != 5 || !strings.HasPrefix(m[0], ":") {
				return nil, fmt.Errorf("git log: unreadable change %q in commit %s", meta, hash)
			}
			if m[4] == "D" || (keep != nil && !keep(path)) {
				continue
			}
			vs = append(vs, Version{Commit: hash, Time: time.Unix(t, 0).UTC(), Path: path, Blob: m[3]})
		}
	}
	return vs, nil
}

// Object is one object read from the repository.
type Object struct {
	Hash string // its full hash
	Type string // blob, tree, commit or tag
	Data []byte
}

// Read reads one object: a hash, or COMMIT:PATH (a file as a commit has
// it); ErrMissing when it names nothing. For many objects, Stream is
// faster.
func (r *Repo) Read(ctx context.Context, name string) (Object, error) {
	var got Object
	err := r.Stream(ctx, []string{name}, func(_ string, o Object, err error) error {
		got = o
		return err
	})
	return got, err
}

// Stream reads the named objects (hashes, or COMMIT:PATH) through one
// `git cat-file --batch` process and calls fn with each in the order
// named, and with an error wrapping ErrMissing for a name that names
// nothing. fn's error stops the stream and is returned.
func (r *Repo) Stream(ctx context.Context, names []string, fn func(name string, o Object, err error) error) error {
	if len(names) == 0 {
		return nil
	}
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "\n\x00") {
			return fmt.Errorf("object name %q: empty or holding a line break", n)
		}
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := r.command(ctx, "cat-file", "--batch", "--buffer")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	go func() { // requests go in while answers come out: no deadlock on full pipes
		w := bufio.NewWriter(stdin)
		for _, n := range names {
			if _, err := w.WriteString(n + "\n"); err != nil {
				break
			}
		}
		w.Flush()
		stdin.Close()
	}()
	br := bufio.NewReaderSize(stdout, 1<<20)
	readErr := func() error {
		for _, n := range names {
			o, err := readObject(br, n)
			if err != nil && !errors.Is(err, ErrMissing) {
				return err
			}
			if err := fn(n, o, err); err != nil {
				return err
			}
		}
		return nil
	}()
	if readErr != nil {
		cancel()
		io.Copy(io.Discard, br)
		cmd.Wait()
		if parent.Err() != nil {
			return parent.Err()
		}
		return readErr
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// readObject reads one answer of `git cat-file --batch`: "<hash> <type>
// <size>\n<data>\n", or "<name> missing\n" (or "ambiguous").
func readObject(br *bufio.Reader, name string) (Object, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		return Object{}, fmt.Errorf("git cat-file: the answer for %s ended early: %w", name, err)
	}
	f := strings.Fields(line)
	if len(f) == 2 && (f[1] == "missing" || f[1] == "ambiguous") {
		return Object{}, fmt.Errorf("%s: %s %w", name, f[1], ErrMissing)
	}
	if len(f) != 3 {
		return Object{}, fmt.Errorf("git cat-file: unreadable answer %q for %s", strings.TrimSpace(line), name)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return Object{}, fmt.Errorf("git cat-file: unreadable size in %q for %s", strings.TrimSpace(line), name)
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(br, data); err != nil {
		return Object{}, fmt.Errorf("git cat-file: %s ended early: %w", name, err)
	}
	return Object{Hash: f[0], Type: f[1], Data: data[:size]}, nil
}

// Gunzip returns data decompressed when it starts with gzip's magic bytes,
// else data itself; limit bounds what it inflates to (0: no bound).
func Gunzip(data []byte, limit int64) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	var r io.Reader = zr
	if limit > 0 {
		r = io.LimitReader(zr, limit+1)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if limit > 0 && int64(len(out)) > limit {
		return nil, fmt.Errorf("gzip: inflates to more than %d bytes", limit)
	}
	return out, nil
}

// SplitRef splits "COMMIT:PATH" (a run read from git) into its commit and
// path. It reports false for anything else: a plain path, a Windows drive
// ("C:\..."), or a commit part that cannot be a revision (empty, with a
// slash or a dot). A COMMIT is a hash or prefix of one, or a name such as
// HEAD, HEAD~3 or main.
func SplitRef(s string) (commit, path string, ok bool) {
	commit, path, ok = strings.Cut(s, ":")
	if !ok || commit == "" || path == "" || len(commit) == 1 {
		return "", "", false
	}
	if strings.ContainsAny(commit, "/\\. ") {
		return "", "", false
	}
	return commit, path, true
}
