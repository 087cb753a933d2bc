package report

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

func rec(exp, impl string, params bench.Params, status string, phases ...bench.Phase) bench.Record {
	return bench.Record{Experiment: exp, Impl: impl, Params: params, Status: status, Phases: phases}
}

func ph(name string, ms float64) bench.Phase {
	return bench.Phase{Name: name, StatMS: ms, MedianMS: ms}
}

func nParams(n string) bench.Params {
	return bench.Params{{Name: "n", Value: n}, {Name: "weights", Value: "normal"}}
}

// paperFile mimics experiments/kleene/paper/table2.jsonl: one impl, the paper's
// numbers, no samples.
func paperFile() *bench.File {
	return &bench.File{
		Schema:  bench.SchemaVersion,
		Machine: bench.Machine{Label: "xeon-e5645", CPU: "Intel Xeon E5645 2.40GHz"},
		Source:  "paper Table 2",
		Records: []bench.Record{
			rec("kleene/table2", "cpu/paper", nParams("500"), bench.StatusOK, ph("update_w", 142), ph("total", 143.9)),
			rec("kleene/table2", "cpu/paper", nParams("1000"), bench.StatusOK, ph("update_w", 1067.8), ph("total", 1081.6)),
			rec("kleene/table2", "cpu/paper", nParams("4000"), bench.StatusOK, ph("update_w", 66997.8), ph("total", 67200)),
		},
	}
}

// runFile is a measured run: faster, with an extra impl, a skipped cell, an
// extra phase and an experiment the paper file lacks.
func runFile() *bench.File {
	return &bench.File{
		Schema:  bench.SchemaVersion,
		Machine: bench.Machine{Label: "my-host", CPU: "Test CPU", Cores: 2},
		Records: []bench.Record{
			rec("kleene/table2", "cpu/paper", nParams("1000"), bench.StatusOK, ph("convert_ccs", 5), ph("update_w", 106.78), ph("total", 120)),
			rec("kleene/table2", "cpu/paper", nParams("500"), bench.StatusOK, ph("convert_ccs", 1), ph("update_w", 14.2), ph("total", 0)),
			{Experiment: "kleene/table2", Impl: "cpu/paper", Params: nParams("4000"), Status: bench.StatusSkipped, EstimateMS: 12_000},
			rec("kleene/table2", "cpu/fast", nParams("500"), bench.StatusOK, ph("update_w", 1.42), ph("total", 2)),
			rec("kleene/table3", "cuda/paper", nParams("500"), bench.StatusUnavailable),
		},
	}
}

// row finds the row whose leading cells are prefix.
func row(t *testing.T, tb Table, prefix ...string) []string {
	t.Helper()
	for _, r := range tb.Rows {
		if len(r) >= len(prefix) && strings.Join(r[:len(prefix)], "|") == strings.Join(prefix, "|") {
			return r
		}
	}
	t.Fatalf("no row %q in %q", prefix, tb.Rows)
	return nil
}

// split separates Compare's first summary (the one against the second
// file) from its per-experiment tables.
func split(t *testing.T, tables []Table) (summary Table, details []Table) {
	t.Helper()
	sums := summaries(tables)
	if len(sums) == 0 {
		t.Fatalf("no summary in %d tables", len(tables))
	}
	for _, tb := range tables {
		if strings.Contains(tb.Title, " — ") {
			details = append(details, tb)
		}
	}
	return sums[0], details
}

// summaries are Compare's summaries, one per later file.
func summaries(tables []Table) []Table {
	var out []Table
	for _, tb := range tables {
		if strings.HasPrefix(tb.Title, "Summary: ") {
			out = append(out, tb)
		}
	}
	return out
}

// tableTitled is the first table whose title starts with prefix.
func tableTitled(t *testing.T, tables []Table, prefix string) Table {
	t.Helper()
	for _, tb := range tables {
		if strings.HasPrefix(tb.Title, prefix) {
			return tb
		}
	}
	t.Fatalf("no table titled %q...", prefix)
	return Table{}
}

