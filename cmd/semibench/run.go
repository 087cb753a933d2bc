package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/runner"
)

func init() {
	register(&command{
		name:    "list",
		summary: "list the experiments: name, paper file, description",
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
			for _, e := range experiments.All() {
				fmt.Printf("%-18s %-26s %s\n", e.Name, e.Paper, e.Description)
			}
			return nil
		},
	})
	register(&command{
		name:    "run",
		summary: "run experiments by name, append a record per cell to a result file, print their tables",
		usage:   "run NAME... [--scale quick|paper|large] [--impl PATTERN] [--reps N] [--out FILE] [--budget DURATION] [--gpus N]",
		run:     runCmd,
	})
	register(&command{
		name:    "reproduce",
		summary: "run every experiment; write the result file, a Markdown report beside the papers, and the plots",
		usage:   "reproduce [--scale paper] [--budget DURATION] [--impl PATTERN]",
		run:     reproduceCmd,
	})
}

// runFlags are the flags shared by run and reproduce.
type runFlags struct {
	scale, impl, out string
	reps, warmup     int
	threads, gpus    int
	seed             uint64
	budget           time.Duration
	format           string
}

func (f *runFlags) register(fs *flag.FlagSet, scale string, budget time.Duration) {
	fs.StringVar(&f.scale, "scale", scale, "input sizes: quick (seconds), paper (the papers' sizes) or large (beyond them)")
	fs.StringVar(&f.impl, "impl", "", "run only the implementations matching this pattern (e.g. cpu/*, cuda/fast; comma-separated)")
	fs.IntVar(&f.reps, "reps", 5, "timed repetitions per cell (after the warm-up)")
	fs.IntVar(&f.warmup, "warmup", 1, "untimed warm-up runs per cell")
	fs.StringVar(&f.out, "out", "", "result file (default results/<machine-label>/<timestamp>.json)")
	fs.DurationVar(&f.budget, "budget", budget, "skip cells whose estimated time would overrun this budget (0: no limit)")
	fs.IntVar(&f.threads, "threads", 0, "CPU threads for parallel implementations (0: all cores)")
	fs.IntVar(&f.gpus, "gpus", 1, "GPUs for implementations that split their work over devices")
	fs.Uint64Var(&f.seed, "seed", 1, "generator seed")
	fs.StringVar(&f.format, "format", "text", "table format: text, markdown or csv")
}

func (f *runFlags) config() (runner.Config, error) {
	sc, err := experiments.ParseScale(f.scale)
	if err != nil {
		return runner.Config{}, usagef("--scale: %v", err)
	}
	if f.reps < 1 {
		return runner.Config{}, usagef("--reps must be at least 1, got %d", f.reps)
	}
	if f.gpus < 1 {
		return runner.Config{}, usagef("--gpus must be at least 1, got %d", f.gpus)
	}
	if f.threads < 0 || f.warmup < 0 || f.budget < 0 {
		return runner.Config{}, usagef("--threads, --warmup and --budget must not be negative")
	}
	cfg := runner.Config{Scale: sc, Impl: f.impl, Reps: f.reps, Warmup: f.warmup, Budget: f.budget,
		Options: experiments.Options{Threads: f.threads, GPUs: f.gpus, Seed: f.seed}}
	if isTerminal(os.Stderr) {
		cfg.Progress = os.Stderr
	}
	return cfg, nil
}

// execute runs the experiments into a new result file and returns it.
func execute(ctx context.Context, f *runFlags, exps []*experiments.Experiment) (*bench.File, string, error) {
	cfg, err := f.config()
	if err != nil {
		return nil, "", err
	}
	if err := experiments.CheckImplPattern(exps, f.impl); err != nil {
		return nil, "", usagef("--impl: %v", err)
	}
	machine := currentMachine()
	started := time.Now().UTC()
	out := f.out
	if out == "" {
		out = filepath.Join("results", machine.Label, started.Format("20060102-150405")+".json")
	}
	app, err := bench.NewAppender(out, &bench.File{Schema: bench.SchemaVersion, Semibench: bench.CurrentBuild(),
		Machine: machine, Started: started, Scale: string(cfg.Scale)})
	if err != nil {
		return nil, "", fmt.Errorf("result file: %w", err)
	}
	fmt.Fprintf(os.Stderr, "semibench: writing %s (%s scale, %d experiment(s))\n", out, cfg.Scale, len(exps))
	err = runner.Run(ctx, cfg, exps, app)
	if err != nil && ctx.Err() != nil {
		fmt.Fprintf(os.Stderr, "\nsemibench: interrupted; %d finished record(s) kept in %s\n", len(app.File().Records), out)
	}
	return app.File(), out, err
}

func runCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f runFlags
	f.register(fs, "quick", 0)
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
	file, _, err := execute(ctx, &f, exps)
	if err != nil {
		return err
	}
	tables, err := experiments.RenderTables(file, "")
	if err != nil {
		return err
	}
	return printTables(tables, f.format)
}

func reproduceCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	var f runFlags
	f.register(fs, "paper", 25*time.Minute)
	plotDir := fs.String("plots", "", "folder for the plots (default plots/<machine-label>)")
	pos, err := parse(fs, commands["reproduce"], args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("reproduce takes no arguments (use run NAME for single experiments)")
	}
	file, out, err := execute(ctx, &f, experiments.All())
	if err != nil {
		return err
	}
	dir := *plotDir
	if dir == "" {
		dir = filepath.Join("plots", file.Machine.Label)
	}
	plots, err := experiments.RenderPlots(file, dir)
	if err != nil {
		return err
	}
	report := out[:len(out)-len(filepath.Ext(out))] + ".md"
	if err := experiments.WriteReport(report, file, plots); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	tables, err := experiments.RenderTables(file, "")
	if err != nil {
		return err
	}
	if err := printTables(tables, f.format); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "semibench: results %s, report %s, %d plot file(s) in %s\n", out, report, len(plots), dir)
	return nil
}

func printTables(tables []bench.Table, format string) error {
	for i := range tables {
		if err := tables[i].Render(os.Stdout, format); err != nil {
			return usagef("--format: %v", err)
		}
		fmt.Println()
	}
	return nil
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
