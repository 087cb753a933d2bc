package cudalap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/problems/lap"
)

// The forbidden-edge battery of issue 26: instances with +inf costs
// (forbidden assignments), solved by cuda/fast through lap.Solve and
// lap.SolveBatchChecked, which certify every answer by its dual check (on
// the costs with the forbidden cells' stand-in) and refuse an answer that
// uses a forbidden cell; each optimum is held to cpu/jv's, and every
// infeasible instance must be called infeasible by both. With
// SEMIBENCH_RESULTS=DIR the GPU run writes its records to
// DIR/<machine label>/<date>-lap-forbidden.jsonl, a result file to commit
// under results/.

// resultsEnv names the folder the GPU battery writes its result file in.
const resultsEnv = "SEMIBENCH_RESULTS"

// forbiddenCase is one instance of the battery.
type forbiddenCase struct {
	name       string
	costs      *lap.Costs // single problem; nil for a batch
	batch      *lap.Batch
	maximize   bool
	kind       string  // int, float or int64 (beyond int32)
	density    float64 // the share of forbidden cells
	infeasible bool    // no assignment avoids them (known by construction; random cases ask cpu/jv)
}

// withInf builds the costs of an r x c problem (count of them for a
// batch) from values, forbidding the cells where forbid is true.
func withInf(rows, cols int, ints []int64, floats []float64, forbid []bool, neg bool) ([]int64, []float64, []lap.InfCell) {
	var infs []lap.InfCell
	for k, f := range forbid {
		if !f {
			continue
		}
		infs = append(infs, lap.InfCell{K: k, Neg: neg, Line: k/cols + 1})
		if ints != nil {
			ints[k] = 0
		} else {
			floats[k] = 0
		}
	}
	return ints, floats, infs
}

// randomCosts draws count problems of r x c costs of the kind ("int":
// [0, c), "int64": [0, 2^33), beyond int32, "float": [0, c) with
// fractions) and forbids each cell with probability density.
func randomCosts(rnd *rand.Rand, count, r, c int, kind string, density float64, neg bool) ([]int64, []float64, []lap.InfCell) {
	n := count * r * c
	forbid := make([]bool, n)
	var ints []int64
	var floats []float64
	switch kind {
	case "float":
		floats = make([]float64, n)
		for k := range floats {
			floats[k] = rnd.Float64() * float64(c)
		}
	default:
		span := int64(c)
		if kind == "int64" {
			span = 1 << 33
		}
		ints = make([]int64, n)
		for k := range ints {
			ints[k] = rnd.Int64N(span)
		}
	}
	for k := range forbid {
		forbid[k] = rnd.Float64() < density
	}
	return withInf(r, c, ints, floats, forbid, neg)
}

