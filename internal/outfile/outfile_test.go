//go:build unix

package outfile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// both runs f with anonymous and with named temporaries.
func both(t *testing.T, f func(t *testing.T)) {
	for _, named := range []bool{false, true} {
		name := "anonymous"
		if named {
			name = "named"
		}
		t.Run(name, func(t *testing.T) {
			old := NamedTemps
			NamedTemps = named
			defer func() { NamedTemps = old }()
			f(t)
		})
	}
}

// onlyFiles lists the names in dir.
func onlyFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func text(s string) func(w *bufio.Writer) error {
	return func(w *bufio.Writer) error { _, err := w.WriteString(s); return err }
}

func TestWriteReplacesOnSuccessOnly(t *testing.T) {
	both(t, func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "out.csv")
		if err := Write(context.Background(), p, text("one\n")); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o600); err != nil {
			t.Fatal(err)
		}
		boom := errors.New("boom")
		err := Write(context.Background(), p, func(w *bufio.Writer) error {
			w.WriteString(strings.Repeat("x", 3<<20)) // past the buffer: bytes reach the version
			return boom
		})
		if !errors.Is(err, boom) || !strings.Contains(err.Error(), p) {
			t.Fatalf("err = %v, want boom naming %s", err, p)
		}
		if b, _ := os.ReadFile(p); string(b) != "one\n" {
			t.Fatalf("after a failed write the file holds %q", b)
		}
		if err := Write(context.Background(), p, text("two\n")); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		if b, _ := os.ReadFile(p); string(b) != "two\n" || st.Mode().Perm() != 0o600 {
			t.Fatalf("file %q mode %v, want two and 0600 kept", b, st.Mode().Perm())
		}
		if names := onlyFiles(t, dir); len(names) != 1 {
			t.Fatalf("folder holds %v, want out.csv alone", names)
		}
	})
}

func TestWriteInterrupted(t *testing.T) {
	both(t, func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "big.csv")
		os.WriteFile(p, []byte("old"), 0o644)
		ctx, cancel := context.WithCancel(context.Background())
		written := 0
		err := Write(ctx, p, func(w *bufio.Writer) error {
			for i := range 1 << 16 {
				if i == 100 {
					cancel()
				}
				n, err := w.WriteString(strings.Repeat("y", 1024))
				written += n
				if err != nil {
					return err
				}
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
			t.Fatalf("err = %v, want the interruption", err)
		}
		if written > 2*bufSize+200*1024 {
			t.Errorf("%d bytes written after the interruption, want at most about one buffer", written)
		}
		if b, _ := os.ReadFile(p); string(b) != "old" {
			t.Fatalf("file holds %d bytes, want the old file", len(b))
		}
		if names := onlyFiles(t, dir); len(names) != 1 {
			t.Fatalf("folder holds %v", names)
		}
	})
}

func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(real, []byte("old"), 0o644)
	os.Symlink("real.txt", link)
	if err := Write(context.Background(), link, text("new")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced")
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("the link's file holds %q", b)
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("nowhere/x", dangling)
	if err := Write(context.Background(), dangling, text("x")); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("dangling link: err = %v", err)
	}
}

func TestRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	linkToDev := filepath.Join(dir, "null")
	os.Symlink("/dev/null", linkToDev)
	for p, kind := range map[string]string{dir: "a directory", fifo: "a FIFO", "/dev/null": "a character device", linkToDev: "a character device"} {
		err := Write(context.Background(), p, text("x"))
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), kind) || !strings.Contains(err.Error(), "- for standard output") {
			t.Errorf("%s: err = %v, want ErrNotRegular naming it %s", p, err, kind)
		}
	}
	if st, err := os.Lstat(linkToDev); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link to /dev/null was replaced")
	}
	if err := Write(context.Background(), filepath.Join(dir, "no/such/x"), text("x")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing folder: err = %v", err)
	}
}

func TestRefusesLockedFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "held")
	os.WriteFile(p, []byte("old"), 0o644)
	h, _ := os.Open(p)
	defer h.Close()
	if err := TryLock(h); err != nil {
		t.Fatal(err)
	}
	if err := Write(context.Background(), p, text("x")); !errors.Is(err, ErrInUse) {
		t.Fatalf("err = %v, want ErrInUse", err)
	}
}

func TestStdout(t *testing.T) {
	r, w, _ := os.Pipe()
	old := os.Stdout
	os.Stdout = w
	err := Write(context.Background(), Stdout, text("to stdout\n"))
	os.Stdout = old
	w.Close()
	b, _ := io.ReadAll(r)
	if err != nil || string(b) != "to stdout\n" {
		t.Fatalf("err %v, output %q", err, b)
	}
}

func TestRemoveTemps(t *testing.T) {
	NamedTemps = true
	defer func() { NamedTemps = false }()
	dir := t.TempDir()
	f, err := Create(context.Background(), filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	if names := onlyFiles(t, dir); len(names) != 1 || !IsTemp(names[0], "out") {
		t.Fatalf("folder holds %v, want one named temporary", names)
	}
	RemoveTemps()
	if names := onlyFiles(t, dir); len(names) != 0 {
		t.Fatalf("folder holds %v after RemoveTemps", names)
	}
	f.Abort()
}

const helperEnv = "OUTFILE_TEST_WRITER"

// TestHelperWriter is the writer TestStaleTempsRemoved kills; run
// directly it does nothing.
func TestHelperWriter(t *testing.T) {
	p := os.Getenv(helperEnv)
	if p == "" {
		t.Skip("the writer process of TestStaleTempsRemoved")
	}
	NamedTemps = true
	f, err := Create(context.Background(), p)
	if err != nil {
		os.Exit(1)
	}
	f.WriteString(strings.Repeat("z", 3<<20))
	f.Flush()
	os.Stdout.WriteString("ready\n")
	time.Sleep(time.Minute)
	os.Exit(2)
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".out.csv.tmp-123": true, ".out.csv.tmp987": true, ".out.csv.tmp-": false, ".out.csv.tmpx1": false,
		".other.tmp-1": false, "out.csv.tmp-1": false, ".out.csv.tmp-12a": false,
	} {
		if IsTemp(name, "out.csv") != want {
			t.Errorf("IsTemp(%q) = %v", name, !want)
		}
	}
}

// TestStaleTempsRemoved kills a writer in the middle of its output: the
// old file stays, and the next writer of the file removes the temporary.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.mtx")
	os.WriteFile(p, []byte("old"), 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+p)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		cmd.Process.Kill()
		t.Fatalf("writer said %q", line)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if names := onlyFiles(t, dir); len(names) != 2 {
		t.Fatalf("after the kill the folder holds %v, want the file and a temporary", names)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, []byte("old")) {
		t.Fatalf("the file was changed by the killed writer")
	}
	if err := Write(context.Background(), p, text("new")); err != nil {
		t.Fatal(err)
	}
	if names := onlyFiles(t, dir); len(names) != 1 {
		t.Fatalf("the next writer left %v, want the file alone", names)
	}
}

func TestStage(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	stale := filepath.Join(os.TempDir(), stagePrefix+"123")
	os.MkdirAll(filepath.Join(stale, "sub"), 0o755)
	s, err := NewStage()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("a stale stage was left")
	}
	os.WriteFile(filepath.Join(s.Dir, "a.png"), []byte("x"), 0o644)
	other, err := NewStage() // must not remove the live one
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "a.png")); err != nil {
		t.Errorf("a live stage was removed")
	}
	other.Close()
	RemoveTemps()
	if _, err := os.Stat(s.Dir); err == nil {
		t.Errorf("RemoveTemps left the stage")
	}
	s.Close()
}
