package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/nvml"
	"github.com/semibench/semibench/internal/outfile"
	"github.com/semibench/semibench/internal/sysmem"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/history"
	"github.com/semibench/semibench/runner"
)

func init() {
	register(&command{
		name:    "list",
		summary: "list the experiments: name, paper, description",
		usage:   "list",
		run: func(_ context.Context, args []string) error {
			fs := flag.NewFlagSet("list", flag.ContinueOnError)
			pos, err := parse(fs, commands["list"], args)
			if err != nil {
				return err
			}
			if len(pos) > 0 {
				return usagef("list takes no arguments")
			}
			w := bufio.NewWriter(os.Stdout)
			for _, e := range experiments.All() {
				fmt.Fprintf(w, "%-19s %-19s %s\n", e.Name, experiments.PaperName(e.Paper), e.Description)
			}
			if err := w.Flush(); err != nil {
				return fmt.Errorf("writing the list to standard output: %w", err) // a full or closed one is a failure
			}
			return nil
		},
	})
	register(&command{
		name:    "run",
		summary: "run experiments by name, append a record per cell to a result file, print their tables",
		usage:   "run NAME... [--scale quick|paper|large] [--impl PATTERN] [--where NAME=VALUE,...] [--reps N] [--out FILE] [--budget DURATION] [--gpus N]",
		run:     runCmd,
	})
	register(&command{
		name:    "reproduce",
		summary: "run every experiment; write the result file, a Markdown report beside the papers, and the plots",
		usage:   "reproduce [--scale paper] [--budget DURATION] [--impl PATTERN] [--plots DIR]",
		run: func(ctx context.Context, args []string) error {
			return reproduce(ctx, args, experiments.All())
		},
	})
}

// runFlags are the flags shared by run and reproduce.
type runFlags struct {
	scale, impl, out string
	where            string
	reps, warmup     int
	threads, gpus    int
	seed             uint64
	budget           time.Duration
	format           string
	shard, memory    string
	resume           bool
	// noHistory prices and judges the run alone; historyFile reads the
	// history from a digest instead of the repository (history.go).
	noHistory   bool
	historyFile string
	// past is the history the run was priced with, which its report is
	// judged with; nil for none.
	past *history.Past
}

// budgetUsage documents --budget for run and reproduce.
const budgetUsage = "bound the run: the cells that decide the papers' claims run first (every claim below the paper's sizes, then at them, " +
	"the cheapest claim first), then the rest of the tables (the headline cells first, CUDA before CPU, then every other cell; each tier the cheapest case first); a cell whose estimate exceeds the time left is skipped, " +
	"and the run stops when the budget ends (0: no limit)"

func (f *runFlags) register(fs *flag.FlagSet, scale string, budget time.Duration) {
	fs.StringVar(&f.scale, "scale", scale, "input sizes: quick (seconds), paper (the papers' sizes) or large (beyond them)")
	fs.StringVar(&f.impl, "impl", "", "run only the implementations matching this pattern (e.g. cpu/*, cuda/fast; comma-separated)")
	fs.StringVar(&f.where, "where", "", "run only the cells whose parameters match, e.g. n=8192,range=n|10n (NAME=VALUE[|VALUE...], comma-separated)")
	fs.IntVar(&f.reps, "reps", runner.DefaultReps, "timed repetitions per cell (after the warm-up; 6 is the fewest benchstat trusts)")
	fs.IntVar(&f.warmup, "warmup", 1, "untimed warm-up runs per cell")
	fs.StringVar(&f.out, "out", "", "result file, JSON Lines (default <folder>/<machine-label>/<timestamp>.jsonl, the folder results for reproduce and "+scratchDir()+" for run)")
	fs.DurationVar(&f.budget, "budget", budget, budgetUsage)
	fs.IntVar(&f.threads, "threads", 0, "CPU threads for parallel implementations (0: all cores)")
	fs.IntVar(&f.gpus, "gpus", 1, "GPUs for implementations that split their work over devices")
	fs.Uint64Var(&f.seed, "seed", 1, "generator seed")
	fs.StringVar(&f.format, "format", report.FormatText, "table format: "+strings.Join(report.Formats(), ", "))
	fs.StringVar(&f.shard, "shard", "", "run the K-th of N shards of the plan (K/N: balanced by estimated cost, a claim's cells in one shard; "+
		"run every K on machines of one kind and merge the files with table --merge or claims)")
	fs.BoolVar(&f.resume, "resume", false, "with --out naming a file of an earlier run of this commit, scale and machine: measure only the cells not already ok in it")
	fs.StringVar(&f.memory, "memory", "", "host memory the plan may fill (e.g. 500GiB), where the machine's own figure is wrong "+
		"(default: the cgroup's limit when set, else MemTotal)")
	fs.BoolVar(&f.noHistory, "no-history", false, "price the cells from this run alone, without the history of this machine kind (by default read from results/ and its git history)")
	fs.StringVar(&f.historyFile, "history", "", "read the history of this machine kind from this digest (semibench history --digest FILE), for a tree without git")
}

