package bench

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench/internal/bounded"
)

// zeros is an endless stream of zero bytes, as /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// endless is a result file that never ends: a header, then the same small
// record forever; of schema 2, or with lines of schema 3.
type endless struct{ head, lines, head3 bool }

func (e *endless) Read(p []byte) (int, error) {
	if !e.head {
		e.head = true
		return copy(p, `{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "records": [`), nil
	}
	rec := `{"experiment": "e", "impl": "i", "status": "skipped"},` + "\n"
	if e.lines {
		if !e.head3 {
			e.head3 = true
			return copy(p, `{"schema": 3, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z"}`+"\n"), nil
		}
		rec = rec[:len(rec)-2] + "\n"
	}
	n := 0
	for n+len(rec) <= len(p) {
		n += copy(p[n:], rec)
	}
	return n, nil
}

func TestReadBoundedRefusals(t *testing.T) {
	if _, err := decodeFrom(zeros{}); !errors.Is(err, ErrNotResultFile) || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("zeros: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		done := make(chan error, 1)
		go func() { _, err := ReadFile("/dev/zero"); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "/dev/zero") {
				t.Errorf("/dev/zero: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("/dev/zero: still reading after 5 s")
		}
	}
	old := bounded.MaxFile
	bounded.MaxFile = 1 << 20
	_, err := decodeFrom(&endless{})
	bounded.MaxFile = old
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the most a result file may hold") {
		t.Errorf("endless: %v", err)
	}
	bounded.MaxFile = 1 << 20
	_, err = decodeFrom(&endless{head: true, lines: true})
	bounded.MaxFile = old
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the most a result file may hold") {
		t.Errorf("endless lines: %v", err)
	}

	big := strings.Repeat("x", MaxRecordBytes)
	cases := map[string]struct {
		data, want string
	}{
		"record": {`{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "records": [{"experiment": "e", "impl": "i", "status": "ok"},` + "\n" +
			`{"experiment": "e", "impl": "i", "status": "ok", "note": "` + big[:MaxHeaderBytes/2] + `", "error": "` + big[:MaxHeaderBytes/2] + `x"}]}`,
			"line 2: record 1 is larger than 4 MiB"},
		"string":  {`{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "notes": ["` + big + `x"], "records": []}`, "a string of more than 4 MiB"},
		"machine": {`{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "` + big[:MaxHeaderBytes/2] + `", "cpu": "` + big[:MaxHeaderBytes/2] + `"}, "records": []}`, `header field "machine"`},
	}
	head3 := `{"schema": 3, "protocol": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z"}` + "\n"
	cases["line"] = struct{ data, want string }{head3 + `{"experiment": "e", "impl": "i", "status": "ok"}` + "\n" +
		`{"experiment": "e", "impl": "i", "status": "ok", "note": "` + big + `"}` + "\n", "line 3: larger than 4 MiB, the most a record may hold"}
	for name, tc := range cases {
		_, err := decodeFrom(strings.NewReader(tc.data))
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	// A file at the limits' edges, and one with escaped quotes and
	// brackets in its strings, read whole.
	ok := `{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "notes": ["a \"quoted\" [note] {x}", "` + big[:MaxHeaderBytes-8] + `"], "records": [{"experiment": "e]", "impl": "i}", "status": "ok"}]}`
	f, err := decodeFrom(strings.NewReader(ok))
	if err != nil || len(f.Records) != 1 || f.Records[0].Experiment != "e]" {
		t.Errorf("valid file: %v", err)
	}
}

// TestReadBoundedMatchesDecode: a schema-2 file reads the same through the
// bounded reader, however its bytes arrive.
func TestReadBoundedMatchesDecode(t *testing.T) {
	data := legacyDocument(t, &File{Schema: 2, Machine: Machine{Label: "m"}, Records: []Record{sampleRecord("cpu/paper", "500"), sampleRecord("cpu/fast", "9")}})
	got, err := bounded.Read(io.MultiReader(bytes.NewReader(data[:7]), bytes.NewReader(data[7:])))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d of %d bytes, %v", len(got), len(data), err)
	}
}

