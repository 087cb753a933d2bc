package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/apspgraph"
	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/problems/treefix"
)

// `semibench gen apsp` and `semibench gen tree`: inputs of `solve apsp`
// (Rote's algebraic path problem, paper 003) and `solve treefix` (paper 004).

func init() {
	generators["apsp"] = genAPSP
	generators["tree"] = genTree
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// genAPSP is `semibench gen apsp`: a random digraph with negative arcs and
// no negative cycle, or one planted (generators/apspgraph).
func genAPSP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("gen apsp", flag.ContinueOnError)
	n := fs.Int("n", 0, "vertices (1.."+strconv.Itoa(apspgraph.MaxN)+")")
	density := fs.Float64("density", 0.1, "fraction of the n(n-1) ordered pairs that are arcs, in [0, 1] (not with --arcs)")
	arcs := fs.Int64("arcs", 0, "exact number of arcs, 0..n(n-1) (instead of --density)")
	seed := fs.Uint64("seed", 1, "generator seed")
	minW := fs.Int64("min", -10, "smallest arc weight (an integer; negative allowed)")
	maxW := fs.Int64("max", 10, "largest arc weight (an integer; at least 0 without --negative-cycle)")
	negCycle := fs.Bool("negative-cycle", false, "plant a negative cycle through 3 vertices (2 when --n is 2; needs --min < 0); without it the graph has none")
	out := fs.String("out", "", "output Matrix Market file (- for standard output)")
	cmd := &command{name: "gen apsp", summary: generatorHelp["apsp"],
		usage: "gen apsp --n N [--density D | --arcs M] [--min W] [--max W] [--negative-cycle] [--seed S] --out FILE.mtx"}
	if err := parseFlags(fs, cmd, args, "out"); err != nil {
		return err
	}
	o := apspgraph.Options{N: *n, Arcs: *arcs, Min: *minW, Max: *maxW, NegativeCycle: *negCycle, Seed: *seed}
	var err error
	switch {
	case flagSet(fs, "arcs") && flagSet(fs, "density"):
		return usagef("--arcs and --density exclude each other")
	case !flagSet(fs, "arcs"):
		o.Arcs, err = apspgraph.ArcsForDensity(*n, *density)
	}
	if err == nil {
		err = o.Check()
	}
	if oe := (*apspgraph.OptionError)(nil); errors.As(err, &oe) {
		return usagef("--%s %s", oe.Option, oe.Msg)
	}
	if need, avail := apspgraph.Bytes(*n), bench.AvailableMemory(); avail > 0 && need > avail {
		return fmt.Errorf("--n %d: the arc set needs %d bytes, only %d available", *n, need, avail)
	}
	return withOutput(ctx, *out, func(w *bufio.Writer) error {
		g, err := apspgraph.GenerateContext(ctx, o)
		if err != nil {
			return err
		}
		return g.WriteMatrixMarket(w)
	})
}

// treeBytesPerVertex bounds what gen tree holds per vertex: the parent
// array and weights twice (renumbering), the children lists and orders.
const treeBytesPerVertex = 64

// genTree is `semibench gen tree`: the treefix paper's star, caterpillar
// and random trees (generators/trees) in the input format of solve treefix.
func genTree(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("gen tree", flag.ContinueOnError)
	shape := fs.String("shape", "", "star (the root and n-1 leaves), caterpillar (a chain of n vertices) or random (random parents level by level)")
	n := fs.Int("n", 0, "vertices (1.."+strconv.Itoa(treefix.MaxN)+"; the paper's Fig. 7 uses 2^15..2^24)")
	seed := fs.Uint64("seed", 1, "generator seed (shape, numbering and weights)")
	levels := fs.Int("levels", 0, "random: number of levels, 1..n (default round(sqrt(n))); average branching factor n/levels")
	profile := fs.String("profile", "uniform", "random: vertices per level, uniform or bell (most in the middle levels, as spanning trees of meshes)")
	numbering := fs.String("numbering", "bfs", "vertex numbering: bfs (root 0, level by level), dfs (preorder) or random (a random permutation)")
	weights := fs.String("weights", "int", "int (uniform integers in [-max-weight, max-weight]), float (uniform in [0, 1), float32 values) or gensum (Ogita-Rump-Oishi series of condition number --cond along the generated order)")
	maxWeight := fs.Int64("max-weight", 1, "int weights: the largest magnitude, 0.."+strconv.Itoa(trees.MaxIntWeight))
	cond := fs.Float64("cond", 1e5, "gensum weights: the sum's condition number, in [10, 1e30] (n in 4..2^24)")
	out := fs.String("out", "", "output file: a line \"parent weight\" per vertex (- for standard output)")
	cmd := &command{name: "gen tree", summary: generatorHelp["tree"],
		usage: "gen tree --shape star|caterpillar|random --n N [--levels L] [--profile uniform|bell] [--numbering bfs|dfs|random] [--weights int|float|gensum] [--seed S] --out FILE"}
	if err := parseFlags(fs, cmd, args, "shape", "out"); err != nil {
		return err
	}
	spec := trees.Spec{Shape: trees.Shape(*shape), N: *n, Levels: *levels, Weights: trees.WeightKind(*weights),
		MaxWeight: *maxWeight, Cond: *cond, Seed: *seed}
	var err error
	if spec.Profile, err = trees.ParseProfile(*profile); err != nil {
		return usagef("--profile: %v", err)
	}
	if spec.Numbering, err = trees.ParseNumbering(*numbering); err != nil {
		return usagef("--numbering: %v", err)
	}
	for _, c := range []struct{ flag, needs string }{{"levels", "random"}, {"profile", "random"}} {
		if flagSet(fs, c.flag) && *shape != c.needs {
			return usagef("--%s applies to --shape %s only", c.flag, c.needs)
		}
	}
	for _, c := range []struct{ flag, needs string }{{"max-weight", "int"}, {"cond", "gensum"}} {
		if flagSet(fs, c.flag) && *weights != c.needs {
			return usagef("--%s applies to --weights %s only", c.flag, c.needs)
		}
	}
	if err := spec.Check(); err != nil {
		if se := (*trees.SpecError)(nil); errors.As(err, &se) {
			return usagef("--%s %s", se.Option, se.Msg)
		}
		return err
	}
	if need, avail := uint64(*n)*treeBytesPerVertex, bench.AvailableMemory(); avail > 0 && need > avail {
		return fmt.Errorf("--n %d: the tree needs about %d bytes, only %d available", *n, need, avail)
	}
	intW := spec.Weights == trees.IntWeightKind
	return withOutput(ctx, *out, func(w *bufio.Writer) error {
		t, info, err := spec.BuildContext(ctx)
		if err != nil {
			return err
		}
		st, err := trees.ShapeStats(t.Parent)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "# semibench gen tree --shape %s --n %d --numbering %s --weights %s --seed %d%s\n", spec.Shape, spec.N, spec.Numbering, spec.Weights, spec.Seed, info)
		fmt.Fprintf(w, "# %d levels, average branching factor %.6g, widest level %d\n", st.Depth, st.Branching, st.MaxWidth)
		fmt.Fprintf(w, "# a line \"parent weight\" per vertex 0..n-1, parent -1 for the root\n")
		var line []byte
		for v, p := range t.Parent {
			line = strconv.AppendInt(line[:0], int64(p), 10)
			line = append(line, ' ')
			if x := t.Weight[v]; intW {
				line = strconv.AppendInt(line, int64(x), 10)
			} else {
				// shortest float64 text: exact in float64 and, for float32
				// values, after --float32's rounding too
				line = strconv.AppendFloat(line, x, 'g', -1, 64)
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	})
}
