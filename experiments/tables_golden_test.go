package experiments_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
)

// goldenRun is a committed reproduce run on an H100 host that holds records
// of every experiment: its rendered tables pin each experiment's table
// layout, the papers' numbers beside ours, the ratios and the notes.
var goldenRun = filepath.Join("..", "results", "intel-xeon_nvidia-h100-80gb-hbm3", "20261124-002148.jsonl")

// TestTablesGolden renders every experiment's tables from goldenRun in
// Markdown and compares them with testdata/tables.golden.md (go test
// ./experiments -run Golden -update rewrites it).
func TestTablesGolden(t *testing.T) {
	f, err := bench.ReadFile(goldenRun)
	if err != nil {
		t.Fatal(err)
	}
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
