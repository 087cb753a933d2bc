package experiments

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/outfile"
	"github.com/semibench/semibench/internal/suggest"
)

// experimentsIn lists the experiment names of recs in first-seen order.
func experimentsIn(recs []bench.Record) []string {
	var names []string
	for _, r := range recs {
		if !slices.Contains(names, r.Experiment) {
			names = append(names, r.Experiment)
		}
	}
	return names
}

// inPaperOrder sorts experiment names by their paper's file (000 first),
// then by name; names this binary does not know go last.
func inPaperOrder(names []string) []string {
	out := slices.Clone(names)
	paper := func(n string) string {
		if e := registry[n]; e != nil {
			return e.Paper
		}
		return "~"
	}
	slices.SortStableFunc(out, func(a, b string) int {
		if c := strings.Compare(paper(a), paper(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out
}

// section is one experiment's tables in a rendering.
type section struct {
	experiment string
	tables     []report.Table
}

// RenderTables returns the tables of every experiment in f (or only the
// named one): each experiment's own layout beside the paper's numbers, or
// the generic record table for experiments this binary does not know. The
// last table of an experiment ends with a note per paper claim it covers.
func RenderTables(f *bench.File, only string) ([]report.Table, error) {
	return RenderTablesWith(f, only, nil)
}

// RenderTablesWith is RenderTables with the claims' notes judged with the
// machine kind's history h (JudgeWith; nil: the run alone).
func RenderTablesWith(f *bench.File, only string, h *History) ([]report.Table, error) {
	secs, err := renderSections(f, only, h)
	var out []report.Table
	for _, s := range secs {
		out = append(out, s.tables...)
	}
	return out, err
}

// renderSections is RenderTables, kept per experiment, the claims judged
// with h (nil: the run alone).
func renderSections(f *bench.File, only string, h *History) ([]section, error) {
	var out []section
	var judged []Claim
	found := false
	for _, name := range inPaperOrder(experimentsIn(f.Records)) {
		if only != "" && name != only {
			continue
		}
		found = true
		e := registry[name]
		if e == nil || e.Tables == nil {
			out = append(out, section{name, report.RecordsTable(f, name)})
			continue
		}
		tables := e.Tables(f.Records)
		if judged == nil {
			judged = JudgeFileWith(f, h)
		}
		if len(tables) > 0 {
			last := &tables[len(tables)-1]
			last.Notes = slices.Clone(last.Notes)
			for _, c := range judged {
				if c.Experiment == name {
					last.Notes = append(last.Notes, c.Note())
				}
			}
		}
		out = append(out, section{name, tables})
	}
	if only != "" && !found {
		return nil, fmt.Errorf("no records of experiment %q in the file%s", only, suggest.Closest(only, experimentsIn(f.Records)))
	}
	return out, nil
}

// RenderPlots writes every figure of the experiments in f to dir as PNG and
// SVG and returns the paths written. A figure with nothing to draw
// (report.Plot.Empty) is not written: PlotsNotDrawn says why in the report.
func RenderPlots(f *bench.File, dir string) ([]string, error) {
	var paths []string
	for _, p := range plotsOf(f) {
		if p.Empty() {
			continue
		}
		written, err := p.Save(dir)
		if err != nil {
			return paths, fmt.Errorf("plot %s: %w", p.Name, err)
		}
		paths = append(paths, written...)
	}
	return paths, nil
}

// plotsOf is every figure of the experiments in f, in the experiments'
// order.
func plotsOf(f *bench.File) []report.Plot {
	var out []report.Plot
	for _, name := range experimentsIn(f.Records) {
		if e := registry[name]; e != nil && e.Plots != nil {
			out = append(out, e.Plots(f.Records)...)
		}
	}
	return out
}

// PlotsNotDrawn lists, one line each, the figures of f's experiments that
// RenderPlots does not write because they have nothing to draw, with their
// notes (why: "cuda/paper: unavailable on this machine (no GPU)").
func PlotsNotDrawn(f *bench.File) []string {
	var out []string
	for _, p := range plotsOf(f) {
		if !p.Empty() {
			continue
		}
		why := "nothing measured"
		if len(p.Notes) > 0 {
			why += ": " + strings.Join(p.Notes, "; ")
		}
		out = append(out, p.Name+": not drawn, "+why)
	}
	return out
}

// WriteReport writes a Markdown report of f's tables to path, atomically
// (internal/outfile: a report that cannot be completed leaves the old one,
// a symlink is written through, a device or folder is refused). It opens
// with the summary (see writeSummary); budget is the run's --budget (0:
// none), which the result file does not keep.
func WriteReport(path string, f *bench.File, plots []string, budget time.Duration) error {
	return WriteRunReport(path, f, plots, budget, time.Time{})
}

// WriteRunReport is WriteReport at the end of the run itself: ended is
// when its plots were written, and the report states the run's time from
// its start to its report (zero: a report written later, which does not).
func WriteRunReport(path string, f *bench.File, plots []string, budget time.Duration, ended time.Time) error {
	return WriteRunReportWith(path, f, plots, budget, ended, nil)
}

// WriteRunReportWith is WriteRunReport with the claims judged with the
// history of the run's machine kind (JudgeWith; nil: the run alone); the
// summary then says which verdicts history changed.
func WriteRunReportWith(path string, f *bench.File, plots []string, budget time.Duration, ended time.Time, h *History) error {
	secs, err := renderSections(f, "", h)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return outfile.Write(context.Background(), path, func(w *bufio.Writer) error {
		return writeReport(w, f, secs, dir, plots, budget, ended, h)
	})
}

// writeReport renders the report of WriteReport to w; dir is the report's
// folder, which the plots' links are relative to.
func writeReport(w *bufio.Writer, f *bench.File, secs []section, dir string, plots []string, budget time.Duration, ended time.Time, h *History) error {
	writeSummary(w, f, budget, secs, ended, h)
	for _, s := range secs {
		for i := range s.tables {
			if err := s.tables[i].Render(w, "markdown"); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
	}
	notDrawn := PlotsNotDrawn(f)
	if len(plots) > 0 || len(notDrawn) > 0 {
		fmt.Fprintln(w, "## Plots")
		fmt.Fprintln(w)
		for _, n := range notDrawn {
			fmt.Fprintf(w, "- %s\n", n)
		}
		if len(notDrawn) > 0 {
			fmt.Fprintln(w)
		}
		for _, p := range plots {
			if filepath.Ext(p) != ".png" {
				continue
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				rel = p
			}
			fmt.Fprintf(w, "![%s](%s)\n\n", filepath.Base(p), filepath.ToSlash(rel))
		}
	}
	return nil
}

// writeSummary writes the report's opening: the machine, scale, budget
// and duration, where the wall time went, the cells by status, the claims
// per paper by verdict, the claims not reproduced, and a row per claim
// with its verdict, linked to the table it reads (the first table named by
// its ID's table, "hungarian/table2"; else its experiment's last table,
// where the claim's note and rule are).
func writeSummary(w io.Writer, f *bench.File, budget time.Duration, secs []section, ended time.Time, h *History) {
	fmt.Fprintf(w, "# semibench report: %s\n\n", f.Machine.Label)
	slugs := slugger{}
	slugs.slug("semibench report: " + f.Machine.Label)
	fmt.Fprintln(w, "## Summary")
	fmt.Fprintln(w)
	slugs.slug("Summary")
	fmt.Fprintf(w, "- Machine: %s, %d cores", f.Machine.CPU, f.Machine.Cores)
	for _, g := range f.Machine.GPUs {
		fmt.Fprintf(w, "; GPU %d: %s (sm_%s)", g.Index, g.Name, g.ComputeCapability)
	}
	if len(f.Machine.GPUs) == 0 {
		fmt.Fprint(w, "; no GPU")
	}
	fmt.Fprintln(w, ".")
	fmt.Fprintf(w, "- %s.\n", strings.Join(slices.DeleteFunc([]string{"semibench " + f.Semibench.Version, f.Semibench.Commit, f.Machine.GoVersion},
		func(s string) bool { return s == "" }), ", "))
	b := "none"
	if budget > 0 {
		b = budget.String()
	}
	shard := ""
	if f.Shard != "" {
		shard = ", shard " + f.Shard
	}
	fmt.Fprintf(w, "- Scale %s, budget %s%s.\n", f.Scale, b, shard)
	fmt.Fprintf(w, "- Started %s", f.Started.Format("2006-01-02 15:04:05 MST"))
	if end := lastFinished(f.Records); !end.IsZero() {
		fmt.Fprintf(w, ", last cell finished %s: %s", end.Format("2006-01-02 15:04:05 MST"), end.Sub(f.Started).Round(time.Second))
	}
	if !ended.IsZero() && !f.Started.IsZero() {
		fmt.Fprintf(w, "; plots and this report written %s: %s from the run's start to its report", ended.UTC().Format("15:04:05 MST"), ended.Sub(f.Started).Round(time.Second))
	}
	fmt.Fprintln(w, ".")
	if line := InterruptedText(f.Notes); line != "" {
		fmt.Fprintf(w, "- %s\n", line)
	}
	if line := WallText(f); line != "" {
		fmt.Fprintf(w, "- %s\n", line)
	}
	for _, line := range []string{EstimateText(f.Records), CellEstimateText(f.Records), SampleText(f.Records), noiseLine(f)} {
		if line != "" {
			fmt.Fprintf(w, "- %s\n", line)
		}
	}
	if spans := invocationSpans(f); len(spans) > 1 {
		fmt.Fprintf(w, "- %d invocations appended to this file (--resume): %s.\n", len(spans), strings.Join(spans, "; "))
	}
	// A cell measured again by a later invocation counts once, as its
	// latest record.
	latest := map[string]bench.Record{}
	for _, r := range f.Records {
		latest[r.Key()] = r
	}
	n := map[string]int{}
	for _, r := range latest {
		n[r.Status]++
	}
	failed := fmt.Sprint(n[bench.StatusFailed]+n[bench.StatusCheckFailed]) + " failed"
	if k := n[bench.StatusCheckFailed]; k > 0 {
		failed += fmt.Sprintf(" (%d of them failed their check)", k)
	}
	fmt.Fprintf(w, "- Cells: %d: %d ok, %s, %d skipped (by the budget or memory), %d unavailable.\n",
		len(latest), n[bench.StatusOK], failed, n[bench.StatusSkipped], n[bench.StatusUnavailable])
	if line := SkippedText(slices.Collect(maps.Values(latest))); line != "" {
		fmt.Fprintf(w, "- %s\n", line)
	}
	if k := len(f.LeftOut); k > 0 {
		fmt.Fprintf(w, "- Left out: %d record(s) that this semibench cannot place in any table or verdict, first %s.\n", k, f.LeftOut[0])
	}
	fmt.Fprintln(w)

	// anchors: each experiment's last table (where its claims' notes are);
	// tables: the first table whose title opens with a table's name
	// ("hungarian/table2 — ..."), where a claim of that table reads, or
	// with the name and "(GPU)", where its claims about the GPU read.
	anchors, tables := map[string]string{}, map[string]string{}
	for _, s := range secs {
		for _, t := range s.tables {
			if t.Title == "" {
				continue
			}
			a := slugs.slug(strings.ReplaceAll(t.Title, "\n", " "))
			anchors[s.experiment] = a
			name, _, _ := strings.Cut(t.Title, " ")
			if strings.HasPrefix(t.Title, name+" (GPU)") {
				name += " (GPU)"
			}
			if _, seen := tables[name]; !seen {
				tables[name] = a
			}
		}
	}
	claims := JudgeFileWith(f, h)
	if len(claims) == 0 {
		return
	}
	roll := RollUp(claims)
	_ = roll.Render(w, report.FormatMarkdown) // w's errors surface at its Flush
	fmt.Fprintln(w)
	if h != nil {
		changed := HistoryChanged(claims)
		fmt.Fprintf(w, "Judged with the history of %s (the claims' figures in its other runs): %d verdict(s) history changed from this run's alone%s\n\n",
			h.Kind, len(changed), map[bool]string{true: ":", false: "."}[len(changed) > 0])
		for _, c := range changed {
			fmt.Fprintf(w, "- %s\n", c)
		}
		if len(changed) > 0 {
			fmt.Fprintln(w)
		}
	}
	for _, v := range []Verdict{NotReproduced, Inconclusive} {
		var rows []string
		for _, c := range claims {
			if c.Verdict == v {
				rows = append(rows, fmt.Sprintf("- %s %s: %s Ours: %s. `%s`", c.Paper, c.Where, c.Short(), c.Ours, c.Rerun))
			}
		}
		if len(rows) > 0 {
			fmt.Fprintf(w, "**%s** (%d):\n\n%s\n\n", capitalize(string(v)), len(rows), strings.Join(rows, "\n"))
		}
	}
	fmt.Fprintln(w, "Every claim, with its verdict; each links to the table it reads (the claim's rule is in the notes of its experiment's last table).")
	fmt.Fprintln(w)
	t := report.Table{Header: []string{"paper", "where", "claim", "paper's figure", "ours", "verdict"}}
	for _, c := range claims {
		where := c.Where
		if a := claimAnchor(c, tables, anchors); a != "" {
			where = "[" + c.Where + "](#" + a + ")"
		}
		t.Rows = append(t.Rows, []string{c.Paper, where, c.Short(), c.PaperFigure, c.Ours, c.VerdictText()})
	}
	_ = t.Render(w, report.FormatMarkdown)
	fmt.Fprintln(w)
}

// claimAnchor is the table a claim's row links to: of a table split in
// two ("domination/table2" and "domination/table2 (GPU)"), the half its ID
// names ("#gpu-time"); of an experiment, its last table, which ends with
// the claims' notes; of a table another experiment renders (Hungarian
// Table 2's, within hungarian/table1), that table; else its experiment's
// last table.
func claimAnchor(c Claim, tables, anchors map[string]string) string {
	table, what, _ := strings.Cut(c.ID, "#")
	if gpu, ok := tables[table+" (GPU)"]; ok {
		if strings.Contains(what, "gpu") {
			return gpu
		}
		return tables[table]
	}
	if a, ok := anchors[table]; ok {
		return a // the experiment the ID names, at its notes
	}
	if a, ok := tables[table]; ok {
		return a
	}
	return anchors[c.Experiment]
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// JudgeFile is Judge on a file's records, at its scale and schema.
// A file that names no scale (a test's, or one older than the field) is
// judged as paper scale, the only scale that scores.
func JudgeFile(f *bench.File) []Claim { return JudgeFileWith(f, nil) }

// JudgeFileWith is JudgeFile with the history of the file's machine kind
// (JudgeWith; nil: the file alone).
func JudgeFileWith(f *bench.File, h *History) []Claim {
	sc, err := ParseScale(f.Scale)
	if err != nil {
		sc = Paper
	}
	noise, _ := NoiseOf(f.Notes)
	return JudgeAtLevels(f.Records, sc, f.TimingProtocol(), noise, h, OuterAware(f.Notes) || sampledOuter(f.Records))
}

// RollUp counts the claims per paper by verdict, a row per paper.
func RollUp(claims []Claim) report.Table {
	t := report.Table{Header: []string{"paper"}}
	for _, v := range Verdicts {
		t.Header = append(t.Header, string(v))
	}
	var papers []string
	count := map[string]map[Verdict]int{}
	for _, c := range claims {
		if count[c.Paper] == nil {
			count[c.Paper] = map[Verdict]int{}
			papers = append(papers, c.Paper)
		}
		count[c.Paper][c.Verdict]++
	}
	total := map[Verdict]int{}
	for _, p := range papers {
		row := []string{p}
		for _, v := range Verdicts {
			row = append(row, fmt.Sprint(count[p][v]))
			total[v] += count[p][v]
		}
		t.Rows = append(t.Rows, row)
	}
	row := []string{"all"}
	for _, v := range Verdicts {
		row = append(row, fmt.Sprint(total[v]))
	}
	t.Rows = append(t.Rows, row)
	return t
}

// lostPrefix starts the note a run writes for measurement it stopped at
// its budget's end and did not keep (LostNote).
const lostPrefix = "lost: "

// LostNote records ms of measurement of cell what that the budget's end
// stopped and no record keeps (a top-up's samples, a cell recorded
// skipped), so that WallText does not count it as the harness's time.
func LostNote(ms float64, what string) string {
	return fmt.Sprintf("%s%.1f ms of measurement stopped at the budget's end, not kept: %s", lostPrefix, ms, what)
}

// LostOf is the measurement a file's notes record as lost (LostNote).
func LostOf(notes []string) float64 {
	sum := 0.0
	for _, n := range notes {
		var ms float64
		if strings.HasPrefix(n, lostPrefix) {
			if _, err := fmt.Sscanf(n[len(lostPrefix):], "%g ms", &ms); err == nil && ms > 0 {
				sum += ms
			}
		}
	}
	return sum
}

// WallText says where a run's wall time went, from its records' wall
// accounting: the timed windows, the measurement around them (warm-up
// runs, work between the windows), the untimed host work (setting cases
// up: generation, digests, references; checks), and the harness's own
// time (planning, writing records, everything else), with the peak
// resident memory. Empty for files without the accounting.
func WallText(f *bench.File) string {
	var setup, measure, timed, check float64
	var peak uint64
	have := false
	// A cell topped up is written again with a wall that covers both
	// measurements: only its last record counts.
	last := map[string]int{}
	for i := range f.Records {
		last[f.Records[i].Key()] = i
	}
	// Cells measured side by side (one-core cells at once, their records
	// written one after another) overlap: a batch's wall is its longest
	// measurement, not their sum.
	var overlap, sideSum float64
	batchMax, inBatch := 0.0, false
	for i, r := range f.Records {
		side := strings.Contains(r.Stop, SideBySideStop) // an alias's copy too: it keeps the batch going
		if !side && inBatch {
			overlap -= batchMax
			inBatch = false
		}
		if r.Wall == nil || last[r.Key()] != i {
			continue
		}
		have = true
		setup += r.Wall.SetupMS
		measure += r.Wall.MeasureMS
		timed += min(r.Wall.TimedMS, r.Wall.MeasureMS) // files before the runner bounded a reused cell's
		check += r.Wall.CheckMS
		peak = max(peak, r.Wall.PeakRSS)
		if side {
			if !inBatch {
				batchMax, inBatch = 0, true
			}
			overlap += r.Wall.MeasureMS
			sideSum += r.Wall.MeasureMS
			batchMax = max(batchMax, r.Wall.MeasureMS)
		}
	}
	if inBatch {
		overlap -= batchMax
	}
	end := lastFinished(f.Records)
	if !have || end.IsZero() {
		return ""
	}
	wall := float64(end.Sub(f.Started)) / 1e6
	lost := LostOf(f.Notes)
	harness := max(0, wall-setup-measure-check-lost+overlap)
	pct := func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x/max(wall, 1)) }
	s := fmt.Sprintf("Wall time %s: timed windows %s (%s), the rest of the measurement (warm-up, between windows) %s (%s), "+
		"untimed host work %s (%s: case setup, i.e. generation, digests and references, %s; checks %s), the harness itself %s (%s)",
		msDuration(wall), msDuration(timed), pct(timed), msDuration(measure-timed), pct(measure-timed),
		msDuration(setup+check), pct(setup+check), msDuration(setup), msDuration(check), msDuration(harness), pct(harness))
	if lost > 0 {
		s += fmt.Sprintf(", measurement %s and not kept %s (%s)", lostWhy(f.Notes), msDuration(lost), pct(lost))
	}
	s += "."
	if overlap > 0 {
		s += fmt.Sprintf(" One-core cells measured side by side took %s of measurement in %s of wall time (their times above count each in full).",
			msDuration(sideSum), msDuration(sideSum-overlap))
	}
	if peak > 0 {
		s += fmt.Sprintf(" Peak resident memory %.1f GiB", float64(peak)/(1<<30))
		if f.Memory != nil {
			s += fmt.Sprintf(" (limit %.1f GiB, from %s)", float64(f.Memory.Bytes)/(1<<30), f.Memory.Source)
		}
		s += "."
	}
	return s
}

// appendedAt finds the start of a later invocation in the Appender's note.
var appendedAt = regexp.MustCompile(`^Records appended by a later run started (\S+?)[;,. ]`)

// invocationSpans gives each invocation that wrote f (the first, then
// each one that appended to it) as "start to last record (duration)".
func invocationSpans(f *bench.File) []string {
	starts := []time.Time{f.Started}
	for _, note := range f.Notes {
		if m := appendedAt.FindStringSubmatch(note + " "); m != nil {
			if t, err := time.Parse(time.RFC3339, m[1]); err == nil {
				starts = append(starts, t)
			}
		}
	}
	var out []string
	for i, st := range starts {
		var end time.Time
		for _, r := range f.Records {
			if r.Finished.Before(st) || i+1 < len(starts) && !r.Finished.Before(starts[i+1]) {
				continue
			}
			if r.Finished.After(end) {
				end = r.Finished
			}
		}
		span := st.UTC().Format("2006-01-02 15:04:05")
		if !end.IsZero() {
			span += fmt.Sprintf(" to %s (%s)", end.UTC().Format("15:04:05"), end.Sub(st).Round(time.Second))
		}
		out = append(out, span)
	}
	return out
}

// lastFinished is the latest finish time of the records, or zero.
func lastFinished(recs []bench.Record) time.Time {
	var end time.Time
	for _, r := range recs {
		if r.Finished.After(end) {
			end = r.Finished
		}
	}
	return end
}

// noiseLine states the noise the verdicts were judged at.
func noiseLine(f *bench.File) string {
	if f.Source != "" {
		return ""
	}
	sigma, measured := NoiseOf(f.Notes)
	return "Noise the verdicts allow for: " + NoiseText(sigma, measured) + "."
}
