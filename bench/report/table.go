package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Table is a rendered-format-neutral table: a title, a header row, data rows
// of preformatted cells, and notes printed below it. Rows may be shorter than
// the header (missing cells are blank) or longer (extra header cells are
// blank).
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Notes  []string
	// Width, when positive, is the widest a text rendering may be: its
	// long columns wrap, words kept whole (fitColumns), and its title and
	// notes wrap at spaces. 0 leaves every cell on one line.
	Width int
	// CSV, when set, holds the header and rows that CSV writes in place
	// of Header and Rows (its title and notes are t's): the same table
	// with each figure in a column of its own where the display joins
	// several in one cell.
	CSV *Table
}

// Output formats understood by Table.Render.
const (
	FormatText     = "text"     // aligned columns, numbers right-aligned
	FormatMarkdown = "markdown" // a GitHub pipe table
	FormatCSV      = "csv"      // RFC 4180, title and notes as "# " comment lines
)

// Formats lists the formats Table.Render accepts.
func Formats() []string { return []string{FormatText, FormatMarkdown, FormatCSV} }

// Render writes t to w in the named format (see Formats): "text" is an
// aligned table with numeric columns right-aligned, the title above and the
// notes below; "markdown" is a GitHub pipe table under a "### Title" heading
// with '|' escaped in cells and the notes as paragraphs below; "csv" is
// encoding/csv output with the title before and the notes after as "# "
// comment lines (read it back with csv.Reader.Comment = '#'). In text and
// Markdown a table of which nothing was measured because its
// implementations are unavailable here (a GPU table on a machine without
// one) is one line saying so; CSV keeps every cell.
func (t *Table) Render(w io.Writer, format string) error {
	t = t.withUnsteadyNote()
	if format != FormatCSV {
		if c := t.collapsed(); c != nil {
			t = c
		}
	}
	var err error
	switch format {
	case FormatText:
		err = t.renderText(w)
	case FormatMarkdown:
		err = t.renderMarkdown(w)
	case FormatCSV:
		err = t.renderCSV(w)
	default:
		return fmt.Errorf("unknown table format %q (valid: %s)", format, strings.Join(Formats(), ", "))
	}
	if err != nil {
		return fmt.Errorf("rendering table %q as %s: %w", t.Title, format, err)
	}
	return nil
}

// unsteadyCell matches the mark PhaseText puts on an unsteady cell.
var unsteadyCell = regexp.MustCompile(` ±[0-9]+%`)

// UnsteadyNote explains the mark of a cell whose samples spread more than
// SpreadLimit around their median.
var UnsteadyNote = fmt.Sprintf("±N%%: the cell's samples spread N%% around their median (more than %.0f%%): an unsteady measurement; every sample is in the result file.", 100*bench.SpreadLimit)

// withUnsteadyNote returns t, or a copy with UnsteadyNote added when a cell
// carries the mark and the note is not there yet.
func (t *Table) withUnsteadyNote() *Table {
	if slices.Contains(t.Notes, UnsteadyNote) {
		return t
	}
	for _, r := range t.Rows {
		for _, c := range r {
			if unsteadyCell.MatchString(c) {
				u := *t
				u.Notes = append(slices.Clone(t.Notes), UnsteadyNote)
				return &u
			}
		}
	}
	return t
}

// grid returns the header and rows padded to a common width.
func (t *Table) grid() (header []string, rows [][]string) {
	n := len(t.Header)
	for _, r := range t.Rows {
		n = max(n, len(r))
	}
	pad := func(r []string) []string {
		out := make([]string, n)
		copy(out, r)
		return out
	}
	header = pad(t.Header)
	rows = make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = pad(r)
	}
	return header, rows
}

