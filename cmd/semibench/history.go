package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/cmd/semibench/internal/current"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/history"
	"github.com/semibench/semibench/internal/suggest"
	"github.com/semibench/semibench/runner"
)

func init() {
	register(&command{
		name: "history",
		summary: "every run the repository holds, in results/ and in its git history: each claim's figure and class over the runs of a machine kind, " +
			"and each cell's timeline over the commits with the steps beyond the noise between runs",
		usage: "history [EXPERIMENT|CLAIM ...] [--where NAME=VALUE,...] [--impl PATTERN,...] [--machine LABEL] [--repo DIR] [--format text|markdown|json] [--plots DIR] | history --digest FILE [--machine LABEL] [--claims-only] | history --page results/HISTORY.md",
		run:   historyCmd,
	})
}

func historyCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	where := fs.String("where", "", "only the cells whose parameters match, e.g. n=8192,range=n (a timeline per cell)")
	impl := fs.String("impl", "", "only these implementations: path patterns, comma-separated (cuda/fast, 'cpu/*')")
	machine := fs.String("machine", "", "only the runs of machines of this label (the folder name under results/)")
	repo := fs.String("repo", ".", "the repository (or a folder of it) whose results/ and history are read")
	format := fs.String("format", report.FormatText, "text, markdown or json")
	phase := fs.String("phase", "total", "the phase a timeline follows")
	scale := fs.String("scale", "", "only the runs of this scale (quick, paper, large) for the claims")
	detail := fs.Bool("detail", false, "every run of every timeline and claim, not a row a cell or claim")
	plots := fs.String("plots", "", "write a timeline plot per experiment and machine kind (PNG and SVG, the noise band drawn) into this folder")
	out := fs.String("out", "", "write the report to this file (default standard output)")
	noCache := fs.Bool("no-cache", false, "read every file again, neither reading nor writing the cache")
	digest := fs.String("digest", "", "write the digest of the history (each machine kind's cell records and claims' figures, or --machine's) to this file, "+
		"for run and reproduce --history FILE on a machine whose tree has no git; nothing else is printed")
	page := fs.String("page", "", "write the history page (results/HISTORY.md: for each machine of results/CURRENT, each paper's headline cells over the commits with their steps, "+
		"a plot per paper in the page's .plots folder, and the claims over the machine's runs) to this file; nothing else is printed")
	claimsOnly := fs.Bool("claims-only", false, "with --digest: the claims' figures alone, without the cells' records (what claims --history reads; small)")
	names, err := parse(fs, commands["history"], args)
	if err != nil {
		return err
	}
	if !slices.Contains([]string{report.FormatText, report.FormatMarkdown, "json"}, *format) {
		return usagef("--format: unknown format %q (valid: text, markdown, json)", *format)
	}
	if *scale != "" {
		if _, err := experiments.ParseScale(*scale); err != nil {
			return usagef("--scale: %v", err)
		}
	}
	w, err := runner.ParseWhere(*where)
	if err != nil {
		return usagef("--where: %v", err)
	}
	exps, claims, err := historyNames(names)
	if err != nil {
		return err
	}
	opts := history.Options{Dir: *repo, Progress: os.Stderr}
	if *noCache {
		opts.CacheDir = "-"
	}
	if st, err := os.Stat(*repo); err != nil || !st.IsDir() {
		return usagef("--repo %s: not a folder", *repo)
	}
	h, err := history.Load(ctx, opts)
	if err != nil {
		return err
	}
	if err := checkMachine(h, *machine); err != nil {
		return err
	}
	if *digest != "" {
		return writeDigest(ctx, h, *machine, *digest, !*claimsOnly)
	}
	if *page != "" {
		return writePage(ctx, h, *page)
	}
	q := history.Query{Experiments: exps, Impls: splitList(*impl), Machine: *machine, Phase: *phase}
	if len(w) > 0 {
		q.Params = w.Match
	}
	r := &history.Report{Repository: *repo, History: h, Detail: *detail}
	// timelines for the experiments named (every experiment when nothing
	// is named), claims for the claims named and the experiments' claims
	// (every claim when nothing is named); --where or --impl ask for cells
	if len(claims) == 0 || len(exps) > 0 {
		if r.Timelines, err = h.Timelines(ctx, q, os.Stderr); err != nil {
			return err
		}
	}
	if len(claims) > 0 || len(w) == 0 && *impl == "" {
		cq := history.ClaimQuery{IDs: append(claims, exps...), Machine: *machine, Scale: *scale}
		if r.Claims, err = h.Claims(ctx, cq, os.Stderr); err != nil {
			return err
		}
	}
	if *plots != "" {
		written, err := history.SavePlots(r.Timelines, *plots)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "semibench history: %d plot files in %s\n", len(written), *plots)
	}
	return withOutput(ctx, *out, func(bw *bufio.Writer) error {
		if *format == "json" {
			return r.WriteJSON(bw)
		}
		width := 0
		if *out == "" {
			width = report.TerminalWidth(os.Stdout)
		}
		return r.Write(bw, *format, width)
	})
}

