package main

import (
	"bufio"
	"context"
	"flag"
	"io"
	"strings"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/treefix"
)

func init() { solvers["treefix"] = solveTreefix }

// solveTreefix is `semibench solve treefix`: +Rootfix or +Leaffix of the
// tree in --in ("parent weight" per line) with one implementation.
func solveTreefix(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("solve treefix", flag.ContinueOnError)
	op := fs.String("op", "", "rootfix (sum over the root-to-v path) or leaffix (sum over v's subtree)")
	in := fs.String("in", "", `input: a line "parent weight" per vertex, vertices 0..n-1 in file order, parent -1 for the root`)
	out := fs.String("out", "", "output file, a value per line in vertex order (default standard output, also -)")
	impl := fs.String("impl", treefix.DefaultImpl, "implementation: "+strings.Join(impls.Treefix.Names(), ", "))
	f32 := fs.Bool("float32", false, "round the weights to float32 and compute in float32 (default: int64 for integer weights, else float64)")
	if err := parseFlags(fs, problemCommand("treefix", "solve treefix --op rootfix|leaffix --in FILE [--impl NAME] [--float32] [--out FILE]"), args, "op", "in"); err != nil {
		return err
	}
	if _, err := treefix.ParseOp(*op); err != nil {
		return usagef("--op: %v", err)
	}
	if err := needDevice(*impl); err != nil {
		return err
	}
	im, err := treefix.ResolveImpl(impls.Treefix, *impl)
	if err != nil {
		return usagef("--impl: %v", err)
	}
	return withOutput(ctx, *out, func(w *bufio.Writer) error {
		_, err := readInput(*in, func(r io.Reader, name string) (struct{}, error) {
			return interruptible(ctx, func() (struct{}, error) {
				return struct{}{}, treefix.Solve(ctx, r, name, *op, im, *f32, w)
			})
		})
		return err
	})
}
