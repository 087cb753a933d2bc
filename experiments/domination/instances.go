package domination

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/domination"
	"github.com/semibench/semibench/problems/minplus"
)

// dominationRefImpl is the reference's product: cuda/sparse when a CUDA
// device is present, cpu/sparse otherwise.
func dominationRefImpl() string {
	if n, err := impls.Devices(); err == nil && n > 0 { // counted once per process
		return "cuda/sparse"
	}
	return "cpu/sparse"
}

// dominationInput describes A(D_m).
func dominationInput(an *domination.Analysis) *bench.Input {
	return &bench.Input{Generator: "domination", Description: fmt.Sprintf("A(D_%d): %d correct %d-words, %d arcs", an.M, an.N, an.M, an.NNZ)}
}

// dominationMetrics are the reference's exact results as record metrics.
func dominationMetrics(an *domination.Analysis) map[string]float64 {
	mt := map[string]float64{
		"rows": float64(an.N), "arcs": float64(an.NNZ), "memory_bytes": float64(minplus.Bytes(an.N)),
		"r0": float64(an.R0), "a": float64(an.A), "b": float64(an.B), "n0": float64(an.N0),
		"exceptions": float64(len(an.Exceptions)), "alpha1_count": float64(len(an.AlphaSet(1))),
	}
	for k, a := range an.Alpha {
		if a != 0 {
			mt[fmt.Sprintf("alpha_k%d", k)] = float64(a)
		}
	}
	for _, e := range an.Exceptions {
		mt[fmt.Sprintf("exception_n%d", e.N)] = float64(e.Gamma2)
	}
	for n := 3; n <= 40; n++ {
		if g, err := an.Gamma2(n); err == nil {
			mt[fmt.Sprintf("gamma2_n%d", n)] = float64(g)
		}
	}
	// finite_from: the first power from which every computed power has no
	// infinite entry (Computed+1 when the last has one).
	if an.Computed > 0 && len(an.Powers) == an.Computed+1 {
		from := an.Computed + 1
		for i := an.Computed; i >= 1 && an.Powers[i].Finite; i-- {
			from = i
		}
		mt["finite_from"] = float64(from)
		mt["powers_computed"] = float64(an.Computed)
	}
	return mt
}

// dominationCheck compares an analysis with the reference: every power's
// fingerprint, minimum and diagonal, and the recurrence.
func dominationCheck(got, ref *domination.Analysis, method string) bench.Check {
	c := bench.Check{Method: method}
	if got == nil {
		c.Detail = "no output"
		return c
	}
	for i := 1; i <= min(got.Computed, ref.Computed); i++ {
		if got.Powers[i] != ref.Powers[i] {
			c.Detail = fmt.Sprintf("power %d differs from the reference's (min %d vs %d, diagonal min %d vs %d)",
				i, got.Powers[i].Min, ref.Powers[i].Min, got.Powers[i].DiagMin, ref.Powers[i].DiagMin)
			return c
		}
	}
	if got.A != 0 && (got.A != ref.A || got.B != ref.B || got.N0 != ref.N0) {
		c.Detail = fmt.Sprintf("(a, b, n0) = (%d, %d, %d), reference (%d, %d, %d)", got.A, got.B, got.N0, ref.A, ref.B, ref.N0)
		return c
	}
	c.OK = true
	c.Detail = fmt.Sprintf("%d powers agree exactly with the %s reference's; %s", min(got.Computed, ref.Computed), ref.Impl, ref.Verified)
	return c
}

