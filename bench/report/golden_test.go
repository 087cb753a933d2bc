package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/semibench/semibench/bench"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata from the current output")

// checkGolden compares got with testdata/render/name, or rewrites the file
// under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "render", name)
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bench/report -run Golden -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

func readFixture(t *testing.T, name string) *bench.File {
	t.Helper()
	f, err := bench.ReadFile(filepath.Join("testdata", "records", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestRecordsTableGolden renders the records of two committed result files
// (cut down to hungarian/table1 at n=512) in every format: the column
// order, the number formats, the status texts and the notes are pinned.
func TestRecordsTableGolden(t *testing.T) {
	for _, machine := range []string{"amd-epyc", "h100"} {
		tables := RecordsTable(readFixture(t, machine), "")
		if len(tables) == 0 {
			t.Fatalf("%s: no tables", machine)
		}
		for _, format := range Formats() {
			var buf bytes.Buffer
			for _, tb := range tables {
				if err := tb.Render(&buf, format); err != nil {
					t.Fatalf("%s %s: %v", machine, format, err)
				}
			}
			checkGolden(t, machine+"."+format, buf.Bytes())
		}
	}
}

// TestCompareGolden compares the two fixtures side by side, as
// `semibench compare` prints them.
func TestCompareGolden(t *testing.T) {
	files := []*bench.File{readFixture(t, "amd-epyc"), readFixture(t, "h100")}
	tables, err := Compare(files, nil, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, tb := range tables {
		if err := tb.Render(&buf, FormatText); err != nil {
			t.Fatal(err)
		}
	}
	checkGolden(t, "compare.text", buf.Bytes())
}
