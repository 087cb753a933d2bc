package bench

// Writing result files without ever losing a record: a schema-3 file only
// grows. The Appender opens it with O_APPEND, writes the header line when
// the file is new (or empty), then each batch of records as whole lines in
// one write, synced before Append returns. A crash can only tear the last
// line, which readers drop with a warning (File.Torn) and the next
// Appender cuts off before it appends. The Appender holds the file's flock
// from NewAppender to Close (outfile's Target.OpenAppend): a second writer
// is refused (ErrInUse), so lines never interleave, and the kernel drops a
// killed writer's lock.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/semibench/semibench/internal/outfile"
)

// ErrIncompatible is returned for an existing result path whose file
// records of this run may not join: not a result file, damaged, of an
// older schema, a paper's transcription, or another machine's or scale's.
var ErrIncompatible = errors.New("existing file cannot be appended to")

// advice ends the message refusing a result path that cannot be written.
const advice = "a result file grows record by record; give --out the name of a regular file"

// Appender owns a result file during a run and appends each record to it
// as a line, so an interrupted run keeps every finished cell. It holds the
// file's lock from NewAppender to Close (or the process's end).
type Appender struct {
	mu    sync.Mutex
	path  string
	w     *os.File // O_APPEND, locked; nil after Close
	size  int64    // the bytes of whole lines written
	file  *File
	notes []string // notes to write before the next records
	// later is the note of a run appending to an existing file, and
	// wrote whether this Appender has written a line: a run that appends
	// nothing (a --resume with nothing left to do) leaves the file as it
	// was, its note unwritten.
	later string
	wrote bool
}

// NewAppender opens the result file at path for a run, making its folder.
//
// When there is no file (or an empty one), it writes f's header line and
// any records f has at once, claiming the path. When there is one, it must be a measured schema-3 file of the same
// machine label and scale: its records are kept, a note records this run
// (build, scale, start), and new records follow the old. A torn last line
// (an interrupted writer's) is cut off first. Any other file (a damaged
// one, another tool's, one of schema 1 or 2, a paper's transcription,
// another machine's or scale's) is refused (ErrIncompatible), unchanged,
// with a message naming the file, what differs, and what to do.
//
// It refuses a path that is not a regular file (ErrNotRegular) and a file
// another Appender holds (ErrInUse). A symlink is followed: the file it
// points to is written and the link stays.
func NewAppender(path string, f *File) (*Appender, error) {
	f.Schema = SchemaVersion
	if f.Protocol == 0 {
		f.Protocol = ProtocolVersion
	}
	if f.Records == nil {
		f.Records = []Record{}
	}
	t, err := outfile.Resolve(path, advice)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(t.Real), 0o755)
	}
	a := &Appender{path: path}
	if err == nil {
		a.w, err = t.OpenAppend()
	}
	if err == nil {
		if err = a.open(f); err != nil {
			a.w.Close()
		}
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// open reads the file a.w holds and prepares to append f's records to it.
func (a *Appender) open(f *File) error {
	st, err := a.w.Stat()
	if err != nil {
		return err
	}
	if st.Size() == 0 {
		head := *f
		head.Records = []Record{}
		a.file = &head
		var buf bytes.Buffer
		if err = headerLine(&buf, f); err == nil {
			err = a.write(buf.Bytes(), f.Records)
		}
		outfile.SyncDir(filepath.Dir(a.w.Name()))
		return err
	}
	old, err := a.readCompatible(f, st.Size())
	if err != nil {
		return err
	}
	a.size = st.Size()
	if old.Torn != nil {
		slog.Warn(fmt.Sprintf("%s:%d: %v; cut off before appending", a.path, old.Torn.Line, old.Torn))
		if err := a.w.Truncate(old.Torn.Offset); err != nil {
			return fmt.Errorf("%s: cutting off its torn last line: %w", a.path, err)
		}
		a.size, old.Torn = old.Torn.Offset, nil
	}
	var prefix []byte // a newline after a header line written without one
	b := make([]byte, 1)
	if a.w.ReadAt(b, a.size-1); b[0] != '\n' {
		prefix = []byte{'\n'} // (a read that failed adds a blank line, which readers skip)
	}
	note := appendNote(f, old)
	a.file, a.notes, a.later = old, old.addNotes([]string{note}), note
	if len(f.Records) > 0 || len(prefix) > 0 {
		return a.write(prefix, f.Records)
	}
	return nil
}

// readCompatible reads the file a.w holds (size bytes) and checks that
// records of f's header may join it.
func (a *Appender) readCompatible(f *File, size int64) (*File, error) {
	const choose = "it was left unchanged: choose a new --out, or move the file away"
	old, err := decodeFrom(io.NewSectionReader(a.w, 0, size))
	p := a.path
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w; %s: %w", p, err, choose, ErrIncompatible)
	case old.Source != "":
		return nil, fmt.Errorf("%s is a paper's transcription (%s), not a run; %s: %w", p, old.Source, choose, ErrIncompatible)
	case old.Schema != SchemaVersion:
		return nil, fmt.Errorf("%s is a schema-%d file (one JSON document) and this semibench appends to schema-%d files (JSON Lines) only: `semibench convert %s` writes its schema-%d twin, to append to; or %s: %w",
			p, old.Schema, SchemaVersion, p, SchemaVersion, choose, ErrIncompatible)
	case old.TimingProtocol() != f.TimingProtocol():
		return nil, fmt.Errorf("%s holds records of timing protocol %d and this run measures protocol %d, which cannot share a file; %s: %w", p, old.TimingProtocol(), f.TimingProtocol(), choose, ErrIncompatible)
	default:
		if why := Unjoinable(old, f); why != "" {
			return nil, fmt.Errorf("%s %s; a result file holds one run's records: %s: %w", p, why, choose, ErrIncompatible)
		}
	}
	return old, nil
}