// dominationPaperCheck compares the reference's metric with the paper's
// record of the table, where the paper has one.
func dominationPaperCheck(exp string, m int, ref map[string]float64, keys ...string) (string, bool) {
	paper, _ := paperdata.PaperRecords(exp)
	pr := experiments.IndexRecords(paper).Get(exp, "cuda/paper", dominationParams(m))
	if pr == nil {
		return "no paper value", true
	}
	for _, k := range keys {
		want := pr.Metrics[k]
		if exp == "domination/table6" && k == "exceptions" {
			want = table6Exceptions(pr)
		}
		if want != ref[k] {
			return fmt.Sprintf("%s = %g, paper %g", k, ref[k], want), false
		}
	}
	if exp == "domination/table6" {
		for key, v := range pr.Metrics {
			if k, ok := strings.CutPrefix(key, "alpha1_k"); ok && v == 1 && ref["alpha_k"+k] != 1 {
				return fmt.Sprintf("α_%s = %g, paper 1", k, ref["alpha_k"+k]), false
			}
		}
		if n := pr.Metrics["exception_n"]; n > 0 && ref[fmt.Sprintf("exception_n%g", n)] == 0 {
			return fmt.Sprintf("no exception at n = %g, the paper's", n), false
		}
	}
	return "equal to the paper's " + strings.Join(keys, ", "), true
}

// table6Exceptions is the number of n >= 3 off the formula that the paper's
// Table 6 row implies: its starred exceptions, plus, for an α = 1 that holds
// only from some n on (m = 7: "19 <= n"), the n below that in those classes.
func table6Exceptions(pr *bench.Record) float64 {
	exc := pr.Metrics["exceptions"]
	from, a := int(pr.Metrics["alpha1_from_n"]), int(pr.Metrics["a"])
	for n := 3; n < from && a > 0; n++ {
		if pr.Metrics[fmt.Sprintf("alpha1_k%d", n%a)] == 1 {
			exc++
		}
	}
	return exc
}

// domAnalysisCase is a case of Tables 2 to 6 (or, with w.after, the
// formula's) at w.m: its cells' powers come from the run's store as w says
// (shared.go), and check judges one cell's output against the
// reference (ref) with the case's metrics (mt, filled from the reference).
func domAnalysisCase(w *domWork, names []string, check func(ref *domination.Analysis, mt map[string]float64, out any) bench.Check) experiments.Case {
	m := w.m
	if names == nil {
		names = dominationImplsAt(m)
	}
	if m >= dominationBeyond {
		w.beyond, w.stop, w.window = true, true, domination.NoWindow
		w.figure = w.after == nil // every experiment's figure there is the one analysis, but the formula's witnesses
	}
	return experiments.Case{
		Params:   dominationParams(m),
		Impls:    names,
		Work:     dominationWork(m),
		ImplWork: dominationImplWork(m),
		Memory: func(impl string) (uint64, uint64) {
			if w.beyond && w.opt.Shared.Holds(domKey(m, impl, true, true)) {
				return 0, 0 // the run's one analysis is computed: the cell reads it (and must not drop it for room)
			}
			return domMemory(m, impl, w.opt.GPUs)
		},
		// Tables 3, 4 and 6 on powers another cell computed run only
		// Algorithms 3-5 on their fingerprints, the formula its
		// witnesses (a few milliseconds).
		ReadsShared: func(impl string) bool {
			return (w.reuse != nil || w.after != nil) && domShareable(impl) && w.opt.Shared.Holds(w.key(impl))
		},
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			inst := &experiments.Instance{Input: w.input, Metrics: w.metrics, Run: w.run, Finish: w.finish}
			if w.beyond {
				inst.Check = w.beyondCheck
				return inst, nil
			}
			sparse, err := impls.Minplus.Lookup("cpu/sparse")
			if err != nil {
				return nil, err
			}
			need, _, err := domination.MemoryNeeded(m, sparse)
			if err != nil {
				return nil, err
			}
			w.opt.Shared.MakeRoom(need)
			if avail := bench.AvailableMemory(); avail > 0 && need > avail {
				return nil, fmt.Errorf("m=%d needs %d bytes for its powers, only %d available", m, need, avail)
			}
			inst.Check = func(impl string, out any) bench.Check {
				ref, err := w.reference(context.Background(), impl)
				if err != nil {
					return bench.Check{Method: "the reference analysis", Detail: err.Error()}
				}
				c := check(ref, w.metrics, out)
				if c.OK && w.cell(impl) != nil && w.cell(impl).reused {
					c.Detail += "; " + w.how(impl)
				}
				return c
			}
			return inst, nil
		},
	}
}

