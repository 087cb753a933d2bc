package bench

import (
	"bytes"
	"compress/gzip"
	"fmt"
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

// TestReadFileGzipCut (issue 56, item 13): a gzipped schema-3 file cut
// short keeps its whole records before the cut, as a plain file cut short
// does, and the cut is named as a truncated gzip stream (it was
// "unexpected EOF", every record lost).
func TestReadFileGzipCut(t *testing.T) {
	dir := t.TempDir()
	f := header("m")
	for i := range 40 {
		f.Records = append(f.Records, sampleRecord("cpu/paper", fmt.Sprint(100+i)))
	}
	data, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.NoCompression) // the cut lands where the bytes say
	zw.Write(data)
	zw.Close()
	for _, at := range []int{len(data) / 2, len(data) * 9 / 10} {
		cut := writeFile(t, filepath.Join(dir, fmt.Sprintf("cut-%d.jsonl.gz", at)), gz.Bytes()[:at])
		got, err := ReadFile(cut)
		if err != nil {
			t.Fatalf("%s: %v", cut, err)
		}
		// Stored blocks: content byte k is within a few hundred bytes of
		// stream byte k, so the records wholly before at-512 are kept, and
		// none after at.
		least := bytes.Count(data[:at-512], []byte("\n")) - 1 // less the header line
		most := bytes.Count(data[:at], []byte("\n")) - 1
		if len(got.Records) < least || len(got.Records) > most || got.Torn == nil {
			t.Errorf("%s: %d records kept, torn %v; want %d to %d, the cut line dropped", cut, len(got.Records), got.Torn, least, most)
		}
	}
	if _, err := ReadFile(writeFile(t, filepath.Join(dir, "head.gz"), gz.Bytes()[:5])); err == nil || !strings.Contains(err.Error(), "truncated gzip stream") {
		t.Errorf("a stream cut within gzip's header: %v", err)
	}
}

func writeFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
