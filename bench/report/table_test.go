package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

func TestFormatMS(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{66997.8, "66,997.8"},
		{66997.84, "66,997.8"},
		{66997.86, "66,997.9"},
		{142, "142.0"},
		{1067.8, "1,067.8"},
		{999.95, "1,000.0"}, // rounding carries into a new group
		{1234567.25, "1,234,567.2"},
		{100000, "100,000.0"},
		{-1234.5, "-1,234.5"},
		{1.6, "1.6"},
		{0.95, "0.95"},
		{0.96, "1.0"},
		{-0.04, "-0.04"},
		{0.5, "0.5"},
		{0.1, "0.1"},
		{0.0123, "0.012"},
		{0.00049, "0.00049"},
		{0, "0.0"},
		{math.Copysign(0, -1), "0.0"},
		{math.NaN(), ""},
		{math.Inf(1), "∞"},
	}
	for _, tc := range tests {
		if got := FormatMS(tc.in); got != tc.want {
			t.Errorf("FormatMS(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFormatRatio(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{29.3, "29.3x"},
		{29.34, "29.3x"},
		{1234.5, "1,234.5x"},
		{10, "10.0x"},
		{9.999, "10.0x"},
		{1.04, "1.04x"},
		{2, "2.00x"},
		{0.5234, "0.523x"},
		{0.05, "0.0500x"},
		{0.5, "0.500x"},
		{0.99961, "1.00x"},
		{9.994, "9.99x"},
		{-2, "-2.00x"},
		{0, "0x"},
		{math.NaN(), ""},
		{math.Inf(1), "∞x"},
	}
	for _, tc := range tests {
		if got := FormatRatio(tc.in); got != tc.want {
			t.Errorf("FormatRatio(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFormatEstimate(t *testing.T) {
	tests := []struct {
		ms   float64
		want string
	}{
		{850, "850 ms"},
		{12_000, "12 s"},
		{210_000, "3.5 min"},
		{7_560_000, "2.1 h"},
		{0, "?"},
	}
	for _, tc := range tests {
		if got := formatEstimate(tc.ms); got != tc.want {
			t.Errorf("formatEstimate(%v) = %q, want %q", tc.ms, got, tc.want)
		}
	}
}

func sampleTable() Table {
	return Table{
		Title:  "kleene/table2 — ms",
		Header: []string{"impl", "n", "total", "speed-up"},
		Rows: [][]string{
			{"cpu/paper", "500", "66,997.8", "29.3x"},
			{"a|b", "1000", "1.2"}, // short row
			{"x, \"quoted\"", "5", "skipped (est. 3 s)", "—"},
		},
		Notes: []string{"first note", "second\nCHECK FAILED: x"},
	}
}

func TestRenderText(t *testing.T) {
	tb := sampleTable()
	var buf bytes.Buffer
	if err := tb.Render(&buf, "text"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if lines[0] != tb.Title {
		t.Errorf("first line %q, want the title", lines[0])
	}
	for _, want := range []string{"66,997.8", "29.3x", "a|b", "first note", "CHECK FAILED: x"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	// The header is kept as written (no upper-casing).
	if !strings.Contains(out, "impl") || strings.Contains(out, "IMPL") {
		t.Errorf("header altered:\n%s", out)
	}
	// Numbers are right-aligned: "500" and "1000" end in the same column,
	// and "impl" cells start in the same column.
	var row500, row1000 string
	for _, l := range lines {
		if strings.Contains(l, "cpu/paper") {
			row500 = l
		}
		if strings.Contains(l, "a|b") {
			row1000 = l
		}
	}
	if row500 == "" || row1000 == "" {
		t.Fatalf("rows missing:\n%s", out)
	}
	end := func(l, s string) int { return len([]rune(l[:strings.Index(l, s)])) + len([]rune(s)) }
	if a, b := end(row500, " 500 "), end(row1000, " 1000 "); a != b {
		t.Errorf("n column not right-aligned (%d vs %d):\n%s", a, b, out)
	}
	if a, b := end(row500, "66,997.8"), end(row1000, "1.2 "); a != b-1 {
		t.Errorf("total column not right-aligned (%d vs %d):\n%s", a, b-1, out)
	}
}

func TestRenderMarkdown(t *testing.T) {
	tb := sampleTable()
	var buf bytes.Buffer
	if err := tb.Render(&buf, "markdown"); err != nil {
		t.Fatal(err)
	}
	want := "### kleene/table2 — ms\n\n" +
		"| impl | n | total | speed-up |\n" +
		"| --- | ---: | ---: | ---: |\n" +
		"| cpu/paper | 500 | 66,997.8 | 29.3x |\n" +
		"| a\\|b | 1000 | 1.2 |  |\n" +
		"| x, \"quoted\" | 5 | skipped (est. 3 s) | — |\n" +
		"\nfirst note\n\nsecond\n\nCHECK FAILED: x\n"
	if got := buf.String(); got != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, want)
	}
	// Every table line has the same number of unescaped pipes.
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(l, "|") {
			if n := strings.Count(l, "|") - strings.Count(l, `\|`); n != 5 {
				t.Errorf("line %q has %d cell separators, want 5", l, n)
			}
		}
	}
}

func TestRenderMarkdownNewlineInCell(t *testing.T) {
	tb := Table{Header: []string{"a"}, Rows: [][]string{{"x\ny"}}}
	var buf bytes.Buffer
	if err := tb.Render(&buf, "markdown"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| x<br>y |") {
		t.Errorf("newline in a cell must become <br>:\n%s", buf.String())
	}
}

func TestRenderCSV(t *testing.T) {
	tb := sampleTable()
	var buf bytes.Buffer
	if err := tb.Render(&buf, "csv"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "# kleene/table2 — ms\n") {
		t.Errorf("csv does not start with the title comment:\n%s", out)
	}
	if !strings.HasSuffix(out, "# first note\n# second\n# CHECK FAILED: x\n") {
		t.Errorf("csv does not end with the notes as comments:\n%s", out)
	}
	if !strings.Contains(out, `,66997.8,`) || !strings.Contains(out, `"x, ""quoted"""`) {
		t.Errorf("csv quoting wrong:\n%s", out)
	}
	r := csv.NewReader(strings.NewReader(out))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("reading csv back: %v\n%s", err, out)
	}
	if len(recs) != 4 {
		t.Fatalf("got %d csv records, want 4 (header + 3 rows)", len(recs))
	}
	if recs[1][2] != "66997.8" || recs[3][0] != `x, "quoted"` || recs[2][3] != "" {
		t.Errorf("csv round trip: %q", recs)
	}
}

func TestRenderUnknownFormat(t *testing.T) {
	tb := sampleTable()
	err := tb.Render(&bytes.Buffer{}, "html")
	if err == nil {
		t.Fatal("no error for an unknown format")
	}
	for _, f := range Formats() {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not list %q", err, f)
		}
	}
}

func TestRenderEmpty(t *testing.T) {
	for _, f := range Formats() {
		tb := Table{Title: "empty"}
		var buf bytes.Buffer
		if err := tb.Render(&buf, f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if !strings.Contains(buf.String(), "empty") {
			t.Errorf("%s: title missing: %q", f, buf.String())
		}
	}
}

func TestNumericColumns(t *testing.T) {
	rows := [][]string{
		{"cpu/paper", "1,067.8", "skipped (est. 3 s)", "—", "2.1x", "12%"},
		{"cpu/fast", "3.5", "4.0", "", "0.5x", "n/a"},
		{"cuda", "", "5.0", "", "", "3%"},
	}
	got := numericColumns(rows, 6)
	want := []bool{false, true, true, false, true, true}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("column %d numeric = %v, want %v", i, got[i], want[i])
		}
	}
}