func TestValidateTimes(t *testing.T) {
	good := func() Record {
		return Record{Experiment: "e", Impl: "i", Status: StatusOK, Statistic: StatMid3, Phases: []Phase{
			{Name: "step", Scope: ScopeTotal, SamplesMS: []float64{1, 1, 1, 1, 1}, MedianMS: 1, StatMS: 1},
			{Name: OtherPhase, Scope: ScopeTotal, SamplesMS: []float64{1, 2, 3, 4, 5}, MedianMS: 3, StatMS: 3},
			{Name: TotalPhase, Scope: ScopeHeadline, SamplesMS: []float64{2, 3, 4, 5, 6}, MedianMS: 4, StatMS: 4},
		}}
	}
	cases := map[string]struct {
		edit func(r *Record)
		want string
	}{
		"negative":    {func(r *Record) { r.Phases[2].SamplesMS[0] = -2 }, "phase total: sample 1, -2 ms, is negative"},
		"huge":        {func(r *Record) { r.Phases[2].MedianMS = 1e308 }, "median_ms 1e+308 exceeds"},
		"median":      {func(r *Record) { r.Phases[1].MedianMS = 2.5 }, "median_ms 2.5, but the median of its 5 samples is 3"},
		"statistic":   {func(r *Record) { r.Phases[1].SamplesMS = []float64{1, 2, 3, 4, 50}; r.Phases[2].SamplesMS[4] = 51 }, ""},
		"stat wrong":  {func(r *Record) { r.Phases[2].StatMS = 4.5 }, "stat_ms 4.5, but the mean-middle-3 of its samples is 4"},
		"breakdown":   {func(r *Record) { r.Phases[2].SamplesMS[1] = 2.5; r.Phases[2].StatMS = (2.5 + 4 + 5) / 3 }, "sample 2: the breakdown of total sums to 3 ms, but total is 2.5 ms"},
		"short phase": {func(r *Record) { r.Phases[0].SamplesMS = r.Phases[0].SamplesMS[:4] }, "phase step has 4 samples and total 5"},
	}
	for name, tc := range cases {
		r := good()
		tc.edit(&r)
		f := header("m")
		f.Records = []Record{r}
		err := f.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "record 0 (e|i|)")):
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
}

func TestAppenderRefusesOtherScale(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.json")
	paper := header("m")
	paper.Scale = "paper"
	a, err := NewAppender(p, paper)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	before, _ := os.ReadFile(p)
	_, err = NewAppender(p, header("m")) // quick
	if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "scale paper") || !strings.Contains(err.Error(), "scale quick") {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Fatal("the file was changed")
	}
}

// FuzzDecode: a result file's bytes never panic the reader; the bounded
// reader accepts every schema-1 or 2 document the plain decoder accepts;
// and what is accepted is valid and reads back the same once written as
// schema 3.
func FuzzDecode(f *testing.F) {
	head := &File{Schema: 2, Machine: Machine{Label: "m"}, Scale: "quick",
		Records: []Record{sampleRecord("cpu/paper", "500"), {Experiment: "e", Impl: "i", Status: StatusSkipped, EstimateMS: 3}}}
	full := legacyDocument(f, head)
	lines, _ := Encode(head)
	for _, s := range []string{
		string(full), string(full[:len(full)/2]), string(lines), string(lines[:len(lines)-9]), "", "{}", `{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "records": []}`, `[1, 2]`, "\x00\x00",
		`{"schema": 3, "protocol": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z"}` + "\n" + `{"notes": ["n"]}` + "\n" + `{"experiment": "e", "impl": "i", "status": "ok"}` + "\n",
		`{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "records": [{"experiment": "e", "impl": "i", "status": "ok", "phases": [{"name": "total", "samples_ms": [-1], "median_ms": -1, "stat_ms": -1}]}]}`,
		`{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "records": [{"experiment": "e", "impl": "i", "status": "ok", "phases": [{"name": "total", "samples_ms": [1, 2, 3], "median_ms": 1e308, "stat_ms": 2}]}]}`,
		`{"schema": 2, "semibench": {"version": "t"}, "machine": {"label": "m", "cpu": "c", "cores": 1}, "scale": "quick", "started": "2026-01-02T03:04:05Z", "notes": ["a \"b\" [c]"], "records": [{"experiment": "e}", "impl": "i]", "status": "failed", "error": "x"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		plain, perr := decodeDocument(data)
		got, err := Decode(data)
		if perr == nil && plain.Schema < 3 && err != nil {
			t.Fatalf("a document the plain decoder accepts is refused: %v", err)
		}
		if err != nil {
			return
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("accepted, but invalid: %v", err)
		}
		again, err := Encode(got)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(again)
		if err != nil || back.Torn != nil || len(back.Records) != len(got.Records) || back.TimingProtocol() != got.TimingProtocol() {
			t.Fatalf("an accepted file does not read back once written: %v (torn %v)", err, back.Torn)
		}
	})
}
