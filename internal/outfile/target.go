package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrInUse is returned when another writer (in this process or another)
// holds the file's lock.
var ErrInUse = errors.New("file in use")

// ErrNotRegular is returned for a path that names a directory, a FIFO, a
// device, a socket or anything else that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// errLocked is TryLock's answer when another open file holds the lock.
var errLocked = errors.New("locked by another writer")

// reasonError is a message that says the whole reason in its own words
// and matches a sentinel error for errors.Is without repeating its text.
type reasonError struct {
	msg      string
	sentinel error
}

func (e *reasonError) Error() string        { return e.msg }
func (e *reasonError) Is(target error) bool { return target == e.sentinel }

// Target is where a file is written.
type Target struct {
	Path string // as given, for messages
	Real string // symlinks resolved: the file that is replaced
	// Advice ends the message refusing a path that cannot be written (a
	// directory, a device, a dangling link): what to give instead ("name a
	// regular file").
	Advice string
}

// Resolve follows a symlink at path: the file it points to is written and
// the link stays. A link to nothing is refused, with advice telling the
// user what to give instead.
func Resolve(path, advice string) (Target, error) {
	t := Target{Path: path, Real: path, Advice: advice}
	st, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return t, nil
		}
		return t, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			dest, _ := os.Readlink(path)
			return t, fmt.Errorf("%s is a symlink to %s, which leads to nothing that can be written (%w): %s", path, dest, err, advice)
		}
		t.Real = real
	}
	return t, nil
}

// KindOf names the kind of file a mode describes ("a directory", "a FIFO",
// ...).
func KindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// name is the target as messages show it: the path, and where a symlink
// leads.
func (t Target) name() string {
	if t.Real != t.Path {
		return t.Path + " (-> " + t.Real + ")"
	}
	return t.Path
}

// notRegular is the error refusing a target of mode m.
func (t Target) notRegular(m fs.FileMode) error {
	why := "which the new file's rename would replace"
	if m.IsDir() {
		why = "not a file"
	}
	return &reasonError{fmt.Sprintf("%s is %s, %s: %s", t.name(), KindOf(m), why, t.Advice), ErrNotRegular}
}

// LockExisting opens the file at t.Real and takes its lock. It returns nil
// and no error when there is no file, ErrNotRegular when the path names
// something else, and ErrInUse when another writer holds the lock.
func (t Target) LockExisting() (*os.File, error) {
	for range 100 {
		st, err := os.Lstat(t.Real)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, t.notRegular(st.Mode())
		}
		f, err := os.OpenFile(t.Real, openFlags, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue // renamed away meanwhile
		}
		if err != nil {
			return nil, err
		}
		fst, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if !fst.Mode().IsRegular() {
			f.Close()
			return nil, t.notRegular(fst.Mode())
		}
		if err := TryLock(f); err != nil {
			f.Close()
			return nil, t.lockError(err)
		}
		if now, err := os.Lstat(t.Real); err == nil && os.SameFile(fst, now) {
			return f, nil
		}
		f.Close() // a new version took the name between open and lock
	}
	return nil, fmt.Errorf("%s keeps being replaced while it is opened", t.Path)
}

// lockError is the error of a failed TryLock on t's file.
func (t Target) lockError(err error) error {
	if errors.Is(err, errLocked) {
		return &reasonError{fmt.Sprintf("%s is being written by another semibench run (it holds the file's lock): wait for that run to end, or choose another --out", t.Path), ErrInUse}
	}
	return fmt.Errorf("locking %s: %w", t.Path, err)
}

// CheckDir checks that the folder the target goes in exists.
func (t Target) CheckDir() error {
	dir := filepath.Dir(t.Real)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: the folder %s does not exist", t.Path, dir)
	case err != nil:
		return fmt.Errorf("%s: %w", t.Path, err)
	case !st.IsDir():
		return fmt.Errorf("%s: %s is not a folder", t.Path, dir)
	}
	return nil
}

// tempPrefix is the start of the temporary names of real's versions.
func tempPrefix(real string) string { return "." + filepath.Base(real) + ".tmp-" }

// IsTemp reports whether name (a base name) is a temporary of a file whose
// base name is base: .BASE.tmp-DIGITS, or .BASE.tmpDIGITS, the name the
// commands of earlier versions gave theirs (os.CreateTemp's), which a
// killed writer may have left.
func IsTemp(name, base string) bool {
	digits, ok := strings.CutPrefix(name, tempPrefix(base))
	if !ok {
		digits, ok = strings.CutPrefix(name, "."+base+".tmp")
	}
	if !ok || digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RemoveStale removes the temporaries of real that no live writer holds:
// those of writers killed before their version took the name. The caller
// holds real's lock (or there is no file), so a temporary that is not
// locked has no writer: every writer locks its version before naming it.
func RemoveStale(real string) {
	dir, base := filepath.Dir(real), filepath.Base(real)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsTemp(e.Name(), base) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(p, openFlags, 0)
		if err != nil {
			continue
		}
		if TryLock(f) == nil {
			os.Remove(p)
		}
		f.Close()
	}
}

// SyncDir makes a rename in dir durable. It is best effort: some file
// systems cannot sync a folder, and the rename is atomic either way.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