// Unjoinable says why records of the run whose header is f may not join
// the result file old (one run per file: the same build, machine and
// scale, and one generator seed where both headers name one), in words
// that follow the file's name; "" when they may. An
// append and a --resume refuse a file with the same words.
func Unjoinable(old, f *File) string {
	switch {
	case !old.Semibench.Same(f.Semibench):
		return fmt.Sprintf("was written by %s, and this binary is %s: its records would mix two versions of the code", old.Semibench, f.Semibench)
	case !old.Machine.Same(f.Machine):
		return fmt.Sprintf("was measured on machine %s, and this is machine %s", old.Machine, f.Machine)
	case old.Scale != f.Scale:
		return fmt.Sprintf("holds records of scale %s (its header says so), and this run is scale %s", cmp.Or(old.Scale, "none"), cmp.Or(f.Scale, "none"))
	}
	if old.Seed != 0 && f.Seed != 0 && old.Seed != f.Seed {
		return fmt.Sprintf("holds records of generator seed %d, and this run's is seed %d: its inputs would differ from theirs", old.Seed, f.Seed)
	}
	return ""
}

// appendNote describes a run that appends to old: its start, build and
// scale, and its CPU kernels where they are not the header's (the header
// keeps the first run's machine).
func appendNote(f, old *File) string {
	s := "Records appended by a later run"
	if !f.Started.IsZero() {
		s += " started " + f.Started.UTC().Format(time.RFC3339)
	}
	about := []string{"semibench " + cmp.Or(f.Semibench.Version, "of no version") + ", " + f.Semibench.String()}
	if f.Scale != "" {
		about = append(about, "scale "+f.Scale)
	}
	if f.Seed != 0 {
		about = append(about, fmt.Sprintf("seed %d", f.Seed))
	}
	if len(about) > 0 {
		s += ": " + strings.Join(about, ", ")
	}
	if k := f.Machine.CPUKernel; k != "" && k != old.Machine.CPUKernel {
		s += fmt.Sprintf("; its CPU kernels: %s (the header's: %s)", k, cmp.Or(old.Machine.CPUKernel, "not recorded"))
	}
	return s + "."
}

// write appends prefix, the pending notes and rs as lines in one write,
// syncs, and adds rs to a.file. On failure it cuts the file back to the
// lines before, and keeps nothing of rs.
func (a *Appender) write(prefix []byte, rs []Record) error {
	buf := bytes.NewBuffer(prefix)
	if len(a.notes) > 0 {
		if err := marshalLine(buf, notesLine{a.notes}); err != nil {
			return err
		}
	}
	for i := range rs {
		if err := marshalLine(buf, &rs[i]); err != nil {
			return err
		}
	}
	_, err := a.w.Write(buf.Bytes())
	if err == nil {
		err = a.w.Sync()
	}
	if err != nil {
		a.w.Truncate(a.size)
		return fmt.Errorf("writing %s: %w", a.path, err)
	}
	a.size += int64(buf.Len())
	a.wrote = a.wrote || buf.Len() > 0
	a.notes = nil
	a.file.Records = append(a.file.Records, rs...)
	return nil
}

// Append adds one record to the file. When the file cannot be written the
// record is not kept, and the file holds the records before it.
func (a *Appender) Append(r Record) error { return a.AppendAll([]Record{r}) }

// AppendAll adds records in one write and one sync: for many records
// decided together (cells skipped because the budget is spent, cells
// unavailable on this machine).
func (a *Appender) AppendAll(rs []Record) error {
	if len(rs) == 0 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.w == nil {
		return fmt.Errorf("writing %s: the result file was closed", a.path)
	}
	return a.write(nil, rs)
}

// Close writes the notes still pending (added after the last Append) and
// drops the file's lock; later Appends fail. It may be called more than
// once.
func (a *Appender) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.w == nil {
		return nil
	}
	var err error
	if len(a.notes) > 0 && (a.wrote || len(a.notes) > 1 || a.notes[0] != a.later) {
		err = a.write(nil, nil)
	}
	err = errors.Join(err, a.w.Close())
	a.w = nil
	return err
}

// AddNotes adds to the file's header each note it does not hold yet; they
// are written, as a notes line, with the next Append.
func (a *Appender) AddNotes(notes ...string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.notes = append(a.notes, a.file.addNotes(notes)...)
}

// File returns the file as written so far.
func (a *Appender) File() *File { return a.file }
