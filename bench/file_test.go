package bench

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func sampleRecord(impl, n string) Record {
	return Record{Experiment: "kleene/table2", Impl: impl, Params: Params{{"n", n}}, Status: StatusOK,
		Phases: []Phase{{Name: "total", SamplesMS: []float64{1, 2, 3}, MedianMS: 2, StatMS: 2}}}
}

// header is a run's header on machine label.
func header(label string) *File {
	return &File{Schema: SchemaVersion, Machine: Machine{Label: label, CPU: "test CPU", Cores: 2}, Scale: "quick",
		Semibench: Build{Version: "test"}, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// umask returns the process's umask.
func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}

// legacyDocument renders f as schemas 1 and 2 were written: one indented
// JSON document with its records inside.
func legacyDocument(t testing.TB, f *File) []byte {
	t.Helper()
	recs := f.Records
	if recs == nil {
		recs = []Record{}
	}
	data, err := json.MarshalIndent(struct {
		*File
		Records []Record `json:"records"`
	}{f, recs}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

func TestAppenderRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "run.jsonl")
	a, err := NewAppender(path, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	f, err := ReadFile(path)
	if err != nil || len(f.Records) != 0 {
		t.Fatalf("fresh file: %v, %d records", err, len(f.Records))
	}
	for _, n := range []string{"500", "1000"} {
		if err := a.Append(sampleRecord("cpu/paper", n)); err != nil {
			t.Fatal(err)
		}
		f, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if last := f.Records[len(f.Records)-1]; last.Params.Get("n") != n {
			t.Fatalf("last record n=%s, want %s", last.Params.Get("n"), n)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := 0o644 &^ umask(); st.Mode().Perm() != want {
		t.Errorf("new result file mode %v, want %v (0644 less the umask)", st.Mode().Perm(), want)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Append(sampleRecord("cpu/paper", "4000")); err == nil {
		t.Error("Append after Close accepted")
	}
}

func TestAppenderAppendsToExisting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	a, err := NewAppender(path, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	a.Append(sampleRecord("cpu/paper", "500"))
	a.Append(sampleRecord("cpu/paper", "1000"))
	a.Close()
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}

	second := header("m") // the same scale: another is refused (TestAppenderRefusesOtherScale)
	second.Started = second.Started.Add(time.Hour)
	b, err := NewAppender(path, second)
	if err != nil {
		t.Fatalf("appending to a file of the same machine and schema: %v", err)
	}
	defer b.Close()
	if err := b.Append(sampleRecord("cpu/fast", "500")); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.Records {
		got = append(got, r.Impl+" "+r.Params.Get("n"))
	}
	if want := "cpu/paper 500, cpu/paper 1000, cpu/fast 500"; strings.Join(got, ", ") != want {
		t.Errorf("records %q, want %s", got, want)
	}
	if !f.Started.Equal(header("m").Started) || f.Scale != "quick" {
		t.Errorf("header not kept: started %v, scale %q", f.Started, f.Scale)
	}
	if len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "scale quick") || !strings.Contains(f.Notes[0], "2026-01-02T04:04:05Z") {
		t.Errorf("notes %q, want one saying the later run's start and scale", f.Notes)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after appending, want the file's own 0600 kept", st.Mode().Perm())
	}
	if len(b.File().Records) != 3 {
		t.Errorf("File() holds %d records, want 3", len(b.File().Records))
	}
}

func TestAppenderRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	encode := func(f *File) []byte {
		data, err := Encode(f)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	other := write("other.jsonl", encode(header("other-box")))
	old := header("m")
	old.Schema = 1
	schema1 := write("schema1.json", legacyDocument(t, old))
	old.Schema = 2
	schema2 := write("schema2.json", legacyDocument(t, old))
	old.Schema = 1
	protocol1 := write("protocol1.jsonl", encode(old))
	paper := header("m")
	paper.Source = "paper Table 2"
	transcribed := write("paper.jsonl", encode(paper))
	truncated := write("truncated.json", []byte("{\n \"schema\": 2,\n \"records\": [\n  {\"experiment\": \"e\""))
	array := write("array.json", []byte("[1, 2]\n"))
	middle := write("middle.jsonl", append(encode(header("m")), "{\"experiment\": \n{}\n"...))

	tests := []struct {
		path string
		want []string
	}{
		{other, []string{other, `machine "other-box"`, `machine "m"`, "--out", "move the file away"}},
		{schema1, []string{schema1, "schema-1 file", "semibench convert " + schema1, "--out"}},
		{schema2, []string{schema2, "schema-2 file", "semibench convert " + schema2, "--out"}},
		{protocol1, []string{protocol1, "timing protocol 1", "protocol 2", "--out"}},
		{transcribed, []string{transcribed, "paper's transcription", "--out"}},
		{truncated, []string{truncated, "truncated", "--out"}},
		{array, []string{array, "JSON array", "not a semibench result file", "--out"}},
		{middle, []string{middle, "line 2", "--out"}},
	}
	for _, tc := range tests {
		before, _ := os.ReadFile(tc.path)
		a, err := NewAppender(tc.path, header("m"))
		if err == nil {
			a.Close()
			t.Errorf("%s: accepted", tc.path)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", filepath.Base(tc.path), err, w)
			}
		}
		if !errors.Is(err, ErrIncompatible) {
			t.Errorf("%s: error %v is not ErrIncompatible", filepath.Base(tc.path), err)
		}
		if after, _ := os.ReadFile(tc.path); !bytes.Equal(before, after) {
			t.Errorf("%s: refused file was changed", tc.path)
		}
	}
	// Refused without a trace: the lock is dropped (a WriteFile goes
	// through).
	if err := WriteFile(other, header("m")); err != nil {
		t.Errorf("the refused file is still locked: %v", err)
	}
}

func TestAppenderLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	a, err := NewAppender(path, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	refused := func(when string) {
		t.Helper()
		b, err := NewAppender(path, header("m"))
		if err == nil {
			b.Close()
			t.Fatalf("%s: a second writer was let in", when)
		}
		if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "another semibench run") {
			t.Fatalf("%s: error %v, want ErrInUse naming the file", when, err)
		}
		if err := WriteFile(path, header("m")); !errors.Is(err, ErrInUse) {
			t.Fatalf("%s: WriteFile over a held file: %v, want ErrInUse", when, err)
		}
	}
	refused("fresh file")
	for _, n := range []string{"1", "2", "3"} {
		if err := a.Append(sampleRecord("cpu/paper", n)); err != nil {
			t.Fatal(err)
		}
		refused("after append " + n)
	}
	a.Close()
	b, err := NewAppender(path, header("m"))
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	b.Close()
}

func TestAppenderRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{
		dir:         "a directory",
		fifo:        "a FIFO",
		"/dev/null": "a character device",
	}
	if os.Geteuid() == 0 {
		dev := filepath.Join(dir, "null")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Fatal(err)
		}
		paths[dev] = "a character device"
	}
	link := filepath.Join(dir, "link-to-null")
	os.Symlink("/dev/null", link)
	paths[link] = "a character device"
	for p, kind := range paths {
		before, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := NewAppender(p, header("m"))
		if err == nil {
			a.Close()
			t.Errorf("%s: accepted", p)
		} else if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), kind) {
			t.Errorf("%s: error %v, want ErrNotRegular naming it %s", p, err, kind)
		}
		if err := WriteFile(p, header("m")); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: WriteFile: %v, want ErrNotRegular", p, err)
		}
		after, err := os.Lstat(p)
		if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
			t.Errorf("%s: changed from %v to %v (%v)", p, before.Mode(), after, err)
		}
	}
}

func TestAppenderFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "runs", "real.jsonl")
	os.MkdirAll(filepath.Dir(real), 0o755)
	a, err := NewAppender(real, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	a.Append(sampleRecord("cpu/paper", "1"))
	a.Close()
	link := filepath.Join(dir, "latest.jsonl")
	if err := os.Symlink(filepath.Join("runs", "real.jsonl"), link); err != nil {
		t.Fatal(err)
	}
	b, err := NewAppender(link, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(sampleRecord("cpu/paper", "2")); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", st.Mode(), err)
	}
	f, err := ReadFile(real)
	if err != nil || len(f.Records) != 2 {
		t.Fatalf("the link's target holds %v records (%v), want 2", len(f.Records), err)
	}

	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink(filepath.Join(dir, "nowhere", "x.json"), dangling)
	if _, err := NewAppender(dangling, header("m")); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("dangling symlink: %v, want a refusal naming the symlink", err)
	}
	if st, err := os.Lstat(dangling); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the dangling symlink was replaced")
	}
}

func TestReadFileMessages(t *testing.T) {
	full := legacyDocument(t, func() *File {
		f := header("m")
		f.Schema, f.Records = 2, []Record{sampleRecord("cpu/paper", "500")}
		return f
	}())
	cases := []struct {
		name, data string
		want       []string
	}{
		{"empty", "", []string{"empty (0 bytes)", "not a semibench result file"}},
		{"blank", " \n\n", []string{"only white space", "not a semibench result file"}},
		{"array", `[{"schema": 2}]`, []string{"a JSON array", "not a semibench result file"}},
		{"string", `"hello"`, []string{"a JSON string"}},
		{"number", "42", []string{"a JSON number"}},
		{"text", "goos: linux\nBenchmarkX 1 2 ns/op\n", []string{"not JSON", `"goos: linux"`}},
		{"other tool", `{"Time": "2026-01-01", "Action": "pass", "Package": "x"}`, []string{`without "schema" and "records"`, "Action, Package, Time", "not a semibench result file"}},
		{"half", string(full[:len(full)/2]), []string{"truncated", "line"}},
		{"twice", string(full) + string(full), []string{"data after the end", "line"}},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
		os.WriteFile(p, []byte(tc.data), 0o644)
		_, err := ReadFile(p)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		for _, w := range append(tc.want, p) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
	// Every cut of a valid schema-2 file is refused as truncated, never
	// with a bare EOF.
	for n := 1; n < len(full)-2; n++ {
		_, err := Decode(full[:n])
		if err == nil || err.Error() == "EOF" || err.Error() == "unexpected EOF" {
			t.Fatalf("cut at %d bytes: %v", n, err)
		}
		if !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("cut at %d bytes (%q): %v, want it called truncated", n, full[:n], err)
		}
	}
	if _, err := Decode(full); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := map[string]string{
		"{\n\"schema\": 1,\n\"records\": [\n{\"experiment\": 3}]}": "line 4",
		"{\"schema\": 9, \"records\": []}":                         "schema version 9",
		"{\"schema\": 1, \"semibench\": {\"version\": \"t\"}, \"machine\": {\"label\": \"m\", \"cpu\": \"c\", \"cores\": 1}, \"scale\": \"quick\", \"started\": \"2026-01-02T03:04:05Z\", \"records\": [{\"experiment\":\"e\",\"impl\":\"i\",\"status\":\"bogus\"}]}": "unknown status",
		"{\"schema\": 1, \"semibench\": {\"version\": \"t\"}, \"machine\": {\"label\": \"m\", \"cpu\": \"c\", \"cores\": 1}, \"scale\": \"quick\", \"started\": \"2026-01-02T03:04:05Z\", \"records\": [], \"extra\": true}":                                          "unknown field",
		"{\n\n\"schema\": 1,,}": "line 3",
	}
	for in, want := range cases {
		_, err := Decode([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%q) error %v, want it to mention %q", in, err, want)
		}
	}
}

