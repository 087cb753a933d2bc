package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/treefix"
)

// The treefix paper (004): `solve treefix` and `gen tree`.

func init() {
	addSolver(&Solver{
		Name: "treefix",
		Summary: "+Rootfix and +Leaffix of the treefix paper (004).\n" +
			"Input: a line \"parent weight\" per vertex, vertices 0..n-1 in file order, parent -1 for the root\n" +
			"(# lines are comments). Output: a value per vertex, in vertex order: rootfix sums the weights on the\n" +
			"path from the root to v, leaffix the weights of v's subtree, both including v's. gen tree writes such trees.",
		Usage:       "solve treefix --op rootfix|leaffix --in FILE [--impl NAME] [--float32] [--out FILE]",
		In:          `input: a line "parent weight" per vertex, vertices 0..n-1 in file order, parent -1 for the root`,
		Out:         "output file, a value per line in vertex order (default standard output, also -)",
		Impls:       impls.Treefix.Names,
		DefaultImpl: treefix.DefaultImpl,
		Required:    []string{"op", "in"},
		Flags:       treefixFlags,
	})
	addGenerator(&Generator{
		Name: "tree",
		Summary: "the treefix paper's (004) star, caterpillar or random tree for solve treefix:\n" +
			"a line \"parent weight\" per vertex",
		Usage:    "gen tree --shape star|caterpillar|random --n N [--levels L] [--profile uniform|bell] [--numbering bfs|dfs|random] [--weights int|float|gensum] [--seed S] --out FILE",
		Out:      "output file: a line \"parent weight\" per vertex (- for standard output)",
		Required: []string{"shape", "out"},
		Flags:    treeFlags,
	})
}

func treefixFlags(fs *flag.FlagSet, c *Common) func() (*Plan, error) {
	op := fs.String("op", "", "rootfix (sum over the root-to-v path) or leaffix (sum over v's subtree)")
	f32 := fs.Bool("float32", false, "round the weights to float32 and compute in float32 (default: int64 for integer weights, else float64)")
	return func() (*Plan, error) {
		o, err := treefix.ParseOp(*op)
		if err != nil {
			return nil, Usagef("--op: %v", err)
		}
		im, err := treefix.ResolveImpl(impls.Treefix, c.Impl)
		if err != nil {
			return nil, Usagef("--impl: %v", err)
		}
		return &Plan{Impl: im.Name, Run: func(ctx context.Context) (*Answer, error) {
			in, err := ReadFile(c.In, func(r io.Reader, name string) (*treefix.Input, error) { return treefix.ReadInput(r, name, *f32) })
			if err != nil {
				return nil, err
			}
			s, took, err := Timed(func() (*treefix.Sums, error) { return treefix.Compute(ctx, in, c.In, o, im, *f32) })
			if errors.Is(err, treefix.ErrIntermediate) {
				return nil, fmt.Errorf("%w; %s", err, treefixAlternatives(ctx, in, c.In, o, im.Name, *f32))
			}
			if err != nil {
				return nil, err
			}
			typ := "int64"
			switch {
			case s.F32 != nil:
				typ = "float32"
			case s.F64 != nil:
				typ = "float64"
			}
			a := &Answer{Size: fmt.Sprintf("%s of %d vertices in %s", o, len(in.Parent), typ), Time: took,
				Write: func(w *bufio.Writer) error { return s.Write(w) }}
			if err := s.Check(); err != nil {
				a.Check = fmt.Errorf("%s: %w", c.In, err)
			}
			return a, nil
		}}, nil
	}
}

// treefixAlternatives says which other CPU implementations answer the
// tree that impl's intermediate sums overflowed on (their answers
// finite and passing their check), as --impl advice.
func treefixAlternatives(ctx context.Context, in *treefix.Input, name string, op treefix.Op, impl string, f32 bool) string {
	var ok []string
	for _, im := range impls.Treefix.All() {
		if im.Name == impl || !strings.HasPrefix(im.Name, "cpu/") {
			continue
		}
		if s, err := treefix.Compute(ctx, in, name, op, im, f32); err == nil && s.Check() == nil {
			ok = append(ok, im.Name)
		}
	}
	if len(ok) == 0 {
		return "no other CPU implementation does it either"
	}
	if len(ok) == 1 {
		return fmt.Sprintf("%s does it: --impl %s", ok[0], ok[0])
	}
	return fmt.Sprintf("%s and %s do it: --impl %s", strings.Join(ok[:len(ok)-1], ", "), ok[len(ok)-1], ok[0])
}