// config validates every flag and the implementation pattern against the
// experiments, before any work starts.
func (f *runFlags) config(exps []*experiments.Experiment) (runner.Config, error) {
	sc, err := experiments.ParseScale(f.scale)
	if err != nil {
		return runner.Config{}, usagef("--scale: %v", err)
	}
	if f.reps < 1 || f.reps > maxReps {
		return runner.Config{}, usagef("--reps must be in 1..%d (benchstat advises 10), got %d", maxReps, f.reps)
	}
	if f.warmup < 0 || f.warmup > maxReps {
		return runner.Config{}, usagef("--warmup must be in 0..%d, got %d", maxReps, f.warmup)
	}
	if f.gpus < 1 || f.gpus > maxGPUs {
		return runner.Config{}, usagef("--gpus must be in 1..%d, got %d", maxGPUs, f.gpus)
	}
	if err := checkThreads(f.threads); err != nil {
		return runner.Config{}, err
	}
	if f.budget < 0 {
		return runner.Config{}, usagef("--budget must not be negative, got %s", f.budget)
	}
	if !slices.Contains(report.Formats(), f.format) {
		return runner.Config{}, usagef("--format: unknown table format %q (valid: %s)", f.format, strings.Join(report.Formats(), ", "))
	}
	if err := experiments.CheckImplPattern(exps, f.impl); err != nil {
		return runner.Config{}, usagef("--impl: %v", err)
	}
	where, err := runner.ParseWhere(f.where)
	if err != nil {
		return runner.Config{}, usagef("--where: %v", err)
	}
	opts := experiments.Options{Threads: f.threads, GPUs: f.gpus, Seed: f.seed}
	if err := runner.CheckWhere(exps, sc, opts, where); err != nil {
		return runner.Config{}, usagef("--where: %v", err)
	}
	cfg := runner.Config{Scale: sc, Impl: f.impl, Where: where, Reps: f.reps, Warmup: f.warmup, Budget: f.budget,
		Options: opts, Progress: os.Stderr, Terminal: isTerminal(os.Stderr), GPUState: nvml.Sampler, Outer: newOuterSampler()}
	if f.shard != "" {
		if cfg.Shard, err = runner.ParseShard(f.shard); err != nil {
			return runner.Config{}, usagef("--shard: %v", err)
		}
	}
	if f.memory != "" {
		b, err := sysmem.ParseSize(f.memory)
		if err != nil {
			return runner.Config{}, usagef("--memory: %v", err)
		}
		if held := sysmem.PeakRSS(); b <= held {
			return runner.Config{}, usagef("--memory: %s (%d bytes) is no more than this process already holds (%d bytes, %.1f MiB): no cell could run under it",
				f.memory, b, held, float64(held)/(1<<20))
		}
		sysmem.SetLimit(b)
	}
	if f.resume && f.out == "" {
		return runner.Config{}, usagef("--resume needs --out naming the result file to resume")
	}
	return cfg, nil
}

