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
//
// The versions, temporaries and locks are package internal/outfile's, which
// every command that writes a file shares; the lock hand-over between
// versions is the Appender's own.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/semibench/semibench/internal/outfile"
)

// ErrInUse is returned when another writer (another Appender, in this
// process or another) holds the result file.
var ErrInUse = outfile.ErrInUse

// ErrNotRegular is returned for a result path that names a directory, a
// FIFO, a device or anything else that is not a regular file.
var ErrNotRegular = outfile.ErrNotRegular

// ErrIncompatible is returned for an existing result path whose file
// records of this run may not join: not a result file, damaged, a paper's
// transcription, or another machine's or schema version's.
var ErrIncompatible = errors.New("existing file cannot be appended to")

// advice ends the message refusing a result path that cannot be written.
const advice = "a result file is replaced on every record; give --out the name of a regular file"

// target is where a result file is written.
type target struct{ outfile.Target }

// replace makes data the file's next version and returns it, locked. cur
// is the version in place (locked), or nil when there is no file yet; it is
// closed, dropping its lock, once the new version holds the name.
func (t target) replace(cur *os.File, data []byte) (*os.File, error) {
	var mode fs.FileMode
	if cur != nil {
		st, err := cur.Stat()
		if err != nil {
			return nil, fmt.Errorf("writing %s: %w", t.Path, err)
		}
		mode = st.Mode().Perm()
	}
	v, err := outfile.NewVersion(t.Real, mode)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", t.Path, err)
	}
	if _, err = v.File().Write(data); err == nil {
		err = v.Install(cur != nil)
	}
	if err != nil {
		v.Discard()
		if cur == nil && errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s was created by another process while this one created it: choose another --out: %w", t.Path, ErrInUse)
		}
		return nil, fmt.Errorf("writing %s: %w", t.Path, err)
	}
	if cur != nil {
		cur.Close()
	}
	return v.File(), nil
}

// openTarget resolves path, makes its folder, takes the lock of the file there
// (nil when there is none) and removes stale temporaries.
func openTarget(path string) (target, *os.File, error) {
	ot, err := outfile.Resolve(path, advice)
	t := target{ot}
	if err != nil {
		return t, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(t.Real), 0o755); err != nil {
		return t, nil, err
	}
	cur, err := t.LockExisting()
	if err != nil {
		return t, nil, err
	}
	outfile.RemoveStale(t.Real)
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
// another machine's, scale's or schema's) is refused (ErrIncompatible), unchanged,
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
	const choose = "it was left unchanged: choose a new --out, or move the file away"
	old, err := decodeFrom(cur)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; %s: %w", t.Path, err, choose, ErrIncompatible)
	}
	switch {
	case old.Source != "":
		return nil, fmt.Errorf("%s is a paper's transcription (%s), not a run; %s: %w", t.Path, old.Source, choose, ErrIncompatible)
	case old.Schema != f.Schema:
		return nil, fmt.Errorf("%s holds records of schema %d and this run writes schema %d, which cannot share a file; %s: %w", t.Path, old.Schema, f.Schema, choose, ErrIncompatible)
	case old.Machine.Label != f.Machine.Label:
		return nil, fmt.Errorf("%s holds records of machine %q and this is machine %q; a result file holds one machine's records: %s: %w", t.Path, old.Machine.Label, f.Machine.Label, choose, ErrIncompatible)
	case old.Scale != "" && f.Scale != "" && old.Scale != f.Scale:
		return nil, fmt.Errorf("%s holds records of scale %s (its header says so) and this run is scale %s; a result file holds one scale's records: %s: %w", t.Path, old.Scale, f.Scale, choose, ErrIncompatible)
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
		return fmt.Errorf("writing %s: the result file was closed", a.t.Path)
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