// domPowersCase is a case of Tables 2 to 6 at m: each output compared,
// power by power, with the reference (method), and with the paper's
// values of keys (Table paperExp) where it has them.
func domPowersCase(w *domWork, method string, paperKeys []string, paperExp string) experiments.Case {
	return domAnalysisCase(w, nil, func(ref *domination.Analysis, mt map[string]float64, out any) bench.Check {
		an, _ := out.(*domination.Analysis)
		c := dominationCheck(an, ref, method)
		if c.OK && len(paperKeys) > 0 {
			detail, ok := dominationPaperCheck(paperExp, w.m, mt, paperKeys...)
			c.OK, c.Detail = ok, c.Detail+"; "+detail
		}
		return c
	})
}

// beyondCheck is the check of a case beyond the paper: the one analysis'
// repetition checked exactly (and the formula's witnesses).
func (w *domWork) beyondCheck(impl string, out any) bench.Check {
	c := bench.Check{Method: "beyond the paper: one cuda/sparse analysis per run, stopped at the first repetition A^(n0+a) ~ A^n0, checked entry by entry"}
	an, _ := out.(*domination.Analysis)
	var sets [][][2]int
	if f, ok := out.(*domFormulaOut); ok {
		an, sets = f.an, f.sets
	}
	if an == nil || an.Verified == "" {
		c.Detail = "no exactly checked analysis"
		return c
	}
	tail := ""
	if w.after != nil {
		ec := domFormulaCheck(an, sets)
		if !ec.OK {
			return ec
		}
		tail = "; " + ec.Detail
	}
	c.OK = true
	c.Detail = fmt.Sprintf("%d powers, %s; %s%s", an.Computed, w.how(impl), an.Verified, tail)
	return c
}

// dominationOptions are a run's options, the implementation looked up in
// impls.Domination: the GPU runs with the fingerprint search leave the
// exact re-check to the reference (which did it) and are compared with it
// power by power; the CPU runs check their match in their ring of powers.
// w is the part of the run that total covers, the part the paper times
// (Table 2: Algorithm 2; Tables 3-6: Algorithms 2-5), on the CPU and the
// GPU alike, Algorithm 1 outside.
func dominationOptions(impl string, opt experiments.Options, rec *bench.Recorder, w domination.Window) (domination.Options, error) {
	im, err := impls.Domination.Lookup(impl)
	if err != nil {
		return domination.Options{}, err
	}
	noRecheck := im.Search == domination.SearchFingerprints && strings.HasPrefix(impl, "cuda/")
	return domination.Options{Impl: im, Threads: opt.Threads, GPUs: opt.GPUs, Rec: rec, NoRecheck: noRecheck, Window: w}, nil
}

// analyze runs Analyze with the options of impl (dominationOptions),
// stopped at the first repetition when stop is set.
func analyze(ctx context.Context, m int, impl string, opt experiments.Options, rec *bench.Recorder, w domination.Window, stop bool) (*domination.Analysis, error) {
	o, err := dominationOptions(impl, opt, rec, w)
	if err != nil {
		return nil, err
	}
	o.StopAtRepetition = stop
	return domination.Analyze(ctx, m, o)
}

func domTable1Case(m int) experiments.Case {
	rows := dominationRows(m)
	return experiments.Case{
		Params: dominationParams(m),
		Work:   math.Pow(float64(rows), 1.55), // about the arcs of D_m
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			if err := domination.CheckM(m); err != nil {
				return nil, err
			}
			mt := map[string]float64{"rows": float64(rows), "memory_bytes": float64(minplus.Bytes(rows))}
			return &experiments.Instance{
				Input:   &bench.Input{Generator: "domination", Description: fmt.Sprintf("D_%d", m)},
				Metrics: mt,
				Run: func(ctx context.Context, _ string, rec *bench.Recorder) (any, error) {
					stop := rec.Start("algorithm1")
					d, err := domination.Build(m)
					stop()
					if err != nil {
						return nil, err
					}
					mt["arcs"] = float64(d.A.NNZ())
					return d, nil
				},
				Check: func(_ string, out any) bench.Check {
					d, _ := out.(*domination.Digraph)
					c := bench.Check{Method: "rows of A(D_m) equal to Table 1's and to the count by letters"}
					if d == nil {
						c.Detail = "no digraph"
						return c
					}
					if d.N() != rows {
						c.Detail = fmt.Sprintf("%d words listed, %d counted", d.N(), rows)
						return c
					}
					detail, ok := dominationPaperCheck("domination/table1", m, map[string]float64{"rows": float64(rows)}, "rows")
					c.OK, c.Detail = ok, fmt.Sprintf("%d rows, %d arcs; %s", rows, d.A.NNZ(), detail)
					return c
				},
			}, nil
		},
	}
}