func TestCompareAlignsPaperAndRun(t *testing.T) {
	tables, err := Compare([]*bench.File{paperFile(), runFile()}, nil, CompareOptions{Cells: true})
	if err != nil {
		t.Fatal(err)
	}
	sum, det := split(t, tables)
	if len(det) != 1 {
		t.Fatalf("got %d tables, want 1 (kleene/table2; kleene/table3 is in one file only)", len(det))
	}
	tb := det[0]
	// The summary: only n = 1000 enters (500's run total is 0, 4000 was
	// skipped, cpu/fast has no paper record): 1081.6 / 120, on the host.
	if got := strings.Join(row(t, sum, "kleene/table2", "host")[:6], "|"); got != "kleene/table2|host|1|9.01x|9.01-9.01|9.01-9.01" {
		t.Errorf("summary row %q", got)
	}
	if !strings.HasPrefix(tb.Title, "kleene/table2") {
		t.Errorf("first table %q, want kleene/table2 first (file order)", tb.Title)
	}
	wantHeader := "impl|n|weights|phase|xeon-e5645|my-host|xeon-e5645/my-host"
	if got := strings.Join(tb.Header, "|"); got != wantHeader {
		t.Errorf("header %q, want %q", got, wantHeader)
	}
	tests := []struct {
		prefix []string
		want   []string // the file columns and the ratio
	}{
		// paper / ours = 142 / 14.2: the later file is 10x faster.
		{[]string{"cpu/paper", "500", "normal", "update_w"}, []string{"142.0", "14.2", "10.0x"}},
		{[]string{"cpu/paper", "1000", "normal", "update_w"}, []string{"1,067.8", "106.8", "10.0x"}},
		// A phase only the run has: a dash on the paper's side, no ratio.
		{[]string{"cpu/paper", "500", "normal", "convert_ccs"}, []string{"—", "1.0", ""}}, // the paper record lacks the phase
		// A zero time on the later side gives no ratio rather than ∞.
		{[]string{"cpu/paper", "500", "normal", "total"}, []string{"143.9", "0.0", ""}},
		// A skipped cell shows its estimate and gets no ratio.
		{[]string{"cpu/paper", "4000", "normal", "update_w"}, []string{"66,997.8", "skipped (est. 12 s)", ""}},
		// An impl only the run has: marked in the paper's column.
		{[]string{"cpu/fast", "500", "normal", "update_w"}, []string{NoRecord, "1.4", ""}},
	}
	for _, tc := range tests {
		got := row(t, tb, tc.prefix...)[len(tc.prefix):]
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: got %q, want %q", tc.prefix, got, tc.want)
		}
	}
	// Rows keep the first file's order: n=500 before n=1000 (paper order),
	// phases in first-seen order (update_w, total from the paper, then
	// convert_ccs from the run).
	var order []string
	for _, r := range tb.Rows {
		order = append(order, r[0]+" "+r[1]+" "+r[3])
	}
	wantOrder := []string{
		"cpu/paper 500 update_w", "cpu/paper 500 total", "cpu/paper 500 convert_ccs",
		"cpu/paper 1000 update_w", "cpu/paper 1000 total", "cpu/paper 1000 convert_ccs",
		"cpu/paper 4000 update_w", "cpu/paper 4000 total",
		"cpu/fast 500 update_w", "cpu/fast 500 total",
	}
	if strings.Join(order, "; ") != strings.Join(wantOrder, "; ") {
		t.Errorf("row order:\n%s\nwant:\n%s", strings.Join(order, "; "), strings.Join(wantOrder, "; "))
	}
	// The experiment only the run has is named, not tabled; the cells the
	// paper lacks are counted.
	notes := strings.Join(tb.Notes, "\n")
	if w := "Not compared, in one file only: kleene/table3 (my-host)."; !slices.Contains(tables[0].Notes, w) {
		t.Errorf("the preface lacks %q: %q", w, tables[0].Notes)
	}
	for _, w := range []string{
		`xeon-e5645 has no record of 1 cell(s) (marked "no record"): the paper reports no such cell.`} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	if strings.Contains(notes, "my-host has no record") {
		t.Errorf("my-host has every cell of the paper, yet a note says otherwise:\n%s", notes)
	}
	// Every rendered format accepts the tables.
	for _, f := range Formats() {
		var sb strings.Builder
		if err := tb.Render(&sb, f); err != nil {
			t.Errorf("render %s: %v", f, err)
		}
	}
}

