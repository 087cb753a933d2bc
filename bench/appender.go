package bench

// Writing result files without ever losing a record.
//
// Versions. A result file is rewritten whole after every record: the new
// version goes to a temporary file in the same folder, is synced, and is
// renamed over the file, so a reader, or a crash, sees the old version or
// the new one, never a torn one.
//
// Lock. A writer holds an exclusive flock on the inode the path names for as
// long as its Appender lives. Each new version is locked before it takes
// the name and the old version's lock is dropped after, so whatever inode
// the path names is locked at every moment. A second writer opens the path,
// fails to take the lock and is refused (ErrInUse); one that opened the old
// inode just before a rename gets that lock, sees that the path names
// another inode now, and tries again. No lock file is created, and the
// kernel drops the locks of a killed writer, so none goes stale. (A lock on
// the folder would refuse two runs writing different files there; a lock
// file beside the result would be one more file to leave behind.)
//
// Temporaries. On Linux a new version is written into an O_TMPFILE, which
// has no name until it is complete and synced; it is then linked under a
// temporary name (.NAME.tmp-DIGITS) and renamed over the file, since linkat
// cannot replace a name. So a temporary name only ever names a complete
// version, and only for the two system calls between linkat and rename. No
// scheme can make that window empty (Linux has no "link over"), so a writer
// SIGKILLed inside it leaves that name behind, and the next writer of the
// file removes it: it holds the file's lock, so the only live writers of
// such names are ones that hold them locked (every writer locks its version
// before naming it), and it removes every other. Without O_TMPFILE (another
// system, a file system without it, no /proc), a named temporary is made at
// once and the same clean-up covers it. On every exit the process controls
// (an error, a closed Appender, the run's end) no temporary stays: its name
// is removed, or it never had one. A killed writer's file holds every
// record whose Append returned; the one in flight may be missing.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrInUse is returned when another writer (another Appender, in this
// process or another) holds the result file.
var ErrInUse = errors.New("result file in use")

// ErrNotRegular is returned for a result path that names a directory, a
// FIFO, a device or anything else that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrIncompatible is returned for an existing result path whose file
// records of this run may not join: not a result file, damaged, a paper's
// transcription, or another machine's or schema version's.
var ErrIncompatible = errors.New("existing file cannot be appended to")

// errLocked is tryLock's answer when another open file holds the lock.
var errLocked = errors.New("locked by another writer")

// namedTemps makes every version a named temporary from the start, as on
// systems without O_TMPFILE (set by tests, to cover that path on Linux).
var namedTemps = false

// filePerm is the mode of new result files (less the umask).
const filePerm fs.FileMode = 0o644

// target is where a result file is written.
type target struct {
	path string // as given, for messages
	real string // symlinks resolved: the file that is replaced
}

// resolve follows a symlink at path: the file it points to is written and
// the link stays. A link to nothing is refused.
func resolve(path string) (target, error) {
	t := target{path: path, real: path}
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
			return t, fmt.Errorf("%s is a symlink to %s, which cannot be followed (%w): point it at a file or folder that exists, or choose another --out", path, dest, err)
		}
		t.real = real
	}
	return t, nil
}

// kindOf names the kind of file a mode describes.
func kindOf(m fs.FileMode) string {
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
	}
	return "not a regular file"
}

func (t target) notRegular(m fs.FileMode) error {
	name := t.path
	if t.real != t.path {
		name += " (-> " + t.real + ")"
	}
	return fmt.Errorf("%s is %s: a result file is replaced on every record, which would destroy it; give --out the name of a regular file: %w", name, kindOf(m), ErrNotRegular)
}

