package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/semibench/semibench/cmd/semibench/internal/current"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/outfile"
)

func init() {
	register(&command{
		name:    "claims",
		summary: "the verdict on every claim of the five papers from one or several result files (files of several machines: a verdict column per machine)",
		usage:   "claims FILE... [--format text|markdown|json] | claims --current results/CURRENT",
		run:     claimsCmd,
	})
}

// claimRow is one claim as `claims --format json` writes it.
type claimRow struct {
	ID          string `json:"id"`
	Paper       string `json:"paper"`
	Where       string `json:"where"`
	Claim       string `json:"claim"`
	Rule        string `json:"rule"`
	PaperFigure string `json:"paper_figure"`
	Ours        string `json:"ours"`
	// Figure is the claim's own number (Claim.Figure); null where it has
	// none.
	Figure  *float64 `json:"figure"`
	Verdict string   `json:"verdict"`
	// Level is the level of noise that decided the verdict (within the
	// run, the outer level in this run, history); Alone is the run's
	// verdict judged alone, where history decided Verdict; empty
	// otherwise.
	Level  string `json:"level,omitempty"`
	Alone  string `json:"alone,omitempty"`
	Scored bool   `json:"scored"`
	Reason string `json:"reason,omitempty"`
	Rerun  string `json:"rerun,omitempty"`
	// Machine names the machine whose files gave the verdict, when the
	// files are of several.
	Machine string `json:"machine,omitempty"`
}

func claimsCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("claims", flag.ContinueOnError)
	format := fs.String("format", report.FormatText, "text, markdown or json")
	currentFile := fs.String("current", "", "a CURRENT file (a label and the result files of a machine's current run per line): "+
		"print, in Markdown, each run's verdicts side by side (the generated part of REPRODUCE.md)")
	into := fs.String("into", "", "with --current: write the verdicts into this Markdown file, between its markers "+
		"(\""+docBegin+"\" and \""+docEnd+"\"), the rest of it unchanged")
	across := fs.Bool("across-builds", false, "judge runs of one machine written by different builds of semibench as one run, on purpose")
	noHistory := fs.Bool("no-history", false, "judge each run alone, without the history of its machine kind (by default read from results/ and its git history)")
	historyFile := fs.String("history", "", "judge with the history in this digest (semibench history --digest FILE), for a tree without git")
	paths, err := parse(fs, commands["claims"], args)
	if err != nil {
		return err
	}
	if *currentFile != "" {
		if len(paths) > 0 {
			return usagef("--current takes no result files")
		}
		doc, err := currentClaims(ctx, *currentFile, filepath.Dir(*into))
		if err != nil {
			return err
		}
		if *into != "" {
			return spliceInto(ctx, *into, doc)
		}
		_, err = fmt.Print(doc)
		return err
	}
	if len(paths) == 0 {
		return usagef("name at least one result file")
	}
	if !slices.Contains([]string{report.FormatText, report.FormatMarkdown, "json"}, *format) {
		return usagef("--format: unknown format %q (valid: text, markdown, json)", *format)
	}
	files, err := readFiles(ctx, paths)
	if err != nil {
		return err
	}
	groups := byMachine(files, paths)
	judged := make([][]experiments.Claim, len(groups))
	hists := make([]*experiments.History, len(groups))
	src := newHistorySource(*noHistory, *historyFile)
	var scale experiments.Scale
	for i, g := range groups {
		leaveOutAll(g.files, g.paths)
		recs, sc, schema, err := combine(g.files, g.paths, bench.MergeOptions{AcrossBuilds: *across})
		if err != nil {
			return err
		}
		if i > 0 && sc != scale {
			return usagef("%s is a %s-scale run and %s a %s-scale one: claims are judged at one scale", groups[0].paths[0], scale, g.paths[0], sc)
		}
		if hists[i], err = src.judgeWith(ctx, g.files, g.paths); err != nil {
			return err
		}
		// Judged so that a Ctrl-C is answered at once, however long the
		// rules take (the process exits with them).
		claims, err := interruptible(ctx, func() ([]experiments.Claim, error) {
			return experiments.JudgeAtLevels(recs, sc, schema, noiseOfFiles(g.files), hists[i], outerAware(g.files)), nil
		})
		if err != nil {
			return err
		}
		judged[i], scale = claims, sc
	}
	if *format == "json" {
		var rows []claimRow
		for i, claims := range judged {
			for _, c := range claims {
				row := claimRow{ID: c.ID, Paper: c.Paper, Where: c.Where, Claim: c.Short(), Rule: c.Text, PaperFigure: c.PaperFigure, Ours: c.Ours,
					Verdict: string(c.Verdict), Alone: string(c.Alone), Scored: c.Verdict.Scored(), Reason: c.Reason, Rerun: c.Rerun, Level: c.Level}
				if !math.IsNaN(c.Figure) && !math.IsInf(c.Figure, 0) {
					row.Figure = &c.Figure
				}
				if len(groups) > 1 {
					row.Machine = groups[i].label()
				}
				rows = append(rows, row)
			}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	width := report.TerminalWidth(os.Stdout)
	var tables []*report.Table
	for i, g := range groups {
		title := fmt.Sprintf("claims of the five papers from %s (%s scale)", strings.Join(g.paths, ", "), scale)
		if len(groups) > 1 {
			title += " on " + g.label()
		}
		roll := rollUp(judged[i], title, width, *format == report.FormatText)
		roll.Notes = append(roll.Notes, historyNotes(judged[i], hists[i])...)
		tables = append(tables, &roll)
	}
	if *format == report.FormatText {
		for _, tb := range tables {
			tb.Width = width
			if err := tb.Render(os.Stdout, *format); err != nil {
				return err
			}
			fmt.Println()
		}
		labels := make([]string, len(groups))
		for i, g := range groups {
			labels[i] = g.label()
		}
		if err := writeClaimCards(os.Stdout, judged, labels, width); err != nil {
			return err
		}
		tables = nil
	}
	t := report.Table{Header: []string{"paper", "where", "claim", "paper's figure", "ours", "verdict", "why / re-run"}}
	if len(groups) > 1 {
		// different machines are compared, never merged: a column each
		t.Header = t.Header[:4]
		for _, g := range groups {
			t.Header = append(t.Header, "on "+g.label())
		}
	}
	for _, c := range judged[0] {
		row := []string{c.Paper, c.Where, c.Short(), c.PaperFigure}
		if len(groups) == 1 {
			why := c.Reason
			if c.Rerun != "" {
				why = strings.TrimPrefix(why+"; re-run: "+c.Rerun, "; ")
			}
			t.Rows = append(t.Rows, append(row, c.Ours, string(c.Verdict), why))
			continue
		}
		for i := range groups {
			x := experiments.Claim{Verdict: experiments.NotRun}
			if j := slices.IndexFunc(judged[i], func(y experiments.Claim) bool { return y.ID == c.ID }); j >= 0 {
				x = judged[i][j]
			}
			cell := string(x.Verdict)
			if x.Ours != "" && x.Ours != "—" {
				cell += ": " + x.Ours
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	if *format != report.FormatText {
		tables = append(tables, &t)
	}
	for i, g := range groups {
		beyond := current.BeyondOf(".", []current.Run{{Label: g.files[0].Machine.Label, Paths: g.paths}}, [][]*bench.File{g.files})
		if len(beyond.Table.Rows) > 0 {
			beyond.Table.Title = "results beyond the papers' sizes: not claims of theirs, checked as each row says"
			if len(groups) > 1 {
				beyond.Table.Title += " (" + groups[i].label() + ")"
			}
			tables = append(tables, &beyond.Table)
		}
	}
	for _, tb := range tables {
		tb.Width = width
		if err := tb.Render(os.Stdout, *format); err != nil {
			return err
		}
		fmt.Println()
	}
	return nil
}

// machineFiles are the result files of one machine, in the order named.
type machineFiles struct {
	files []*bench.File
	paths []string
}

// label names the machine in column headings: its label, with its cores
// when that tells two machines of one label apart.
func (g machineFiles) label() string {
	m := g.files[0].Machine
	return fmt.Sprintf("%s (%d cores)", m.Label, m.Cores)
}

// byMachine groups files by the machine that measured them (bench.Machine.Same),
// in the order each machine first appears.
func byMachine(files []*bench.File, paths []string) []machineFiles {
	var groups []machineFiles
	for i, f := range files {
		k := slices.IndexFunc(groups, func(g machineFiles) bool { return g.files[0].Machine.Same(f.Machine) })
		if k < 0 {
			k = len(groups)
			groups = append(groups, machineFiles{})
		}
		groups[k].files = append(groups[k].files, f)
		groups[k].paths = append(groups[k].paths, paths[i])
	}
	return groups
}

// combine joins the records of result files of one machine (the shards
// or the several runs of one machine, and its peers files): a cell
// measured in several files counts once, its ok record before any other.
// The runs must be those a merge joins (bench.MergeRefusal against the
// first run: one build unless opt.AcrossBuilds, one scale and seed); a
// peers file, of no scale, joins any. The timing protocol is the lowest
// of the files': one file of protocol 1 makes its claims old protocol.
func combine(files []*bench.File, paths []string, opt bench.MergeOptions) ([]bench.Record, experiments.Scale, int, error) {
	h := max(slices.IndexFunc(files, func(f *bench.File) bool { return !f.IsPeers() }), 0)
	if files[h].IsPeers() {
		return nil, "", 0, usagef("%s: peers files alone (published codes measured here, at no scale of ours): name the run they go with, semibench claims RUN PEERS", strings.Join(paths, ", "))
	}
	scale, schema := files[h].Scale, files[h].TimingProtocol()
	var recs []bench.Record
	at := map[string]int{}
	for i, f := range files {
		if f.Source != "" {
			return nil, "", 0, usagef("%s is a paper's transcription (%s), not a run", paths[i], f.Source)
		}
		if f.Scale != scale && !f.IsPeers() {
			return nil, "", 0, usagef("%s is a %s-scale run and %s a %s-scale one: claims are judged at one scale", paths[h], scale, paths[i], f.Scale)
		}
		if why := bench.MergeRefusal(files[h], f, opt); why != "" {
			return nil, "", 0, usagef("%s and %s: %s", paths[h], paths[i], why)
		}
		schema = min(schema, f.TimingProtocol())
		for _, r := range f.Records {
			k, seen := at[r.Key()]
			switch {
			case !seen:
				at[r.Key()] = len(recs)
				recs = append(recs, r)
			case r.Status == bench.StatusOK || recs[k].Status != bench.StatusOK:
				recs[k] = r
			}
		}
	}
	sc, err := experiments.ParseScale(scale)
	if err != nil {
		sc = experiments.Paper
	}
	return recs, sc, schema, nil
}

// historyDigest is the claims' history (a digest without the cells'
// records) beside results/CURRENT that REPRODUCE.md is judged with.
const historyDigest = "HISTORY.json.gz"

// currentClaims renders, in Markdown, the verdicts of the runs CURRENT
// lists: the claims per paper by verdict for each run, then a row per
// claim with each run's verdict and figure, then per paper each claim's
// reasons. It is the generated part of REPRODUCE.md.
func currentClaims(ctx context.Context, currentPath, docDir string) (string, error) {
	runs, beyond, err := current.Read(currentPath)
	if err != nil {
		return "", err
	}
	// the claims' history beside CURRENT (make history writes it), so that
	// the document reads the same wherever it is generated, git or none
	digest := filepath.Join(filepath.Dir(currentPath), historyDigest)
	src := newHistorySource(true, "")
	if _, err := os.Stat(digest); err == nil {
		src = newHistorySource(false, digest)
	}
	judged := make([][]experiments.Claim, len(runs))
	changed := 0
	for i, r := range runs {
		files, err := readFiles(ctx, r.Paths)
		if err != nil {
			return "", err
		}
		if groups := byMachine(files, r.Paths); len(groups) > 1 {
			return "", fmt.Errorf("%s: run %s holds files of two machines, %s (%s) and %s (%s): a run is one machine's", currentPath, r.Label,
				groups[0].files[0].Machine, groups[0].paths[0], groups[1].files[0].Machine, groups[1].paths[0])
		}
		recs, scale, schema, err := combine(files, r.Paths, bench.MergeOptions{})
		if err != nil {
			return "", err
		}
		hist, err := src.judgeWith(ctx, files, current.RelPaths(currentPath, r.Paths))
		if err != nil {
			return "", err
		}
		judged[i] = experiments.JudgeAtLevels(recs, scale, schema, noiseOfFiles(files), hist, outerAware(files))
		changed += len(experiments.HistoryChanged(judged[i]))
	}
	// of is run i's verdict on claim c (matched by ID).
	byID := make([]map[string]experiments.Claim, len(runs))
	for i := range runs {
		byID[i] = map[string]experiments.Claim{}
		for _, c := range judged[i] {
			byID[i][c.ID] = c
		}
	}
	of := func(i int, c experiments.Claim) experiments.Claim {
		if x, ok := byID[i][c.ID]; ok {
			return x
		}
		return experiments.Claim{Verdict: experiments.NotRun, Reason: "no such claim in this run's judgement"}
	}
	var b strings.Builder
	if src.digest != nil {
		fmt.Fprintf(&b, "Judged with the history of each machine kind (results/%s, `make history`: every run of the kind in results/ and its git history): %d verdict(s) differ from the runs' alone, each saying why.\n\n",
			historyDigest, changed)
	}
	for i, r := range runs {
		roll := experiments.RollUp(judged[i])
		fmt.Fprintf(&b, "**%s** (%s):\n\n", r.Label, strings.Join(current.RelPaths(currentPath, r.Paths), ", "))
		if err := roll.Render(&b, report.FormatMarkdown); err != nil {
			return "", err
		}
		b.WriteString("\n")
	}
	t := report.Table{Header: []string{"paper", "where", "claim", "paper's figure"}}
	for _, r := range runs {
		t.Header = append(t.Header, r.Label)
	}
	for _, c := range judged[0] {
		row := []string{c.Paper, c.Where, c.Short(), c.PaperFigure}
		for i := range runs {
			x := of(i, c)
			cell := "**" + string(x.Verdict) + "**"
			if x.Ours != "" && x.Ours != "—" {
				cell += ": " + x.Ours
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	b.WriteString("Every claim, each run's verdict and figure:\n\n")
	if err := t.Render(&b, report.FormatMarkdown); err != nil {
		return "", err
	}
	b.WriteString("\n")
	paper := ""
	for _, c := range judged[0] {
		if c.Paper != paper {
			paper = c.Paper
			fmt.Fprintf(&b, "### %s\n\n", paper)
			b.WriteString(tablesLine(runs, docDir, paperExperiments(judged[0], paper)))
		}
		fmt.Fprintf(&b, "- **%s**: %s\n", c.Where, c.Text)
		for i, r := range runs {
			x := of(i, c)
			line := fmt.Sprintf("  - %s: %s", r.Label, x.Verdict)
			if x.Ours != "" && x.Ours != "—" {
				line += "; ours " + x.Ours
			}
			if x.Reason != "" {
				line += "; " + x.Reason
			}
			b.WriteString(line + ".\n")
		}
		if c.Rerun != "" {
			fmt.Fprintf(&b, "  - re-run: `%s`\n", c.Rerun)
		}
	}
	if len(beyond) > 0 {
		b.WriteString("\n")
		if err := current.BeyondSection(&b, currentPath, beyond); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// paperExperiments lists, in order, the experiments whose tables show the
// claims of paper.
// noiseOfFiles is the noise the verdicts on files allow for: the largest
// any of them measured (experiments.NoiseOf), as each file's own report
// judges with its own; the default where none measured any.
// outerAware reports whether any of the files of one run says it sampled
// the outer level (experiments.OuterAware): its claims are then judged at
// both levels.
func outerAware(files []*bench.File) bool {
	for _, f := range files {
		if experiments.OuterAware(f.Notes) {
			return true
		}
	}
	return false
}

func noiseOfFiles(files []*bench.File) float64 {
	noise, any := 0.0, false
	for _, f := range files {
		if n, ok := experiments.NoiseOf(f.Notes); ok {
			noise, any = max(noise, n), true
		}
	}
	if !any {
		return experiments.DefaultNoise
	}
	return noise
}

func paperExperiments(claims []experiments.Claim, paper string) []string {
	var exps []string
	for _, c := range claims {
		if c.Paper == paper && c.Experiment != "" && !slices.Contains(exps, c.Experiment) {
			exps = append(exps, c.Experiment)
		}
	}
	return exps
}

// tablesLine says where a paper's current tables are: each run's report
// (the Markdown beside its first result file, where it exists), linked
// relative to docDir, with the experiments to look for.
func tablesLine(runs []current.Run, docDir string, exps []string) string {
	var links []string
	for _, r := range runs {
		md := strings.TrimSuffix(r.Paths[0], filepath.Ext(r.Paths[0])) + ".md"
		if _, err := os.Stat(md); err != nil {
			continue
		}
		links = append(links, fmt.Sprintf("[%s](%s)", r.Label, current.RelPaths(filepath.Join(docDir, "x"), []string{md})[0]))
	}
	if len(links) == 0 {
		return ""
	}
	return fmt.Sprintf("Its tables, ours beside the paper's: %s, in each run's report (%s).\n\n",
		strings.Join(exps, ", "), strings.Join(links, ", "))
}

// The markers around the generated part of a Markdown file (REPRODUCE.md).
const (
	docBegin = "<!-- BEGIN generated by: semibench claims --current results/CURRENT --into REPRODUCE.md -->"
	docEnd   = "<!-- END generated -->"
)

// generatedPart returns the text between the markers of doc.
func generatedPart(doc, name string) (before, part, after string, err error) {
	i := strings.Index(doc, docBegin)
	j := strings.Index(doc, docEnd)
	if i < 0 || j < i {
		return "", "", "", fmt.Errorf("%s: no generated part (the lines %q and %q)", name, docBegin, docEnd)
	}
	return doc[:i+len(docBegin)], strings.TrimPrefix(doc[i+len(docBegin):j], "\n"), doc[j:], nil
}

// spliceInto replaces the generated part of the Markdown file at path.
func spliceInto(ctx context.Context, path, part string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	before, _, after, err := generatedPart(string(data), path)
	if err != nil {
		return err
	}
	return outfile.Write(ctx, path, func(w *bufio.Writer) error {
		_, err := w.WriteString(before + "\n" + part + after)
		return err
	})
}

// rollUp is the claims counted per paper and verdict, titled, fitted to
// width: in text wider than width, a row per verdict and a column per
// paper, so that every count stays whole.
func rollUp(claims []experiments.Claim, title string, width int, text bool) report.Table {
	roll := experiments.RollUp(claims)
	roll.Title, roll.Width = title, width
	if text && roll.TextWidth() > width {
		roll = *roll.Transposed()
		roll.Header[0] = "verdict"
	}
	return roll
}