func testFile() *bench.File {
	return &bench.File{
		Schema:  bench.SchemaVersion,
		Machine: bench.Machine{Label: "host-a", CPU: "Test CPU", Cores: 2},
		Records: []bench.Record{
			{Experiment: "kleene/table2", Impl: "cpu/paper", Params: bench.Params{{Name: "n", Value: "500"}}, Status: bench.StatusOK,
				Phases: []bench.Phase{{Name: "update_w", StatMS: 142}, {Name: "total", StatMS: 143.9}},
				Check:  &bench.Check{OK: true, Method: "reference"}},
			{Experiment: "kleene/table2", Impl: "cpu/fast", Params: bench.Params{{Name: "n", Value: "500"}}, Status: bench.StatusCheckFailed,
				Phases: []bench.Phase{{Name: "update_w", StatMS: 10}, {Name: "total", StatMS: 12}},
				Check:  &bench.Check{OK: false, Detail: "W[3,4] differs"}},
			{Experiment: "kleene/table2", Impl: "cpu/paper", Params: bench.Params{{Name: "n", Value: "8000"}}, Status: bench.StatusSkipped, EstimateMS: 12_000},
			{Experiment: "kleene/table3", Impl: "cuda/paper", Params: bench.Params{{Name: "n", Value: "500"}, {Name: "gpu", Value: "0"}}, Status: bench.StatusUnavailable, Error: "no CUDA driver"},
		},
	}
}