// lockExisting opens and locks the file at t.real. It returns nil and no
// error when there is none.
func (t target) lockExisting() (*os.File, error) {
	for range 100 {
		st, err := os.Lstat(t.real)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, t.notRegular(st.Mode())
		}
		f, err := os.OpenFile(t.real, openFlags, 0)
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
		if err := tryLock(f); err != nil {
			f.Close()
			if errors.Is(err, errLocked) {
				return nil, fmt.Errorf("%s is being written by another semibench run (it holds the file's lock): wait for that run to end, or choose another --out: %w", t.path, ErrInUse)
			}
			return nil, fmt.Errorf("locking %s: %w", t.path, err)
		}
		if now, err := os.Lstat(t.real); err == nil && os.SameFile(fst, now) {
			return f, nil
		}
		f.Close() // a new version took the name between open and lock
	}
	return nil, fmt.Errorf("%s keeps being replaced while it is opened", t.path)
}

// version is a complete new version of a result file, synced and locked,
// not yet in place.
type version struct {
	f    *os.File
	name string // its name in the folder; "" while it has none
}

// tempPrefix is the start of the temporary names of real's versions.
func tempPrefix(real string) string { return "." + filepath.Base(real) + ".tmp-" }

// isTemp reports whether name is a temporary name with the given prefix.
func isTemp(name, prefix string) bool {
	digits, ok := strings.CutPrefix(name, prefix)
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

// newVersion writes data into a new temporary beside real: anonymous where
// the system allows, else named. mode, when not zero, is set exactly (an
// existing file's mode is kept); otherwise the file is filePerm less the
// umask.
func newVersion(real string, data []byte, mode fs.FileMode) (*version, error) {
	v := &version{}
	var f *os.File
	var ok bool
	var err error
	if !namedTemps {
		f, ok, err = anonymousTemp(filepath.Dir(real), filePerm)
	}
	switch {
	case err != nil:
		return nil, err
	case ok:
		v.f = f
	default:
		if v.f, v.name, err = createNamed(real); err != nil {
			return nil, err
		}
	}
	// Locked before it can have a name, so the clean-up of stale
	// temporaries never takes it for a dead writer's.
	err = tryLock(v.f)
	if err == nil && mode != 0 {
		err = v.f.Chmod(mode)
	}
	if err == nil {
		_, err = v.f.Write(data)
	}
	if err == nil {
		err = v.f.Sync()
	}
	if err != nil {
		v.discard()
		return nil, err
	}
	return v, nil
}

// createNamed creates a temporary with a fresh name beside real.
func createNamed(real string) (*os.File, string, error) {
	prefix := filepath.Join(filepath.Dir(real), tempPrefix(real))
	for range 1000 {
		name := prefix + strconv.FormatUint(rand.Uint64(), 10)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, filePerm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("no free temporary name %s*", prefix)
}

// install puts v at real. With replace it renames v over the file there;
// without, it gives v the name only if nothing has it (a file created
// meanwhile by another writer is never replaced).
func (v *version) install(real string, replace bool) error {
	if !replace {
		if v.name == "" {
			return linkAnonymous(v.f, real)
		}
		if err := os.Link(v.name, real); err != nil {
			return err
		}
		os.Remove(v.name)
		v.name = ""
		return nil
	}
	if v.name == "" {
		prefix := filepath.Join(filepath.Dir(real), tempPrefix(real))
		for {
			name := prefix + strconv.FormatUint(rand.Uint64(), 10)
			err := linkAnonymous(v.f, name)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return err
			}
			v.name = name
			break
		}
	}
	if err := os.Rename(v.name, real); err != nil {
		return err
	}
	v.name = ""
	return nil
}

// discard closes v and removes its name, if it has one.
func (v *version) discard() {
	v.f.Close()
	if v.name != "" {
		os.Remove(v.name)
	}
}

// replace makes data the file's next version and returns it, locked. cur
// is the version in place (locked), or nil when there is no file yet; it is
// closed, dropping its lock, once the new version holds the name.
func (t target) replace(cur *os.File, data []byte) (*os.File, error) {
	var mode fs.FileMode
	if cur != nil {
		st, err := cur.Stat()
		if err != nil {
			return nil, fmt.Errorf("writing %s: %w", t.path, err)
		}
		mode = st.Mode().Perm()
	}
	v, err := newVersion(t.real, data, mode)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", t.path, err)
	}
	if err := v.install(t.real, cur != nil); err != nil {
		v.discard()
		if cur == nil && errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s was created by another process while this one created it: choose another --out: %w", t.path, ErrInUse)
		}
		return nil, fmt.Errorf("writing %s: %w", t.path, err)
	}
	syncDir(filepath.Dir(t.real))
	if cur != nil {
		cur.Close()
	}
	return v.f, nil
}