func TestMerge(t *testing.T) {
	a := &File{Schema: 1, Machine: Machine{Label: "m"}, Records: []Record{sampleRecord("cpu/paper", "500"), sampleRecord("cpu/fast", "500")}}
	newer := sampleRecord("cpu/paper", "500")
	newer.Phases[0].StatMS = 7
	b := &File{Schema: 1, Machine: Machine{Label: "m"}, Records: []Record{newer, sampleRecord("cpu/paper", "1000")}}
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Records) != 3 || m.Records[0].Phases[0].StatMS != 7 {
		t.Fatalf("merged %+v", m.Records)
	}
	if _, err := Merge(a, &File{Machine: Machine{Label: "other"}}); err == nil {
		t.Fatal("merge across machines accepted")
	}
	if _, err := Merge(&File{Schema: 2, Scale: "quick", Machine: Machine{Label: "m"}}, &File{Schema: 2, Scale: "paper", Machine: Machine{Label: "m"}}); err == nil || !strings.Contains(err.Error(), "scale") {
		t.Fatalf("merge across scales: %v", err)
	}
	if _, err := Merge(a, &File{Schema: 2, Machine: Machine{Label: "m"}}); err == nil || !strings.Contains(err.Error(), "old protocol") {
		t.Fatalf("merge of schema 1 and 2: %v", err)
	}
	// The append's identity test (issue 56, item 6): two builds only on
	// purpose, one label on another machine never, one seed.
	build2 := &File{Schema: 1, Machine: Machine{Label: "m"}, Semibench: Build{Commit: "abc1234"}}
	if _, err := MergeWith(MergeOptions{}, []string{"a.json", "b.json"}, a, build2); err == nil || !strings.Contains(err.Error(), "a.json and b.json") || !strings.Contains(err.Error(), "abc1234") {
		t.Errorf("merge of two builds: %v", err)
	}
	if _, err := MergeWith(MergeOptions{AcrossBuilds: true}, nil, a, build2); err != nil {
		t.Errorf("merge of two builds on purpose: %v", err)
	}
	if _, err := MergeWith(MergeOptions{AcrossBuilds: true}, nil, a, &File{Schema: 1, Machine: Machine{Label: "m", Cores: 64}}); err == nil || !strings.Contains(err.Error(), "64 cores") {
		t.Errorf("merge of one label on two machines: %v", err)
	}
	if _, err := Merge(&File{Schema: 3, Machine: Machine{Label: "m"}, Seed: 1}, &File{Schema: 3, Machine: Machine{Label: "m"}, Seed: 2}); err == nil || !strings.Contains(err.Error(), "seeds 1 and 2") {
		t.Errorf("merge of two seeds: %v", err)
	}
	// A peers file has no scale: it merges with a run of any, first or
	// last, and the run's header is kept.
	run := &File{Schema: 3, Scale: "paper", Machine: Machine{Label: "m"}, Records: []Record{sampleRecord("cpu/fast", "500")}}
	peers := &File{Schema: 3, Machine: Machine{Label: "m"}, Notes: []string{PeersNote}, Records: []Record{sampleRecord("peer/x", "500")}}
	for _, files := range [][]*File{{run, peers}, {peers, run}} {
		m, err := Merge(files...)
		if err != nil || m.Scale != "paper" || len(m.Records) != 2 {
			t.Fatalf("a run and a peers file: %+v, %v", m, err)
		}
	}
}

