package bench

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench/internal/bounded"
)

// ReadFile reads and validates a result file of any schema (1 and 2: one
// JSON document; 3: JSON Lines, see decodeLines). Errors name the file and
// say what is wrong: empty, truncated, not a semibench result file
// (another JSON document, or no JSON at all: /dev/zero is refused at its
// first byte), malformed at a line, beyond the size limits (MaxFileBytes,
// MaxRecordBytes, MaxHeaderBytes: ErrTooLarge, found before the bytes are
// held), or a record whose times are invalid (File.Validate). A torn last
// line of a schema-3 file is no error: it is dropped with a warning
// naming the file and line (File.Torn), and the records before it kept.
// A gzipped file (a committed run kept compressed) is read through gzip,
// within the same limits on what it holds; a gzip stream cut short is
// named as such, and of a schema-3 file the whole records before the cut
// are kept, as of a plain file cut short.
func ReadFile(path string) (*File, error) { return ReadFileContext(context.Background(), path) }

// ReadFileContext is ReadFile that stops when ctx is done: a read from a
// slow input (a pipe, a FIFO) returns ctx's error within a second, and so
// does a wait for such an input to open.
func ReadFileContext(ctx context.Context, path string) (*File, error) {
	type opened struct {
		r   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		r, err := os.Open(path) // a FIFO without a writer blocks here
		ch <- opened{r, err}
	}()
	var r *os.File
	select {
	case o := <-ch:
		if o.err != nil {
			return nil, o.err
		}
		r = o.r
	case <-ctx.Done():
		go func() { // close what opens late
			if o := <-ch; o.r != nil {
				o.r.Close()
			}
		}()
		return nil, fmt.Errorf("%s: interrupted while opening it: %w", path, ctx.Err())
	}
	defer r.Close()
	stop := context.AfterFunc(ctx, func() { r.SetReadDeadline(time.Unix(1, 0)) }) // wakes a read from a pipe
	defer stop()
	in, err := gunzipped(ctxReader{ctx, r})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := decodeFrom(in)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: interrupted while reading it: %w", path, ctx.Err())
	}
	cut := gzipCut(in)
	if err != nil && cut != "" {
		return nil, fmt.Errorf("%s: %s: %w", path, cut, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case cut != "" && f.Torn != nil:
		slog.Warn(fmt.Sprintf("%s: %s; line %d, the line it cuts (%d bytes), is dropped; the %d whole record(s) before it are kept", path, cut, f.Torn.Line, f.Torn.Bytes, f.Torn.Kept))
	case cut != "":
		slog.Warn(fmt.Sprintf("%s: %s; it cuts no line: the %d record(s) before the cut are kept", path, cut, len(f.Records)))
	case f.Torn != nil:
		slog.Warn(fmt.Sprintf("%s:%d: %v", path, f.Torn.Line, f.Torn))
	}
	return f, nil
}

// ctxReader fails every read once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// decodeFrom reads a result file from r within the size limits and
// decodes it: a first line that is a whole JSON object of schema 3 or
// later starts JSON Lines; anything else is read as one document.
func decodeFrom(r io.Reader) (*File, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	first, err := readLine(br, MaxHeaderBytes)
	if err != nil && err != io.EOF && !errors.Is(err, ErrTooLarge) {
		return nil, err
	}
	if err == nil || err == io.EOF {
		var h struct {
			Schema     *int   `json:"schema"`
			Experiment string `json:"experiment"`
		}
		line := bytes.TrimSpace(first)
		if len(line) > 0 && line[0] == '{' && json.Unmarshal(line, &h) == nil {
			switch {
			case h.Schema != nil && *h.Schema >= 3:
				return decodeLines(first, br)
			case err == io.EOF || !moreLines(br):
				// one JSON document on one line: decodeDocument says what it is
			case h.Schema == nil && h.Experiment != "":
				return nil, fmt.Errorf("line 1: a record (experiment %q) where the header belongs: the file has no header line (schema, machine, build, scale, start)", h.Experiment)
			case h.Schema == nil:
				return nil, errors.New("line 1: the header has no \"schema\" (a result file's first line is its header: schema, machine, build, scale, start)")
			default:
				return nil, fmt.Errorf("line 1: the header says schema %d, and only schema %d or later is JSON Lines (a header line, then a record a line); a schema-%d file is one JSON document, which `semibench convert FILE` turns into schema %d", *h.Schema, SchemaVersion, *h.Schema, SchemaVersion)
			}
		}
	}
	data, err := bounded.Read(io.MultiReader(bytes.NewReader(first), br))
	if err != nil {
		return nil, err
	}
	return decodeDocument(data)
}

