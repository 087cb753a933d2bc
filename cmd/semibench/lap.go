package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"strings"

	"github.com/semibench/semibench/impls/cpu/lap"
	cudalap "github.com/semibench/semibench/impls/cuda/lap"
)

func init() { solvers["lap"] = solveLAP }

// lapImpls are the CPU and CUDA LAP implementations, CPU first.
func lapImpls() []lap.Impl { return append(append([]lap.Impl{}, lap.CPU...), cudalap.Impls()...) }

// solveLAP is `semibench solve lap`: one instance from a file, any
// implementation, the answer checked (duals, or agreement with a certified
// cpu/jv answer) before it is printed as JSON.
func solveLAP(ctx context.Context, args []string) error {
	impls := lapImpls()
	var names []string
	for _, im := range impls {
		names = append(names, im.Name)
	}
	fs := flag.NewFlagSet("solve lap", flag.ContinueOnError)
	in := fs.String("in", "", "cost matrix: CSV (a row per line) or Matrix Market array; r x c with r <= c")
	impl := fs.String("impl", lap.DefaultImpl, "implementation: "+strings.Join(names, ", ")+" (cuda/* take integer costs)")
	maximize := fs.Bool("maximize", false, "maximise the total instead of minimising it")
	if err := parseFlags(fs, problemCommand("lap", "solve lap --in FILE [--impl NAME] [--maximize]"), args, "in"); err != nil {
		return err
	}
	var im *lap.Impl
	for i := range impls {
		if impls[i].Name == *impl {
			im = &impls[i]
		}
	}
	if im == nil {
		return usagef("--impl: unknown LAP implementation %q (known: %s)", *impl, strings.Join(names, ", "))
	}
	costs, err := lap.ReadCostsFile(*in)
	if err != nil {
		return err
	}
	sol, err := lap.SolveWith(ctx, costs, *im, *maximize)
	if err != nil {
		return err // names the file and the implementation
	}
	return json.NewEncoder(os.Stdout).Encode(sol)
}