// numericColumns reports, per column, whether it holds numbers: at least
// one cell parses as a number (with thousands separators, a trailing "x" or
// "%" allowed) and no fewer than half of its non-blank, non-dash cells do.
func numericColumns(rows [][]string, ncol int) []bool {
	out := make([]bool, ncol)
	for c := range ncol {
		num, other := 0, 0
		for _, r := range rows {
			s := strings.TrimSpace(r[c])
			switch {
			case s == "" || s == "—" || s == "-":
			case isNumeric(s):
				num++
			default:
				other++
			}
		}
		out[c] = num > 0 && num >= other
	}
	return out
}

// isNumeric reports whether s reads as a number as this package prints
// them: "66,997.8", "-3", "29.3x", "12%", "1e-05".
func isNumeric(s string) bool {
	s = strings.TrimSuffix(strings.TrimSuffix(s, "x"), "%")
	s = strings.ReplaceAll(s, ",", "")
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func (t *Table) renderText(w io.Writer) error {
	header, rows := t.grid()
	numeric := numericColumns(rows, len(header))
	header, rows = fitColumns(header, rows, numeric, t.Width)
	var buf bytes.Buffer
	if t.Title != "" {
		buf.WriteString(t.wrapLine(t.Title) + "\n")
	}
	if len(header) > 0 {
		aligns := make(tw.Alignment, len(header))
		for i, num := range numeric {
			aligns[i] = tw.AlignLeft
			if num {
				aligns[i] = tw.AlignRight
			}
		}
		cell := func(a tw.Alignment) tw.CellConfig {
			return tw.CellConfig{
				Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone, AutoFormat: tw.Off},
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft, PerColumn: a},
				Padding:    tw.CellPadding{Global: tw.Padding{Left: " ", Right: " ", Overwrite: true}},
			}
		}
		tbl := tablewriter.NewTable(&buf,
			tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleLight)})),
			tablewriter.WithHeaderConfig(cell(aligns)),
			tablewriter.WithRowConfig(cell(aligns)),
			tablewriter.WithBehavior(tw.Behavior{AutoHide: tw.Off, TrimSpace: tw.Off}),
		)
		if len(t.Header) > 0 {
			tbl.Header(anySlice(header)...)
		}
		for _, r := range rows {
			if err := tbl.Append(anySlice(r)...); err != nil {
				return err
			}
		}
		if err := tbl.Render(); err != nil {
			return err
		}
	}
	for _, n := range t.Notes {
		buf.WriteString(t.wrapLine(n) + "\n")
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// wrapLine wraps a title or note to t.Width, when set.
func (t *Table) wrapLine(s string) string {
	if t.Width <= 0 || textWidth(s) <= t.Width {
		return s
	}
	return wrapText(s, t.Width)
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// mdEscape makes s safe inside a GitHub pipe-table cell: '\' and '|' are
// backslash-escaped (GitHub splits cells at every '|' not directly after a
// backslash, then reads "\\" as one backslash) and line breaks become <br>.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `|`, `\|`)
	s = strings.ReplaceAll(s, "\r\n", "<br>")
	s = strings.ReplaceAll(s, "\n", "<br>")
	s = strings.ReplaceAll(s, "\r", "<br>")
	return strings.TrimSpace(s)
}

func (t *Table) renderMarkdown(w io.Writer) error {
	header, rows := t.grid()
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("### " + strings.ReplaceAll(t.Title, "\n", " ") + "\n\n")
	}
	if len(header) > 0 {
		line := func(cells []string) {
			b.WriteString("|")
			for _, c := range cells {
				b.WriteString(" " + mdEscape(c) + " |")
			}
			b.WriteString("\n")
		}
		line(header)
		b.WriteString("|")
		for _, num := range numericColumns(rows, len(header)) {
			if num {
				b.WriteString(" ---: |")
			} else {
				b.WriteString(" --- |")
			}
		}
		b.WriteString("\n")
		for _, r := range rows {
			line(r)
		}
	}
	for i, n := range t.Notes {
		for j, l := range slices.Collect(strings.SplitSeq(n, "\n")) {
			if i > 0 || j > 0 || len(header) > 0 {
				b.WriteString("\n") // a blank line between paragraphs, none after the heading's
			}
			b.WriteString(l + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (t *Table) renderCSV(w io.Writer) error {
	if t.CSV != nil {
		u := *t
		u.Header, u.Rows, u.CSV = t.CSV.Header, t.CSV.Rows, nil
		return u.renderCSV(w)
	}
	header, rows := numericGrid(t.grid())
	var buf bytes.Buffer
	comment := func(s string) {
		for l := range strings.SplitSeq(s, "\n") {
			buf.WriteString("# " + l + "\n")
		}
	}
	if t.Title != "" {
		comment(t.Title)
	}
	cw := csv.NewWriter(&buf)
	if len(t.Header) > 0 {
		if err := cw.Write(header); err != nil {
			return err
		}
	}
	if err := cw.WriteAll(rows); err != nil { // WriteAll flushes
		return err
	}
	for _, n := range t.Notes {
		comment(n)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// The marks a display cell carries beside its number: a footnote mark
// (" †"), a spread (" ±28%"), a share ("1,523.8 (62%)"), a unit ("0.07KB",
// "3 s"), words after it ("2,097,024 ok"); and a span of two ("0.93-1.01",
// "0.196x-0.221x").
var (
	footMark   = regexp.MustCompile(`^(.*\S) ?([†‡§¶*]+)$`)
	spreadMark = regexp.MustCompile(`^(.*) ±([0-9]+(?:\.[0-9]+)?)%$`)
	shareMark  = regexp.MustCompile(`^(.*\S) \(([0-9]+(?:\.[0-9]+)?)%\)$`)
	unitMark   = regexp.MustCompile(`^(` + plainNumber + `) ?(KB|MB|GB|TB|KiB|MiB|GiB|TiB|B|ns|µs|us|ms|s|min|h|%)$`)
	wordsMark  = regexp.MustCompile(`^(` + plainNumber + `x?) +([^0-9 ±].*)$`)
	spanMark   = regexp.MustCompile(`^([0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)x?-([0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)x?$`)
)

// plainNumber is a number as this package prints it: "-1,234.5", "1e-05".
const plainNumber = `-?[0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?`

// csvField is one CSV column's part of a display cell: name "" for the
// number itself, else the suffix of the column it goes in.
type csvField struct{ name, value string }

// numericFields splits one display value into its CSV fields, one number
// each: the plain number ("1,234.5" is 1234.5, "3.39x" 3.39, "—" empty)
// and, each a field of its own, its footnote mark ("mark"), spread
// ("spread %"), share ("share %"), unit ("unit") and the words after it
// ("note"); a span "lo-hi" is two fields, "low" and "high". Text stays as
// it is (ok false).
func numericFields(s string) (fields []csvField, ok bool) {
	s = strings.TrimSpace(s)
	if m := spanMark.FindStringSubmatch(s); m != nil {
		return []csvField{{"low", strings.ReplaceAll(m[1], ",", "")}, {"high", strings.ReplaceAll(m[2], ",", "")}}, true
	}
	if m := footMark.FindStringSubmatch(s); m != nil {
		if _, ok := numericFields(m[1]); ok {
			s, fields = m[1], append(fields, csvField{"mark", m[2]})
		}
	}
	if m := spreadMark.FindStringSubmatch(s); m != nil {
		s, fields = strings.TrimSpace(m[1]), append(fields, csvField{"spread %", m[2]})
	}
	if m := shareMark.FindStringSubmatch(s); m != nil {
		s, fields = m[1], append(fields, csvField{"share %", m[2]})
	}
	if m := unitMark.FindStringSubmatch(s); m != nil && m[2] != "" {
		s, fields = m[1], append(fields, csvField{"unit", m[2]})
	} else if m := wordsMark.FindStringSubmatch(s); m != nil {
		s, fields = m[1], append(fields, csvField{"note", m[2]})
	}
	switch s {
	case "", "—":
		return append([]csvField{{"", ""}}, fields...), true
	}
	num := strings.ReplaceAll(strings.TrimSuffix(s, "x"), ",", "")
	if _, err := strconv.ParseFloat(num, 64); err == nil {
		return append([]csvField{{"", num}}, fields...), true
	}
	return []csvField{{"", s}}, false
}

// cellFields splits a display cell into its CSV fields (numericFields); a
// cell of several numbers joined by " · " gives each its own fields, named
// by its place ("1", "2 unit", ...). A cell that is not all numbers stays
// one field of text.
func cellFields(s string) []csvField {
	parts := strings.Split(s, " · ")
	if len(parts) == 1 {
		f, _ := numericFields(s)
		return f
	}
	var out []csvField
	for i, p := range parts {
		f, ok := numericFields(p)
		if !ok {
			return []csvField{{"", strings.TrimSpace(s)}}
		}
		for _, x := range f {
			out = append(out, csvField{strings.TrimSpace(strconv.Itoa(i+1) + " " + x.name), x.value})
		}
	}
	return out
}

// numericGrid makes every number of a table's grid plain, and gives what a
// column's cells carry beside their numbers (spreads, shares, units, the
// parts of " · " cells) columns of their own after it, named
// "<column> spread %", "<column> share %", "<column> unit", "<column> 1".
func numericGrid(header []string, rows [][]string) ([]string, [][]string) {
	width := len(header)
	for _, r := range rows {
		width = max(width, len(r))
	}
	cells := make([][][]csvField, len(rows))
	names := make([][]string, width) // per column, its fields' names in order of appearance
	for i, r := range rows {
		cells[i] = make([][]csvField, len(r))
		for j, c := range r {
			cells[i][j] = cellFields(c)
			for _, f := range cells[i][j] {
				if !slices.Contains(names[j], f.name) {
					names[j] = append(names[j], f.name)
				}
			}
		}
	}
	for j := range names { // a column of spans and dashes: no column for the dashes' empty number
		if len(names[j]) > 1 && slices.Contains(names[j], "") && allEmpty(cells, j, "") {
			names[j] = slices.DeleteFunc(names[j], func(n string) bool { return n == "" })
		}
	}
	var outHeader []string
	for j, h := range header {
		slices.SortStableFunc(names[j], func(a, b string) int { return cmp.Compare(min(len(a), 1), min(len(b), 1)) }) // the number ("") first
		for _, n := range names[j] {
			outHeader = append(outHeader, strings.TrimSpace(h+" "+n))
		}
		if len(names[j]) == 0 {
			outHeader = append(outHeader, h)
		}
	}
	out := make([][]string, len(rows))
	for i := range rows {
		for j, fs := range cells[i] {
			for _, n := range names[j] {
				v := ""
				if k := slices.IndexFunc(fs, func(f csvField) bool { return f.name == n }); k >= 0 {
					v = fs[k].value
				}
				out[i] = append(out[i], v)
			}
		}
	}
	return outHeader, out
}

// allEmpty reports whether every row's field name of column j is empty
// or absent.
func allEmpty(cells [][][]csvField, j int, name string) bool {
	for _, r := range cells {
		if j < len(r) {
			for _, f := range r[j] {
				if f.name == name && f.value != "" {
					return false
				}
			}
		}
	}
	return true
}

// groupThousands inserts a comma every three digits of the integer part of
// a decimal number string: "66997.8" becomes "66,997.8".
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		sign, s = s[:1], s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// formatSmall prints a magnitude below one with two significant digits and
// no exponent: 0.0123 becomes "0.012".
func formatSmall(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// round2 rounds x to two significant digits.
func round2(x float64) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	if err != nil {
		return x
	}
	return v
}

// FormatMS prints milliseconds the way the papers print them: one decimal
// and thousands separators ("66,997.8"). Values that would print as "0.x"
// with one decimal get two significant digits instead ("0.012", "0.5",
// "0.95"), so GPU phases of small instances stay readable; 0 prints as
// "0.0". NaN prints as "" (no value); infinities as "∞" / "-∞".
func FormatMS(ms float64) string {
	switch {
	case math.IsNaN(ms):
		return ""
	case math.IsInf(ms, 1):
		return "∞"
	case math.IsInf(ms, -1):
		return "-∞"
	}
	s := strconv.FormatFloat(ms, 'f', 1, 64)
	if ms != 0 && strings.HasPrefix(strings.TrimPrefix(s, "-"), "0.") {
		return formatSmall(round2(ms))
	}
	if s == "-0.0" {
		s = "0.0"
	}
	return groupThousands(s)
}

// FormatRatio prints a speed ratio with an "x": one decimal from 10 up
// ("29.3x", "1,234.5x"), three significant digits below ("1.04x", "2.00x",
// "0.523x", "0.0500x"). NaN prints as "" and an infinite ratio as "∞x".
func FormatRatio(x float64) string {
	switch {
	case math.IsNaN(x):
		return ""
	case math.IsInf(x, 0):
		if x < 0 {
			return "-∞x"
		}
		return "∞x"
	case math.Abs(x) >= 9.995:
		return groupThousands(strconv.FormatFloat(x, 'f', 1, 64)) + "x"
	case x == 0:
		return "0x"
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	if err != nil {
		v = x
	}
	// Three significant digits, trailing zeros kept: "2.00x", "0.500x".
	decimals := max(2-int(math.Floor(math.Log10(math.Abs(v)))), 1)
	return strconv.FormatFloat(v, 'f', decimals, 64) + "x"
}

// formatEstimate prints a skipped cell's estimated time in a unit a reader
// takes in at a glance: "850 ms", "12 s", "3.5 min", "2.1 h".
func formatEstimate(ms float64) string {
	switch {
	case math.IsNaN(ms) || ms <= 0:
		return "?"
	case ms < 1000:
		return strconv.FormatFloat(math.Round(ms), 'f', -1, 64) + " ms"
	case ms < 60e3:
		return strconv.FormatFloat(math.Round(ms/1e3), 'f', -1, 64) + " s"
	case ms < 3600e3:
		return strconv.FormatFloat(ms/60e3, 'f', 1, 64) + " min"
	}
	return groupThousands(strconv.FormatFloat(ms/3600e3, 'f', 1, 64)) + " h"
}

// StatusText is the cell text of a record that carries no time: the status,
// with the estimate of a skipped cell ("skipped (est. 12 s)"). It returns ""
// for records whose status is ok or check-failed, and for nil.
func StatusText(r *bench.Record) string {
	if r == nil {
		return ""
	}
	switch r.Status {
	case bench.StatusOK, bench.StatusCheckFailed:
		return ""
	case bench.StatusSkipped:
		if r.EstimateMS > 0 {
			return "skipped (est. " + formatEstimate(r.EstimateMS) + ")"
		}
		return bench.StatusSkipped
	}
	return r.Status
}

// PhaseText is the cell text of one phase of a record: its statistic,
// marked "(check failed)" when the output failed its check; the status text
// when the record did not run; "—" when the record ran without that phase;
// "" for a nil record.
func PhaseText(r *bench.Record, phase string) string {
	if r == nil {
		return ""
	}
	if s := StatusText(r); s != "" {
		return s
	}
	p := r.Phase(phase)
	if p == nil {
		return "—"
	}
	s := FormatMS(p.StatMS)
	if p.Unsteady() {
		s += fmt.Sprintf(" ±%.0f%%", 100*p.Spread())
	}
	if r.Status == bench.StatusCheckFailed {
		s += " (check failed)"
	}
	return s
}

// checkText is a record's check verdict for a table cell.
func checkText(r *bench.Record) string {
	switch {
	case r.Check == nil:
		return ""
	case r.Check.OK:
		return "ok"
	case r.Check.Detail != "":
		return "FAILED: " + r.Check.Detail
	}
	return "FAILED"
}

// RecordsTable is the generic table of a result file, for experiments that
// have no layout of their own: one table per experiment (only the named
// one unless experiment is ""), in the file's order, with a row per record:
// implementation, one column per parameter, status, each phase's statistic
// in ms and the check verdict. Failed records' errors become notes.
func RecordsTable(f *bench.File, experiment string) []Table {
	var order []string
	byExp := map[string][]*bench.Record{}
	for i := range f.Records {
		r := &f.Records[i]
		if experiment != "" && r.Experiment != experiment {
			continue
		}
		if _, ok := byExp[r.Experiment]; !ok {
			order = append(order, r.Experiment)
		}
		byExp[r.Experiment] = append(byExp[r.Experiment], r)
	}
	var out []Table
	for _, exp := range order {
		recs := byExp[exp]
		var params, phases []string
		for _, r := range recs {
			for _, p := range r.Params {
				params = appendNew(params, p.Name)
			}
			for _, p := range r.Phases {
				phases = appendNew(phases, p.Name)
			}
		}
		t := Table{Title: exp + " — " + fileLabel(f, 0) + ", ms"}
		t.Header = append(t.Header, "impl")
		t.Header = append(t.Header, params...)
		t.Header = append(t.Header, "status")
		t.Header = append(t.Header, phases...)
		t.Header = append(t.Header, "check")
		for _, r := range recs {
			row := []string{r.Impl}
			for _, p := range params {
				row = append(row, r.Params.Get(p))
			}
			status := r.Status
			if s := StatusText(r); s != "" {
				status = s
			}
			row = append(row, status)
			for _, p := range phases {
				if StatusText(r) != "" {
					row = append(row, "")
					continue
				}
				if ph := r.Phase(p); ph != nil {
					row = append(row, FormatMS(ph.StatMS))
				} else {
					row = append(row, "—")
				}
			}
			row = append(row, checkText(r))
			t.Rows = append(t.Rows, row)
			if r.Error != "" {
				t.Notes = append(t.Notes, fmt.Sprintf("%s %s: %s", r.Impl, r.Params, r.Error))
			}
		}
		if f.Source != "" {
			t.Notes = append(t.Notes, "Source: "+f.Source)
		}
		out = append(out, t)
	}
	return out
}

// appendNew appends s unless xs already holds it.
func appendNew(xs []string, s string) []string {
	for _, x := range xs {
		if x == s {
			return xs
		}
	}
	return append(xs, s)
}

// fileLabel is a file's machine label, or "file N" (1-based) without one.
func fileLabel(f *bench.File, i int) string {
	if f != nil && f.Machine.Label != "" {
		return f.Machine.Label
	}
	return "file " + strconv.Itoa(i+1)
}

// Band renders a tolerance band, "(6.40x-10.0x)", with format; where x
// prints like an edge though it differs, it says on which side x lies:
// "(6.40x-10.0x; ours is 0.04% above its upper edge)".
func Band(format func(float64) string, lo, hi, x float64) string {
	s := format(lo) + "-" + format(hi)
	for _, e := range []struct {
		name string
		v    float64
	}{{"lower", lo}, {"upper", hi}} {
		if format(x) == format(e.v) {
			s += "; ours is " + Offset(x, e.v) + " its " + e.name + " edge"
		}
	}
	return "(" + s + ")"
}

// Offset says where x lies from edge, relative to edge, with the digits
// it takes to tell them apart: "0.04% above", "0.0012% below", "exactly
// at". A verdict adds it where its figures print alike ("10.0x" and a band
// ending at "10.0x").
func Offset(x, edge float64) string {
	if x == edge {
		return "exactly at"
	}
	rel := (x/edge - 1) * 100
	side := "above"
	if rel < 0 {
		side = "below"
	}
	return strconv.FormatFloat(math.Abs(rel), 'g', 2, 64) + "% " + side
}