func TestCompareRatioDirection(t *testing.T) {
	one := bench.Build{Commit: "0123456789abcdef0123456789abcdef01234567"} // one commit: no implementation changed
	slow := &bench.File{Schema: 1, Semibench: one, Machine: bench.Machine{Label: "slow"}, Records: []bench.Record{
		rec("e", "i", bench.Params{{Name: "n", Value: "1"}}, bench.StatusOK, ph("total", 300)),
	}}
	fast := &bench.File{Schema: 1, Semibench: one, Machine: bench.Machine{Label: "fast"}, Records: []bench.Record{
		rec("e", "i", bench.Params{{Name: "n", Value: "1"}}, bench.StatusOK, ph("total", 100)),
	}}
	slower := &bench.File{Schema: 1, Semibench: one, Machine: bench.Machine{Label: "slower"}, Records: []bench.Record{
		rec("e", "i", bench.Params{{Name: "n", Value: "1"}}, bench.StatusCheckFailed, ph("total", 600)),
	}}
	tables, err := Compare([]*bench.File{slow, fast, slower}, nil, CompareOptions{Cells: true})
	if err != nil {
		t.Fatal(err)
	}
	_, det := split(t, tables)
	// A summary per later file; a check that failed keeps its ratio in
	// the detail, not in the summary.
	sums := summaries(tables)
	if len(sums) != 2 {
		t.Fatalf("%d summaries, want one per later file", len(sums))
	}
	for i, want := range []string{"e|host|1|3.00x|3.00-3.00|3.00-3.00", "e|host|0|—|—|—"} {
		if got := strings.Join(row(t, sums[i], "e")[:6], "|"); got != want {
			t.Errorf("summary %d row %q, want %q", i+1, got, want)
		}
	}
	if got := sums[1].Title; !strings.Contains(got, "slow/slower") {
		t.Errorf("second summary's title %q", got)
	}
	tb := det[0]
	if got := strings.Join(tb.Header[3:], "|"); got != "slow|fast|slower|slow/fast|slow/slower" {
		t.Errorf("header %q", got)
	}
	got := strings.Join(tb.Rows[0][3:], "|")
	if want := "300.0|100.0|600.0 (check failed)|3.00x|0.500x"; got != want {
		t.Errorf("row %q, want %q", got, want)
	}
}

func TestCompareLabels(t *testing.T) {
	a, b := paperFile(), paperFile()
	c := runFile()
	c.Machine.Label = ""
	tables, err := Compare([]*bench.File{a, b, c}, nil, CompareOptions{Cells: true, Experiment: "kleene/table2"})
	if err != nil {
		t.Fatal(err)
	}
	_, det := split(t, tables)
	if got := strings.Join(det[0].Header[4:7], "|"); got != "xeon-e5645|xeon-e5645#2|file 3" {
		t.Errorf("default labels %q", got)
	}
	tables, err = Compare([]*bench.File{a, c}, []string{"paper", ""}, CompareOptions{Cells: true, Experiment: "kleene/table2"})
	if err != nil {
		t.Fatal(err)
	}
	_, det = split(t, tables)
	if got := strings.Join(det[0].Header[4:], "|"); got != "paper|file 2|paper/file 2" {
		t.Errorf("given labels %q", got)
	}
	tables, err = Compare([]*bench.File{a, b}, []string{"same", "same"}, CompareOptions{Cells: true})
	if err != nil {
		t.Fatal(err)
	}
	_, det = split(t, tables)
	if got := strings.Join(det[0].Header[4:6], "|"); got != "same|same#2" {
		t.Errorf("repeated given labels %q", got)
	}
}

func TestComparePhaseAndSort(t *testing.T) {
	tables, err := Compare([]*bench.File{runFile(), paperFile()}, nil,
		CompareOptions{Cells: true, Experiment: "kleene/table2", Phase: "update_w", Sort: true})
	if err != nil {
		t.Fatal(err)
	}
	sum, det := split(t, tables)
	if len(det) != 1 {
		t.Fatalf("got %d tables, want 1", len(det))
	}
	// The summary reads the headline times, whatever the phase: 120 / 1081.6.
	if got := strings.Join(row(t, sum, "kleene/table2", "host")[:4], "|"); got != "kleene/table2|host|1|0.111x" {
		t.Errorf("summary row %q", got)
	}
	tb := det[0]
	if got := strings.Join(tb.Header, "|"); got != "impl|n|weights|my-host|xeon-e5645|my-host/xeon-e5645" {
		t.Errorf("header %q (no phase column when one phase is chosen)", got)
	}
	var got []string
	for _, r := range tb.Rows {
		got = append(got, r[0]+" "+r[1])
	}
	// Sorted: impl lexically, then n numerically (500 < 1000 < 4000,
	// although "1000" < "4000" < "500" as strings).
	want := []string{"cpu/fast 500", "cpu/paper 500", "cpu/paper 1000", "cpu/paper 4000"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("rows %q, want %q", got, want)
	}
	// Ratio direction with the run first: ours / paper = 14.2 / 142.
	if r := row(t, tb, "cpu/paper", "500"); r[5] != "0.100x" {
		t.Errorf("ratio %q, want 0.100x", r[5])
	}

	// A phase that no record has gives no rows for records that ran.
	tables, err = Compare([]*bench.File{runFile(), paperFile()}, nil, CompareOptions{Cells: true, Experiment: "kleene/table2", Phase: "convert_ccs"})
	if err != nil {
		t.Fatal(err)
	}
	_, det = split(t, tables)
	if n := len(det[0].Rows); n != 3 { // 500 and 1000 have it; 4000 is skipped and shows its status
		t.Errorf("convert_ccs: %d rows, want 3: %q", n, det[0].Rows)
	}
}

