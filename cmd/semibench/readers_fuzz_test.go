package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/benchfmt"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/cmd/semibench/internal/placement"
	"github.com/semibench/semibench/experiments"
)

// A fuzz target per command that reads result files: whatever the bytes,
// the reader either refuses them (bench.Decode's error) or does its work
// on what was read without a panic, and what it gives holds its own
// invariant. The seeds are the battery's result files, good and bad.

// fuzzReader adds the seeds and runs read on every input Decode accepts,
// after placement.LeaveOut has set aside what no table places.
func fuzzReader(f *testing.F, read func(t *testing.T, file *bench.File)) {
	for _, glob := range []string{"testdata/good/*.json", "testdata/runs/*.jsonl", "testdata/bad/results/*"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil && len(data) < 1<<20 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := bench.Decode(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error message")
			}
			return
		}
		n := len(file.Records)
		left := placement.LeaveOut(io.Discard, "fuzz.jsonl", file)
		if len(file.Records)+left != n || len(file.LeftOut) != left {
			t.Fatalf("LeaveOut kept %d and set aside %d (%d named) of %d records", len(file.Records), left, len(file.LeftOut), n)
		}
		for i := range file.Records {
			if file.Source == "" && placement.Misplaced(&file.Records[i]) != "" {
				t.Fatalf("record %d kept though misplaced: %s", i, placement.Misplaced(&file.Records[i]))
			}
		}
		read(t, file)
	})
}

// FuzzTable: semibench table, every table in every format.
func FuzzTable(f *testing.F) {
	fuzzReader(f, func(t *testing.T, file *bench.File) {
		tables, err := experiments.RenderTables(file, "")
		if err != nil {
			return
		}
		for i := range tables {
			for _, format := range report.Formats() {
				if err := tables[i].Render(io.Discard, format); err != nil {
					t.Fatalf("table %q in %s: %v", tables[i].Title, format, err)
				}
			}
		}
	})
}

// FuzzClaims: semibench claims, every claim given one of the verdicts.
func FuzzClaims(f *testing.F) {
	fuzzReader(f, func(t *testing.T, file *bench.File) {
		for _, c := range experiments.JudgeFile(file) {
			if !slices.Contains(experiments.Verdicts, c.Verdict) {
				t.Fatalf("claim %s: verdict %q", c.ID, c.Verdict)
			}
		}
	})
}

// FuzzReport: semibench report, a report that starts with its heading.
func FuzzReport(f *testing.F) {
	fuzzReader(f, func(t *testing.T, file *bench.File) {
		path := filepath.Join(t.TempDir(), "r.md")
		if err := experiments.WriteReport(path, file, nil, 0); err != nil {
			return
		}
		if data, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(data, []byte("# ")) {
			t.Fatalf("report: %q, %v", data, err)
		}
	})
}

// FuzzPlot: semibench plot, every file it names drawn.
func FuzzPlot(f *testing.F) {
	fuzzReader(f, func(t *testing.T, file *bench.File) {
		written, _ := experiments.RenderPlots(file, t.TempDir())
		for _, p := range written {
			if st, err := os.Stat(p); err != nil || st.Size() == 0 {
				t.Fatalf("plot %s named but not drawn: %v", p, err)
			}
		}
	})
}

// FuzzCompare: semibench compare of a file with itself.
func FuzzCompare(f *testing.F) {
	fuzzReader(f, func(t *testing.T, file *bench.File) {
		tables, err := report.Compare([]*bench.File{file, file}, []string{"a", "b"}, report.CompareOptions{ScaleOf: caseScale})
		if err != nil {
			return
		}
		for i := range tables {
			if err := tables[i].Render(io.Discard, report.FormatCSV); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzExport: semibench export, every line a comment, blank or a
// benchmark in ns/op.
func FuzzExport(f *testing.F) {
	fuzzReader(f, func(t *testing.T, file *bench.File) {
		var b bytes.Buffer
		if err := benchfmt.Write(&b, file); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(b.String(), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") && !strings.Contains(l, ": ") && !strings.HasSuffix(l, " ns/op") {
				t.Fatalf("export line %q", l)
			}
		}
	})
}

// FuzzConvert: semibench convert, the schema-3 rendering reads back with
// the same records.
func FuzzConvert(f *testing.F) {
	fuzzReader(f, func(t *testing.T, file *bench.File) {
		data, err := bench.Encode(file)
		if err != nil {
			t.Fatal(err)
		}
		back, err := bench.Decode(data)
		if err != nil {
			t.Fatalf("the conversion does not read back: %v", err)
		}
		back.LeftOut = file.LeftOut
		if err := sameFile(file, back); err != nil {
			t.Fatalf("the conversion differs: %v", err)
		}
	})
}
