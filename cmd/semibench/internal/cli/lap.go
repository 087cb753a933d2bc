package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/lap"
)

// The Hungarian paper (001): `solve lap` (one problem, or a batch) and
// `gen lap`.

func init() {
	addSolver(&Solver{
		Name: "lap",
		Summary: "the linear assignment problem of the Hungarian paper (001).\n" +
			"Input: a cost matrix, CSV (a row per line) or Matrix Market array, r x c with r <= c: the cell in\n" +
			"row i, column j is the cost of assigning row i (a worker) to column j (a job). Output, as JSON\n" +
			"{\"cost\", \"assignment\", \"impl\"[, \"ms\"]}: every row's distinct column (0-based) of least total cost\n" +
			"(most with --maximize). A cell inf forbids that assignment (-inf with --maximize); with none\n" +
			"possible the problem is infeasible. gen lap writes such costs.",
		Usage: "solve lap --in FILE [--impl NAME] [--maximize] [--ms] [--out FILE] | " +
			"solve lap --batch FILE [--impl cuda/fast|cpu/jv] [--maximize] [--out FILE]",
		In:          "cost matrix: CSV (a row per line) or Matrix Market array; r x c with r <= c",
		Out:         "output file (default standard output, also -): JSON, or with --batch one line per problem, its cost then its assignment",
		Impls:       impls.LAP.Names,
		ImplLabel:   "LAP",
		ImplNote:    " (cuda/paper and cpu/auction take integer costs only)",
		DefaultImpl: lap.DefaultImpl,
		Flags:       lapFlags,
	})
	addGenerator(&Generator{
		Name:     "lap",
		Summary:  "the Hungarian paper's (001) uniform integer costs for solve lap, or float32 costs uniform in [0, 1) (--dist uniform01), as CSV (a row per line)",
		Usage:    "gen lap --n N [--cols C] [--dist int|uniform01] [--range 0.1n|n|10n] [--seed S] [--count K] --out FILE",
		Out:      "output file: CSV, or with --count a batch file (" + lap.BatchFormat + "); - for standard output",
		Required: []string{"out"},
		Flags:    genLAPFlags,
	})
}

func lapFlags(fs *flag.FlagSet, c *Common) func() (*Plan, error) {
	maximize := fs.Bool("maximize", false, "maximise the total instead of minimising it")
	batch := fs.String("batch", "", "instead of --in, a batch of independent problems: "+lap.BatchFormat+" (--impl cuda/fast or cpu/jv)")
	ms := fs.Bool("ms", false, `also write the solver's wall time into the JSON answer as "ms" (it is always on standard error)`)
	return func() (*Plan, error) {
		switch {
		case c.In == "" && *batch == "":
			return nil, Usagef("--in is required (a cost matrix file), or --batch (a batch file)")
		case c.In != "" && *batch != "":
			return nil, Usagef("give one of --in (one problem) and --batch (a batch file), not both")
		case *batch != "" && *ms:
			return nil, Usagef("--ms goes with --in (a batch's answer is its lines of costs and assignments)")
		}
		im, err := impls.LAP.Lookup(c.Impl)
		if err != nil {
			return nil, err
		}
		if *batch != "" {
			if im.SolveBatch == nil {
				return nil, Usagef("--impl %s: --batch takes %s", c.Impl, strings.Join(batchImpls(), " or "))
			}
			return &Plan{Impl: im.Name, Run: func(ctx context.Context) (*Answer, error) { return solveLAPBatch(ctx, *batch, im, *maximize) }}, nil
		}
		return &Plan{Impl: im.Name, Run: func(ctx context.Context) (*Answer, error) { return solveLAP(ctx, c.In, im, *maximize, *ms) }}, nil
	}
}

// solveLAP solves one problem; lap.Solve checks the answer (its duals, or
// agreement with a certified cpu/jv answer) and returns an error when it
// fails, so that a wrong assignment is never written.
func solveLAP(ctx context.Context, path string, im lap.Impl, maximize, ms bool) (*Answer, error) {
	costs, err := lap.ReadCostsFile(path)
	if err != nil {
		return nil, err
	}
	sol, err := lap.Solve(ctx, costs, im, maximize)
	if err != nil {
		return nil, err // names the file and the implementation
	}
	took := time.Duration(sol.MS * 1e6)
	if !ms {
		sol.MS = 0
	}
	kind := "integer"
	if !costs.IsInt() {
		kind = "float"
	}
	return &Answer{Size: fmt.Sprintf("%dx%d %s costs", costs.Rows, costs.Cols, kind), Time: took,
		Write: func(w *bufio.Writer) error { return json.NewEncoder(w).Encode(sol) }}, nil
}

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