func TestCompareValues(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"500", "1000", -1},
		{"1000", "500", 1},
		{"1e3", "999", 1},
		{"2", "normal", -1},
		{"normal", "2", 1},
		{"normal", "uniform", -1},
		{"7", "7", 0},
	}
	for _, tc := range tests {
		if got := compareValues(tc.a, tc.b); got != tc.want {
			t.Errorf("compareValues(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	other := &bench.File{Schema: 1, Machine: bench.Machine{Label: "other-box"}, Records: []bench.Record{
		rec("lap/table1", "cpu/jv", bench.Params{{Name: "n", Value: "100"}}, bench.StatusOK, ph("total", 1)),
	}}
	tests := []struct {
		name   string
		files  []*bench.File
		labels []string
		opt    CompareOptions
		want   []string // substrings of the error
	}{
		{"no files", nil, nil, CompareOptions{Cells: true}, []string{"no files"}},
		{"no common experiment", []*bench.File{paperFile(), other}, nil, CompareOptions{Cells: true}, []string{"no experiment appears in more than one file", "xeon-e5645: kleene/table2", "other-box: lap/table1"}},
		{"unknown experiment", []*bench.File{paperFile(), runFile()}, nil, CompareOptions{Cells: true, Experiment: "nope"}, []string{`"nope"`, "kleene/table2"}},
		{"experiment in one file only", []*bench.File{paperFile(), runFile()}, nil, CompareOptions{Cells: true, Experiment: "kleene/table3"}, []string{`experiment "kleene/table3" does not appear in more than one file`, "xeon-e5645: kleene/table2;", "my-host: kleene/table2, kleene/table3"}},
		{"unknown phase", []*bench.File{paperFile(), runFile()}, nil, CompareOptions{Cells: true, Phase: "h2d"}, []string{`"h2d"`, "update_w", "convert_ccs"}},
		{"label count", []*bench.File{paperFile(), runFile()}, []string{"a"}, CompareOptions{Cells: true}, []string{"1 labels for 2 files"}},
	}
	for _, tc := range tests {
		_, err := Compare(tc.files, tc.labels, tc.opt)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
}

func TestCompareLaterRecordWins(t *testing.T) {
	run := runFile()
	run.Records = append(run.Records, rec("kleene/table2", "cpu/paper", nParams("500"), bench.StatusOK, ph("update_w", 71)))
	tables, err := Compare([]*bench.File{paperFile(), run}, nil, CompareOptions{Cells: true, Phase: "update_w"})
	if err != nil {
		t.Fatal(err)
	}
	_, det := split(t, tables)
	if len(det) != 1 {
		t.Fatalf("%d tables, want 1: kleene/table3 has no update_w anywhere", len(det))
	}
	if r := row(t, det[0], "cpu/paper", "500"); r[4] != "71.0" || r[5] != "2.00x" {
		t.Errorf("re-run cell: %q, want 71.0 and 2.00x", r)
	}
}

// TestComparePaperFile reads two schema-3 files from testdata/compare, as
// `semibench compare` does: the Kleene paper's Table 2 (its transcription,
// cut to n = 500 and 1000) and a measured run (cut to the n = 500 normal
// cells of cpu/paper and cpu/fast). The cell both have lines up with the
// paper's time over the run's; each file's missing cells are marked and
// explained in the notes.
func TestComparePaperFile(t *testing.T) {
	var files []*bench.File
	for _, name := range []string{"kleene-table2-paper.jsonl", "kleene-table2-run.jsonl"} {
		f, err := bench.ReadFile(filepath.Join("testdata", "compare", name))
		if err != nil {
			t.Fatal(err)
		}
		if f.Torn != nil {
			t.Fatalf("%s: %v", name, f.Torn)
		}
		files = append(files, f)
	}
	if files[0].Source == "" || files[1].Source != "" {
		t.Fatalf("fixtures: want a paper's file then a measured one, got sources %q and %q", files[0].Source, files[1].Source)
	}
	tables, err := Compare(files, nil, CompareOptions{Cells: true, Experiment: "kleene/table2", Phase: "update_w"})
	if err != nil {
		t.Fatal(err)
	}
	_, det := split(t, tables)
	if len(det) != 1 {
		t.Fatalf("%d tables, want 1", len(det))
	}
	tb := det[0]
	wantHeader := []string{"impl", "n", "weights", "xeon-e5645", "intel-xeon", "xeon-e5645/intel-xeon"}
	if strings.Join(tb.Header, "|") != strings.Join(wantHeader, "|") {
		t.Errorf("header %q, want %q", tb.Header, wantHeader)
	}
	// 142 ms in the paper, 29.1256 ms (mean of the middle three) in the run.
	for _, tc := range []struct{ prefix, want []string }{
		{[]string{"cpu/paper", "500", "normal"}, []string{"142.0", "29.1", "4.88x"}},
		{[]string{"cpu/paper", "1000", "normal"}, []string{"1,067.8", NoRecord, ""}},
		{[]string{"cpu/fast", "500", "normal"}, []string{NoRecord, "0.81", ""}},
	} {
		got := row(t, tb, tc.prefix...)[3:]
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: got %q, want %q", tc.prefix, got, tc.want)
		}
	}
	if len(tb.Rows) != 3 {
		t.Errorf("%d rows, want 3: %q", len(tb.Rows), tb.Rows)
	}
	notes := strings.Join(tb.Notes, "\n")
	for _, want := range []string{
		`xeon-e5645 has no record of 1 cell(s) (marked "no record"): the paper reports no such cell.`,
		"intel-xeon, run at scale paper, has no record of 1 cell(s) (marked \"no record\"): 1 of scale paper " +
			"(`semibench run kleene/table2 --scale paper --impl cpu/paper` measures them).",
		"statistic mean-middle-3",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack\n%s\nin\n%s", want, notes)
		}
	}
}

