package bench

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadFileGzip: a gzipped result file reads as the plain one, a
// damaged gzip stream is an error naming the file, and the Appender
// refuses to append to a gzipped file.
func TestReadFileGzip(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "run.jsonl")
	app, err := NewAppender(plain, &File{Schema: SchemaVersion, Semibench: Build{Version: "test"}, Machine: Machine{Label: "m", CPU: "test CPU", Cores: 2}, Scale: "quick", Started: time.Unix(1, 0).UTC(),
		Records: []Record{{Experiment: "e", Impl: "cpu/paper", Status: StatusOK, Statistic: "median",
			Phases: []Phase{{Name: TotalPhase, MedianMS: 1, StatMS: 1, SamplesMS: []float64{1}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	app.Close()
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	zipped := plain + ".gz"
	if err := os.WriteFile(zipped, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(zipped)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Records) != 1 || got.Records[0].Key() != want.Records[0].Key() || got.Machine.Label != "m" {
		t.Errorf("gzipped: %d records, machine %q; want the plain file's %d", len(got.Records), got.Machine.Label, len(want.Records))
	}
	cut := filepath.Join(dir, "cut.jsonl.gz")
	if err := os.WriteFile(cut, gz.Bytes()[:gz.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(cut); err == nil || !strings.Contains(err.Error(), cut) {
		t.Errorf("a cut gzip stream: %v, want an error naming %s", err, cut)
	}
	if _, err := NewAppender(zipped, &File{Schema: SchemaVersion, Machine: Machine{Label: "m"}, Scale: "quick"}); err == nil {
		t.Error("appending to a gzipped file: no error")
	}
	if after, _ := os.ReadFile(zipped); !bytes.Equal(after, gz.Bytes()) {
		t.Error("the refused append changed the gzipped file")
	}
}