// solveLAPBatch solves every problem of a batch file (lap.BatchFormat) with
// cuda/fast (the whole batch on the GPU, a block per problem) or cpu/jv
// (the problems in parallel over the cores), each certified by its duals
// (floats within lap.FloatTolerance times the problem's largest |cost|);
// the answer is one line per problem: the optimal cost, then the 0-based
// column of each row, comma-separated.
func solveLAPBatch(ctx context.Context, path string, im lap.Impl, maximize bool) (*Answer, error) {
	b, err := ReadFile(path, lap.ReadBatch)
	if err != nil {
		return nil, err
	}
	res, took, err := Timed(func() (*lap.BatchOutput, error) { return lap.SolveBatchChecked(ctx, b, im, maximize) })
	if err != nil {
		return nil, err
	}
	write := func(w *bufio.Writer) error {
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
	}
	return &Answer{Size: fmt.Sprintf("%d problems of %dx%d", b.Count, b.Rows, b.Cols), Time: took, Write: write}, nil
}

func genLAPFlags(fs *flag.FlagSet, _ *string) func() (*Output, error) {
	n := fs.Int("n", 0, "rows")
	cols := fs.Int("cols", 0, "columns (0: n, a square matrix; at least n)")
	dist := fs.String("dist", "int", "the costs: int (integers in [0, range), the paper's) or "+lapcost.Uniform01+
		" (float32 costs uniform in [0, 1): k·2^-24, as torch.rand draws them, written in the shortest form that reads back as the same float32)")
	rng := fs.String("range", "n", "--dist int: costs uniform in [0, range), a label Fn such as 0.1n, n or 10n (the paper's)")
	seed := fs.Uint64("seed", 1, "generator seed")
	count := fs.Int("count", 0, "write a batch file of this many matrices, problem k from seed S+k (0: one matrix as CSV)")
	return func() (*Output, error) {
		if *cols == 0 {
			*cols = *n
		}
		if *n < 1 || *cols < *n {
			return nil, Usagef("--n must be at least 1 and --cols at least --n, got %d x %d", *n, *cols)
		}
		if *n > lapcost.MaxCells / *cols {
			return nil, Usagef("--n x --cols must be at most %d cells, got %d x %d", lapcost.MaxCells, *n, *cols)
		}
		if *count < 0 || (*count > 0 && *count > lapcost.MaxCells/(*n**cols)) {
			return nil, Usagef("--count must be from 0 to %d for %d x %d matrices, got %d", lapcost.MaxCells/(*n**cols), *n, *cols, *count)
		}
		shape := fmt.Sprintf("a %dx%d cost matrix", *n, *cols)
		if *count > 0 {
			shape = fmt.Sprintf("a batch of %d %dx%d cost matrices", *count, *n, *cols)
		}
		from := fmt.Sprintf("seed %d", *seed)
		if *count > 0 {
			from = fmt.Sprintf("problem k from seed %d+k", *seed)
		}
		switch *dist {
		case "int":
			r, err := lapcost.Range(*rng, *cols)
			if err != nil {
				return nil, Usagef("--range: %v", err)
			}
			return &Output{What: fmt.Sprintf("%s, integers in [0, %d) (range %s), %s", shape, r, *rng, from), Write: func(ctx context.Context, w *bufio.Writer) error {
				c, err := lapcost.GenerateBatchContext(ctx, max(1, *count), *n, *cols, r, *seed)
				if err != nil {
					return err
				}
				return writeLAPCosts(w, *n, *cols, *count, c, func(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) })
			}}, nil
		case lapcost.Uniform01:
			if FlagGiven(fs, "range") {
				return nil, Usagef("--range is for --dist int (%s costs lie in [0, 1))", lapcost.Uniform01)
			}
			return &Output{What: fmt.Sprintf("%s, float32 costs uniform in [0, 1) (%s), %s", shape, lapcost.Uniform01, from), Write: func(ctx context.Context, w *bufio.Writer) error {
				c, err := lapcost.GenerateUniform01Batch(ctx, max(1, *count), *n, *cols, *seed)
				if err != nil {
					return err
				}
				return writeLAPCosts(w, *n, *cols, *count, c, AppendFloat32)
			}}, nil
		}
		return nil, Usagef("--dist %q: want int or %s", *dist, lapcost.Uniform01)
	}
}

// AppendFloat32 appends the shortest decimal that reads back as x, whether
// parsed as a float32 or parsed as a float64 and then rounded to float32
// (Python's float, then torch.float32), as gen lap --dist uniform01 writes
// its costs.
func AppendFloat32(dst []byte, x float32) []byte {
	return strconv.AppendFloat(dst, float64(x), 'g', -1, 32)
}

// writeLAPCosts writes the costs of gen lap, c (max(1, count) matrices of
// n x cols, back to back): one matrix as CSV or, with count > 0, a batch
// file of count matrices, each cost written by appendCost.
func writeLAPCosts[T int64 | float32](w *bufio.Writer, n, cols, count int, c []T, appendCost func([]byte, T) []byte) error {
	problems := max(1, count)
	if count > 0 {
		if _, err := fmt.Fprintf(w, "%s %d %d %d\n", lap.BatchHeader, count, n, cols); err != nil {
			return err
		}
	}
	var line []byte
	for i := range problems * n {
		if count > 0 && i > 0 && i%n == 0 {
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
		line = line[:0]
		for j, v := range c[i*cols : (i+1)*cols] {
			if j > 0 {
				line = append(line, ',')
			}
			line = appendCost(line, v)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}