// forbiddenCases returns the battery's instances with at most maxN
// columns: hand-made feasible and infeasible ones, then random ones of
// every kind and density, single and batched.
func forbiddenCases(maxN int) []forbiddenCase {
	single := func(name string, r, c int, ints []int64, floats []float64, forbid []bool, maximize, infeasible bool) forbiddenCase {
		kind := "int"
		if floats != nil {
			kind = "float"
		}
		i, f, inf := withInf(r, c, ints, floats, forbid, maximize)
		n := 0
		for _, x := range forbid {
			if x {
				n++
			}
		}
		return forbiddenCase{name: name, costs: &lap.Costs{Name: name, Rows: r, Cols: c, Int: i, Float: f, Inf: inf},
			maximize: maximize, kind: kind, density: float64(n) / float64(len(forbid)), infeasible: infeasible}
	}
	T, F := true, false
	cases := []forbiddenCase{
		single("diagonal", 3, 3, []int64{1, 5, 9, 4, 1, 2, 7, 3, 1}, nil, []bool{T, F, F, F, T, F, F, F, T}, false, false),
		single("one-way", 3, 3, []int64{9, 9, 9, 9, 9, 9, 9, 9, 9}, nil, []bool{F, T, T, F, F, T, F, F, F}, false, false),
		single("row-forbidden", 2, 2, []int64{1, 2, 3, 4}, nil, []bool{T, T, F, F}, false, true),
		single("hall", 3, 3, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9}, nil, []bool{F, T, T, F, T, T, F, F, F}, false, true),
		single("rectangle", 2, 4, []int64{5, 1, 7, 2, 3, 8, 1, 6}, nil, []bool{F, T, F, T, F, F, T, F}, false, false),
		single("maximize", 3, 3, []int64{1, 5, 9, 4, 1, 2, 7, 3, 1}, nil, []bool{F, F, T, F, F, F, T, F, F}, true, false),
		single("float", 3, 3, nil, []float64{0.5, 1.25, 2, 3.5, 0.25, 1, 2, 2, 0.75}, []bool{F, T, F, F, F, T, T, F, F}, false, false),
		single("beyond-int32", 2, 3, []int64{1 << 40, 3, 1 << 35, 7, 1 << 33, 2}, nil, []bool{F, T, F, F, F, T}, false, false),
	}
	cases[7].kind = "int64"
	rnd := rand.New(rand.NewPCG(26, 1))
	for _, n := range []int{8, 64, 256, 1024} {
		if n > maxN {
			continue
		}
		for _, kind := range []string{"int", "float", "int64"} {
			if kind == "int64" && n > 64 {
				// cuda/fast solves costs beyond int32 with the float64
				// kernel, exact while the forbidden cells' stand-in
				// (about 2n times the span) stays within ExactFloatLimit:
				// beyond, it refuses with lap.ErrRange.
				continue
			}
			for _, density := range []float64{0.1, 0.5, 0.9} {
				ints, floats, inf := randomCosts(rnd, 1, n, n, kind, density, false)
				name := fmt.Sprintf("random n=%d %s %.0f%%", n, kind, 100*density)
				cases = append(cases, forbiddenCase{name: name, kind: kind, density: density,
					costs: &lap.Costs{Name: name, Rows: n, Cols: n, Int: ints, Float: floats, Inf: inf}})
			}
		}
	}
	for _, kind := range []string{"int", "float", "int64"} {
		for _, n := range []int{16, 64} {
			count := 200
			ints, floats, inf := randomCosts(rnd, count, n, n, kind, 0.3, false)
			name := fmt.Sprintf("batch %dx n=%d %s 30%%", count, n, kind)
			cases = append(cases, forbiddenCase{name: name, kind: kind, density: 0.3,
				batch: &lap.Batch{Name: name, Count: count, Rows: n, Cols: n, Int: ints, Float: floats, Inf: inf}})
		}
	}
	// A batch whose problem 3 has a row with every column forbidden.
	ints, _, inf := randomCosts(rnd, 5, 4, 4, "int", 0.2, false)
	b := &lap.Batch{Name: "batch one infeasible", Count: 5, Rows: 4, Cols: 4, Int: ints}
	for _, cell := range inf {
		if cell.K/16 != 2 {
			b.Inf = append(b.Inf, cell)
		}
	}
	for j := range 4 {
		b.Inf = append(b.Inf, lap.InfCell{K: 2*16 + 4 + j, Line: 1})
	}
	slices.SortFunc(b.Inf, func(x, y lap.InfCell) int { return x.K - y.K })
	cases = append(cases, forbiddenCase{name: b.Name, batch: b, kind: "int", infeasible: true})
	return cases
}

// solveCase solves c with im and returns its costs, one per problem, as
// text (the certified optimum) or the error.
func solveCase(ctx context.Context, im lap.Impl, c forbiddenCase) ([]string, error) {
	if c.costs != nil {
		sol, err := lap.Solve(ctx, c.costs, im, c.maximize)
		if err != nil {
			return nil, err
		}
		return []string{string(sol.Cost)}, nil
	}
	out, err := lap.SolveBatchChecked(ctx, c.batch, im, c.maximize)
	if err != nil {
		return nil, err
	}
	costs := make([]string, out.Len())
	for k := range costs {
		costs[k] = out.CostText(k, c.maximize)
	}
	return costs, nil
}