// domFormulaOut is a formula run's analysis and its witnesses by n.
type domFormulaOut struct {
	an   *domination.Analysis
	sets [][][2]int
}

// domWitnesses finds a checked optimal 2-dominating set for 3 <= n <= 40,
// the n spread over the threads (largest first: m = 13 does Σn = 817
// sparse matrix-vector products of 89 M arcs).
func domWitnesses(ctx context.Context, an *domination.Analysis, rec *bench.Recorder, threads int) ([][][2]int, error) {
	defer rec.Start("witnesses")()
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	sets := make([][][2]int, 41)
	errs := make([]error, 41)
	next := make(chan int, 38)
	for n := 40; n >= 3; n-- {
		next <- n
	}
	close(next)
	var wg sync.WaitGroup
	for range min(threads, 38) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range next {
				sets[n], errs[n] = an.Witness(ctx, n, 1<<30)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return sets, nil
}

// domFormulaCheck checks each witness (2-dominating, of size γ2) and that
// γ2 equals the formula except at its listed exceptions.
func domFormulaCheck(an *domination.Analysis, sets [][][2]int) bench.Check {
	c := bench.Check{Method: "each witness 2-dominating and of size γ2; γ2 equal to the formula but at its listed exceptions"}
	if len(sets) != 41 {
		c.Detail = "no witnesses"
		return c
	}
	exc := map[int]bool{}
	for _, e := range an.Exceptions {
		exc[e.N] = true
	}
	for n := 3; n <= 40; n++ {
		g, _ := an.Gamma2(n)
		if err := domination.Check2Dominating(an.M, n, sets[n]); err != nil || len(sets[n]) != g {
			c.Detail = fmt.Sprintf("n=%d: witness of %d vertices, γ2 = %d: %v", n, len(sets[n]), g, err)
			return c
		}
		f := int(math.Ceil(float64(an.B*n)/float64(an.A))) + an.Alpha[n%an.A]
		if (f != g) != exc[n] {
			c.Detail = fmt.Sprintf("n=%d: γ2 = %d, formula %d", n, g, f)
			return c
		}
	}
	c.OK, c.Detail = true, fmt.Sprintf("38 witnesses checked; %s", an.Formula())
	return c
}

// domFormulaCase is a formula case: the solver's path, the powers to the
// first repetition (NoWindow: total is the whole call, Algorithm 1
// included), then a witness for each n. A cell that reads powers another
// cell computed times only the witnesses.
func domFormulaCase(w *domWork) experiments.Case {
	w.stop = true
	w.after = func(ctx context.Context, an *domination.Analysis, rec *bench.Recorder) (any, error) {
		sets, err := domWitnesses(ctx, an, rec, w.opt.Threads)
		if err != nil {
			return nil, err
		}
		return &domFormulaOut{an: an, sets: sets}, nil
	}
	return domAnalysisCase(w, nil, func(ref *domination.Analysis, _ map[string]float64, res any) bench.Check {
		out, _ := res.(*domFormulaOut)
		if out == nil {
			return bench.Check{Method: "formula", Detail: "no output"}
		}
		if pc := dominationCheck(out.an, ref, "powers equal to the reference's"); !pc.OK {
			return pc
		}
		c := domFormulaCheck(ref, out.sets)
		c.Method = "powers equal to the reference's; " + c.Method
		return c
	})
}

// domSearchAgain is what a reusing cell of Tables 3, 4 and 6 times:
// Algorithms 3-5 on the powers read.
func domSearchAgain(_ context.Context, an *domination.Analysis, rec *bench.Recorder) (*domination.Analysis, error) {
	return an.SearchAgain(rec)
}
