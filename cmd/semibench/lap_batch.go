package main

import (
	"bufio"
	"context"
	"strconv"
	"strings"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/lap"
)

// batchImpls names the implementations `solve lap --batch` takes: those
// with a batch solver.
func batchImpls() []string {
	var names []string
	for _, im := range impls.LAP.All() {
		if im.SolveBatch != nil {
			names = append(names, im.Name)
		}
	}
	return names
}

// solveLAPBatch is `semibench solve lap --batch FILE`: every problem of a
// batch file (lap.BatchFormat) solved by cuda/fast (the whole batch on the
// GPU, a block per problem) or cpu/jv (the problems in parallel over the
// cores), each certified by its duals (floats within lap.FloatTolerance
// times the problem's largest |cost|), then written one line per problem:
// the optimal cost, then the 0-based column of each row, comma-separated.
func solveLAPBatch(ctx context.Context, path, impl string, maximize bool, out string) error {
	im, err := impls.LAP.Lookup(impl)
	if err != nil || im.SolveBatch == nil {
		return usagef("--impl %s: --batch takes %s", impl, strings.Join(batchImpls(), " or "))
	}
	if err := needDevice(impl); err != nil {
		return err // before reading a batch that may hold gigabytes
	}
	return withOutput(ctx, out, func(w *bufio.Writer) error {
		b, err := readInput(path, lap.ReadBatch)
		if err != nil {
			return err
		}
		res, err := interruptible(ctx, func() (*lap.BatchOutput, error) { return lap.SolveBatchChecked(ctx, b, im, maximize) })
		if err != nil {
			return err
		}
		var line []byte
		for k := range res.Len() {
			line = append(line[:0], res.CostText(k, maximize)...)
			for _, j := range res.Assignment(k) {
				line = append(line, ',')
				line = strconv.AppendInt(line, int64(j), 10)
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	})
}