// syncDir makes a rename in dir durable. It is best effort: some file
// systems cannot sync a folder, and the rename is atomic either way.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// removeStale removes the temporaries of real that no live writer holds:
// those of writers killed between naming a version and renaming it. The
// caller holds real's lock (or there is no file), so a temporary that is
// not locked has no writer.
func removeStale(real string) {
	dir, prefix := filepath.Dir(real), tempPrefix(real)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTemp(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(p, openFlags, 0)
		if err != nil {
			continue
		}
		if tryLock(f) == nil {
			os.Remove(p)
		}
		f.Close()
	}
}

// openTarget resolves path, makes its folder, takes the lock of the file there
// (nil when there is none) and removes stale temporaries.
func openTarget(path string) (target, *os.File, error) {
	t, err := resolve(path)
	if err != nil {
		return t, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(t.real), 0o755); err != nil {
		return t, nil, err
	}
	cur, err := t.lockExisting()
	if err != nil {
		return t, nil, err
	}
	removeStale(t.real)
	return t, cur, nil
}

// WriteFile writes f to path atomically, replacing any result file there:
// a reader sees the old or the new file, never a torn one. It follows a
// symlink, keeps an existing file's mode (new files are 0644 less the
// umask), refuses a path that is not a regular file (ErrNotRegular) and one
// that an Appender holds (ErrInUse).
func WriteFile(path string, f *File) error {
	data, err := encodeFile(f)
	if err != nil {
		return err
	}
	t, cur, err := openTarget(path)
	if err != nil {
		return err
	}
	next, err := t.replace(cur, data)
	if err != nil {
		if cur != nil {
			cur.Close()
		}
		return err
	}
	return next.Close()
}

// Appender owns a result file during a run and rewrites it atomically after
// every record, so an interrupted run keeps every finished cell. It holds
// the file's lock from NewAppender to Close (or the process's end).
type Appender struct {
	mu   sync.Mutex
	t    target
	file *File
	lock *os.File // the version in place, locked; nil after Close
}

// NewAppender opens the result file at path for a run.
//
// When there is no file, it creates one (mode 0644 less the umask) holding
// f's header and any records f has, at once, so the path is claimed early.
//
// When there is one, it must be a measured result file of the same schema
// version and machine label: its header and records are kept, a note
// records this run (build, scale, start), and new records follow the old.
// Any other file (a damaged one, another tool's, a paper's transcription,
// another machine's or schema's) is refused (ErrIncompatible), unchanged,
// with a message naming the file, what differs, and how to choose (another
// --out, or moving the file away).
//
// It refuses a path that is not a regular file (ErrNotRegular) and a file
// another Appender holds (ErrInUse). A symlink is followed: the file it
// points to is written and the link stays.
func NewAppender(path string, f *File) (*Appender, error) {
	if f.Schema == 0 {
		f.Schema = SchemaVersion
	}
	if f.Records == nil {
		f.Records = []Record{}
	}
	t, cur, err := openTarget(path)
	if err != nil {
		return nil, err
	}
	a := &Appender{t: t}
	if cur == nil {
		data, err := encodeFile(f)
		if err == nil {
			a.lock, err = t.replace(nil, data)
		}
		if err != nil {
			return nil, err
		}
		a.file = f
		return a, nil
	}
	old, err := readLocked(cur, t, f)
	if err != nil {
		cur.Close()
		return nil, err
	}
	note := appendNote(f)
	if k := f.Machine.CPUKernel; k != "" && k != old.Machine.CPUKernel {
		// The header keeps the first run's machine; say which kernel the
		// appended records ran with, so they are not read as the header's.
		note = strings.TrimSuffix(note, ".") + fmt.Sprintf("; its CPU kernels: %s (the header's: %s).", k, cmpOr(old.Machine.CPUKernel, "not recorded"))
	}
	if !slices.Contains(old.Notes, note) {
		old.Notes = append(old.Notes, note)
	}
	old.Records = append(old.Records, f.Records...)
	a.file, a.lock = old, cur
	if len(f.Records) > 0 {
		if err := a.write(); err != nil {
			cur.Close()
			return nil, err
		}
	}
	return a, nil
}