// historyByDefault makes run and reproduce read the history of this
// machine kind unless --no-history: the command's tests turn it off, as
// they measure toy cells in a repository full of real runs.
var historyByDefault = true

// *history.Past is what the runner reads.
var _ runner.Past = (*history.Past)(nil)

// historySource is where the commands that judge or price a run read the
// history of its machine kind: nowhere (--no-history, or the commands'
// tests), a digest (--history FILE), or the repository around the
// working folder (results/ and its git history; the files alone without
// git). It reads once, at the first question.
type historySource struct {
	off  bool
	file string
	// digest and repo are what was read; notes were said once.
	digest *history.Digest
	repo   *history.History
}

// newHistorySource is the source the flags --no-history and --history
// FILE choose.
func newHistorySource(noHistory bool, file string) *historySource {
	return &historySource{off: noHistory || !historyByDefault && file == "", file: file}
}

// past is the history of machine's kind at scale; nil (no error) when the
// source is off or holds no run of that kind and scale. It says on
// standard error what it read.
func (s *historySource) past(ctx context.Context, machine bench.Machine, scale string) (*history.Past, error) {
	if s == nil || s.off {
		return nil, nil
	}
	kind := history.KindOf(machine)
	if s.file != "" {
		if s.digest == nil {
			d, err := history.ReadDigest(s.file)
			if err != nil {
				return nil, usagef("--history: %v", err)
			}
			s.digest = d
		}
		p, err := s.digest.Past(kind, scale)
		if err != nil {
			fmt.Fprintf(os.Stderr, "semibench: history: %s has %v; judged and priced alone\n", s.file, err)
			return nil, nil
		}
		fmt.Fprintf(os.Stderr, "semibench: history: %d runs of %s at %s scale, from %s\n", p.Runs, kind, scale, s.file)
		return p, nil
	}
	if s.repo == nil {
		h, err := history.Load(ctx, history.Options{Dir: ".", Progress: os.Stderr})
		if err != nil {
			return nil, fmt.Errorf("history (--no-history goes without it): %w", err)
		}
		for _, n := range h.Notes {
			fmt.Fprintln(os.Stderr, "semibench: "+n)
		}
		s.repo = h
	}
	p, err := s.repo.Past(ctx, kind, scale, os.Stderr)
	if err != nil {
		return nil, fmt.Errorf("history (--no-history goes without it): %w", err)
	}
	h := s.repo
	fmt.Fprintf(os.Stderr, "semibench: history: %d runs of %s at %s scale (%d file versions from the cache, %d read; claims of %d runs from the cache, %d judged)\n",
		p.Runs, kind, scale, h.Cached, h.Read, h.ClaimsCached, h.ClaimsJudged)
	if p.Runs == 0 {
		return nil, nil
	}
	return p, nil
}

// judgeWith is the history a run (files, the first that is no peers file
// naming it) is judged with: its kind's at its scale, the run itself left
// out of it (it counts once, as itself); nil without history.
func (s *historySource) judgeWith(ctx context.Context, files []*bench.File, paths []string) (*experiments.History, error) {
	i := max(slices.IndexFunc(files, func(f *bench.File) bool { return !f.IsPeers() }), 0)
	f := files[i]
	p, err := s.past(ctx, f.Machine, f.Scale)
	if err != nil || p == nil {
		return nil, err
	}
	return p.For(paths[i], f.Semibench.Commit, f.Started), nil
}