func TestRecordsTable(t *testing.T) {
	f := testFile()
	all := RecordsTable(f, "")
	if len(all) != 2 {
		t.Fatalf("got %d tables, want 2 (one per experiment)", len(all))
	}
	t2 := all[0]
	wantHeader := []string{"impl", "n", "status", "update_w", "total", "check"}
	if strings.Join(t2.Header, "|") != strings.Join(wantHeader, "|") {
		t.Errorf("header %q, want %q", t2.Header, wantHeader)
	}
	wantRows := [][]string{
		{"cpu/paper", "500", "ok", "142.0", "143.9", "ok"},
		{"cpu/fast", "500", "check-failed", "10.0", "12.0", "FAILED: W[3,4] differs"},
		{"cpu/paper", "8000", "skipped (est. 12 s)", "", "", ""},
	}
	if len(t2.Rows) != len(wantRows) {
		t.Fatalf("got %d rows, want %d: %q", len(t2.Rows), len(wantRows), t2.Rows)
	}
	for i := range wantRows {
		if strings.Join(t2.Rows[i], "|") != strings.Join(wantRows[i], "|") {
			t.Errorf("row %d = %q, want %q", i, t2.Rows[i], wantRows[i])
		}
	}
	t3 := RecordsTable(f, "kleene/table3")
	if len(t3) != 1 || len(t3[0].Rows) != 1 {
		t.Fatalf("kleene/table3: %+v", t3)
	}
	if got := t3[0].Rows[0]; got[1] != "500" || got[2] != "0" || got[3] != "unavailable" {
		t.Errorf("table3 row %q", got)
	}
	if len(t3[0].Notes) == 0 || !strings.Contains(t3[0].Notes[0], "no CUDA driver") {
		t.Errorf("the error of a record should be a note: %q", t3[0].Notes)
	}
	if got := RecordsTable(f, "nope"); len(got) != 0 {
		t.Errorf("unknown experiment gave %d tables", len(got))
	}
}

// FuzzFormatMS checks that the printed number, separators removed, reads
// back within half a unit of its last printed digit, and that separators
// sit every three digits.
func FuzzFormatMS(f *testing.F) {
	for _, v := range []float64{0, 0.0123, 0.5, 1.6, 142, 999.95, 66997.8, 1234567.25, -1234.5, 1e15} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		s := FormatMS(v)
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e15 {
			return
		}
		intPart, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
		groups := strings.Split(intPart, ",")
		for i, g := range groups {
			if (i > 0 && len(g) != 3) || (i == 0 && (len(g) == 0 || len(g) > 3)) {
				t.Fatalf("FormatMS(%v) = %q: bad grouping", v, s)
			}
		}
		back, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		if err != nil {
			t.Fatalf("FormatMS(%v) = %q does not parse: %v", v, s, err)
		}
		tol := 0.5 * math.Pow(10, -float64(len(frac)))
		if math.Abs(back-v) > tol+math.Abs(v)*1e-15 { // a few ulps of float noise
			t.Fatalf("FormatMS(%v) = %q reads back as %v (tolerance %v)", v, s, back, tol)
		}
	})
}