// execute runs the experiments with a validated configuration into the
// result file (--out, or a new one under root) and returns the file as
// written. The error is the run's
// (interrupted, a file that cannot be written); the records finished
// before it are in the file.
//
// again is the command and its arguments as given: an interrupted run
// notes in the file the command that goes on with it (--resume).
func execute(ctx context.Context, cfg runner.Config, f *runFlags, exps []*experiments.Experiment, root string, again []string) (*bench.File, string, error) {
	machine := currentMachine()
	started := time.Now().UTC()
	out := f.out
	if out == "" {
		out = filepath.Join(root, machine.Label, started.Format("20060102-150405")+".jsonl")
	}
	if len(machine.GPUs) > 0 {
		cfg.DeviceMemory = machine.GPUs[0].MemoryBytes
		cfg.Kernels = loadKernels(min(cfg.Options.GPUs, len(machine.GPUs)))
	}
	limit := sysmem.HostLimit()
	var err error
	head := &bench.File{Schema: bench.SchemaVersion, Semibench: bench.CurrentBuild(),
		Machine: machine, Started: started, Scale: string(cfg.Scale), Budget: budgetText(cfg.Budget),
		Memory: &bench.MemoryLimit{Bytes: limit.Bytes, Source: limit.Source}, Shard: cfg.Shard.String(),
		Seed: cmp.Or(cfg.Options.Seed, 1)} // experiments read seed 0 as 1
	if cfg.Past, err = pastFor(ctx, f, machine, cfg.Scale); err != nil {
		return nil, "", err
	}
	if f.resume {
		done, gone, err := resumable(ctx, out, head)
		if err != nil {
			return nil, "", err
		}
		cfg.Done, cfg.Gone = done, gone
	}
	app, err := bench.NewAppender(out, head)
	if err != nil {
		if errors.Is(err, bench.ErrNotRegular) || errors.Is(err, bench.ErrInUse) || errors.Is(err, bench.ErrIncompatible) {
			return nil, "", usagef("--out: %v", err) // refused before any work: the path is the user's choice
		}
		return nil, "", fmt.Errorf("result file: %w", err)
	}
	defer app.Close()
	fmt.Fprintf(os.Stderr, "semibench: writing %s (%s scale, %d experiment(s)%s; host memory limit %.1f GiB from %s)\n",
		out, cfg.Scale, len(exps), shardText(cfg.Shard), float64(limit.Bytes)/(1<<30), limit.Source)
	err = runner.Run(ctx, cfg, exps, app)
	var intr *runner.Interrupted
	switch {
	case errors.As(err, &intr):
		// The file and the report say it, and how to go on; dispatch
		// prints the error, once.
		again := resumeCommand(again, out)
		app.AddNotes(experiments.InterruptedNote(intr.Recorded, intr.Cells, again))
		err = fmt.Errorf("%w; %d finished record(s) kept in %s; go on with: %s", intr, len(app.File().Records), out, again)
	case err != nil && ctx.Err() != nil:
		err = fmt.Errorf("interrupted; %d finished record(s) kept in %s: %w", len(app.File().Records), out, err)
	}
	return app.File(), out, err
}

// loadKernels is the run's Config.Kernels: every kernel module loaded on
// each of the run's GPUs (cuda.LoadKernels), a panic of the driver's
// reported as an error.
func loadKernels(gpus int) func(context.Context) (string, error) {
	return func(ctx context.Context) (note string, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("loading the kernels: %v", r)
			}
		}()
		var notes []string
		for g := range max(1, gpus) {
			n, err := cuda.LoadKernels(ctx, g)
			if n != "" {
				notes = append(notes, n)
			}
			if err != nil {
				return strings.Join(notes, "; "), fmt.Errorf("GPU %d: %w", g, err)
			}
		}
		return strings.Join(notes, "; "), nil
	}
}

// resumeCommand is the command line that goes on with an interrupted
// run: again (the command and its arguments as given) writing to out with
// --resume.
func resumeCommand(again []string, out string) string {
	words := []string{"semibench"}
	for i := 0; i < len(again); i++ {
		a := again[i]
		switch {
		case a == "--out" || a == "-out":
			i++ // and its value
			continue
		case strings.HasPrefix(a, "--out=") || strings.HasPrefix(a, "-out=") || a == "--resume" || a == "-resume":
			continue
		}
		words = append(words, shellWord(a))
	}
	return strings.Join(append(words, "--out", shellWord(out), "--resume"), " ")
}

