package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// The Kleene-star paper (000): `solve kleene` and `gen dag`.

func init() {
	addSolver(&Solver{
		Name: "kleene",
		Summary: "X* = e ⊕ X ⊕ X² ⊕ ... in (max,+) of a DAG, the Kleene-star paper (000).\n" +
			"Input: Matrix Market; a line \"i j w\" is [X]_ij = w, the weight of the arc j -> i (the paper's\n" +
			"convention: column j lists j's successors; the transpose of apsp's); absent entries are ε = -inf.\n" +
			"[X*]_ij is the heaviest path from j to i; a cycle is an error. gen dag writes the paper's DAGs.",
		Usage:       "solve kleene --in FILE.mtx [--out FILE.mtx] [--impl NAME] [--threads T] [--gpus G]",
		In:          "input Matrix Market file (a line \"i j w\" is the arc j -> i)",
		Out:         "output Matrix Market file for X* (default standard output, also -)",
		Impls:       impls.Kleene.Names,
		ImplLabel:   "Kleene",
		DefaultImpl: "cpu/fast",
		Required:    []string{"in"},
		Flags:       kleeneFlags,
	})
	addGenerator(&Generator{
		Name: "dag",
		Summary: "the Kleene-star paper's (000) random weighted DAG for solve kleene, as Matrix Market:\n" +
			"\"i j w\" is [X]_ij = w, the arc j -> i",
		Usage: "gen dag --n N [--seed S] [--int-weights] --out FILE.mtx",
		Out:   "output Matrix Market file (- for standard output)",
		Flags: dagFlags,
	})
}

func kleeneFlags(fs *flag.FlagSet, c *Common) func() (*Plan, error) {
	threads := fs.Int("threads", 0, "CPU threads (0: all cores)")
	gpus := fs.Int("gpus", 1, "GPUs for implementations that split their work")
	return func() (*Plan, error) {
		if err := CheckThreads(*threads); err != nil {
			return nil, err
		}
		if err := CheckGPUs(*gpus); err != nil {
			return nil, err
		}
		im, err := impls.Kleene.Lookup(c.Impl)
		if err != nil {
			return nil, err
		}
		return &Plan{Impl: im.Name, Run: func(ctx context.Context) (*Answer, error) {
			x, err := ReadFile(c.In, maxplus.ReadMatrixMarket)
			if err != nil {
				return nil, err
			}
			w, took, err := Timed(func() (*maxplus.Matrix, error) {
				return im.Run(ctx, x, kleene.Options{Threads: *threads, GPUs: *gpus}, nil)
			})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.In, err)
			}
			a := &Answer{Size: fmt.Sprintf("n=%d, %d arcs", x.N, x.Arcs()), Time: took,
				Write: func(bw *bufio.Writer) error { return maxplus.WriteMatrixMarket(bw, w) }}
			if err := kleene.CheckRange(ctx, x, w); err != nil {
				a.Check = fmt.Errorf("%s: %w", c.In, err)
			}
			return a, nil
		}}, nil
	}
}

func dagFlags(fs *flag.FlagSet, out *string) func() (*Output, error) {
	n := fs.Int("n", 0, "number of nodes")
	seed := fs.Uint64("seed", 1, "generator seed")
	intWeights := fs.Bool("int-weights", false, "small integer weights (exact float32 sums) instead of N(0,1)")
	return func() (*Output, error) {
		if *n < 1 || *n > dag.MaxN {
			return nil, Usagef("--n must be in 1..%d, got %d", dag.MaxN, *n)
		}
		if *out == "" {
			return nil, Usagef("--out FILE.mtx is required")
		}
		if need, avail := maxplus.Bytes(*n), bench.AvailableMemory(); avail > 0 && need > avail {
			return nil, fmt.Errorf("--n %d: the dense matrix needs %d bytes, only %d available", *n, need, avail)
		}
		weights := "N(0,1) weights"
		if *intWeights {
			weights = "integer weights"
		}
		return &Output{What: fmt.Sprintf("a random DAG of %d nodes, %s, seed %d", *n, weights, *seed),
			Write: func(ctx context.Context, w *bufio.Writer) error {
				x, err := dag.GenerateContext(ctx, *n, *seed, *intWeights)
				if err != nil {
					return err
				}
				return maxplus.WriteMatrixMarket(w, x)
			}}, nil
	}
}
