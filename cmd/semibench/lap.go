package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/internal/outfile"
	"github.com/semibench/semibench/problems/lap"
)

func init() {
	solvers["lap"] = solveLAP
	generators["lap"] = genLAP
}

// genLAP is `semibench gen lap`: the paper's uniform integer costs
// (generators/lapcost) as CSV, a row per line, the input of `solve lap`;
// with --count K, a batch file of K matrices (problem k from seed S+k, as
// hungarian/batch generates them), the input of `solve lap --batch`.
func genLAP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("gen lap", flag.ContinueOnError)
	n := fs.Int("n", 0, "rows")
	cols := fs.Int("cols", 0, "columns (0: n, a square matrix; at least n)")
	rng := fs.String("range", "n", "costs uniform in [0, range): a label Fn such as 0.1n, n or 10n (the paper's)")
	seed := fs.Uint64("seed", 1, "generator seed")
	count := fs.Int("count", 0, "write a batch file of this many matrices, problem k from seed S+k (0: one matrix as CSV)")
	out := fs.String("out", "", "output file: CSV, or with --count a batch file ("+lap.BatchFormat+"); - for standard output")
	if err := parseFlags(fs, &command{name: "gen lap", summary: generatorHelp["lap"], usage: "gen lap --n N [--cols C] [--range 0.1n|n|10n] [--seed S] [--count K] --out FILE"}, args, "out"); err != nil {
		return err
	}
	if *cols == 0 {
		*cols = *n
	}
	if *n < 1 || *cols < *n {
		return usagef("--n must be at least 1 and --cols at least --n, got %d x %d", *n, *cols)
	}
	if *n > lapcost.MaxCells / *cols {
		return usagef("--n x --cols must be at most %d cells, got %d x %d", lapcost.MaxCells, *n, *cols)
	}
	r, err := lapcost.Range(*rng, *cols)
	if err != nil {
		return usagef("--range: %v", err)
	}
	if *count < 0 || (*count > 0 && *count > lapcost.MaxCells/(*n**cols)) {
		return usagef("--count must be from 0 to %d for %d x %d matrices, got %d", lapcost.MaxCells/(*n**cols), *n, *cols, *count)
	}
	problems := max(1, *count)
	return withOutput(ctx, *out, func(w *bufio.Writer) error {
		c, err := lapcost.GenerateBatchContext(ctx, problems, *n, *cols, r, *seed)
		if err != nil {
			return err
		}
		if *count > 0 {
			if _, err := fmt.Fprintf(w, "lapbatch %d %d %d\n", *count, *n, *cols); err != nil {
				return err
			}
		}
		var line []byte
		for i := range problems * *n {
			if *count > 0 && i > 0 && i%*n == 0 {
				if err := w.WriteByte('\n'); err != nil {
					return err
				}
			}
			line = line[:0]
			for j, v := range c[i**cols : (i+1)**cols] {
				if j > 0 {
					line = append(line, ',')
				}
				line = strconv.AppendInt(line, v, 10)
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	})
}

// solveLAP is `semibench solve lap`: one instance from a file, any
// implementation of impls.LAP, the answer checked (duals, or agreement
// with a certified cpu/jv answer) before it is printed as JSON.
func solveLAP(ctx context.Context, args []string) error {
	names := impls.LAP.Names()
	fs := flag.NewFlagSet("solve lap", flag.ContinueOnError)
	in := fs.String("in", "", "cost matrix: CSV (a row per line) or Matrix Market array; r x c with r <= c")
	impl := fs.String("impl", lap.DefaultImpl, "implementation: "+strings.Join(names, ", ")+" (cuda/paper and cpu/auction take integer costs only)")
	maximize := fs.Bool("maximize", false, "maximise the total instead of minimising it")
	batch := fs.String("batch", "", "instead of --in, a batch of independent problems: "+lap.BatchFormat+" (--impl cuda/fast or cpu/jv)")
	out := fs.String("out", "", "with --batch: the output file (default standard output, also -): one line per problem, its cost then its assignment")
	if err := parseFlags(fs, problemCommand("lap", "solve lap --in FILE [--impl NAME] [--maximize] | solve lap --batch FILE [--impl cuda/fast|cpu/jv] [--maximize] [--out FILE]"), args); err != nil {
		return err
	}
	if *in == "" && *batch == "" {
		return usagef("--in is required (a cost matrix file), or --batch (a batch file)")
	}
	if *in != "" && *batch != "" {
		return usagef("give one of --in (one problem) and --batch (a batch file), not both")
	}
	if *batch != "" {
		return solveLAPBatch(ctx, *batch, *impl, *maximize, *out)
	}
	if *out != "" {
		return usagef("--out goes with --batch (one problem's answer is printed as JSON)")
	}
	im, err := impls.LAP.Lookup(*impl)
	if err != nil {
		return usagef("--impl: unknown LAP implementation %q (known: %s)", *impl, strings.Join(names, ", "))
	}
	if err := needDevice(*impl); err != nil {
		return err
	}
	costs, err := lap.ReadCostsFile(*in)
	if err != nil {
		return err
	}
	sol, err := interruptible(ctx, func() (*lap.Solution, error) { return lap.Solve(ctx, costs, im, *maximize) })
	if err != nil {
		return err // names the file and the implementation
	}
	return withOutput(ctx, outfile.Stdout, func(w *bufio.Writer) error { return json.NewEncoder(w).Encode(sol) })
}