// historyNotes say, under a run's claims judged with h, what history
// they were judged with and which verdicts it changed from the run's
// alone; none without history.
func historyNotes(claims []experiments.Claim, h *experiments.History) []string {
	if h == nil {
		return nil
	}
	changed := experiments.HistoryChanged(claims)
	out := []string{fmt.Sprintf("Judged with the history of %s (--no-history judges the run alone): %d verdict(s) differ from the run's alone.", h.Kind, len(changed))}
	return append(out, changed...)
}

// writeHistoryChanged writes historyNotes to w, wrapped to width.
func writeHistoryChanged(w io.Writer, claims []experiments.Claim, h *experiments.History, width int) {
	for i, n := range historyNotes(claims, h) {
		if i == 0 {
			fmt.Fprintln(w)
		} else {
			n = "  " + n
		}
		fmt.Fprintln(w, report.Wrap(n, width, "    "))
	}
}

// pastFor is the history run and reproduce hand the runner (f's
// --no-history and --history FILE), of this machine's kind at this
// scale; nil for none. f keeps it for the report (f.past).
func pastFor(ctx context.Context, f *runFlags, machine bench.Machine, scale experiments.Scale) (runner.Past, error) {
	p, err := newHistorySource(f.noHistory, f.historyFile).past(ctx, machine, string(scale))
	if err != nil || p == nil {
		return nil, err
	}
	f.past = p
	return p, nil
}

// writeDigest writes the digest of h's runs (of machines labelled
// machine, or all) to path.
func writeDigest(ctx context.Context, h *history.History, machine, path string, cells bool) error {
	var keep func(*history.Run) bool
	if machine != "" {
		keep = func(r *history.Run) bool { return r.Kind.Label == machine }
	}
	d, err := h.Digest(ctx, keep, cells, os.Stderr)
	if err != nil {
		return err
	}
	err = withOutput(ctx, path, func(w *bufio.Writer) error { return d.Write(w) })
	if err == nil {
		fmt.Fprintf(os.Stderr, "semibench history: digest of %d machine kinds and scales in %s\n", len(d.Pasts), path)
	}
	return err
}

// writePage writes the history page of the machines results/CURRENT
// names (their current runs' kinds) to path, its plots beside it in
// path's .plots folder.
func writePage(ctx context.Context, h *history.History, path string) error {
	runs, _, err := current.Read(filepath.Join(h.Root(), "results", "CURRENT"))
	if err != nil {
		return fmt.Errorf("the page's machines: %w", err)
	}
	var machines []history.PageMachine
	for _, r := range runs {
		f, err := readResult(ctx, r.Paths[0])
		if err != nil {
			return err
		}
		machines = append(machines, history.PageMachine{Label: r.Label, Kind: history.KindOf(f.Machine)})
	}
	plots := runBase(path) + ".plots"
	if err := os.RemoveAll(plots); err != nil {
		return err
	}
	p, err := h.BuildPage(ctx, machines, filepath.Dir(path), plots, os.Stderr)
	if err != nil {
		return err
	}
	err = withOutput(ctx, path, func(w *bufio.Writer) error { return p.Write(w) })
	if err == nil {
		fmt.Fprintf(os.Stderr, "semibench history: %s, plots in %s\n", path, plots)
	}
	return err
}

// historyNames sorts history's arguments into experiments and claims
// (EXPERIMENT#WHAT), refusing names that are neither.
func historyNames(names []string) (exps, claims []string, err error) {
	var ids []string
	for _, c := range experiments.AllClaims(nil) {
		ids = append(ids, c.ID)
	}
	for _, n := range names {
		if strings.Contains(n, "#") {
			if !slices.Contains(ids, n) {
				return nil, nil, usagef("unknown claim %q%s", n, suggest.Closest(n, ids))
			}
			claims = append(claims, n)
			continue
		}
		es, err := experiments.Lookup(n)
		if err != nil {
			return nil, nil, usagef("%v", err)
		}
		for _, e := range es {
			exps = append(exps, e.Name)
		}
	}
	return exps, claims, nil
}

// checkMachine refuses a --machine label that no run has.
func checkMachine(h *history.History, label string) error {
	if label == "" {
		return nil
	}
	var labels []string
	for _, r := range slices.Concat(h.Runs, h.Apart) {
		if r.Kind.Label == label {
			return nil
		}
		if !slices.Contains(labels, r.Kind.Label) {
			labels = append(labels, r.Kind.Label)
		}
	}
	return usagef("--machine: no run of a machine labelled %q%s", label, suggest.Closest(label, labels))
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