// TestCompareAcrossScales lines a paper's table up with a quick run that
// shares one cell: every row shows, the rest are marked, and the notes name
// the scale and the run that would align them.
func TestCompareAcrossScales(t *testing.T) {
	paper := paperFile()
	paper.Scale = "paper"
	run := &bench.File{Schema: bench.SchemaVersion, Machine: bench.Machine{Label: "mine"}, Scale: "quick", Records: []bench.Record{
		rec("kleene/table2", "cpu/paper", nParams("60"), bench.StatusOK, ph("total", 0.5)),
		rec("kleene/table2", "cpu/fast", nParams("60"), bench.StatusOK, ph("total", 0.25)),
		rec("kleene/table2", "cpu/paper", nParams("500"), bench.StatusOK, ph("total", 14.39)),
	}}
	tables, err := Compare([]*bench.File{paper, run}, nil, CompareOptions{Cells: true, Phase: "total"})
	if err != nil {
		t.Fatal(err)
	}
	_, det := split(t, tables)
	tb := det[0]
	for _, tc := range []struct{ prefix, want []string }{
		{[]string{"cpu/paper", "500"}, []string{"143.9", "14.4", "10.0x"}}, // the cell both have
		{[]string{"cpu/paper", "1000"}, []string{"1,081.6", NoRecord, ""}},
		{[]string{"cpu/paper", "4000"}, []string{"67,200.0", NoRecord, ""}},
		{[]string{"cpu/paper", "60"}, []string{NoRecord, "0.5", ""}},
		{[]string{"cpu/fast", "60"}, []string{NoRecord, "0.25", ""}},
	} {
		got := row(t, tb, tc.prefix...)[3:]
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: got %q, want %q", tc.prefix, got, tc.want)
		}
	}
	if len(tb.Rows) != 5 {
		t.Errorf("%d rows, want 5: %q", len(tb.Rows), tb.Rows)
	}
	notes := strings.Join(tb.Notes, "\n")
	want := `mine, run at scale quick, has no record of 2 cell(s) (marked "no record"): 2 of scale paper (` +
		"`semibench run kleene/table2 --scale paper --impl cpu/paper` measures them)."
	if !strings.Contains(notes, want) {
		t.Errorf("notes lack\n%s\nin\n%s", want, notes)
	}
	if !strings.Contains(notes, `xeon-e5645 has no record of 2 cell(s) (marked "no record"): the paper reports no such cell.`) {
		t.Errorf("notes lack the paper's missing cells:\n%s", notes)
	}

	// With ScaleOf, each cell gets the scale whose cases have it.
	scaleOf := func(exp string, p bench.Params) string {
		switch p.Get("n") {
		case "1000":
			return "paper"
		case "4000":
			return "large"
		}
		return ""
	}
	tables, err = Compare([]*bench.File{paper, run}, nil, CompareOptions{Cells: true, Phase: "total", ScaleOf: scaleOf})
	if err != nil {
		t.Fatal(err)
	}
	_, det = split(t, tables)
	notes = strings.Join(det[0].Notes, "\n")
	want = "1 of scale paper (`semibench run kleene/table2 --scale paper --impl cpu/paper` measures them); " +
		"1 of scale large (`semibench run kleene/table2 --scale large --impl cpu/paper` measures them)."
	if !strings.Contains(notes, want) {
		t.Errorf("notes with ScaleOf lack\n%s\nin\n%s", want, notes)
	}
	run.Records = run.Records[:2] // nothing aligns now, yet the experiment is shared
	tables, err = Compare([]*bench.File{paper, run}, nil, CompareOptions{Cells: true, Phase: "total", ScaleOf: func(string, bench.Params) string { return "" }})
	if err != nil {
		t.Fatalf("files sharing an experiment but no cell: %v", err)
	}
	if _, det := split(t, tables); !strings.Contains(strings.Join(det[0].Notes, "\n"), "3 at parameters no scale of this semibench runs") {
		t.Errorf("notes:\n%s", det[0].Notes)
	}
}

