package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/history"
)

func init() {
	register(&command{
		name: "compare",
		summary: "machines side by side: where the time goes per experiment (device, transfers, host) with the GPUs' predicted ratios " +
			"and bounds, the published codes, the claims whose class differs and the cells that differ most; --cells for every cell",
		usage: "compare FILE FILE... [--with FILE]... [--experiment NAME] [--phase NAME] [--cells] [--across-commits | --one-commit] [--plots DIR] [--format text|markdown|csv]",
		run:   compareCmd,
	})
}

// listFlag is a flag that may be given several times, each value a
// comma-separated list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

func compareCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	exp := fs.String("experiment", "", "only this experiment")
	phase := fs.String("phase", "", "only this phase (e.g. total, update_w) in the tables of every cell (implies --cells)")
	format := fs.String("format", "text", "text, markdown or csv")
	cells := fs.Bool("cells", false, "after the summary, every cell's phases in every file")
	across := fs.Bool("across-commits", false, "keep in the summary's ratios the cells of implementations whose code changed between the files' commits")
	plots := fs.String("plots", "", "also write the figures (a roofline per GPU, the ratios per pair of files) as PNG and SVG into this folder")
	oneCommit := fs.Bool("one-commit", false, "compare instead, for each file's machine, its largest run of the newest commit that every file's machine measured (from the repository's runs: semibench history)")
	var with listFlag
	fs.Var(&with, "with", "a result file measured beside one of the compared files (the published codes' records in results/peers/<machine>/), "+
		"added to the compared file of its machine; repeatable")
	paths, err := parse(fs, commands["compare"], args)
	if err != nil {
		return err
	}
	if len(paths) < 2 {
		return usagef("name at least 2 result files")
	}
	if err := checkFormat(format)(); err != nil {
		return err
	}
	if err := checkExperiment(exp)(); err != nil {
		return err
	}
	for _, same := range sameFiles(paths) {
		fmt.Fprintf(diag, "semibench compare: %s and %s are one file: its ratios to itself are all 1\n", same[0], same[1])
	}
	files, err := readFiles(ctx, paths)
	if err != nil {
		return err
	}
	if *oneCommit {
		if paths, err = runsOfOneCommit(ctx, files); err != nil {
			return err
		}
		if files, err = readFiles(ctx, paths); err != nil {
			return err
		}
	}
	leaveOutAll(files, paths)
	extra, err := readFiles(ctx, with)
	if err != nil {
		return err
	}
	for i, f := range extra {
		if _, _, err := report.Attach(files, f); err != nil {
			return usagef("--with %s: %v", with[i], err)
		}
	}
	opt := report.CompareOptions{Experiment: *exp, Phase: *phase, Cells: *cells, AcrossCommits: *across, Paths: paths,
		ScaleOf: caseScale, KnownImpl: knownImpl, Claims: claimClasses, Work: experiments.WorkOf, Window: experiments.WindowOf, Code: codeChanges(ctx)}
	tables, err := report.Compare(files, nil, opt)
	if err != nil {
		return err
	}
	if err := printTables(tables, *format); err != nil {
		return err
	}
	if *plots == "" {
		return nil
	}
	figs, err := report.ComparePlots(files, nil, opt)
	if err != nil {
		return err
	}
	n := 0
	for _, p := range figs {
		written, err := p.Save(*plots)
		if err != nil {
			return err
		}
		n += len(written)
	}
	fmt.Fprintf(os.Stderr, "semibench: %d figure file(s) in %s\n", n, *plots)
	return nil
}

// sameFiles lists the pairs of paths that name one file (issue 56, item
// 14): the same path, or two paths of one file.
func sameFiles(paths []string) [][2]string {
	var out [][2]string
	for i, p := range paths {
		for _, q := range paths[:i] {
			same := p == q
			if a, err := os.Stat(p); err == nil {
				if b, err := os.Stat(q); err == nil {
					same = same || os.SameFile(a, b)
				}
			}
			if same {
				out = append(out, [2]string{q, p})
			}
		}
	}
	return out
}

// knownImpl reports whether `semibench run` of this build can measure an
// experiment's implementation, so that compare suggests no run it cannot
// do (issue 56, item 12).
func knownImpl(exp, impl string) bool {
	es, err := experiments.Lookup(exp)
	return err == nil && slices.Contains(es[0].Impls, impl)
}

// claimClasses judges a file's claims for compare's table of the claims
// whose class differs between the files; each figure whole (the table
// wraps it, issue 56, item 22).
func claimClasses(f *bench.File) []report.ClaimClass {
	var out []report.ClaimClass
	for _, c := range experiments.JudgeFile(f) {
		out = append(out, report.ClaimClass{ID: c.ID, Experiment: c.Experiment, Where: c.Paper + " " + c.Where,
			Text: c.Short(), Class: string(c.Verdict), Ours: c.Ours})
	}
	return out
}

// caseScale names the smallest scale whose cases of the experiment have
// these parameters (with the run's default options), or "" when none has
// (or the experiment is unknown), so compare can say which run aligns a
// file with another.
func caseScale(exp string, params bench.Params) string {
	es, err := experiments.Lookup(exp)
	if err != nil {
		return ""
	}
	want := params.String()
	for _, sc := range experiments.Scales {
		for _, c := range es[0].Cases(sc, experiments.Options{GPUs: 1, Seed: 1}) {
			if c.Params.String() == want {
				return string(sc)
			}
		}
	}
	return ""
}

// runsOfOneCommit picks, for each file's machine kind, its largest run of
// the newest commit that every file's kind has a run of, among the runs
// the repository of the current folder holds (history.Load), and says on
// standard error which it picked; an error when the kinds share no commit.
func runsOfOneCommit(ctx context.Context, files []*bench.File) ([]string, error) {
	h, err := history.Load(ctx, history.Options{Dir: ".", Progress: os.Stderr})
	if err != nil {
		return nil, fmt.Errorf("--one-commit: %w", err)
	}
	best := make([]map[string]*history.Run, len(files)) // per file: commit -> its kind's largest run of it
	for i, f := range files {
		kind := history.KindOf(f.Machine)
		best[i] = map[string]*history.Run{}
		for _, r := range h.Runs {
			if r.Kind == kind && r.Commit != "" && r.Apart == "" {
				if b := best[i][r.Commit]; b == nil || r.Size > b.Size {
					best[i][r.Commit] = r
				}
			}
		}
	}
	var pick *history.Run
	for c, r := range best[0] {
		shared := true
		for _, m := range best[1:] {
			shared = shared && m[c] != nil
		}
		if shared && (pick == nil || r.Order > pick.Order) {
			pick = r
		}
	}
	if pick == nil {
		var kinds []string
		for _, f := range files {
			kinds = append(kinds, history.KindOf(f.Machine).String())
		}
		return nil, fmt.Errorf("--one-commit: no commit has runs of every machine (%s) in this repository", strings.Join(kinds, "; "))
	}
	paths := make([]string, len(files))
	for i := range files {
		paths[i] = best[i][pick.Commit].Where
	}
	fmt.Fprintf(os.Stderr, "semibench compare: --one-commit: the newest commit all %d machines ran, %.7s: %s\n", len(files), pick.Commit, strings.Join(paths, ", "))
	return paths, nil
}