// TestAppendNotesCPUKernel: records appended by a run whose CPU kernels
// differ from the header's are said to, in a note.
func TestAppendNotesCPUKernel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	head := func(k string) *File {
		f := header("m")
		f.Machine.CPUKernel, f.Semibench = k, Build{Version: "v"}
		return f
	}
	a, err := NewAppender(path, head("go"))
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	b, err := NewAppender(path, head("avx512"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(Record{Experiment: "e", Impl: "cpu/x", Status: StatusOK}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Notes[len(f.Notes)-1]; !strings.Contains(n, "avx512 (the header's: go)") {
		t.Errorf("last note %q does not name the appended run's CPU kernels", n)
	}
}

// lines3 is a schema-3 file of three records, and the offset where each
// line ends.
func lines3(t *testing.T) ([]byte, []int) {
	t.Helper()
	f := header("m")
	f.Records = []Record{sampleRecord("cpu/paper", "1"), sampleRecord("cpu/paper", "2"), sampleRecord("cpu/paper", "3")}
	data, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	var ends []int
	for i, c := range data {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) != 4 {
		t.Fatalf("%d lines, want a header and 3 records:\n%s", len(ends), data)
	}
	return data, ends
}

// TestReadTornLine cuts a schema-3 file at every byte, as a crash may: a
// cut inside the header's JSON is refused as truncated; any later cut keeps
// every whole record line and reports the torn one by its line number.
func TestReadTornLine(t *testing.T) {
	data, ends := lines3(t)
	for n := 1; n <= len(data); n++ {
		f, err := Decode(data[:n])
		if n < ends[0]-1 {
			if err == nil || !strings.Contains(err.Error(), "truncated") {
				t.Fatalf("cut at %d, in the header: %v, want it refused as truncated", n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("cut at %d: %v", n, err)
		}
		whole := 0
		for _, e := range ends[1:] {
			if e <= n {
				whole++
			}
		}
		if len(f.Records) != whole {
			t.Fatalf("cut at %d: %d records, want the %d whole lines", n, len(f.Records), whole)
		}
		atEnd := slices.Contains(ends, n) || n == ends[0]-1 // a whole header without its newline reads
		switch {
		case atEnd && f.Torn != nil:
			t.Fatalf("cut at %d, a line's end: reported torn %v", n, f.Torn)
		case !atEnd && (f.Torn == nil || f.Torn.Line != whole+2 || f.Torn.Offset != int64(ends[whole]) || f.Torn.Kept != whole):
			t.Fatalf("cut at %d: torn %+v, want line %d from offset %d", n, f.Torn, whole+2, ends[whole])
		}
	}
	// Garbage after the last newline (a file system that kept the length
	// but not the bytes) is torn too; a bad line before a good one is an
	// error naming it.
	f, err := Decode(append(slices.Clone(data), "\x00\x00\x00\n"...))
	if err != nil || f.Torn == nil || f.Torn.Line != 5 || len(f.Records) != 3 || !strings.Contains(f.Torn.Error(), "not JSON") {
		t.Errorf("zeros at the end: %v, torn %v", err, f.Torn)
	}
	bad := slices.Concat(data[:ends[1]], []byte("{\"experiment\": \"e\",\n"), data[ends[1]:])
	if _, err := Decode(bad); err == nil || !strings.Contains(err.Error(), "line 3:") {
		t.Errorf("a bad line in the middle: %v, want an error naming line 3", err)
	}
	wrong := slices.Concat(data[:ends[2]], []byte(`{"experiment": "e", "impl": "i", "status": "bogus"}`+"\n"))
	if _, err := Decode(wrong); err == nil || !strings.Contains(err.Error(), "line 4: record 2") || !strings.Contains(err.Error(), "unknown status") {
		t.Errorf("an invalid record on the last line: %v, want an error naming line 4", err)
	}
	if _, err := Decode(slices.Concat(data[:ends[0]], []byte(`{"experiment": "e", "impl": "i", "status": "ok", "extra": 1}`+"\n"))); err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("an unknown field: %v", err)
	}
	if _, err := Decode([]byte(`{"schema": 3, "protocol": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "records": []}` + "\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("records in a schema-3 header: %v", err)
	}
}

// TestReadFileWarnsTorn: ReadFile keeps the records before a torn line
// and says so; the next Appender cuts the torn line off and appends after
// the last whole record.
func TestReadFileWarnsTorn(t *testing.T) {
	data, ends := lines3(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, data[:ends[2]+9], 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(path)
	if err != nil || len(f.Records) != 2 || f.Torn == nil || f.Torn.Line != 4 {
		t.Fatalf("torn file: %v, %d records, torn %v", err, len(f.Records), f.Torn)
	}
	a, err := NewAppender(path, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append(sampleRecord("cpu/fast", "4")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	f, err = ReadFile(path)
	if err != nil || f.Torn != nil || len(f.Records) != 3 || f.Records[2].Impl != "cpu/fast" {
		t.Fatalf("after appending: %v, torn %v, %d records", err, f.Torn, len(f.Records))
	}
	got, _ := os.ReadFile(path)
	if !bytes.HasPrefix(got, data[:ends[2]]) {
		t.Errorf("the whole lines before the torn one changed")
	}
}

// TestReadSchemas reads one file written as schema 1, 2 and 3: the same
// records and header; the timing protocol of a schema-1 file survives its
// conversion.
func TestReadSchemas(t *testing.T) {
	for _, schema := range []int{1, 2} {
		f := header("m")
		f.Schema, f.Notes = schema, []string{"a <note> & more"}
		f.Records = []Record{sampleRecord("cpu/paper", "1"), {Experiment: "e", Impl: "i", Status: StatusSkipped, EstimateMS: 3}}
		old, err := Decode(legacyDocument(t, f))
		if err != nil {
			t.Fatalf("schema %d: %v", schema, err)
		}
		data, err := Encode(old)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := bytes.Cut(data, []byte("\n")); !bytes.HasPrefix(first, []byte(`{"schema":3,"protocol":`)) {
			t.Fatalf("schema %d converted: header line %s", schema, first)
		}
		got, err := Decode(data)
		if err != nil {
			t.Fatalf("schema %d converted: %v", schema, err)
		}
		if got.Schema != 3 || got.TimingProtocol() != schema || old.TimingProtocol() != schema {
			t.Errorf("schema %d converted: schema %d, protocol %d (was %d)", schema, got.Schema, got.TimingProtocol(), old.TimingProtocol())
		}
		if !reflect.DeepEqual(got.Records, old.Records) || !reflect.DeepEqual(got.Notes, old.Notes) || !got.Started.Equal(old.Started) || got.Machine.Label != "m" {
			t.Errorf("schema %d converted: %+v, want %+v", schema, got, old)
		}
	}
}

// TestCloseWritesPendingNotes: notes added after the last Append (a run's
// last words: measurement lost at its budget's end) are written by Close,
// once, and a second Close writes nothing more.
func TestCloseWritesPendingNotes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	a, err := NewAppender(path, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append(sampleRecord("cpu/paper", "1")); err != nil {
		t.Fatal(err)
	}
	a.AddNotes("after the last record")
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := slices.Index(f.Notes, "after the last record"); n < 0 || len(f.Records) != 1 {
		t.Errorf("notes %q, %d records: want the pending note written by Close, the one record kept", f.Notes, len(f.Records))
	}
}

// TestIsResultFile: result files of every schema, gzipped or not, are
// told from other files, and a FIFO is never opened.
func TestIsResultFile(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("{\"schema\":3,\"machine\":{}}\n"))
	zw.Close()
	for name, c := range map[string]struct {
		data string
		want bool
	}{
		"schema3.jsonl":  {"{\"schema\":3,\"semibench\":{},\"machine\":{}}\n{\"experiment\":\"e\"}\n", true},
		"schema2.json":   {"{\n \"schema\": 2,\n \"machine\": {\n  \"label\": \"m\"\n },\n \"records\": []\n}\n", true},
		"digest.json":    {"{\"schema\": 1, \"runs\": []}\n", false},
		"run.jsonl.gz":   {gz.String(), true},
		"records.jsonl":  {"{\"experiment\":\"e\"}\n", false},
		"report.md":      {"# semibench report\n\"schema\": 3\n", false},
		"empty":          {"", false},
		"export.txt":     {"goos: linux\nBenchmarkX 1 2 ns/op\n", false},
		"solve-lap.json": {"{\"cost\": 3, \"assignment\": [0]}\n", false},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(c.data), 0o644)
		if got := IsResultFile(p); got != c.want {
			t.Errorf("IsResultFile(%s) = %v, want %v", name, got, c.want)
		}
	}
	if IsResultFile(filepath.Join(dir, "absent")) || IsResultFile(dir) {
		t.Errorf("an absent path or a folder is a result file")
	}
	fifo := filepath.Join(dir, "fifo")
	if syscall.Mkfifo(fifo, 0o644) == nil && IsResultFile(fifo) { // would block if opened
		t.Errorf("a FIFO is a result file")
	}
}
