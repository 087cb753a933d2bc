package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// ReadFile reads and validates a result file. Errors name the file and, for
// malformed JSON, the line.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Decode parses and validates a result file's bytes.
func Decode(data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("line %d: %w", lineOf(data, se.Offset), err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("line %d: %w", lineOf(data, te.Offset), err)
		}
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return &f, nil
}

func lineOf(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// WriteFile writes f atomically: to a temporary file in the same folder,
// synced, then renamed over path, so a reader sees the old or the new file
// and never a torn one.
func WriteFile(path string, f *File) error {
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Appender owns a result file during a run and rewrites it atomically after
// every record, so an interrupted run keeps every finished cell.
type Appender struct {
	mu   sync.Mutex
	path string
	file *File
}

// NewAppender starts a result file at path holding f's header (and any
// records f already has), writing it at once so the path is claimed early.
func NewAppender(path string, f *File) (*Appender, error) {
	if f.Schema == 0 {
		f.Schema = SchemaVersion
	}
	if f.Records == nil {
		f.Records = []Record{}
	}
	a := &Appender{path: path, file: f}
	if err := WriteFile(path, f); err != nil {
		return nil, err
	}
	return a, nil
}

// Append adds one record and rewrites the file.
func (a *Appender) Append(r Record) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.file.Records = append(a.file.Records, r)
	if err := WriteFile(a.path, a.file); err != nil {
		return fmt.Errorf("writing %s: %w", a.path, err)
	}
	return nil
}

// File returns the file as written so far.
func (a *Appender) File() *File { return a.file }

// Path returns where the file is written.
func (a *Appender) Path() string { return a.path }

// Merge combines files of one machine into one: the header of the first,
// every record in order, a later record replacing an earlier one of the same
// key (a re-run of a cell supersedes it).
func Merge(files ...*File) (*File, error) {
	if len(files) == 0 {
		return nil, errors.New("merge: no files")
	}
	out := *files[0]
	out.Records = nil
	index := map[string]int{}
	for _, f := range files {
		if f.Machine.Label != files[0].Machine.Label {
			return nil, fmt.Errorf("merge: machine %q differs from %q", f.Machine.Label, files[0].Machine.Label)
		}
		for _, r := range f.Records {
			if i, ok := index[r.Key()]; ok {
				out.Records[i] = r
				continue
			}
			index[r.Key()] = len(out.Records)
			out.Records = append(out.Records, r)
		}
	}
	return &out, nil
}