// FuzzMarkdownCell checks that no cell text can break a pipe table's
// column count or its rows.
func FuzzMarkdownCell(f *testing.F) {
	for _, s := range []string{"a|b", `a\|b`, "x\ny", "|", "\r\n|"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cell string) {
		tb := Table{Header: []string{"h1", "h2"}, Rows: [][]string{{cell, "z"}}}
		var buf bytes.Buffer
		if err := tb.Render(&buf, "markdown"); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("cell %q gave %d lines:\n%s", cell, len(lines), buf.String())
		}
		row := lines[2]
		// GitHub splits cells at every '|' not directly after a backslash.
		n := 0
		for i := range row {
			if row[i] == '|' && (i == 0 || row[i-1] != '\\') {
				n++
			}
		}
		if n != 3 {
			t.Fatalf("cell %q gave row %q with %d separators, want 3", cell, row, n)
		}
	})
}

func TestPhaseText(t *testing.T) {
	f := testFile()
	tests := []struct {
		r     *bench.Record
		phase string
		want  string
	}{
		{&f.Records[0], "update_w", "142.0"},
		{&f.Records[0], "h2d", "—"},
		{&f.Records[1], "total", "12.0 (check failed)"},
		{&f.Records[2], "total", "skipped (est. 12 s)"},
		{&f.Records[3], "total", "unavailable"},
		{&bench.Record{Status: bench.StatusSkipped}, "total", "skipped"},
		{&bench.Record{Status: bench.StatusFailed, Error: "boom"}, "total", "failed"},
		{nil, "total", ""},
	}
	for i, tc := range tests {
		if got := PhaseText(tc.r, tc.phase); got != tc.want {
			t.Errorf("case %d: PhaseText = %q, want %q", i, got, tc.want)
		}
	}
}

// TestUnsteadyMark checks that a bimodal cell is marked in the text and that
// rendering adds the unsteady note without changing the table's notes.
func TestUnsteadyMark(t *testing.T) {
	bimodal := []float64{11, 12, 25, 11.5, 28}
	r := &bench.Record{Status: bench.StatusOK, Phases: []bench.Phase{{Name: bench.TotalPhase, SamplesMS: bimodal, MedianMS: 12, StatMS: 12}}}
	if got := PhaseText(r, bench.TotalPhase); got != "12.0 ±133%" && !strings.HasSuffix(got, "±133%") {
		t.Errorf("PhaseText = %q, want the ±133%% mark", got)
	}
	tb := Table{Header: []string{"a"}, Rows: [][]string{{PhaseText(r, bench.TotalPhase)}}}
	var b strings.Builder
	if err := tb.Render(&b, FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), UnsteadyNote) {
		t.Errorf("rendered table lacks the unsteady note:\n%s", b.String())
	}
	if len(tb.Notes) != 0 {
		t.Error("Render changed the table's notes")
	}
}

