package experiments_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
)

// goldenRun is a reproduce run on an H100 host that holds records of every
// experiment (a copy of results/intel-xeon_nvidia-h100-80gb-hbm3/
// 20261124-002148.jsonl, gzipped): its rendered tables pin each
// experiment's table layout, the papers' numbers beside ours, the ratios
// and the notes.
var goldenRun = filepath.Join("testdata", "golden-run.jsonl.gz")

// readGoldenRun reads goldenRun.
func readGoldenRun(t *testing.T) *bench.File {
	t.Helper()
	fh, err := os.Open(goldenRun)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	f, err := bench.Decode(data)
	if err != nil {
		t.Fatalf("%s: %v", goldenRun, err)
	}
	return f
}

// TestTablesGolden renders every experiment's tables from goldenRun in
// Markdown and compares them with testdata/tables.golden.md (go test
// ./experiments -run Golden -update rewrites it).
func TestTablesGolden(t *testing.T) {
	f := readGoldenRun(t)
	tables, err := experiments.RenderTables(f, "")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, tb := range tables {
		if err := tb.Render(&buf, report.FormatMarkdown); err != nil {
			t.Fatal(err)
		}
	}
	golden := filepath.Join("testdata", "tables.golden.md")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./experiments -run Golden -update to write it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("tables rendered from %s differ from %s (diff them after -update)", goldenRun, golden)
	}
}
