package gitrepo

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/internal/gitrepo/gitrepotest"
)

func write(t *testing.T, dir, path string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gz(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestHistory(t *testing.T) {
	dir, git := gitrepotest.New(t)
	ctx := context.Background()
	write(t, dir, "results/a.jsonl", []byte("one\n"))
	write(t, dir, "README", []byte("x"))
	git("add", ".")
	git("commit", "-q", "-m", "first")
	c1 := git("rev-parse", "HEAD")
	write(t, dir, "results/a.jsonl", []byte("one\ntwo\n"))
	git("commit", "-q", "-am", "append")
	c2 := git("rev-parse", "HEAD")
	// gzip and move it: a deletion and an addition
	write(t, dir, "results/old/a.jsonl.gz", gz(t, []byte("one\ntwo\n")))
	git("rm", "-q", "results/a.jsonl")
	git("add", ".")
	git("commit", "-q", "-m", "gzip")
	c3 := git("rev-parse", "HEAD")
	// a side branch merged
	git("checkout", "-q", "-b", "side", c2)
	write(t, dir, "results/b.jsonl", []byte("b\n"))
	git("add", ".")
	git("commit", "-q", "-m", "side")
	c4 := git("rev-parse", "HEAD")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-edit", "side")
	c5 := git("rev-parse", "HEAD")

	r, err := Open(ctx, filepath.Join(dir, "results"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := filepath.EvalSymlinks(r.Root()); got != mustEval(t, dir) {
		t.Errorf("Root() = %s, want %s", r.Root(), dir)
	}
	if sh, err := r.IsShallow(ctx); err != nil || sh {
		t.Errorf("IsShallow() = %v, %v, want false", sh, err)
	}
	all, err := r.Commits(ctx, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 5 || all[0] != c1 || all[1] != c2 || all[4] != c5 {
		t.Errorf("Commits() = %v, want 5 commits from %s to %s", all, c1, c5)
	}
	fp, err := r.Commits(ctx, "", true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fp, []string{c1, c2, c3, c5}) {
		t.Errorf("Commits(first parent) = %v, want %v", fp, []string{c1, c2, c3, c5})
	}
	if ok, err := r.IsAncestor(ctx, c2, c5); err != nil || !ok {
		t.Errorf("IsAncestor(c2, c5) = %v, %v", ok, err)
	}
	if ok, err := r.IsAncestor(ctx, c4, c3); err != nil || ok {
		t.Errorf("IsAncestor(c4, c3) = %v, %v, want false", ok, err)
	}
	if full, err := r.Resolve(ctx, c3[:8]); err != nil || full != c3 {
		t.Errorf("Resolve(%s) = %s, %v, want %s", c3[:8], full, err, c3)
	}
	if _, err := r.Resolve(ctx, "deadbeef"); !errors.Is(err, ErrMissing) {
		t.Errorf("Resolve(deadbeef) error %v, want ErrMissing", err)
	}

	vs, err := r.Versions(ctx, "", func(p string) bool { return strings.Contains(p, ".jsonl") }, "results/")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Commit[:7]+" "+v.Path)
		if v.Time.IsZero() || len(v.Blob) != 40 {
			t.Errorf("version %+v: no time or blob", v)
		}
	}
	want := []string{c4[:7] + " results/b.jsonl", c3[:7] + " results/old/a.jsonl.gz", c2[:7] + " results/a.jsonl", c1[:7] + " results/a.jsonl"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Versions() = %v, want %v", got, want)
	}

	// Stream: blobs by hash, COMMIT:PATH, and a missing name, in order.
	names := []string{vs[0].Blob, c1 + ":results/a.jsonl", c3[:9] + ":results/old/a.jsonl.gz", c1 + ":nope", "0123456789012345678901234567890123456789"}
	var texts []string
	var missing int
	err = r.Stream(ctx, names, func(name string, o Object, err error) error {
		if errors.Is(err, ErrMissing) {
			missing++
			return nil
		}
		if err != nil {
			return err
		}
		data, err := Gunzip(o.Data, 1<<20)
		if err != nil {
			return err
		}
		texts = append(texts, string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if missing != 2 || len(texts) != 3 || texts[1] != "one\n" || texts[2] != "one\ntwo\n" {
		t.Errorf("Stream: %d missing, texts %q; want 2 missing, then one, one two", missing, texts)
	}
	stop := errors.New("stop")
	if err := r.Stream(ctx, names, func(string, Object, error) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("Stream with fn failing: %v, want fn's error", err)
	}
	if files, err := r.Files(ctx, c3, "results/"); err != nil || !slices.Equal(files, []string{"results/old/a.jsonl.gz"}) {
		t.Errorf("Files(c3, results/) = %v, %v; want results/old/a.jsonl.gz", files, err)
	}
	if o, err := r.Read(ctx, "HEAD:README"); err != nil || string(o.Data) != "x" || o.Type != "blob" {
		t.Errorf("Read(HEAD:README) = %+v, %v", o, err)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	e, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestShallowAndNotRepo(t *testing.T) {
	dir, git := gitrepotest.New(t)
	ctx := context.Background()
	for i := range 3 {
		write(t, dir, "f", []byte{byte('a' + i)})
		git("add", ".")
		git("commit", "-q", "-m", "c")
	}
	clone := filepath.Join(t.TempDir(), "clone")
	git("clone", "-q", "--depth", "1", "file://"+dir, clone)
	r, err := Open(ctx, clone)
	if err != nil {
		t.Fatal(err)
	}
	if sh, err := r.IsShallow(ctx); err != nil || !sh {
		t.Errorf("IsShallow(depth-1 clone) = %v, %v, want true", sh, err)
	}
	if _, err := Open(ctx, t.TempDir()); !errors.Is(err, ErrNotRepo) {
		t.Errorf("Open(plain folder) error %v, want ErrNotRepo", err)
	}
}

func TestSplitRef(t *testing.T) {
	for _, tc := range []struct {
		in           string
		commit, path string
		ok           bool
	}{
		{"3393cf4:results/x.jsonl", "3393cf4", "results/x.jsonl", true},
		{"HEAD~2:a.jsonl.gz", "HEAD~2", "a.jsonl.gz", true},
		{"results/x.jsonl", "", "", false},
		{`C:\x.jsonl`, "", "", false},
		{"./a:b", "", "", false},
		{":x", "", "", false},
		{"abc:", "", "", false},
	} {
		c, p, ok := SplitRef(tc.in)
		if c != tc.commit || p != tc.path || ok != tc.ok {
			t.Errorf("SplitRef(%q) = %q, %q, %v; want %q, %q, %v", tc.in, c, p, ok, tc.commit, tc.path, tc.ok)
		}
	}
}

func TestGunzip(t *testing.T) {
	plain := []byte("hello")
	if got, err := Gunzip(plain, 0); err != nil || !bytes.Equal(got, plain) {
		t.Errorf("Gunzip(plain) = %q, %v", got, err)
	}
	if got, err := Gunzip(gz(t, plain), 10); err != nil || !bytes.Equal(got, plain) {
		t.Errorf("Gunzip(gzipped) = %q, %v", got, err)
	}
	if _, err := Gunzip(gz(t, plain), 3); err == nil {
		t.Error("Gunzip over its limit: no error")
	}
	if _, err := Gunzip([]byte{0x1f, 0x8b, 1}, 0); err == nil {
		t.Error("Gunzip(torn gzip): no error")
	}
}

// TestChanged: the files that differ between two commits, under the
// folders asked for, with a file's deletion and a commit that is not there.
func TestChanged(t *testing.T) {
	dir, git := gitrepotest.New(t)
	ctx := context.Background()
	write(t, dir, "impls/a/a.go", []byte("a"))
	write(t, dir, "impls/b/b.go", []byte("b"))
	write(t, dir, "kernels/k.cu", []byte("k"))
	write(t, dir, "README", []byte("r"))
	git("add", ".")
	git("commit", "-q", "-m", "first")
	c1 := git("rev-parse", "HEAD")
	write(t, dir, "impls/a/a.go", []byte("a2"))
	write(t, dir, "README", []byte("r2"))
	git("rm", "-q", "kernels/k.cu")
	git("add", ".")
	git("commit", "-q", "-m", "second")
	c2 := git("rev-parse", "HEAD")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Changed(ctx, c1[:7], c2, "impls", "kernels")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"impls/a/a.go", "kernels/k.cu"}; !slices.Equal(got, want) {
		t.Errorf("Changed = %q, want %q", got, want)
	}
	if got, err := r.Changed(ctx, c2, c2); err != nil || len(got) != 0 {
		t.Errorf("one commit: %q, %v", got, err)
	}
	if _, err := r.Changed(ctx, c1, "0123456789abcdef0123456789abcdef01234567"); !errors.Is(err, ErrMissing) {
		t.Errorf("a commit not in the repository: %v, want ErrMissing", err)
	}
}