// moreLines reports whether br holds more than white space within the
// next 64 KiB (a first line that is a whole JSON object followed by more
// lines is a JSON Lines header).
func moreLines(br *bufio.Reader) bool {
	ahead, _ := br.Peek(br.Size())
	return len(bytes.TrimSpace(ahead)) > 0
}

// ErrNotResultFile marks data that is not a semibench result file at all
// (empty, not JSON, a JSON value other than an object, or an object without
// the result file's fields), as opposed to a result file that is damaged.
var ErrNotResultFile = errors.New("not a semibench result file")

// Decode parses and validates a result file's bytes, of any schema, as
// ReadFile does.
func Decode(data []byte) (*File, error) { return decodeFrom(bytes.NewReader(data)) }

// decodeDocument parses and validates a file of schema 1 or 2: one JSON
// object holding the header's fields and "records".
func decodeDocument(data []byte) (*File, error) {
	if err := checkShape(data); err != nil {
		return nil, err
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("truncated: the JSON stops at line %d (after %d bytes) before the result file ends (a cut-off copy, a full disk?): %w",
				lineOf(data, int64(len(data))), len(data), err)
		case errors.As(err, &se):
			return nil, fmt.Errorf("line %d: %w", lineOf(data, se.Offset), err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("line %d: %w", lineOf(data, te.Offset), err)
		}
		return nil, err
	}
	if rest := dec.InputOffset(); len(bytes.TrimSpace(data[rest:])) > 0 {
		return nil, fmt.Errorf("line %d: data after the end of the result file (two files run together?)",
			lineOf(data, rest+int64(len(data[rest:])-len(bytes.TrimLeft(data[rest:], " \t\r\n")))))
	}
	if f.Schema >= 3 {
		return nil, fmt.Errorf("schema %d in one JSON document: a file of schema 3 or later is JSON Lines (a header line, then a record a line)", f.Schema)
	}
	if f.Protocol != 0 {
		return nil, fmt.Errorf("schema %d with a \"protocol\": only schema-3 headers name one", f.Schema)
	}
	if f.Records == nil {
		f.Records = []Record{}
	}
	if err := cmp.Or(f.validateHeader(), f.checkHeader()); err != nil {
		return nil, fmt.Errorf("the header: %w", err)
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return &f, nil
}

// checkShape tells a document that is no result file at all (empty, not
// JSON, another JSON value, another tool's object) from a damaged one, so
// the message says which. A result file is a JSON object with at least
// "schema" and "records".
func checkShape(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		if len(data) == 0 {
			return fmt.Errorf("empty (0 bytes): %w", ErrNotResultFile)
		}
		return fmt.Errorf("only white space (%d bytes): %w", len(data), ErrNotResultFile)
	}
	if trimmed[0] != '{' {
		what := "not JSON"
		if json.Valid(trimmed) {
			switch c := trimmed[0]; {
			case c == '[':
				what = "a JSON array"
			case c == '"':
				what = "a JSON string"
			case c == '-' || c >= '0' && c <= '9':
				what = "a JSON number"
			default:
				what = "a JSON true, false or null"
			}
		} else if trimmed[0] == '[' {
			what = "not a JSON object (it starts with '[')"
		} else {
			what = fmt.Sprintf("not JSON (it starts with %q)", firstLine(trimmed))
		}
		return fmt.Errorf("%s, and a result file is a JSON object with \"schema\" and \"records\": %w", what, ErrNotResultFile)
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(trimmed, &top) != nil {
		return nil // damaged; the full decode says where
	}
	var missing []string
	for _, k := range []string{"schema", "records"} {
		if _, ok := top[k]; !ok {
			missing = append(missing, `"`+k+`"`)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	fields := "no fields"
	if len(top) > 0 {
		fields = "fields " + strings.Join(keys, ", ")
	}
	if _, ok := top["experiment"]; ok {
		return fmt.Errorf("line 1: no header: the file starts with a record (%s), where a result file's first line is its header (schema, machine, build, scale, start): %w", fields, ErrNotResultFile)
	}
	return fmt.Errorf("a JSON object without %s (it has %s): %w", strings.Join(missing, " and "), fields, ErrNotResultFile)
}

// firstLine returns the start of data's first line, at most 20 bytes.
func firstLine(data []byte) string {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	if len(data) > 20 {
		data = data[:20]
	}
	return string(data)
}

func lineOf(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// Merge combines runs of one machine into one (MergeWith without names
// or options).
func Merge(files ...*File) (*File, error) { return MergeWith(MergeOptions{}, nil, files...) }

// MergeOptions are what a user may ask of a merge on purpose.
type MergeOptions struct {
	// AcrossBuilds lets runs of two builds of semibench join (the CLI's
	// --across-builds): by default they are refused, as an append refuses
	// them, for their records would mix two versions of the code.
	AcrossBuilds bool
}

// MergeWith combines files of one machine into one: the header of the
// first run (of the first file when all are peers files), every record in
// order, a later record replacing an earlier one of the same key (a
// re-run of a cell supersedes it). names, when not nil, are the files'
// names for messages.
//
// The files must pass the append's identity test against the first run
// (MergeRefusal): one machine (label, CPU, cores and GPUs, not the label
// alone), one scale, one timing protocol, one generator seed, and one
// build unless opt.AcrossBuilds. A peers file (IsPeers: published codes
// measured with any build, at no scale of ours) joins a run of its
// machine.
func MergeWith(opt MergeOptions, names []string, files ...*File) (*File, error) {
	if len(files) == 0 {
		return nil, errors.New("merge: no files")
	}
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("file %d", i+1)
	}
	h := 0
	if i := slices.IndexFunc(files, func(f *File) bool { return !f.IsPeers() }); i >= 0 {
		h = i
	}
	head := files[h]
	out := *head
	out.Records, out.Torn, out.lines, out.LeftOut = nil, nil, nil, nil
	index := map[string]int{}
	for i, f := range files {
		out.LeftOut = append(out.LeftOut, f.LeftOut...)
		if why := MergeRefusal(head, f, opt); why != "" {
			return nil, fmt.Errorf("merge: %s and %s: %s", name(h), name(i), why)
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

// MergeRefusal says why the records of f may not be read as one run with
// those of head (a run), in words that follow the two files' names (head's
// first); "" when they may. The test is the append's (Unjoinable), a peers
// file excepted from the build and scale, with opt.AcrossBuilds letting
// two builds join, and the timing protocol besides.
func MergeRefusal(head, f *File, opt MergeOptions) string {
	switch {
	case !f.Machine.Same(head.Machine):
		return fmt.Sprintf("the first was measured on machine %s, the second on %s: a table is one machine's (semibench compare sets two side by side)", head.Machine, f.Machine)
	case f.IsPeers():
		return "" // any build, no scale: the published codes, measured here
	case !f.Semibench.Same(head.Semibench) && !opt.AcrossBuilds:
		return fmt.Sprintf("the first was written by %s, the second by %s: their records would mix two versions of the code; --across-builds reads them as one run on purpose (a later record of a cell replacing an earlier one)", head.Semibench, f.Semibench)
	case f.Scale != head.Scale:
		return fmt.Sprintf("a %s-scale run and a %s-scale one: tables of one scale only (compare sets scales side by side)", cmp.Or(head.Scale, "no"), cmp.Or(f.Scale, "no"))
	case head.Seed != 0 && f.Seed != 0 && head.Seed != f.Seed:
		return fmt.Sprintf("runs of generator seeds %d and %d: their inputs differ", head.Seed, f.Seed)
	}
	if p, p0 := f.TimingProtocol(), head.TimingProtocol(); (p < 2) != (p0 < 2) {
		return fmt.Sprintf("a file of timing protocol %d and one of protocol %d: the old protocol's totals timed another window than today's, so they never stand in one table", p0, p)
	}
	return ""
}

// Latest is recs with each cell's latest record only (by Record.Key),
// where its first stood: a cell topped up or refined later in a run (or
// re-run by a later invocation) appends a record with all its samples,
// which supersedes the earlier one. Every reader that shows a cell once
// (the tables, the rules, the export) reads this.
func Latest(recs []Record) []Record {
	at := make(map[string]int, len(recs))
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		k := r.Key()
		if i, ok := at[k]; ok {
			out[i] = r
			continue
		}
		at[k] = len(out)
		out = append(out, r)
	}
	return out
}

// schemaKey and machineKey are how a result file of any schema starts:
// its header (the first line of schema 3, the top of a schema-1 or 2
// document) names its schema and its machine.
var (
	schemaKey  = regexp.MustCompile(`"schema"\s*:\s*[0-9]`)
	machineKey = regexp.MustCompile(`"machine"\s*:\s*\{`)
)

// IsResultFile reports whether path names a regular file that holds a
// semibench result file, gzipped or not, as far as its first 64 KiB show:
// a JSON object naming its "schema" and its "machine". A command that writes a file (an
// export, a report, a generated input) refuses such a path, for a result
// file is only ever appended to: replacing it loses its measurements. It
// never opens anything but a regular file (a FIFO would block), and a
// file it cannot read is no result file to it.
func IsResultFile(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	r, err := os.Open(path)
	if err != nil {
		return false
	}
	defer r.Close()
	in, err := gunzipped(r)
	if err != nil {
		return false
	}
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(in, head)
	head = bytes.TrimSpace(head[:n])
	return len(head) > 0 && head[0] == '{' && schemaKey.Match(head) && machineKey.Match(head)
}

// gunzipped returns r, or r read through gzip when it starts with gzip's
// magic bytes: then a *cutGzip, which ends a stream cut short as a plain
// file ends, so the records before the cut are read, and says so (cut).
func gunzipped(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("a truncated gzip stream: it ends within gzip's header: %w", io.ErrUnexpectedEOF)
			}
			return nil, fmt.Errorf("a damaged gzip stream: %w", err)
		}
		return &cutGzip{r: zr}, nil
	}
	return br, nil
}

// cutGzip reads a gzip stream; where the stream stops before gzip's end
// (a copy cut short: io.ErrUnexpectedEOF), it ends as a plain file does
// and records the cut, so that a schema-3 file keeps its whole records
// before it, the last, torn line dropped.
type cutGzip struct {
	r   io.Reader
	cut bool // the stream stopped before its end
	n   int64
}

func (c *cutGzip) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		c.cut = true
		return n, io.EOF
	}
	return n, err
}

// gzipCut says, for a file read through in (gunzipped's reader), whether
// its gzip stream was cut short, in the words of an error or a warning
// ("" when it was not).
func gzipCut(in io.Reader) string {
	if c, ok := in.(*cutGzip); ok && c.cut {
		return fmt.Sprintf("a truncated gzip stream: it stops after %d bytes of its content, before gzip's end (a cut-off copy?)", c.n)
	}
	return ""
}