// readLocked reads the locked file in place and checks that records of f's
// header may join it.
func readLocked(cur *os.File, t target, f *File) (*File, error) {
	data, err := io.ReadAll(cur)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", t.path, err)
	}
	const choose = "it was left unchanged: choose a new --out, or move the file away"
	old, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; %s: %w", t.path, err, choose, ErrIncompatible)
	}
	switch {
	case old.Source != "":
		return nil, fmt.Errorf("%s is a paper's transcription (%s), not a run; %s: %w", t.path, old.Source, choose, ErrIncompatible)
	case old.Schema != f.Schema:
		return nil, fmt.Errorf("%s holds records of schema %d and this run writes schema %d, which cannot share a file; %s: %w", t.path, old.Schema, f.Schema, choose, ErrIncompatible)
	case old.Machine.Label != f.Machine.Label:
		return nil, fmt.Errorf("%s holds records of machine %q and this is machine %q; a result file holds one machine's records: %s: %w", t.path, old.Machine.Label, f.Machine.Label, choose, ErrIncompatible)
	}
	return old, nil
}

// cmpOr returns s, or alt when s is empty.
func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// appendNote describes a run that appends to an existing file.
func appendNote(f *File) string {
	s := "Records appended by a later run"
	if !f.Started.IsZero() {
		s += " started " + f.Started.UTC().Format(time.RFC3339)
	}
	var about []string
	if f.Semibench.Version != "" {
		b := "semibench " + f.Semibench.Version
		if f.Semibench.Commit != "" {
			b += " (" + f.Semibench.Commit + ")"
		}
		about = append(about, b)
	}
	if f.Scale != "" {
		about = append(about, "scale "+f.Scale)
	}
	if len(about) > 0 {
		s += ": " + strings.Join(about, ", ")
	}
	return s + "."
}

// write replaces the file with a.file.
func (a *Appender) write() error {
	data, err := encodeFile(a.file)
	if err != nil {
		return err
	}
	next, err := a.t.replace(a.lock, data)
	if err != nil {
		return err
	}
	a.lock = next
	return nil
}

// Append adds one record and rewrites the file. When the file cannot be
// written the record is not kept, and the file holds the records before it.
func (a *Appender) Append(r Record) error { return a.AppendAll([]Record{r}) }

// AppendAll adds records and rewrites the file once: for many records
// decided together (cells skipped because the budget is spent, cells
// unavailable on this machine), where one rewrite per record would cost
// time quadratic in the file's size.
func (a *Appender) AppendAll(rs []Record) error {
	if len(rs) == 0 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lock == nil {
		return fmt.Errorf("writing %s: the result file was closed", a.t.path)
	}
	n := len(a.file.Records)
	a.file.Records = append(a.file.Records, rs...)
	if err := a.write(); err != nil {
		a.file.Records = a.file.Records[:n]
		return err
	}
	return nil
}

// Close drops the file's lock; later Appends fail. It may be called more
// than once.
func (a *Appender) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lock == nil {
		return nil
	}
	err := a.lock.Close()
	a.lock = nil
	return err
}

// AddNotes adds to the file's header each note it does not hold yet; they
// are written with the next Append.
func (a *Appender) AddNotes(notes ...string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, n := range notes {
		if !slices.Contains(a.file.Notes, n) {
			a.file.Notes = append(a.file.Notes, n)
		}
	}
}

// File returns the file as written so far.
func (a *Appender) File() *File { return a.file }