// shellWord quotes a word for a POSIX shell where it needs quoting.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=,:+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// failedCells returns an error naming the cells of f that failed or whose
// check failed, or nil.
func failedCells(f *bench.File) error {
	var bad []string
	for _, r := range f.Records {
		if r.Status == bench.StatusFailed || r.Status == bench.StatusCheckFailed {
			bad = append(bad, fmt.Sprintf("%s %s %s (%s)", r.Experiment, r.Impl, r.Params.String(), r.Status))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	n := len(bad)
	if n > 5 {
		bad = append(bad[:5], fmt.Sprintf("and %d more", n-5))
	}
	return fmt.Errorf("%d cell(s) failed or failed their check: %s", n, strings.Join(bad, "; "))
}

func runCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f runFlags
	f.register(fs, string(experiments.Quick), 0)
	names, err := parse(fs, commands["run"], args)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return usagef("name at least one experiment (semibench list shows them)")
	}
	exps, err := experiments.Lookup(names...)
	if err != nil {
		return usagef("%v", err)
	}
	cfg, err := f.config(exps)
	if err != nil {
		return err
	}
	file, _, runErr := execute(ctx, cfg, &f, exps, scratchDir(), append([]string{"run"}, args...))
	if file == nil {
		return runErr
	}
	// What finished is printed even when the run was interrupted.
	tables, err := experiments.RenderTables(file, "")
	if err == nil {
		err = printTables(tables, f.format)
	}
	return cmp.Or(runErr, err, failedCells(file))
}

// reproduce runs exps (every experiment, from the command) into a result
// file and writes, beside it, a Markdown report and a folder of plots of
// their own: <file>.md and <file>.plots/. The report and plots are written
// of what finished also when the run was interrupted or its budget ended.
func reproduce(ctx context.Context, args []string, exps []*experiments.Experiment) error {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	var f runFlags
	f.register(fs, string(experiments.Paper), defaultBudget)
	plotDir := fs.String("plots", "", "folder for the plots (default <result file without .jsonl>.plots, beside it)")
	allTables := fs.Bool("tables", false, "print every table on standard output (by default: the claims' summary and where the files are)")
	pos, err := parse(fs, commands["reproduce"], args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("reproduce takes no arguments (use run NAME for single experiments)")
	}
	cfg, err := f.config(exps)
	if err != nil {
		return err
	}
	cfg.Reserve = reportReserve(cfg.Budget)
	file, out, runErr := execute(ctx, cfg, &f, exps, "results", append([]string{"reproduce"}, args...))
	if file == nil {
		return runErr
	}
	base := runBase(out)
	dir := cmp.Or(*plotDir, base+".plots")
	// A plot that fails to draw leaves the report, with the plots drawn;
	// both are written also when the run was interrupted.
	plots, plotErr := renderPlots(context.WithoutCancel(ctx), file, dir)
	reportPath := base + ".md"
	hist := f.past.For(out, file.Semibench.Commit, file.Started) // nil without history
	if err := experiments.WriteRunReportWith(reportPath, file, plots, cfg.Budget, time.Now(), hist); err != nil {
		return cmp.Or(runErr, fmt.Errorf("report: %w", err))
	}
	if *allTables {
		var tables []report.Table
		if tables, err = experiments.RenderTables(file, ""); err == nil {
			err = printTables(tables, f.format)
		}
	} else {
		err = printSummary(os.Stdout, file, hist, report.TerminalWidth(os.Stdout))
	}
	fmt.Fprintf(os.Stderr, "semibench: results %s, report %s, %d plot file(s) in %s\n", out, reportPath, len(plots), dir)
	return cmp.Or(runErr, plotErr, err, failedCells(file))
}

