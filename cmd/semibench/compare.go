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
)

func init() {
	register(&command{
		name: "compare",
		summary: "machines side by side: where the time goes per experiment (device, transfers, host) with the GPUs' predicted ratios " +
			"and bounds, the published codes, the claims whose class differs and the cells that differ most; --cells for every cell",
		usage: "compare FILE FILE... [--with FILE]... [--experiment NAME] [--phase NAME] [--cells] [--across-commits] [--plots DIR] [--format text|markdown|csv]",
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
		ScaleOf: caseScale, KnownImpl: knownImpl, Claims: claimClasses, Work: experiments.WorkOf, Code: codeChanges(ctx)}
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
