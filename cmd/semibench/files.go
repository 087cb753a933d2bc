package main

import (
	"bufio"
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench/benchfmt"
	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/cmd/semibench/internal/placement"
	"github.com/semibench/semibench/experiments"
)

func init() {
	register(&command{
		name:    "table",
		summary: "print the tables of result files beside the papers' numbers",
		usage:   "table FILE... [--merge] [--experiment NAME] [--format text|markdown|csv]  (a FILE may be COMMIT:PATH, a run read from git)",
		run:     tableCmd,
	})
	register(&command{
		name:    "plot",
		summary: "render the figures of result files as PNG and SVG",
		usage:   "plot FILE... [--merge] [--dir DIR]",
		run:     plotCmd,
	})
	register(&command{
		name:    "report",
		summary: "write the Markdown report (summary, claims and every table) and the plots of a result file",
		usage:   "report FILE [--out REPORT.md] [--plots DIR] [--budget DURATION]  (FILE may be COMMIT:PATH)",
		run:     reportCmd,
	})
	register(&command{
		name:    "export",
		summary: "write a result file in Go benchmark format: benchstat old=a.txt new=b.txt compares two machines or commits",
		usage:   "export --benchfmt FILE [--out FILE]",
		run:     exportCmd,
	})
}

// parseFiles parses a command whose arguments are result files, at least
// least of them, runs the flag checks, and reads them (readFiles).
func parseFiles(ctx context.Context, fs *flag.FlagSet, c *command, args []string, least int, checks ...func() error) ([]*bench.File, []string, error) {
	paths, err := parse(fs, c, args)
	if err != nil {
		return nil, nil, err
	}
	if len(paths) < least {
		return nil, nil, usagef("name at least %d result file(s)", least)
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return nil, nil, err
		}
	}
	files, err := readFiles(ctx, paths)
	return files, paths, err
}

// checkFormat refuses a --format that tables cannot be rendered in.
// It reads the flag's value when called, after parsing.
func checkFormat(format *string) func() error {
	return func() error {
		if !slices.Contains(report.Formats(), *format) {
			return usagef("--format: unknown table format %q (valid: %s)", *format, strings.Join(report.Formats(), ", "))
		}
		return nil
	}
}

// checkExperiment refuses an --experiment that names no experiment.
func checkExperiment(name *string) func() error {
	return func() error {
		if *name == "" {
			return nil
		}
		var names []string
		for _, e := range experiments.All() {
			if e.Name == *name {
				return nil
			}
			names = append(names, e.Name)
		}
		return usagef("--experiment: unknown experiment %q (known: %s)", *name, strings.Join(names, ", "))
	}
}

const (
	mergeUsage        = "read the files, all of one machine, build, scale and seed (and its peers files), as one run (a later record of a cell replaces an earlier one)"
	acrossBuildsUsage = "with --merge: read runs of different builds of semibench as one run, on purpose"
)

// mergeFiles combines the result files of one machine into one (--merge),
// so that runs split over several commands print as whole tables; files
// an append would refuse to join are refused (bench.MergeWith), two
// builds only unless acrossBuilds.
func mergeFiles(files []*bench.File, paths []string, acrossBuilds bool) ([]*bench.File, []string, error) {
	m, err := bench.MergeWith(bench.MergeOptions{AcrossBuilds: acrossBuilds}, paths, files...)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	return []*bench.File{m}, []string{strings.Join(paths, " + ")}, nil
}

// readFiles reads result files (readResult), each error naming its file;
// it stops within a second when ctx is done (a slow pipe), with an error
// saying it was interrupted.
func readFiles(ctx context.Context, paths []string) ([]*bench.File, error) {
	files := make([]*bench.File, 0, len(paths))
	for _, p := range paths {
		f, err := readResult(ctx, p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("interrupted after reading %s: %w", strings.Join(paths, ", "), err)
	}
	return files, nil
}

// leaveOutAll names the records of files that no table places and sets
// them aside (placement.LeaveOut).
func leaveOutAll(files []*bench.File, paths []string) {
	for i, f := range files {
		placement.LeaveOut(diag, paths[i], f)
	}
}

func tableCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("table", flag.ContinueOnError)
	exp := fs.String("experiment", "", "only this experiment")
	format := fs.String("format", "text", "text, markdown or csv")
	merge := fs.Bool("merge", false, mergeUsage)
	across := fs.Bool("across-builds", false, acrossBuildsUsage)
	files, paths, err := parseFiles(ctx, fs, commands["table"], args, 1, checkFormat(format), checkExperiment(exp))
	if err != nil {
		return err
	}
	leaveOutAll(files, paths)
	if *across && !*merge {
		return usagef("--across-builds goes with --merge")
	}
	if err := peersAlone(diag, fs.Name(), files, paths, *merge); err != nil {
		return err
	}
	if *merge {
		if files, paths, err = mergeFiles(files, paths, *across); err != nil {
			return err
		}
	}
	for i, f := range files {
		tables, err := experiments.RenderTables(f, *exp)
		if err != nil {
			return fmt.Errorf("%s: %w", paths[i], err)
		}
		if len(files) > 1 {
			fmt.Printf("== %s (%s)\n\n", paths[i], f.Machine.Label)
		}
		if err := printTables(tables, *format); err != nil {
			return err
		}
	}
	return nil
}

func plotCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	dir := fs.String("dir", "", "output folder (default "+filepath.Join(scratchDir(), "<machine-label>", "<file>.plots")+")")
	merge := fs.Bool("merge", false, mergeUsage)
	across := fs.Bool("across-builds", false, acrossBuildsUsage)
	files, paths, err := parseFiles(ctx, fs, commands["plot"], args, 1)
	if err != nil {
		return err
	}
	leaveOutAll(files, paths)
	if *across && !*merge {
		return usagef("--across-builds goes with --merge")
	}
	if err := peersAlone(diag, fs.Name(), files, paths, *merge); err != nil {
		return err
	}
	if *merge {
		if files, _, err = mergeFiles(files, paths, *across); err != nil {
			return err
		}
	}
	for i, f := range files {
		name := "merged"
		if !*merge {
			name = filepath.Base(runBase(paths[i]))
		}
		d := cmp.Or(*dir, filepath.Join(scratchDir(), f.Machine.Label, name+".plots"))
		written, err := renderPlots(ctx, f, d)
		if err != nil {
			return err
		}
		for _, w := range written {
			fmt.Println(w)
		}
	}
	return nil
}

// reportCmd writes the report and plots of a result file, as reproduce does
// at the end of a run: beside the file (<file>.md, <file>.plots/) unless
// told otherwise. The budget comes from the file, or --budget for files
// written before it was recorded.
func reportCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	out := fs.String("out", "", "the report (default the result file's name with .md)")
	plotDir := fs.String("plots", "", "folder for the plots (default the result file's name with .plots)")
	budget := fs.Duration("budget", 0, "the run's budget, for a file that does not record it")
	files, paths, err := parseFiles(ctx, fs, commands["report"], args, 1)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("name one result file (merge several with semibench table --merge)")
	}
	leaveOutAll(files, paths)
	if *budget < 0 {
		return usagef("--budget must not be negative, got %s", *budget)
	}
	f := files[0]
	b := *budget
	if f.Budget != "" && b == 0 {
		if b, err = time.ParseDuration(f.Budget); err != nil {
			return fmt.Errorf("%s: budget %q: %w", paths[0], f.Budget, err)
		}
	}
	base := runBase(paths[0])
	if isGitRef(paths[0]) { // a run read from git: its report in the scratch folder, as plot's
		base = filepath.Join(scratchDir(), f.Machine.Label, filepath.Base(base))
	}
	report, dir := cmp.Or(*out, base+".md"), cmp.Or(*plotDir, base+".plots")
	if err := cmp.Or(refuseInput("--out", report, paths[0]), refuseResultFile(report)); err != nil {
		return err
	}
	plots, plotErr := renderPlots(ctx, f, dir)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted before the report was written: %w", err)
	}
	if err := experiments.WriteReport(report, f, plots, b); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(os.Stderr, "semibench: report %s, %d plot file(s) in %s\n", report, len(plots), dir)
	return plotErr
}

func exportCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	in := fs.String("benchfmt", "", "result file to export in Go benchmark format (one line per sample; the machine and build are comment lines, so benchstat pairs exports of different machines and commits: benchstat old=a.txt new=b.txt; it needs 6 samples a cell, semibench run --reps 6, for a confidence interval)")
	out := fs.String("out", "", "output file (default standard output, also -)")
	pos, err := parse(fs, commands["export"], args)
	if err != nil {
		return err
	}
	if *in == "" && len(pos) == 1 {
		*in = pos[0]
	} else if len(pos) > 0 {
		return usagef("unexpected arguments %v", pos)
	}
	if *in == "" {
		return usagef("--benchfmt FILE is required")
	}
	if err := refuseInput("--out", *out, *in); err != nil {
		return err
	}
	f, err := readResult(ctx, *in)
	if err != nil {
		return err
	}
	placement.NameUnplaced(diag, *in, f)
	warnFewSamples(os.Stderr, *in, f)
	return withOutput(ctx, *out, func(w *bufio.Writer) error { return benchfmt.Write(w, f) })
}

// warnFewSamples tells on w when records of f (read from path) have fewer
// samples than benchstat needs for a confidence interval, and which run
// gives it enough. A paper's transcription has one value per cell by
// nature: it is named as such, with no advice to rerun.
func warnFewSamples(w io.Writer, path string, f *bench.File) {
	records, short, fewest := benchfmt.Samples(f, benchfmt.BenchstatMinSamples)
	if short == 0 {
		return
	}
	if f.Source != "" {
		fmt.Fprintf(w, "semibench export: %s holds a paper's numbers, one value per cell: benchstat shows them as \"± ∞\" and cannot test a difference against them\n", path)
		return
	}
	fmt.Fprintf(w, "semibench export: %s: %d of %d records have fewer than %d samples (fewest %d): benchstat prints \"± ∞\" for them (its 95%% confidence interval needs %d)",
		path, short, records, benchfmt.BenchstatMinSamples, fewest, benchfmt.BenchstatMinSamples)
	if fewest < 4 {
		fmt.Fprint(w, " and, with fewer than 4 a side, can call no difference significant")
	}
	fmt.Fprintf(w, "; measure with semibench run --reps %d or more (benchstat advises 10)\n", benchfmt.BenchstatMinSamples)
}
