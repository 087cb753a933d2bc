package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/domination"
)

// The 2-domination paper (002): `solve domination` computes γ2(P_m □ C_n)
// and, on request, an optimal 2-dominating set; `gen domination` writes
// A(D_m).

func init() {
	addSolver(&Solver{
		Name: "domination",
		Summary: "γ2(P_m □ C_n), the 2-domination number of the cylinder, by the paper's Algorithms 1-5 (paper 002),\n" +
			"as JSON {\"m\", \"n\", \"gamma2\"[, \"witness\"]}; no input file: --m and --n name the cylinder\n" +
			"(gen domination writes the paper's matrix A(D_m)).",
		Usage:       "solve domination --m M --n N [--witness] [--impl NAME] [--gpus N] [--out FILE] [--checkpoint FILE [--checkpoint-every K] [--time-limit D]]",
		Out:         "output file for the JSON answer (default standard output, also -)",
		Impls:       dominationSolvers,
		ImplLabel:   "domination",
		ImplNote:    " (the (min,+) product of Algorithm 2)",
		DefaultImpl: domination.DefaultImpl,
		Flags:       dominationFlags,
	})
	addGenerator(&Generator{
		Name:     "domination",
		Summary:  "A(D_m), the (min,+) matrix of the 2-domination paper (002), as Matrix Market",
		Usage:    "gen domination --m M --out FILE.mtx",
		Out:      "output Matrix Market file (- for standard output)",
		Required: []string{"out"},
		Flags:    genDominationFlags,
	})
}

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

func dominationFlags(fs *flag.FlagSet, c *Common) func() (*Plan, error) {
	m := fs.Int("m", 0, "rows of the cylinder P_m □ C_n (the path), 2 <= m <= 16")
	n := fs.Int("n", 0, "columns of the cylinder (the cycle), n >= 3")
	witness := fs.Bool("witness", false, "also write an optimal 2-dominating set as [[row, column], ...] (0-based), checked before it is written")
	threads := fs.Int("threads", 0, "CPU threads (0: all cores)")
	gpus := fs.Int("gpus", 1, "GPUs of this host over which cuda/sparse and cuda/fast split the powers in column slabs (CPU implementations ignore it)")
	checkpoint := fs.String("checkpoint", "", "Algorithm 2's checkpoint file: resumed from when it exists, written when stopping (see --checkpoint-every, --time-limit)")
	every := fs.Int("checkpoint-every", 0, "with --checkpoint: also write it after every K powers (0: only when stopping)")
	limit := fs.Duration("time-limit", 0, "with --checkpoint: stop at the first power completed after this time (e.g. 8m), writing the checkpoint; run again to resume (exit status 3)")
	return func() (*Plan, error) {
		if err := domination.CheckM(*m); err != nil {
			return nil, Usagef("--m must be in 2..%d (the path P_m; A(D_%d) already has about 2 million rows), got %d", domination.MaxM, domination.MaxM, *m)
		}
		if *n < 3 || *n > domination.MaxN(*m) {
			return nil, Usagef("--n must be in 3..%d with --m %d (the cycle C_n; the m·n vertices must fit in an int), got %d", domination.MaxN(*m), *m, *n)
		}
		if *witness {
			if _, err := domination.WitnessBytes(*m, *n); err != nil {
				return nil, Usagef("--n with --witness: %v", err)
			}
		}
		if err := CheckThreads(*threads); err != nil {
			return nil, err
		}
		if err := CheckGPUs(*gpus); err != nil {
			return nil, err
		}
		if *checkpoint == "" && (*every != 0 || *limit != 0) {
			return nil, Usagef("--checkpoint-every and --time-limit need --checkpoint FILE")
		}
		if *every < 0 || *limit < 0 {
			return nil, Usagef("--checkpoint-every and --time-limit must not be negative, got %d and %s", *every, *limit)
		}
		im, err := impls.Domination.Lookup(c.Impl)
		if err != nil {
			return nil, err
		}
		return &Plan{Impl: im.Name, Run: func(ctx context.Context) (*Answer, error) {
			opt := domination.Options{Impl: im, Threads: *threads, GPUs: *gpus, CheckpointPath: *checkpoint, CheckpointEvery: *every}
			if *limit > 0 {
				opt.Deadline = time.Now().Add(*limit)
			}
			sol, took, err := Timed(func() (*domination.Solution, error) { return domination.Solve(ctx, *m, *n, *witness, opt) })
			if errors.Is(err, domination.ErrCheckpointed) {
				return nil, ExitError{Code: ExitCheckpointed, Err: err}
			}
			if err != nil {
				return nil, err
			}
			a := &Answer{Size: fmt.Sprintf("m=%d, n=%d", *m, *n), Time: took,
				Write: func(w *bufio.Writer) error { return json.NewEncoder(w).Encode(sol) }}
			if *witness {
				// Solve checks it too; a wrong set must never reach the output.
				a.Check = domination.CheckWitness(sol)
			}
			return a, nil
		}}, nil
	}
}

func genDominationFlags(fs *flag.FlagSet, _ *string) func() (*Output, error) {
	m := fs.Int("m", 0, "rows of the cylinder P_m □ C_n (2 <= m <= 16): A(D_m) has a row per correct m-word")
	return func() (*Output, error) {
		if err := domination.CheckM(*m); err != nil {
			return nil, Usagef("--m: %v", err)
		}
		return &Output{What: fmt.Sprintf("A(D_%d), the (min,+) matrix of the correct %d-words", *m, *m),
			Write: func(ctx context.Context, w *bufio.Writer) error {
				return domination.WriteMatrixMarketContext(ctx, w, *m)
			}}, nil
	}
}