// TestCompareMarksTheOldProtocol: a schema-1 run's total stands marked
// beside a current run's, with no ratio (the two windows differ), while a
// phase of the breakdown keeps its ratio.
func TestCompareMarksTheOldProtocol(t *testing.T) {
	p := bench.Params{{Name: "n", Value: "1"}}
	one := bench.Build{Commit: "0123456789abcdef0123456789abcdef01234567"}
	old := &bench.File{Schema: 1, Semibench: one, Machine: bench.Machine{Label: "h200"}, Records: []bench.Record{
		rec("e", "cuda/fast", p, bench.StatusOK, ph("step4", 2), ph("total", 300)),
	}}
	cur := &bench.File{Schema: bench.SchemaVersion, Semibench: one, Machine: bench.Machine{Label: "h100"}, Records: []bench.Record{
		rec("e", "cuda/fast", p, bench.StatusOK, ph("step4", 1), ph("total", 150)),
	}}
	tables, err := Compare([]*bench.File{cur, old}, nil, CompareOptions{Cells: true})
	if err != nil {
		t.Fatal(err)
	}
	sum, det := split(t, tables)
	if got := strings.Join(row(t, sum, "e", "device")[:6], "|"); got != "e|device|0|—|—|—" {
		t.Errorf("summary row %q: totals of two protocols enter no ratio", got)
	}
	tb := det[0]
	total := row(t, tb, "cuda/fast", "1", "total")
	if total[4] != "300.0 (old protocol)" || total[5] != "" {
		t.Errorf("total row %q: want the old run's total marked and no ratio", total)
	}
	if step := row(t, tb, "cuda/fast", "1", "step4"); step[5] != "0.500x" {
		t.Errorf("step4 row %q: want its ratio kept", step)
	}
	if !strings.Contains(strings.Join(tb.Notes, " "), "Old protocol") {
		t.Errorf("no note on the old protocol: %q", tb.Notes)
	}
}

