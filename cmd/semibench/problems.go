package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/semibench/semibench/cmd/semibench/internal/cli"
	"github.com/semibench/semibench/internal/outfile"
)

// `semibench solve NAME` and `semibench gen NAME`: one sub-command per
// descriptor of cmd/semibench/internal/cli, all with one output convention. A solve
// writes its answer to standard output or --out, and one line on standard
// error:
//
//	<problem> <impl>: <size>, <time> ms, check: <ok|what failed>
//
// (an answer that fails its check is not written, and the exit status is
// 1); a gen writes its file and "wrote FILE (N bytes): <what>".

// diag is where the solve and gen lines go: the standard error that
// dispatch was given.
var diag io.Writer = os.Stderr

// solvers and generators are the sub-commands of solve and gen, by name;
// solverHelp and generatorHelp say what each computes or writes.
var (
	solvers       = map[string]func(ctx context.Context, args []string) error{}
	generators    = map[string]func(ctx context.Context, args []string) error{}
	solverHelp    = map[string]string{}
	generatorHelp = map[string]string{}
)

func init() {
	for _, s := range cli.Solvers() {
		solvers[s.Name] = func(ctx context.Context, args []string) error { return solveWith(ctx, s, args) }
		solverHelp[s.Name] = s.Summary
	}
	for _, g := range cli.Generators() {
		generators[g.Name] = func(ctx context.Context, args []string) error { return genWith(ctx, g, args) }
		generatorHelp[g.Name] = g.Summary
	}
}

// fromCLI turns the descriptors' usage errors and exit statuses into the
// command's own.
func fromCLI(err error) error {
	var ue *cli.UsageError
	if errors.As(err, &ue) {
		return &usageError{msg: ue.Msg}
	}
	var ee cli.ExitError
	if errors.As(err, &ee) {
		return exitError{code: ee.Code, err: ee.Err}
	}
	return err
}

// solveWith runs `semibench solve` for the problem s: its flags parsed and
// checked, a CUDA implementation refused at once without a GPU, the output
// opened before the input is read, the answer written only when its check
// passed.
func solveWith(ctx context.Context, s *cli.Solver, args []string) error {
	fs := flag.NewFlagSet("solve "+s.Name, flag.ContinueOnError)
	var c cli.Common
	if s.In != "" {
		fs.StringVar(&c.In, "in", "", s.In)
	}
	fs.StringVar(&c.Impl, "impl", s.DefaultImpl, "implementation: "+strings.Join(s.Impls(), ", ")+s.ImplNote)
	fs.StringVar(&c.Out, "out", "", s.Out)
	plan := s.Flags(fs, &c)
	if err := parseFlags(fs, &command{name: "solve " + s.Name, summary: s.Summary, usage: s.Usage}, args, s.Required...); err != nil {
		return err
	}
	if s.ImplLabel != "" && !slices.Contains(s.Impls(), c.Impl) {
		return usagef("--impl: unknown %s implementation %q (known: %s)", s.ImplLabel, c.Impl, strings.Join(s.Impls(), ", "))
	}
	p, err := plan()
	if err != nil {
		return fromCLI(err)
	}
	if err := needDevice(p.Impl); err != nil {
		return err
	}
	var inputs []string
	for _, name := range []string{"in", "batch"} {
		if f := fs.Lookup(name); f != nil && f.Value.String() != "" {
			inputs = append(inputs, f.Value.String())
		}
	}
	if err := refuseInput("--out", c.Out, inputs...); err != nil {
		return err
	}
	var a *cli.Answer
	err = withOutput(ctx, c.Out, func(w *bufio.Writer) error {
		var err error
		if a, err = interruptible(ctx, func() (*cli.Answer, error) { return p.Run(ctx) }); err != nil {
			return err
		}
		if a.Check != nil {
			return fmt.Errorf("%s %s: the answer failed its check (above); nothing written", s.Name, p.Impl)
		}
		return a.Write(w)
	})
	if a != nil {
		fmt.Fprintln(diag, a.Summary(s.Name, p.Impl))
	}
	return fromCLI(err)
}

// genWith runs `semibench gen` for the generator g.
func genWith(ctx context.Context, g *cli.Generator, args []string) error {
	fs := flag.NewFlagSet("gen "+g.Name, flag.ContinueOnError)
	var out string
	fs.StringVar(&out, "out", "", g.Out)
	plan := g.Flags(fs, &out)
	if err := parseFlags(fs, &command{name: "gen " + g.Name, summary: g.Summary, usage: g.Usage}, args, g.Required...); err != nil {
		return err
	}
	o, err := plan()
	if err != nil {
		return fromCLI(err)
	}
	var cw countingWriter
	err = withOutput(ctx, out, func(w *bufio.Writer) error {
		cw.w = w
		bw := bufio.NewWriterSize(&cw, 64<<10)
		if err := o.Write(ctx, bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return err
	}
	name := out
	if name == outfile.Stdout || name == "/dev/stdout" {
		name = "standard output"
	}
	fmt.Fprintf(diag, "wrote %s (%d bytes): %s\n", cmp.Or(name, "standard output"), cw.n, o.What)
	return nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += int64(k)
	return k, err
}
