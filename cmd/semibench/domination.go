package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/internal/outfile"
	"github.com/semibench/semibench/problems/domination"
)

// dominationSolvers lists the implementations `solve domination` takes:
// those with the fingerprint search (the whole-matrix searches need all K
// powers, and the solver stops at the first repetition).
func dominationSolvers() []string {
	var names []string
	for _, im := range impls.Domination.All() {
		if im.Search == domination.SearchFingerprints {
			names = append(names, im.Name)
		}
	}
	return names
}

// The 2-domination paper (002): `gen domination` writes A(D_m), `solve
// domination` computes γ2(P_m □ C_n) and, on request, an optimal
// 2-dominating set.

func init() {
	generators["domination"] = genDomination
	solvers["domination"] = solveDomination
}

func genDomination(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("gen domination", flag.ContinueOnError)
	m := fs.Int("m", 0, "rows of the cylinder P_m □ C_n (2 <= m <= 16): A(D_m) has a row per correct m-word")
	out := fs.String("out", "", "output Matrix Market file (- for standard output)")
	cmd := &command{name: "gen domination", summary: "write A(D_m), the (min,+) matrix of the 2-domination paper, as a Matrix Market coordinate file",
		usage: "gen domination --m M --out FILE.mtx"}
	if err := parseFlags(fs, cmd, args, "out"); err != nil {
		return err
	}
	if err := domination.CheckM(*m); err != nil {
		return usagef("--m: %v", err)
	}
	return withOutput(ctx, *out, func(w *bufio.Writer) error { return domination.WriteMatrixMarketContext(ctx, w, *m) })
}

func solveDomination(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("solve domination", flag.ContinueOnError)
	m := fs.Int("m", 0, "rows of the cylinder P_m □ C_n (the path), 2 <= m <= 16")
	n := fs.Int("n", 0, "columns of the cylinder (the cycle), n >= 3")
	witness := fs.Bool("witness", false, "also print an optimal 2-dominating set as [[row, column], ...] (0-based), checked before printing")
	impl := fs.String("impl", domination.DefaultImpl, "(min,+) product of Algorithm 2: "+strings.Join(dominationSolvers(), ", "))
	threads := fs.Int("threads", 0, "CPU threads (0: all cores)")
	gpus := fs.Int("gpus", 1, "GPUs of this host over which cuda/sparse and cuda/fast split the powers in column slabs (CPU implementations ignore it)")
	checkpoint := fs.String("checkpoint", "", "Algorithm 2's checkpoint file: resumed from when it exists, written when stopping (see --checkpoint-every, --time-limit)")
	every := fs.Int("checkpoint-every", 0, "with --checkpoint: also write it after every K powers (0: only when stopping)")
	limit := fs.Duration("time-limit", 0, "with --checkpoint: stop at the first power completed after this time (e.g. 8m), writing the checkpoint; run again to resume (exit status 3)")
	cmd := problemCommand("domination", "solve domination --m M --n N [--witness] [--impl NAME] [--gpus N] [--checkpoint FILE [--checkpoint-every K] [--time-limit D]]")
	cmd.summary = "γ2(P_m □ C_n), the 2-domination number of the cylinder, by the paper's Algorithms 1-5, as JSON {\"m\", \"n\", \"gamma2\"[, \"witness\"]}"
	if err := parseFlags(fs, cmd, args); err != nil {
		return err
	}
	if err := domination.CheckM(*m); err != nil {
		return usagef("--m must be in 2..%d (the path P_m; A(D_%d) already has about 2 million rows), got %d", domination.MaxM, domination.MaxM, *m)
	}
	if *n < 3 || *n > domination.MaxN(*m) {
		return usagef("--n must be in 3..%d with --m %d (the cycle C_n; the m·n vertices must fit in an int), got %d", domination.MaxN(*m), *m, *n)
	}
	if *witness {
		if _, err := domination.WitnessBytes(*m, *n); err != nil {
			return usagef("--n with --witness: %v", err)
		}
	}
	if err := checkThreads(*threads); err != nil {
		return err
	}
	if *gpus < 1 || *gpus > maxGPUs {
		return usagef("--gpus must be in 1..%d, got %d", maxGPUs, *gpus)
	}
	if *checkpoint == "" && (*every != 0 || *limit != 0) {
		return usagef("--checkpoint-every and --time-limit need --checkpoint FILE")
	}
	if *every < 0 || *limit < 0 {
		return usagef("--checkpoint-every and --time-limit must not be negative, got %d and %s", *every, *limit)
	}
	im, err := impls.Domination.Lookup(*impl)
	if err != nil || !slices.Contains(dominationSolvers(), *impl) {
		return usagef("--impl: unknown implementation %q (known: %s)", *impl, strings.Join(dominationSolvers(), ", "))
	}
	if err := needDevice(*impl); err != nil {
		return err
	}
	opt := domination.Options{Impl: im, Threads: *threads, GPUs: *gpus, CheckpointPath: *checkpoint, CheckpointEvery: *every}
	if *limit > 0 {
		opt.Deadline = time.Now().Add(*limit)
	}
	sol, err := domination.Solve(ctx, *m, *n, *witness, opt)
	if errors.Is(err, domination.ErrCheckpointed) {
		return exitError{code: exitCheckpointed, err: err}
	}
	if err != nil {
		return err
	}
	if *witness {
		// Solve checks it too; a wrong set must never reach the output.
		if len(sol.Witness) != sol.Gamma2 {
			return fmt.Errorf("solve domination: witness of %d vertices for γ2 = %d", len(sol.Witness), sol.Gamma2)
		}
		if err := domination.Check2Dominating(*m, *n, sol.Witness); err != nil {
			return fmt.Errorf("solve domination: witness: %w", err)
		}
	}
	return withOutput(ctx, outfile.Stdout, func(w *bufio.Writer) error { return json.NewEncoder(w).Encode(sol) })
}