// twoMachines is a comparison of two GPU machines as `semibench compare`
// reads them: Kleene's cells on both, a Hungarian experiment whose CUDA
// cells neither could run, and a 2-domination experiment whose cells
// either reused another's work or failed a check.
func twoMachines() []*bench.File {
	n := func(v string) bench.Params { return bench.Params{{Name: "n", Value: v}} }
	m7 := bench.Params{{Name: "m", Value: "7"}}
	reused := func(r bench.Record) bench.Record { r.ReusedFrom = "domination/table2|cuda/v3-gpu|m=7"; return r }
	file := func(label string, scale float64, last string) *bench.File {
		return &bench.File{Schema: bench.SchemaVersion, Semibench: bench.Build{Version: "0.1.0", Commit: "0123456789abcdef0123456789abcdef01234567"},
			Machine: bench.Machine{Label: label, CPU: "Test CPU", Cores: 16}, Records: []bench.Record{
				rec("kleene/table3", "cuda/fast", n("1000"), bench.StatusOK, ph("update_w", 8*scale), ph("total", 10*scale)),
				rec("kleene/table3", "cuda/fast", n("2000"), bench.StatusOK, ph("update_w", 30*scale), ph("total", 40)),
				rec("kleene/table3", "cuda/fast", n("4000"), bench.StatusOK, ph("update_w", 250*scale), ph("total", 300*scale*scale)),
				rec("kleene/table3", "cpu/paper", n("1000"), bench.StatusOK, ph("update_w", 450), ph("total", 500*scale)),
				rec("hungarian/table1", "cpu/jv", n("512"), bench.StatusOK, ph("total", 3.3*scale)),
				rec("hungarian/table1", "cuda/fast", n("512"), bench.StatusUnavailable),
				rec("hungarian/table1", "cuda/paper", n("512"), bench.StatusUnavailable),
				{Experiment: "hungarian/table1", Impl: "cpu/auction", Params: n("512"), Status: bench.StatusSkipped, EstimateMS: 9000 * scale},
				reused(rec("domination/table5", "cuda/v3-gpu", m7, bench.StatusOK, ph("total", 31*scale))),
				rec("domination/table5", "cpu/v2-par", m7, last, ph("total", 2400*scale)),
			}}
	}
	return []*bench.File{file("h100", 1, bench.StatusOK), file("h200", 0.8, bench.StatusCheckFailed)}
}

// machineClaims is a claims judge for twoMachines: three claims, two of
// which differ in class between the machines.
func machineClaims(f *bench.File) []ClaimClass {
	h100 := f.Machine.Label == "h100"
	pick := func(a, b string) string {
		if h100 {
			return a
		}
		return b
	}
	return []ClaimClass{
		{ID: "kleene/table4#growth", Experiment: "kleene/table4", Where: "Kleene (000) Table 4", Text: "update W grows 6.4-10x from n = 2000 to 4000",
			Class: pick("reproduced", "not reproduced"), Ours: pick("9.34x", "13.2x")},
		{ID: "kleene/table3#speedup", Experiment: "kleene/table3", Where: "Kleene (000) Table 3", Text: "the GPU is 29x faster",
			Class: "exceeded", Ours: pick("50.0x", "62.5x")},
		{ID: "hungarian/table1#fastest", Experiment: "hungarian/table1", Where: "Hungarian (001) Table 1", Text: "cuda/fast is the fastest",
			Class: pick("not run", "indicative"), Ours: "—"},
	}
}

// TestCompareSummaryGolden pins what `semibench compare A B` prints
// first: the summary, the claims whose class differs, then the detail
// with the cells unavailable on both machines collapsed.
func TestCompareSummaryGolden(t *testing.T) {
	tables, err := Compare(twoMachines(), nil, CompareOptions{Cells: true, Claims: machineClaims})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{FormatText, FormatMarkdown} {
		var buf bytes.Buffer
		for _, tb := range tables {
			if err := tb.Render(&buf, format); err != nil {
				t.Fatal(err)
			}
		}
		checkGolden(t, "compare-summary."+format, buf.Bytes())
	}
}

// TestCompareSummary checks the summary's figures: the geometric mean of
// the cells' ratios, their middle half and range, and the cells left out.
func TestCompareSummary(t *testing.T) {
	tables, err := Compare(twoMachines(), nil, CompareOptions{Cells: true})
	if err != nil {
		t.Fatal(err)
	}
	sum, det := split(t, tables)
	for _, tc := range []struct{ exp, side, want string }{
		// Device: ratios 1.25 (n = 1000), 1 (n = 2000) and 1.5625 (n =
		// 4000): geometric mean (1.25 * 1.5625)^(1/3) = 1.25.
		{"kleene/table3", "device", "3|1.25x|1.12-1.41|1.00-1.56"},
		{"kleene/table3", "host", "1|1.25x|1.25-1.25|1.25-1.25"},    // cpu/paper
		{"hungarian/table1", "host", "1|1.25x|1.25-1.25|1.25-1.25"}, // cpu/jv only: skipped and unavailable cells give none
		{"domination/table5", "host", "0|—|—|—"},                    // a failed check; the reused GPU cell has no side
	} {
		if got := strings.Join(row(t, sum, tc.exp, tc.side)[2:6], "|"); got != tc.want {
			t.Errorf("%s %s: summary %q, want %q", tc.exp, tc.side, got, tc.want)
		}
	}
	for _, r := range sum.Rows {
		if r[0] == "hungarian/table1" && r[1] == "device" || r[0] == "domination/table5" && r[1] == "device" {
			t.Errorf("a device row where no GPU cell ran: %q", r)
		}
	}
	if len(det) != 3 {
		t.Errorf("%d detail tables: want 3", len(det))
	}
	if got := strings.Join(spreadOf([]float64{8, 1, 4, 2}).cells(), "|"); got != "4|2.83x|1.75-5.00|1.00-8.00" {
		t.Errorf("spreadOf 8, 1, 4, 2: %q", got)
	}
}

