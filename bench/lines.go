package bench

// Schema 3: JSON Lines. Line 1 is the header, the File's fields without
// "records" (and with "protocol"); every later line is one record, the
// same object as in the "records" array of schema 2, or a notes line
// {"notes": [...]} that adds notes to the header (a run appending to a
// file says so that way, since line 1 is never rewritten). A line ends
// with a newline; a writer appends whole lines, so a crash can only leave
// the last line torn.

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/semibench/semibench/bench/internal/bounded"
	"github.com/semibench/semibench/internal/outfile"
)

// Torn is the last line of a schema-3 file that was dropped on reading:
// it has no newline, or is not JSON, as an interrupted writer leaves it.
type Torn struct {
	Line   int    // its line number, 1-based
	Offset int64  // where it starts: the bytes before it are the records kept
	Bytes  int    // its length
	Why    string // "has no newline" or the JSON error
	Kept   int    // the records before it
}

// Error says what was dropped and what was kept.
func (t *Torn) Error() string {
	return fmt.Sprintf("the last line (%d bytes) is torn, as an interrupted write leaves it (%s): dropped; the %d record(s) before it are kept",
		t.Bytes, t.Why, t.Kept)
}

// errLineTooLong is readLine's answer for a line beyond its limit.
var errLineTooLong = fmt.Errorf("line too long: %w", ErrTooLarge)

// readLine reads one line, its newline included, holding at most limit+1
// bytes of it: longer is errLineTooLong (with what was read). io.EOF
// means the line has no newline (and may be empty).
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return line, errLineTooLong
		}
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// notesLine is a line adding notes to the header.
type notesLine struct {
	Notes []string `json:"notes"`
}

// notesPrefix starts a notes line as the writer writes it.
const notesPrefix = `{"notes":`

// decodeLines parses and validates a schema-3 file: the header line
// first, then the lines br holds. A bad line is an error naming it, except
// the last one, which is dropped as torn (File.Torn).
func decodeLines(first []byte, br *bufio.Reader) (*File, error) {
	f := &File{}
	if err := strictDecode(first, f); err != nil {
		return nil, fmt.Errorf("line 1 (the header): %w", err)
	}
	if err := cmp.Or(f.validateHeader(), f.checkHeader()); err != nil {
		return nil, fmt.Errorf("line 1 (the header): %w", err)
	}
	if f.Records != nil {
		return nil, errors.New("line 1 (the header): holds \"records\"; in schema 3 each record is a line of its own")
	}
	f.Records = []Record{}
	offset := int64(len(first))
	var bad *Torn // a line that is not JSON: torn if nothing follows
	for n := 2; ; n++ {
		data, err := readLine(br, MaxRecordBytes)
		switch {
		case errors.Is(err, ErrTooLarge):
			return nil, fmt.Errorf("line %d: larger than %d MiB, the most a record may hold (a damaged file?): %w", n, MaxRecordBytes>>20, err)
		case err != nil && err != io.EOF:
			return nil, err
		case offset+int64(len(data)) > bounded.MaxFile:
			return nil, fmt.Errorf("larger than %d MiB, the most a result file may hold: %w", bounded.MaxFile>>20, ErrTooLarge)
		}
		body := bytes.TrimSpace(data)
		if len(body) > 0 && bad != nil {
			return nil, fmt.Errorf("line %d: %s", bad.Line, bad.Why)
		}
		switch {
		case len(body) == 0:
		case err == io.EOF:
			bad = &Torn{Line: n, Offset: offset, Bytes: len(data), Why: "it has no newline"}
		case !json.Valid(body):
			var v any
			bad = &Torn{Line: n, Offset: offset, Bytes: len(data), Why: "not JSON: " + json.Unmarshal(body, &v).Error()}
		default:
			if err := f.addLine(body, n); err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
		}
		offset += int64(len(data))
		if err == io.EOF {
			break
		}
	}
	if bad != nil {
		bad.Kept = len(f.Records)
		f.Torn = bad
	}
	return f, nil
}

// addLine adds a record line or a notes line, line n of the file, to f.
func (f *File) addLine(body []byte, n int) error {
	if bytes.HasPrefix(body, []byte(notesPrefix)) {
		var n notesLine
		if err := strictDecode(body, &n); err != nil {
			return err
		}
		f.addNotes(n.Notes)
		return nil
	}
	var r Record
	if err := strictDecode(body, &r); err != nil {
		return err
	}
	if err := checkRecord(len(f.Records), &r); err != nil {
		return err
	}
	f.Records = append(f.Records, r)
	f.lines = append(f.lines, n)
	return nil
}

// addNotes adds each note f does not hold yet, and returns those.
func (f *File) addNotes(notes []string) []string {
	var added []string
	for _, n := range notes {
		if !slices.Contains(f.Notes, n) {
			f.Notes = append(f.Notes, n)
			added = append(added, n)
		}
	}
	return added
}

// strictDecode decodes one JSON value into v, refusing unknown fields.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// marshalLine renders v as one line of JSON, newline included.
func marshalLine(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// headerLine renders f's header as schema 3 writes it.
func headerLine(buf *bytes.Buffer, f *File) error {
	h := *f
	h.Schema, h.Protocol, h.Records, h.Torn = SchemaVersion, f.TimingProtocol(), nil, nil
	return marshalLine(buf, &h)
}

// Encode renders f as a schema-3 file: the header line, then a line per
// record. A file read from schema 1 or 2 keeps its timing protocol.
func Encode(f *File) ([]byte, error) {
	var buf bytes.Buffer
	if err := headerLine(&buf, f); err != nil {
		return nil, err
	}
	for i := range f.Records {
		if err := marshalLine(&buf, &f.Records[i]); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// ErrInUse is returned when another writer (another Appender, in this
// process or another) holds the result file.
var ErrInUse = outfile.ErrInUse

// ErrNotRegular is returned for a result path that names a directory, a
// FIFO, a device or anything else that is not a regular file.
var ErrNotRegular = outfile.ErrNotRegular

// WriteFile writes f to path as a schema-3 file, through internal/outfile:
// a reader sees the old file or the new one, never a torn one. It follows
// a symlink, keeps an existing file's mode, refuses a path that is not a
// regular file (ErrNotRegular) and one that an Appender holds (ErrInUse).
func WriteFile(path string, f *File) error { return WriteFileContext(context.Background(), path, f) }

// WriteFileContext is WriteFile that leaves the target as it was when ctx
// is done before the new file is in place.
func WriteFileContext(ctx context.Context, path string, f *File) error {
	data, err := Encode(f)
	if err != nil {
		return err
	}
	return outfile.Write(ctx, path, func(w *bufio.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
