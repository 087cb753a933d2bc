package bench

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/semibench/semibench/internal/outfile"
)

func sampleRecord(impl, n string) Record {
	return Record{Experiment: "kleene/table2", Impl: impl, Params: Params{{"n", n}}, Status: StatusOK,
		Phases: []Phase{{Name: "total", SamplesMS: []float64{1, 2, 3}, MedianMS: 2, StatMS: 2}}}
}

// header is a run's header on machine label.
func header(label string) *File {
	return &File{Schema: SchemaVersion, Machine: Machine{Label: label}, Scale: "quick",
		Semibench: Build{Version: "test"}, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// umask returns the process's umask.
func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}

// temporaries lists the temporary names of path's versions in its folder.
func temporaries(t *testing.T, path string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestAppenderRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "run.json")
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
	write := func(name string, f *File) string {
		p := filepath.Join(dir, name)
		data, err := encodeFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := write("other.json", header("other-box"))
	old := header("m")
	old.Schema = 1
	schema1 := write("schema1.json", old)
	paper := header("m")
	paper.Source = "paper Table 2"
	transcribed := write("paper.json", paper)
	truncated := filepath.Join(dir, "truncated.json")
	os.WriteFile(truncated, []byte("{\n \"schema\": 2,\n \"records\": [\n  {\"experiment\": \"e\""), 0o644)
	array := filepath.Join(dir, "array.json")
	os.WriteFile(array, []byte("[1, 2]\n"), 0o644)

	tests := []struct {
		path string
		want []string
	}{
		{other, []string{other, `machine "other-box"`, `machine "m"`, "--out", "move the file away"}},
		{schema1, []string{schema1, "schema 1", "schema 2", "--out"}},
		{transcribed, []string{transcribed, "paper's transcription", "--out"}},
		{truncated, []string{truncated, "truncated", "--out"}},
		{array, []string{array, "JSON array", "not a semibench result file", "--out"}},
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
		// Refused without a trace: the lock is dropped (a WriteFile goes
		// through) and no temporary stays.
		if tmp := temporaries(t, tc.path); len(tmp) > 0 {
			t.Errorf("%s: temporaries left: %v", tc.path, tmp)
		}
	}
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
	// Every Append puts a new inode in place: the lock must move with it.
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
	real := filepath.Join(dir, "runs", "real.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	a, err := NewAppender(real, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	a.Append(sampleRecord("cpu/paper", "1"))
	a.Close()
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink(filepath.Join("runs", "real.json"), link); err != nil {
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
	if tmp := append(temporaries(t, link), temporaries(t, real)...); len(tmp) > 0 {
		t.Errorf("temporaries left: %v", tmp)
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

func TestAppenderRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	a, _ := NewAppender(path, header("m"))
	a.Close()
	stale := filepath.Join(dir, ".run.json.tmp-123")
	held := filepath.Join(dir, ".run.json.tmp-456")
	unrelated := filepath.Join(dir, ".run.json.tmp-abc")
	other := filepath.Join(dir, ".other.json.tmp-789")
	for _, p := range []string{stale, held, unrelated, other} {
		os.WriteFile(p, []byte("{}"), 0o644)
	}
	h, err := os.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := outfile.TryLock(h); err != nil { // a live writer's version
		t.Fatal(err)
	}
	b, err := NewAppender(path, header("m"))
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	for p, want := range map[string]bool{stale: false, held: true, unrelated: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

func TestReadFileMessages(t *testing.T) {
	full, err := encodeFile(&File{Schema: SchemaVersion, Machine: Machine{Label: "m"}, Records: []Record{sampleRecord("cpu/paper", "500")}})
	if err != nil {
		t.Fatal(err)
	}
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
	// Every cut of a valid file is refused as truncated, never with a bare EOF.
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
		"{\n\"schema\": 1,\n\"records\": [\n{\"experiment\": 3}]}":                                   "line 4",
		"{\"schema\": 9, \"records\": []}":                                                           "schema version 9",
		"{\"schema\": 1, \"records\": [{\"experiment\":\"e\",\"impl\":\"i\",\"status\":\"bogus\"}]}": "unknown status",
		"{\"schema\": 1, \"records\": [], \"extra\": true}":                                          "unknown field",
		"{\n\n\"schema\": 1,,}":                                                                      "line 3",
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
}

// TestAppendNotesCPUKernel: records appended by a run whose CPU kernels
// differ from the header's are said to, in a note.
func TestAppendNotesCPUKernel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	head := func(k string) *File {
		return &File{Machine: Machine{Label: "m", CPUKernel: k}, Semibench: Build{Version: "v"}}
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