// printSummary writes what a run decided in a screen: the claims per paper
// by verdict, the claims not reproduced or inconclusive, and what the
// claims not run would need, each wrapped to width, never cut.
func printSummary(w io.Writer, f *bench.File, h *experiments.History, width int) error {
	claims := experiments.JudgeFileWith(f, h)
	roll := rollUp(claims, fmt.Sprintf("the papers' claims on %s (%s scale)", f.Machine.Label, f.Scale), width, true)
	if err := roll.Render(w, report.FormatText); err != nil {
		return err
	}
	writeHistoryChanged(w, claims, h, width)
	for _, v := range []experiments.Verdict{experiments.NotReproduced, experiments.Inconclusive, experiments.NotRun} {
		var lines []string
		for _, c := range claims {
			if c.Verdict != v {
				continue
			}
			what := c.Ours
			if v == experiments.NotRun {
				what = c.Reason
			}
			lines = append(lines, "  "+report.Wrap(fmt.Sprintf("%s %s: %s %s", c.Paper, c.Where, c.Short(), what), width-2, "    "))
		}
		if len(lines) > 0 {
			fmt.Fprintf(w, "\n%s (%d):\n%s\n", v, len(lines), strings.Join(lines, "\n"))
		}
	}
	_, err := fmt.Fprintln(w, "\nThe report has every claim, its rule and the command that re-runs its cells; --tables prints every table here.")
	return err
}

// reportReserve is the part of reproduce's budget kept for the report, the
// plots and the tables after the cells, so that the whole command ends
// within its budget: a sixtieth of it, between 5 s and 30 s (the H100's
// 7-minute reproduce of e770f14 and the 2-core machine's 25-minute one
// each wrote theirs 2 s after their last cell).
func reportReserve(budget time.Duration) time.Duration {
	if budget <= 0 {
		return 0
	}
	return min(max(budget/60, 5*time.Second), 30*time.Second, budget/2)
}

// budgetText is a budget as a result file keeps it: empty when unlimited.
func budgetText(b time.Duration) string {
	if b <= 0 {
		return ""
	}
	return b.String()
}

// defaultBudget is reproduce's --budget: headline cells run first, so
// the budget goes to them before any other cell.
const defaultBudget = 25 * time.Minute

// printTables renders tables to standard output, text fitted to the
// terminal's width (report.TerminalWidth); an unknown format is bad usage,
// any other error (a closed output) a failure.
func printTables(tables []report.Table, format string) error {
	width := report.TerminalWidth(os.Stdout)
	for i := range tables {
		tables[i].Width = width
		if err := tables[i].Render(os.Stdout, format); err != nil {
			if !slices.Contains(report.Formats(), format) {
				return usagef("--format: %v", err)
			}
			return err
		}
		fmt.Println()
	}
	return nil
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// shardText is ", shard K/N" for a sharded run.
func shardText(s runner.Shard) string {
	if s.N <= 1 {
		return ""
	}
	return ", shard " + s.String()
}

// resumable returns the keys of the cells already ok in the result file
// at path (done), and of those it records unavailable (gone, not
// recorded again while they cannot run), which must be an earlier run of this build, machine and scale
// (bench.Unjoinable, the words a plain append is refused with); a file
// that does not exist yet resumes nothing.
func resumable(ctx context.Context, path string, head *bench.File) (done, gone map[string]bool, err error) {
	// Refused as the append refuses it, before an open that would block
	// (a FIFO without a writer).
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, nil, usagef("--out: %s is %s: a result file grows record by record; give --out the name of a regular file", path, outfile.KindOf(st.Mode()))
	}
	f, err := bench.ReadFileContext(ctx, path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--resume: %w", err)
	}
	if why := bench.Unjoinable(f, head); why != "" {
		return nil, nil, usagef("--resume: %s %s", path, why)
	}
	done, gone = map[string]bool{}, map[string]bool{}
	for _, r := range f.Records {
		switch r.Status {
		case bench.StatusOK:
			done[r.Key()] = true
		case bench.StatusUnavailable:
			gone[r.Key()] = true
		}
	}
	return done, gone, nil
}
