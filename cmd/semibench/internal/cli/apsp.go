package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/apspgraph"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/apsp"
)

// Rote's algebraic path problem (003): `solve apsp` and `gen apsp`.

func init() {
	addSolver(&Solver{
		Name: "apsp",
		Summary: "D = A*, the algebraic path problem of Rote (paper 003), in a chosen semiring.\n" +
			"Input: Matrix Market; a line \"i j w\" is a_ij = w, the weight of the arc i -> j (Rote's convention,\n" +
			"the transpose of kleene's); absent entries are the semiring's zero (+inf in min-plus).\n" +
			"In min-plus d_ij is the shortest distance from i to j, -inf where a negative cycle lies on the way\n" +
			"(d_ii = -inf for i on a negative cycle). In min-plus and max-plus a weight beyond ±(largest float64)/4n is\n" +
			"refused (path sums could overflow); an integer float64 cannot hold exactly is refused, never rounded.\n" +
			"gen apsp writes such graphs.",
		Usage:    "solve apsp --semiring min-plus|max-plus|boolean|real --in FILE.mtx [--out FILE.mtx] [--impl NAME] [--inverse]",
		In:       "input Matrix Market coordinate file (a_ij is the weight of the arc i -> j)",
		Out:      "output Matrix Market file for D = A* (default standard output, also -)",
		Impls:    func() []string { return apsp.Solvers(impls.APSP) },
		ImplNote: " (default cpu/fast; cpu/sgje with --inverse)",
		Required: []string{"in"},
		Flags:    apspFlags,
	})
	addGenerator(&Generator{
		Name: "apsp",
		Summary: "a random digraph with negative arcs for solve apsp (Rote, paper 003), as Matrix Market:\n" +
			"\"i j w\" is the arc i -> j; no negative cycle (weights from a potential), or one planted with --negative-cycle",
		Usage:    "gen apsp --n N [--density D | --arcs M] [--min W] [--max W] [--negative-cycle] [--seed S] --out FILE.mtx",
		Out:      "output Matrix Market file (- for standard output)",
		Required: []string{"out"},
		Flags:    genAPSPFlags,
	})
}

func apspFlags(fs *flag.FlagSet, c *Common) func() (*Plan, error) {
	sr := fs.String("semiring", "min-plus", "min-plus, max-plus, boolean or real")
	inverse := fs.Bool("inverse", false, "with the real semiring: write A^-1 (cpu/sgje: the direct variant; cuda/fast: the closure of I - A)")
	return func() (*Plan, error) {
		im, err := apsp.Resolve(*sr, c.Impl, *inverse, impls.APSP)
		if err != nil {
			return nil, Usagef("%v", err)
		}
		return &Plan{Impl: im.Name, Run: func(ctx context.Context) (*Answer, error) {
			in, err := ReadFile(c.In, func(r io.Reader, name string) (*apsp.Instance, error) {
				return apsp.ReadInstance(r, name, *sr, *inverse)
			})
			if err != nil {
				return nil, err
			}
			d, took, err := Timed(func() (*apsp.Closure, error) { return in.Solve(ctx, im) })
			if err != nil {
				return nil, err
			}
			what := "D = A*"
			if *inverse {
				what = "A^-1"
			}
			a := &Answer{Size: fmt.Sprintf("%s over %s, n=%d, %d arcs", what, *sr, in.N(), in.Arcs()), Time: took,
				Write: func(w *bufio.Writer) error { return d.Write(w) }}
			if err := d.Check(); err != nil {
				a.Check = fmt.Errorf("%s: %w", c.In, err)
			}
			return a, nil
		}}, nil
	}
}

func genAPSPFlags(fs *flag.FlagSet, _ *string) func() (*Output, error) {
	n := fs.Int("n", 0, "vertices (1.."+strconv.Itoa(apspgraph.MaxN)+")")
	density := fs.Float64("density", 0.1, "fraction of the n(n-1) ordered pairs that are arcs, in [0, 1] (not with --arcs)")
	arcs := fs.Int64("arcs", 0, "exact number of arcs, 0..n(n-1) (instead of --density)")
	seed := fs.Uint64("seed", 1, "generator seed")
	minW := fs.Int64("min", -10, "smallest arc weight (an integer; negative allowed)")
	maxW := fs.Int64("max", 10, "largest arc weight (an integer; at least 0 without --negative-cycle)")
	negCycle := fs.Bool("negative-cycle", false, "plant a negative cycle through 3 vertices (2 when --n is 2; needs --min < 0); without it the graph has none")
	return func() (*Output, error) {
		o := apspgraph.Options{N: *n, Arcs: *arcs, Min: *minW, Max: *maxW, NegativeCycle: *negCycle, Seed: *seed}
		var err error
		switch {
		case FlagGiven(fs, "arcs") && FlagGiven(fs, "density"):
			return nil, Usagef("--arcs and --density exclude each other")
		case !FlagGiven(fs, "arcs"):
			o.Arcs, err = apspgraph.ArcsForDensity(*n, *density)
		}
		if err == nil {
			err = o.Check()
		}
		if oe := (*apspgraph.OptionError)(nil); errors.As(err, &oe) {
			return nil, Usagef("--%s %s", oe.Option, oe.Msg)
		} else if err != nil {
			return nil, err
		}
		if need, avail := apspgraph.Bytes(*n), bench.AvailableMemory(); avail > 0 && need > avail {
			return nil, fmt.Errorf("--n %d: the arc set needs %d bytes, only %d available", *n, need, avail)
		}
		cycle := "no negative cycle"
		if *negCycle {
			cycle = "a negative cycle planted"
		}
		what := fmt.Sprintf("a digraph of %d vertices and %d arcs, weights in [%d, %d], %s, seed %d", *n, o.Arcs, *minW, *maxW, cycle, *seed)
		return &Output{What: what, Write: func(ctx context.Context, w *bufio.Writer) error {
			g, err := apspgraph.GenerateContext(ctx, o)
			if err != nil {
				return err
			}
			return g.WriteMatrixMarket(w)
		}}, nil
	}
}
