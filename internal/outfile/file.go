package outfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
)

// Stdout is the output name that asks for standard output.
const Stdout = "-"

// advice ends the message refusing an output path that is not a regular
// file.
const advice = "name a regular file, or - for standard output"

// stdoutNames are the paths that name standard output: written to as "-"
// is, never replaced.
var stdoutNames = []string{Stdout, "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}

// bufSize is the buffer between a writer and the file: the context is
// checked at every flush, so an interrupted write stops within this many
// bytes.
const bufSize = 1 << 20

// File is an output being written. Nothing shows at its path until Commit;
// Abort (or a failure, or the process's end) leaves what was there.
type File struct {
	*bufio.Writer // where the caller writes
	path          string
	ctx           context.Context
	cur           *os.File // the file it replaces, locked; nil when none
	v             *Version // nil for standard output, and once done
}

// WriteError is a failed write to an output, naming it.
type WriteError struct {
	Path string // the output as given; "-" for standard output
	Err  error  // the cause: an I/O error, or the context's error
}

// Error says which output failed and why; for an interruption, that
// nothing was written there.
func (e *WriteError) Error() string {
	name := e.Path
	if name == Stdout {
		name = "standard output"
	}
	switch {
	case errors.Is(e.Err, context.Canceled) || errors.Is(e.Err, context.DeadlineExceeded):
		if e.Path == Stdout {
			return name + ": interrupted before the output was complete"
		}
		return name + ": interrupted before it was complete; nothing was written there"
	case e.Path == Stdout:
		return "writing " + name + ": " + e.Err.Error()
	}
	return "writing " + name + ": " + e.Err.Error() + " (nothing was written there)"
}

// Unwrap returns the cause.
func (e *WriteError) Unwrap() error { return e.Err }

// ctxWriter fails every write once ctx is done, and names its output in
// every error.
type ctxWriter struct {
	ctx  context.Context
	path string
	w    io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, &WriteError{c.path, err}
	}
	n, err := c.w.Write(p)
	if err != nil {
		err = &WriteError{c.path, err}
	}
	return n, err
}

// Create starts an output at path: "-" (Stdout) is standard output, as
// are /dev/stdout and its aliases; anything else is a regular file written as the package documentation says.
// It refuses, naming path, a directory, FIFO, device or socket
// (ErrNotRegular), a dangling symlink, a folder that does not exist, and a
// file another semibench writer holds (ErrInUse). Writes fail once ctx is
// done.
func Create(ctx context.Context, path string) (*File, error) {
	f := &File{path: path, ctx: ctx}
	if slices.Contains(stdoutNames, path) {
		f.path = Stdout
		f.Writer = bufio.NewWriterSize(ctxWriter{ctx, Stdout, os.Stdout}, bufSize)
		return f, nil
	}
	if path == "" {
		return nil, errors.New("no output file named")
	}
	t, err := Resolve(path, advice)
	if err != nil {
		return nil, err
	}
	if f.cur, err = t.LockExisting(); err != nil {
		return nil, err
	}
	if err := t.CheckDir(); err != nil {
		f.release()
		return nil, err
	}
	RemoveStale(t.Real)
	var mode fs.FileMode
	if f.cur != nil {
		if st, err := f.cur.Stat(); err == nil {
			mode = st.Mode().Perm()
		}
	}
	if f.v, err = NewVersion(t.Real, mode); err != nil {
		f.release()
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	f.Writer = bufio.NewWriterSize(ctxWriter{ctx, path, f.v.File()}, bufSize)
	return f, nil
}

// release drops the lock on the file being replaced.
func (f *File) release() {
	if f.cur != nil {
		f.cur.Close()
		f.cur = nil
	}
}

// Commit flushes what was written and puts it in place: the file at path is
// now the new one, complete. It fails, leaving the old file, when a write
// failed or ctx is done. Commit and Abort may be called in any order and
// more than once: only the first call of either counts.
func (f *File) Commit() error {
	err := f.Flush()
	if err == nil {
		err = f.ctx.Err()
	}
	if f.v == nil {
		return f.named(err)
	}
	if err == nil {
		err = f.v.Install(f.cur != nil)
		if f.cur == nil && errors.Is(err, fs.ErrExist) {
			err = fmt.Errorf("created by another process while this one wrote it; it was left as that process wrote it: %w", ErrInUse)
		}
	}
	if err != nil {
		f.Abort()
		return f.named(err)
	}
	f.v.File().Close()
	f.v = nil
	f.release()
	return nil
}

// named returns err naming the output, once.
func (f *File) named(err error) error {
	if err == nil || errors.As(err, new(*WriteError)) {
		return err
	}
	return &WriteError{f.path, err}
}

// Abort discards the output: the file at path stays as it was.
func (f *File) Abort() {
	if f.v != nil {
		f.v.Discard()
		f.v = nil
	}
	f.release()
}

// Write creates path (see Create), lets write fill it, and commits it when
// write succeeds; otherwise the file at path is left as it was. Errors name
// path once.
func Write(ctx context.Context, path string, write func(w *bufio.Writer) error) error {
	f, err := Create(ctx, path)
	if err != nil {
		return err
	}
	if err := write(f.Writer); err != nil {
		f.Abort()
		return f.named(err)
	}
	return f.Commit()
}