// sameCost compares two certified optima: exactly for integers, within
// the float certificate's tolerance for floats.
func sameCost(a, b string, float bool, scale float64) bool {
	if !float {
		return a == b
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && math.Abs(x-y) <= lap.FloatTolerance*scale*64
}

// checkCase solves c with im and with cpu/jv and returns the record: the
// verdict (both certified by lap's dual check; the same optimum, or both
// infeasible as expected) and im's time.
func checkCase(ctx context.Context, im lap.Impl, c forbiddenCase) bench.Record {
	r, cols := 1, 1
	if c.costs != nil {
		r, cols = c.costs.Rows, c.costs.Cols
	} else {
		r, cols = c.batch.Rows, c.batch.Cols
	}
	rec := bench.Record{Experiment: "lap/forbidden", Impl: im.Name, Status: bench.StatusOK, Statistic: bench.StatMedian, Finished: time.Now().UTC(),
		Params:  bench.Params{{Name: "case", Value: c.name}, {Name: "rows", Value: strconv.Itoa(r)}, {Name: "cols", Value: strconv.Itoa(cols)}, {Name: "costs", Value: c.kind}},
		Metrics: map[string]float64{"forbidden_share": c.density}}
	t0 := time.Now()
	got, err := solveCase(ctx, im, c)
	ms := float64(time.Since(t0).Nanoseconds()) / 1e6
	rec.Phases = []bench.Phase{{Name: bench.TotalPhase, Scope: bench.ScopeHeadline, SamplesMS: []float64{ms}, MedianMS: ms, StatMS: ms}}
	ref, rerr := solveCase(ctx, lap.JV, c)
	check := &bench.Check{OK: true, Method: "lap.Solve's check on the costs with the forbidden cells' stand-in: the answer's dual certificate (an answer without duals: its cost against a dual-certified cpu/jv answer); no forbidden cell used; the optimum equal to cpu/jv's"}
	switch {
	case c.infeasible || errors.Is(rerr, lap.ErrInfeasible):
		check.OK = errors.Is(err, lap.ErrInfeasible) && errors.Is(rerr, lap.ErrInfeasible)
		check.Detail = fmt.Sprintf("infeasible: %s says %v; cpu/jv says %v", im.Name, err, rerr)
	case err != nil || rerr != nil:
		check.OK = false
		check.Detail = fmt.Sprintf("%s: %v; cpu/jv: %v", im.Name, err, rerr)
	default:
		scale := float64(cols) * float64(r)
		for k := range got {
			if !sameCost(got[k], ref[k], c.kind == "float", scale) {
				check.OK = false
				check.Detail = fmt.Sprintf("problem %d: cost %s, cpu/jv %s", k+1, got[k], ref[k])
				break
			}
		}
		if check.OK {
			check.Detail = fmt.Sprintf("%d problem(s) certified, every optimum equal to cpu/jv's", len(got))
		}
	}
	rec.Check = check
	if !check.OK {
		rec.Status = bench.StatusCheckFailed
	}
	return rec
}

// TestForbiddenCasesCPU runs the battery's instances up to n = 64 with
// cpu/jv in the place of cuda/fast: on any machine it checks the cases
// (the hand-made ones' feasibility as built) and that their records are
// valid result records.
func TestForbiddenCasesCPU(t *testing.T) {
	ctx := context.Background()
	for _, c := range forbiddenCases(64) {
		rec := checkCase(ctx, lap.JV, c)
		if !rec.Check.OK {
			t.Errorf("%s: %s", c.name, rec.Check.Detail)
		}
		if err := (&bench.File{Schema: bench.SchemaVersion, Records: []bench.Record{rec}}).Validate(); err != nil {
			t.Errorf("%s: the record is not valid: %v", c.name, err)
		}
	}
}

// TestForbiddenGPU is the battery on cuda/fast (skipped without a GPU);
// with SEMIBENCH_RESULTS=DIR it writes the result file.
func TestForbiddenGPU(t *testing.T) {
	if !hasGPU() {
		t.Skip("no CUDA device")
	}
	fast := lap.Impl{}
	for _, im := range Impls() {
		if im.Name == "cuda/fast" {
			fast = im
		}
	}
	ctx := context.Background()
	var recs []bench.Record
	for _, c := range forbiddenCases(1024) {
		rec := checkCase(ctx, fast, c)
		if !rec.Check.OK {
			t.Errorf("%s: %s", c.name, rec.Check.Detail)
		} else {
			t.Logf("%s: %s (%.3f ms)", c.name, rec.Check.Detail, rec.Phases[0].MedianMS)
		}
		recs = append(recs, rec)
	}
	dir := os.Getenv(resultsEnv)
	if dir == "" {
		return
	}
	m := bench.HostMachine()
	m.SetGPUs(cuda.Probe())
	started := time.Now().UTC()
	path := filepath.Join(dir, m.Label, started.Format("20060102")+"-lap-forbidden.jsonl")
	f := &bench.File{Schema: bench.SchemaVersion, Semibench: bench.CurrentBuild(), Machine: m, Started: started,
		Notes: []string{"impls/cuda/lap TestForbiddenGPU (issue 26): +inf costs as forbidden assignments solved by cuda/fast, single and batched, " +
			"integer (int32 and beyond: the float64 kernel) and float; each answer certified by lap's dual check and held to cpu/jv's; " +
			"total is one solve with the check, host to host, not a timing of the paper's protocol."}}
	app, err := bench.NewAppender(path, f)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	if err := app.AppendAll(recs); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