// TestCompareCollapsesUnavailable: cells unavailable in every file that
// has them are one note, not rows; a cell one file ran stays a row.
func TestCompareCollapsesUnavailable(t *testing.T) {
	files := twoMachines()
	files[1].Records[5].Status = bench.StatusOK // h200 ran cuda/fast
	files[1].Records[5].Phases = []bench.Phase{ph("total", 0.5)}
	files[0].Records = slices.DeleteFunc(files[0].Records, func(r bench.Record) bool { return r.Impl == "cuda/paper" })
	tables, err := Compare(files, nil, CompareOptions{Cells: true, Experiment: "hungarian/table1"})
	if err != nil {
		t.Fatal(err)
	}
	_, det := split(t, tables)
	tb := det[0]
	row(t, tb, "cuda/fast", "512", "total")
	for _, r := range tb.Rows {
		if r[0] == "cuda/paper" {
			t.Errorf("a cell unavailable wherever recorded is listed: %q", r)
		}
	}
	if w := "Not listed: 1 cell(s) unavailable in every file that has them (cuda/paper)."; !slices.Contains(tb.Notes, w) {
		t.Errorf("notes lack %q: %q", w, tb.Notes)
	}
	// One file: nothing is collapsed.
	tables, err = Compare(files[:1], nil, CompareOptions{Cells: true, Experiment: "hungarian/table1"})
	if err != nil {
		t.Fatal(err)
	}
	row(t, tables[0], "cuda/fast", "512")
}

// TestCompareClaims: the claims table lists the claims whose class
// differs between measured files, never judges a paper's table, follows
// --experiment, and is absent with one measured file.
func TestCompareClaims(t *testing.T) {
	judged := map[string]int{}
	judge := func(f *bench.File) []ClaimClass {
		judged[f.Machine.Label]++
		return machineClaims(f)
	}
	files := append(twoMachines(), paperFile())
	files[2].Records = append(files[2].Records, rec("kleene/table3", "cuda/fast", nParams("1000"), bench.StatusOK, ph("total", 100)))
	tables, err := Compare(files, nil, CompareOptions{Cells: true, Claims: judge})
	if err != nil {
		t.Fatal(err)
	}
	cl := tableTitled(t, tables, claimsTitle)
	if got := strings.Join(cl.Header, "|"); got != "claim|h100|h200" {
		t.Errorf("claims header %q: the paper's table is not judged", got)
	}
	if judged["xeon-e5645"] != 0 || judged["h100"] != 1 {
		t.Errorf("judged %v, want each measured file once and no paper", judged)
	}
	want := []string{
		"Kleene (000) Table 4: update W grows 6.4-10x from n = 2000 to 4000|reproduced (9.34x)|not reproduced (13.2x)",
		"Hungarian (001) Table 1: cuda/fast is the fastest|not run|indicative",
	}
	var got []string
	for _, r := range cl.Rows {
		got = append(got, strings.Join(r, "|"))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("claims rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if w := "2 of 3 claims differ in class between the files; the others agree."; !slices.Contains(cl.Notes, w) {
		t.Errorf("claims notes %q, want %q", cl.Notes, w)
	}
	tables, err = Compare(files, nil, CompareOptions{Cells: true, Claims: judge, Experiment: "kleene/table3"})
	if err != nil {
		t.Fatal(err)
	}
	if cl := tableTitled(t, tables, claimsTitle); len(cl.Rows) != 0 || !slices.Contains(cl.Notes, "0 of 1 claims differ in class between the files; the others agree.") {
		t.Errorf("kleene/table3's claims: %q %q", cl.Rows, cl.Notes)
	}
	tables, err = Compare([]*bench.File{files[0], files[2]}, nil, CompareOptions{Cells: true, Claims: judge})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if tb.Title == claimsTitle {
			t.Error("a claims table with one measured file")
		}
	}
}
