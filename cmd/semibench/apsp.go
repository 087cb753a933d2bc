package main

import (
	"bufio"
	"context"
	"flag"
	"io"
	"strings"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/apsp"
)

// `semibench solve apsp`: D = A* of the user's own matrix (Rote's algebraic
// path problem, paper 003) by a CPU implementation or cuda/fast.

func init() {
	solvers["apsp"] = solveAPSP
}

func solveAPSP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("solve apsp", flag.ContinueOnError)
	sr := fs.String("semiring", "min-plus", "min-plus, max-plus, boolean or real")
	in := fs.String("in", "", "input Matrix Market coordinate file (a_ij is the weight of the arc i -> j)")
	out := fs.String("out", "", "output Matrix Market file for D = A* (default standard output, also -)")
	impl := fs.String("impl", "", "implementation: "+strings.Join(apsp.Solvers(impls.APSP), ", ")+" (default cpu/fast; cpu/sgje with --inverse)")
	inverse := fs.Bool("inverse", false, "with the real semiring: write A^-1 (cpu/sgje: the direct variant; cuda/fast: the closure of I - A)")
	if err := parseFlags(fs, problemCommand("apsp", "solve apsp --semiring min-plus|max-plus|boolean|real --in FILE.mtx --out FILE.mtx [--impl NAME] [--inverse]"), args, "in"); err != nil {
		return err
	}
	if err := needDevice(*impl); err != nil {
		return err
	}
	if _, err := apsp.Resolve(*sr, *impl, *inverse, impls.APSP); err != nil {
		return usagef("%v", err)
	}
	return withOutput(ctx, *out, func(w *bufio.Writer) error {
		_, err := readInput(*in, func(r io.Reader, name string) (struct{}, error) {
			return interruptible(ctx, func() (struct{}, error) {
				return struct{}{}, apsp.Solve(ctx, r, name, *sr, *impl, *inverse, w, impls.APSP)
			})
		})
		return err
	})
}