// TestCSVIsNumeric: CSV cells are plain numbers, a spread mark its own
// column, ratios without their x, a dash empty, text as it is.
func TestCSVIsNumeric(t *testing.T) {
	tb := Table{Header: []string{"n", "ms", "ratio", "note"}, Rows: [][]string{
		{"4,096", "1,234.5 ±28%", "3.39x", "skipped (est. 1 s)"},
		{"512", "0.02", "—", ""},
	}}
	var b strings.Builder
	if err := tb.Render(&b, FormatCSV); err != nil {
		t.Fatal(err)
	}
	want := "n,ms,ms spread %,ratio,note\n4096,1234.5,28,3.39,skipped (est. 1 s)\n512,0.02,,,\n"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
	// Shares, units and the parts of a " · " cell get columns of their own.
	tb = Table{Header: []string{"phase", "memory", "counts"}, Rows: [][]string{
		{"1,523.8 (62%)", "0.07KB", "1 · 32,249 · 5 s"},
		{"—", "12 MB", "— · — · —"},
		{"3.5", "n/a", "a · 2"},
	}}
	b.Reset()
	if err := tb.Render(&b, FormatCSV); err != nil {
		t.Fatal(err)
	}
	want = "phase,phase share %,memory,memory unit,counts,counts 1,counts 2,counts 3,counts 3 unit\n" +
		"1523.8,62,0.07,KB,,1,32249,5,s\n,,12,MB,,,,,\n3.5,,n/a,,a · 2,,,,\n"
	if b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
	// Issue 56, item 10: a span is two columns, a footnote mark and the
	// words after a number are columns of their own.
	tb = Table{Header: []string{"middle half", "count", "time"}, Rows: [][]string{
		{"0.196-0.221x", "2,097,024 ok", "1.0 ±30% †"},
		{"0.93-1.01", "17", "2.5"},
		{"—", "3 ≠ 4", "n/a"},
	}}
	b.Reset()
	if err := tb.Render(&b, FormatCSV); err != nil {
		t.Fatal(err)
	}
	want = "middle half low,middle half high,count,count note,time,time mark,time spread %\n" +
		"0.196,0.221,2097024,ok,1.0,†,30\n0.93,1.01,17,,2.5,,\n,,3,≠ 4,n/a,,\n"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestCollapsedGPUTable: a table whose own cells are all unavailable (the
// paper's column and the parameters aside) renders as one line naming the
// implementations and their reason; one measured cell keeps it whole, and
// CSV always keeps every cell.
func TestCollapsedGPUTable(t *testing.T) {
	gpu := Table{Title: "kleene/table3 — on the GPU",
		Header: []string{"n", "phase", "paper (Tesla C2075)", "cuda/paper", "cuda/fast", "cuda/paper / cuda/fast"},
		Rows: [][]string{
			{"500", "Total", "22.0", "unavailable", "unavailable", "—"},
			{"1000", "Total", "78.2", "unavailable", "unavailable", "—"},
		},
		Notes: []string{"Total is the headline.", "cuda/paper: CUDA unavailable: no driver", "cuda/fast: CUDA unavailable: no driver"},
	}
	var b strings.Builder
	if err := gpu.Render(&b, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	want := "### kleene/table3 — on the GPU\n\nNot measured: its implementations are unavailable on this machine (cuda/paper, cuda/fast: CUDA unavailable: no driver).\n"
	if got := b.String(); !strings.HasPrefix(got, want) || strings.Contains(got, "|") {
		t.Errorf("collapsed table:\n%s\nwant:\n%s", got, want)
	}
	b.Reset()
	if err := gpu.Render(&b, FormatCSV); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "unavailable,unavailable") {
		t.Errorf("CSV should keep every cell:\n%s", b.String())
	}
	mixed := gpu
	mixed.Rows = [][]string{{"500", "Total", "22.0", "unavailable", "3.1", "—"}}
	b.Reset()
	if err := mixed.Render(&b, FormatText); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "3.1") {
		t.Errorf("a table with a measured cell collapsed:\n%s", b.String())
	}
	none := gpu
	none.Rows = [][]string{{"500", "Total", "22.0", "—", "—", "—"}}
	if none.collapsed() != nil {
		t.Error("a table with no unavailable cell collapsed (its reason is not unavailability)")
	}
	cpuFirst := Table{Title: "apsp/systolic",
		Header: []string{"n", "processors", "steps", "c11 out", "cuda/systolic"},
		Rows:   [][]string{{"4", "25", "17", "17", "unavailable"}}}
	if cpuFirst.collapsed() != nil {
		t.Error("a table whose leading columns are measurements collapsed")
	}
}

// TestOffset: a figure and a band's edge printed alike ("10.0x") are told
// apart, with the side.
func TestOffset(t *testing.T) {
	for _, c := range []struct {
		x, edge float64
		want    string
	}{{10.004, 10, "0.04% above"}, {9.99988, 10, "0.0012% below"}, {10, 10, "exactly at"}, {12, 10, "20% above"}} {
		if got := Offset(c.x, c.edge); got != c.want {
			t.Errorf("Offset(%v, %v) = %q, want %q", c.x, c.edge, got, c.want)
		}
	}
	if FormatRatio(10.004) != FormatRatio(10) {
		t.Skip("FormatRatio now tells 10.004 from 10 by itself")
	}
}