// treeBytesPerVertex bounds what gen tree holds per vertex: the parent
// array and weights twice (renumbering), the children lists and orders.
const treeBytesPerVertex = 64

func treeFlags(fs *flag.FlagSet, _ *string) func() (*Output, error) {
	shape := fs.String("shape", "", "star (the root and n-1 leaves), caterpillar (a chain of n vertices) or random (random parents level by level)")
	n := fs.Int("n", 0, "vertices (1.."+strconv.Itoa(treefix.MaxN)+"; the paper's Fig. 7 uses 2^15..2^24)")
	seed := fs.Uint64("seed", 1, "generator seed (shape, numbering and weights)")
	levels := fs.Int("levels", 0, "random: number of levels, 1..n (default round(sqrt(n))); average branching factor n/levels")
	profile := fs.String("profile", "uniform", "random: vertices per level, uniform or bell (most in the middle levels, as spanning trees of meshes)")
	numbering := fs.String("numbering", "bfs", "vertex numbering: bfs (root 0, level by level), dfs (preorder) or random (a random permutation)")
	weights := fs.String("weights", "int", "int (uniform integers in [-max-weight, max-weight]), float (uniform in [0, 1), float32 values) or gensum (Ogita-Rump-Oishi series of condition number --cond along the generated order)")
	maxWeight := fs.Int64("max-weight", 1, "int weights: the largest magnitude, 0.."+strconv.Itoa(trees.MaxIntWeight))
	cond := fs.Float64("cond", 1e5, "gensum weights: the sum's condition number, in [10, 1e30] (n in 4..2^24)")
	return func() (*Output, error) {
		spec := trees.Spec{Shape: trees.Shape(*shape), N: *n, Levels: *levels, Weights: trees.WeightKind(*weights),
			MaxWeight: *maxWeight, Cond: *cond, Seed: *seed}
		var err error
		if spec.Profile, err = trees.ParseProfile(*profile); err != nil {
			return nil, Usagef("--profile: %v", err)
		}
		if spec.Numbering, err = trees.ParseNumbering(*numbering); err != nil {
			return nil, Usagef("--numbering: %v", err)
		}
		for _, c := range []struct{ flag, needs string }{{"levels", "random"}, {"profile", "random"}} {
			if FlagGiven(fs, c.flag) && *shape != c.needs {
				return nil, Usagef("--%s applies to --shape %s only", c.flag, c.needs)
			}
		}
		for _, c := range []struct{ flag, needs string }{{"max-weight", "int"}, {"cond", "gensum"}} {
			if FlagGiven(fs, c.flag) && *weights != c.needs {
				return nil, Usagef("--%s applies to --weights %s only", c.flag, c.needs)
			}
		}
		if err := spec.Check(); err != nil {
			if se := (*trees.SpecError)(nil); errors.As(err, &se) {
				return nil, Usagef("--%s %s", se.Option, se.Msg)
			}
			return nil, err
		}
		if need, avail := uint64(*n)*treeBytesPerVertex, bench.AvailableMemory(); avail > 0 && need > avail {
			return nil, fmt.Errorf("--n %d: the tree needs about %d bytes, only %d available", *n, need, avail)
		}
		what := fmt.Sprintf("a %s tree of %d vertices, %s numbering, %s weights, seed %d", spec.Shape, spec.N, spec.Numbering, spec.Weights, spec.Seed)
		return &Output{What: what, Write: func(ctx context.Context, w *bufio.Writer) error { return writeTree(ctx, w, spec) }}, nil
	}
}

// writeTree writes the tree of spec in the input format of solve treefix,
// after comment lines that say how it was made and its shape.
func writeTree(ctx context.Context, w *bufio.Writer, spec trees.Spec) error {
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
	intW := spec.Weights == trees.IntWeightKind
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
}
