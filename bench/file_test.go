package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sampleRecord(impl, n string) Record {
	return Record{Experiment: "kleene/table2", Impl: impl, Params: Params{{"n", n}}, Status: StatusOK,
		Phases: []Phase{{Name: "total", SamplesMS: []float64{1, 2, 3}, MedianMS: 2, StatMS: 2}}}
}

func TestAppenderRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "run.json")
	a, err := NewAppender(path, &File{Machine: Machine{Label: "m"}})
	if err != nil {
		t.Fatal(err)
	}
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
}

func TestDecodeErrors(t *testing.T) {
	cases := map[string]string{
		"{\n\"schema\": 1,\n\"records\": [\n{\"experiment\": 3}]}":                                   "line 4",
		"{\"schema\": 9, \"records\": []}":                                                           "schema version 9",
		"{\"schema\": 1, \"records\": [{\"experiment\":\"e\",\"impl\":\"i\",\"status\":\"bogus\"}]}": "unknown status",
		"{\"schema\": 1, \"extra\": true}":                                                           "unknown field",
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
}
