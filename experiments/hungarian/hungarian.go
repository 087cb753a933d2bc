package hungarian

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/problems/lap"
)

// Paper is the paper this package reproduces.
var Paper = experiments.PaperInfo{File: "001_104f85080adea88a.txt", Name: "Hungarian", Number: "001",
	Source: "Lopes et al. 2019, Hungarian algorithm on CUDA"}

// hungarianCPU lists the CPU implementations in display order.
var hungarianCPU = []string{"cpu/paper", "cpu/hungarian-n3", "cpu/jv", "cpu/auction"}

// hungarianNs are the matrix sizes of table1 and fig4 per scale.
func hungarianNs(s experiments.Scale) []int {
	switch s {
	case experiments.Quick:
		return []int{64, 128, 256}
	case experiments.Large:
		return []int{16384}
	}
	return []int{512, 1024, 2048, 4096, 8192}
}

// hungarianFig5N is fig5's fixed size per scale (the paper's 2048).
func hungarianFig5N(s experiments.Scale) int {
	switch s {
	case experiments.Quick:
		return 128
	case experiments.Large:
		return 8192
	}
	return 2048
}

// hungarianFig5Ranges are fig5's ranges: the paper's three and two larger
// ones, where the paper says the O(n^4) algorithm becomes the worst.
var hungarianFig5Ranges = []string{"0.1n", "n", "10n", "100n", "1000n"}

// hungarianWork is a case's cost in the units of NsPerWork: n^2.5 (the
// growth of the paper's CPU times and of ours from n = 2048 to 8192) times
// a range factor (0.5 at 0.1n, 1 at n, 3 at 10n, 19 at 100n: the paper's
// algorithm's growth, the steepest, its step 6 growing with the range).
func hungarianWork(n int, rangeLabel string) float64 {
	f, err := lapcost.RangeFactor(rangeLabel)
	if err != nil {
		f = 1
	}
	var g float64
	switch {
	case f <= 0.1:
		g = 0.5
	case f <= 1:
		g = 0.5 + 0.5*(f-0.1)/0.9
	case f <= 10:
		g = 1 + 2*(f-1)/9
	default:
		g = 3 * math.Pow(f/10, 0.8) // cpu/paper's step 6 grows with the range
	}
	return math.Pow(float64(n), 2.5) * g
}

// hungarianImplWork is hungarianWork for impl: the other algorithms' time
// hardly moves beyond range n (the 2-core Xeon's n = 2048: the O(n^3)
// Hungarian 446 and 406 ms at 100n and 1000n, auction 165 and 154 ms,
// while the paper's took 5.1 and 16.0 s), so their range factor stops at
// range n's. On the GPU the lowest range is far cheaper still: the
// committed H100 golden run's cuda/paper and cuda/fast took 6 to 16 times
// less at 0.1n than at n (the CPU's paper code about 2), so a GPU cell's
// factor at 0.1n is a tenth of range n's.
func hungarianImplWork(n int, rangeLabel, impl string) float64 {
	w := hungarianWork(n, rangeLabel)
	if impl != "cpu/paper" && impl != "cuda/paper" {
		w = min(w, hungarianWork(n, "n"))
	}
	if strings.HasPrefix(impl, "cuda/") {
		if f, err := lapcost.RangeFactor(rangeLabel); err == nil && f < 1 {
			low := 0.1 + 0.9*max(0, f-0.1)/0.9 // 0.1 at 0.1n, 1 at n
			w = hungarianWork(n, "n") * low
		}
	}
	return w
}

// hungarianNsPerWork are priors (ns per unit of hungarianWork), rounded
// up, used only to estimate a cell's time against the budget (never shown):
// the CPU's measured on a 2-core Xeon at n = 2048, the CUDA ones rough
// guesses (a GPU step of about 2 us for cuda/hungarian-n3).
var hungarianNsPerWork = map[string]float64{
	"cpu/paper": 1.5, "cpu/hungarian-n3": 2.5, "cpu/jv": 0.4, "cpu/auction": 4,
	"cuda/paper": 0.1, "cuda/hungarian-n3": 1, "cuda/fast": 0.05,
}

func hungarianParams(n int, rangeLabel string) bench.Params {
	return bench.Params{{Name: "n", Value: strconv.Itoa(n)}, {Name: "range", Value: rangeLabel}}
}

// hungarianCase builds one n x n instance with costs uniform in [0, range).
func hungarianCase(n int, rangeLabel string, opt experiments.Options, impls []string) experiments.Case {
	seed := opt.Seed
	if seed == 0 {
		seed = 1
	}
	return experiments.Case{
		Params:   hungarianParams(n, rangeLabel),
		Impls:    impls,
		Work:     hungarianWork(n, rangeLabel),
		ImplWork: func(impl string) float64 { return hungarianImplWork(n, rangeLabel, impl) },
		// Costs, cpu/paper's slack copy and its int32 vector of zeros; on
		// the device the costs as int32 and the solvers' n x n work arrays.
		HostBytes: uint64(n) * uint64(n) * 20, DeviceBytes: uint64(n) * uint64(n) * 12,
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			// Costs, cpu/paper's slack copy and its int32 vector of zeros.
			need := uint64(n) * uint64(n) * 20
			opt.Shared.MakeRoom(need)
			if avail := bench.AvailableMemory(); avail > 0 && need > avail {
				return nil, fmt.Errorf("n=%d needs about %.1f GiB, only %.1f GiB available", n, experiments.GiB(need), experiments.GiB(avail))
			}
			// The costs, their digest and their certified optimum: once per
			// run for every experiment on this instance (instances.go).
			l, err := lapInstance(ctx, opt, n, rangeLabel, seed)
			if err != nil {
				return nil, err
			}
			m := l.m
			metrics := map[string]float64{"range": float64(l.rng)}
			reference := func() (*lap.Result, error) {
				ref, err := l.reference()
				if err == nil {
					metrics["optimum"] = float64(ref.Cost)
				}
				return ref, err
			}
			return &experiments.Instance{
				Input: &bench.Input{Generator: "lapcost", Seed: seed, Hash: l.hash,
					Description: fmt.Sprintf("%dx%d uniform integer costs in [0, %d) (range %s)", n, n, l.rng, rangeLabel)},
				Metrics: metrics,
				Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
					return runHungarian(ctx, impl, m, rec)
				},
				Check: func(_ string, out any) bench.Check {
					res, _ := out.(*lap.Result)
					return hungarianCheck(m, res, reference)
				},
			}, nil
		},
	}
}

// hungarianCheck certifies a result by its duals when it has them, and in
// every case compares its cost with the certified cpu/jv optimum.
func hungarianCheck(m *lap.Matrix, res *lap.Result, reference func() (*lap.Result, error)) bench.Check {
	chk := bench.Check{Method: "cost = certified optimum (cpu/jv with duals)"}
	if res == nil {
		chk.Detail = "no result"
		return chk
	}
	if err := lap.Certify(m, res); err != nil {
		chk.Detail = err.Error()
		return chk
	}
	if res.U != nil {
		// Feasible duals with complementary slackness prove the assignment
		// optimal: no reference solve is needed (at n = 8192 it was most
		// of a GPU cell's wall time).
		chk.OK = true
		chk.Method = "dual certificate (u_i + v_j <= c_ij, equality on the assignment)"
		chk.Detail = fmt.Sprintf("optimal cost %d", res.Cost)
		return chk
	}
	ref, err := reference()
	if err != nil {
		chk.Detail = "reference: " + err.Error()
		return chk
	}
	if res.Cost != ref.Cost {
		chk.Detail = fmt.Sprintf("cost %d, certified optimum %d", res.Cost, ref.Cost)
		chk.MaxErr = math.Abs(float64(res.Cost - ref.Cost))
		return chk
	}
	chk.OK = true
	chk.Detail = fmt.Sprintf("optimal cost %d", res.Cost)
	return chk
}

// Register registers the paper and its experiments (experiments.RegisterPaper,
// experiments.Register); experiments/papers calls it for cmd/semibench.
func Register() {
	experiments.RegisterPaper(Paper)
	registerHungarianCUDA()
	registerHungarianBatch()
	registerHungarianBatchFloat()
	experiments.Register(&experiments.Experiment{
		Name: "hungarian/table1",
		// Table 1's columns are the CUDA implementations; Jonker-Volgenant is the fast CPU one (cuda/hungarian-n3 is Fig. 6's comparison, not a Table 1 column).
		Headline:    []string{"cuda/paper", "cuda/fast", "cpu/jv"},
		Paper:       Paper.File,
		Description: "LAP run times vs n and cost range, CUDA and CPU: the O(n^4) Hungarian on both (the paper's columns), cuda/fast, cuda/hungarian-n3 and Jonker-Volgenant (paper's Table 1; its cells feed Tables 2-4 and Fig. 6 too)",
		Statistic:   bench.StatMedian,
		Work:        hungarianCellWork,
		// The GPU cells first in each case, so that a budget spent by the
		// CPU's O(n^4) cells skips those, not the GPU's.
		Impls:     []string{"cuda/paper", "cuda/fast", "cuda/hungarian-n3", "cpu/jv", "cpu/paper"},
		NsPerWork: hungarianNsPerWork,
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, n := range hungarianNs(s) {
				for _, r := range lapcost.PaperRanges {
					cs = append(cs, hungarianCase(n, r, o, nil))
				}
			}
			return cs
		},
		Tables: func(run []bench.Record) []report.Table {
			return append(hungarianTable1(run), hungarianDerivedTables(run)...)
		},
		Claims: func(run []bench.Record) []experiments.Claim {
			return []experiments.Claim{hungarianCPUStepsClaim(run), hungarianRangeSharesClaim(run), hungarianCorrectClaim(run)}
		},
		Needs: hungarianTable1Needs,
		Plots: func(run []bench.Record) []report.Plot {
			return append(hungarianTable1Plots(run), hungarianDerivedPlots(run)...)
		},
	})
	experiments.Register(&experiments.Experiment{
		Name: "hungarian/fig4",
		// Figs. 4 and 5 are ratios to the O(n^4) Hungarian: both ends.
		Headline:    []string{"cpu/jv", "cpu/paper"},
		Paper:       Paper.File,
		Description: "CPU LAP algorithms' time divided by the O(n^4) Hungarian's vs n, range n (paper's Fig. 4)",
		Statistic:   bench.StatMedian,
		Work:        hungarianCellWork,
		Impls:       hungarianCPU,
		NsPerWork:   hungarianNsPerWork,
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, n := range hungarianNs(s) {
				cs = append(cs, hungarianCase(n, "n", o, nil))
			}
			return cs
		},
		Tables: func(run []bench.Record) []report.Table { return hungarianRelTable(run, "hungarian/fig4") },
		Claims: func(run []bench.Record) []experiments.Claim { return hungarianRelClaims(run, "hungarian/fig4") },
		Needs:  hungarianFig4Needs,
		// Table 1's cells of the same costs, code and statistic.
		SameAs: []experiments.SameAs{{Experiment: "hungarian/table1", Impls: []string{"cpu/paper", "cpu/jv"}}},
		Plots:  func(run []bench.Record) []report.Plot { return hungarianRelPlots(run, "hungarian/fig4") },
	})
	experiments.Register(&experiments.Experiment{
		Name: "hungarian/fig5",
		// Figs. 4 and 5 are ratios to the O(n^4) Hungarian: both ends.
		Headline:    []string{"cpu/jv", "cpu/paper"},
		Paper:       Paper.File,
		Description: "CPU LAP algorithms' time divided by the O(n^4) Hungarian's vs the cost range at n = 2048 (paper's Fig. 5)",
		Statistic:   bench.StatMedian,
		Work:        hungarianCellWork,
		Impls:       hungarianCPU,
		NsPerWork:   hungarianNsPerWork,
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			var cs []experiments.Case
			n := hungarianFig5N(s)
			for _, r := range hungarianFig5Ranges {
				cs = append(cs, hungarianCase(n, r, o, nil))
			}
			return cs
		},
		Tables: func(run []bench.Record) []report.Table { return hungarianRelTable(run, "hungarian/fig5") },
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(hungarianRelClaims(run, "hungarian/fig5"), hungarianWorstClaim(run))
		},
		Needs:  hungarianFig5Needs,
		SameAs: []experiments.SameAs{{Experiment: "hungarian/table1", Impls: []string{"cpu/paper", "cpu/jv"}}},
		Plots:  func(run []bench.Record) []report.Plot { return hungarianRelPlots(run, "hungarian/fig5") },
	})
}

// hungarianCell is one (n, range) pair.
type hungarianCell struct {
	n int
	r string
}

// hungarianCells lists the (n, range) pairs of the records, by n then by
// range factor.
func hungarianCells(recs ...[]bench.Record) []hungarianCell {
	var out []hungarianCell
	for _, rs := range recs {
		for _, r := range rs {
			n, err := strconv.Atoi(r.Params.Get("n"))
			c := hungarianCell{n, r.Params.Get("range")}
			if err == nil && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	slices.SortFunc(out, func(a, b hungarianCell) int {
		if a.n != b.n {
			return a.n - b.n
		}
		fa, _ := lapcost.RangeFactor(a.r)
		fb, _ := lapcost.RangeFactor(b.r)
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	})
	return out
}

// hungarianSteps are cpu/paper's phases with the paper's step names.
var hungarianSteps = lap.PaperSteps

func hungarianTable1(run []bench.Record) []report.Table {
	const exp = "hungarian/table1"
	own := hungarianOwn(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	rc, pc := experiments.IndexRecords(own), experiments.IndexRecords(paper)
	t := report.Table{
		Title: "hungarian/table1 — LAP run times, total ms (CUDA: matrix on the device; CPU: in memory), and cuda/fast's end_to_end (paper: Table 1, CUDA GTX 970 and CPU i7-6700K)",
		Header: []string{"n", "range", "paper CUDA (GTX 970)", "cuda/paper", "cuda/fast", "cuda/fast end_to_end", "cuda/hungarian-n3",
			"paper CPU (i7-6700K)", "cpu/paper", "cpu/jv", "paper CPU / cpu/paper", "cpu/paper / cpu/jv"},
	}
	steps := report.Table{
		Title:  "hungarian/table1 — cpu/paper per step, ms (share of the total)",
		Header: append([]string{"n", "range"}, append(slices.Clone(hungarianSteps), "total")...),
		Notes:  []string{"init: allocating the data and copying the costs into the slack matrix (section 2.1, before step 1)."},
	}
	for _, c := range hungarianCells(own) {
		p := hungarianParams(c.n, c.r)
		pcpu, pcuda := pc.Get(exp, "cpu/paper", p), pc.Get(exp, "cuda/paper", p)
		slow, jv := rc.Get(exp, "cpu/paper", p), rc.Get(exp, "cpu/jv", p)
		t.Rows = append(t.Rows, []string{strconv.Itoa(c.n), c.r, experiments.CellText(pcuda, "total"),
			hungarianText(rc.Get(exp, "cuda/paper", p)), hungarianText(rc.Get(exp, "cuda/fast", p)),
			experiments.CellText(rc.Get(exp, "cuda/fast", p), bench.EndToEndPhase), hungarianText(rc.Get(exp, "cuda/hungarian-n3", p)),
			experiments.CellText(pcpu, "total"), experiments.CellText(slow, "total"), experiments.CellText(jv, "total"),
			experiments.Ratio(experiments.PhaseMS(pcpu, "total"), experiments.PhaseMS(slow, "total")), experiments.Ratio(experiments.PhaseMS(slow, "total"), experiments.PhaseMS(jv, "total"))})
		row := []string{strconv.Itoa(c.n), c.r}
		total := experiments.PhaseMS(slow, "total")
		for _, s := range hungarianSteps {
			v := experiments.PhaseMS(slow, s)
			switch {
			case slow == nil || slow.Status != bench.StatusOK:
				row = append(row, experiments.CellText(slow, "total"))
			case math.IsNaN(v):
				row = append(row, "0")
			default:
				row = append(row, fmt.Sprintf("%s (%.0f%%)", report.FormatMS(v), 100*v/total))
			}
		}
		steps.Rows = append(steps.Rows, append(row, experiments.CellText(slow, "total")))
	}
	if sec := experiments.PhaseMS(rc.Get(exp, "cpu/jv", hungarianParams(8192, "n")), "total"); !math.IsNaN(sec) {
		t.Notes = append(t.Notes, fmt.Sprintf("cpu/jv at n=8192, range n: %s ms (compare SciPy's linear_sum_assignment on the same machine and instance).", report.FormatMS(sec)))
	}
	t.Notes = append(t.Notes,
		"The paper's times are for its C implementation of the same O(n^4) algorithm (CPU) and its CUDA one with the matrix already on the device; the paper does not say how many repetitions each time summarises.",
		"Every column is total: the host clock around one whole solve, the matrix already on the device for CUDA (as the paper times its kernels; every allocation, launch, synchronisation and host step of the solve inside) and in memory for the CPU. end_to_end adds the upload (cuda/paper: a scan of the int64 costs, then their conversion to int32 and the copy; cuda/fast from commit 5e9b1cb: one pass that checks and converts them, chunk by chunk, to int16 where a chunk fits, from caf605b to its costs' low 16 bits where they lie from 0 to 65,535 (either widened on the device, half the bytes over the bus), or to int32, while the previous chunk is copied, from 9ced6cc in AVX-512 with non-temporal stores where the host has them; from 301b3e2 to 5e9b1cb it scanned first, then converted) and the download; the result files keep every phase and sample.",
		experiments.CheckSummary(run, exp))
	steps.Notes = append(steps.Notes, "The paper (section 5): in its CPU version the run time is dominated by step 1 at range 0.1n, by steps 1 and 6 at range n, and by step 6 at range 10n. Steps 1 and 6 include rebuilding the compressed vector of zeros.")
	return []report.Table{t, steps}
}

// hungarianRelTable renders fig4 or fig5: each algorithm's time and its
// ratio to the O(n^4) Hungarian's (cpu/paper), as the paper plots it.
func hungarianRelTable(run []bench.Record, exp string) []report.Table {
	own := hungarianOwn(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	title := "hungarian/fig4 — CPU LAP algorithms vs n at range n, total ms and total / O(n^4) Hungarian's (paper: Fig. 4)"
	if exp == "hungarian/fig5" {
		title = "hungarian/fig5 — CPU LAP algorithms vs the cost range, total ms and total / O(n^4) Hungarian's (paper: Fig. 5, at n = 2048)"
	}
	t := report.Table{Title: title, Header: append([]string{"n", "range"}, hungarianCPU...)}
	for _, impl := range hungarianCPU[1:] {
		t.Header = append(t.Header, impl+" / cpu/paper")
	}
	for _, c := range hungarianCells(own) {
		p := hungarianParams(c.n, c.r)
		row := []string{strconv.Itoa(c.n), c.r}
		for _, impl := range hungarianCPU {
			row = append(row, experiments.CellText(rc.Get(exp, impl, p), "total"))
		}
		base := experiments.PhaseMS(rc.Get(exp, "cpu/paper", p), "total")
		for _, impl := range hungarianCPU[1:] {
			row = append(row, experiments.Ratio(experiments.PhaseMS(rc.Get(exp, impl, p), "total"), base))
		}
		t.Rows = append(t.Rows, row)
	}
	if exp == "hungarian/fig4" {
		t.Notes = append(t.Notes, "The paper (Fig. 4): at range n every other algorithm (O(n^3) Hungarian, shortest augmenting path, auction) takes longer than the O(n^4) Hungarian for fairly large sizes (ratios above 1).")
	} else {
		t.Notes = append(t.Notes, "The paper (Fig. 5): as the range grows the O(n^4) Hungarian gets worse, becoming the worst algorithm for large ranges (ratios below 1). 100n and 1000n extend the paper's three ranges.")
	}
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	return []report.Table{t}
}

// hungarianRelPlots draws fig4 or fig5: time / cpu/paper's time per
// algorithm, against n (fig4) or the range factor (fig5), and the absolute
// times.
func hungarianRelPlots(run []bench.Record, exp string) []report.Plot {
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	xOf := func(c hungarianCell) float64 { return float64(c.n) }
	xLabel := "matrix size n"
	if exp == "hungarian/fig5" {
		xOf = func(c hungarianCell) float64 { f, _ := lapcost.RangeFactor(c.r); return f }
		xLabel = "cost range / n"
	}
	stem := "hungarian-" + exp[len("hungarian/"):]
	what, fig := "CPU algorithms at cost range n vs matrix size", Paper.Source+", Fig. 4"
	if exp == "hungarian/fig5" {
		what, fig = "CPU algorithms vs the cost range", Paper.Source+", Fig. 5"
	}
	rel := report.Plot{Name: stem, Title: experiments.PlotTitle(what+": total time relative to the O(n^4) Hungarian (cpu/paper)", fig), XLabel: xLabel,
		YLabel: "total time / cpu/paper's total time", LogX: true, LogY: true}
	abs := report.Plot{Name: stem + "-ms", Title: experiments.PlotTitle(what+": total time", fig), XLabel: xLabel, YLabel: "total time (ms)", LogX: true, LogY: true}
	cells := hungarianCells(own)
	for _, impl := range hungarianCPU {
		r, a := report.Series{Name: impl, Impl: impl}, report.Series{Name: impl, Impl: impl}
		for _, c := range cells {
			p := hungarianParams(c.n, c.r)
			v := experiments.PhaseMS(rc.Get(exp, impl, p), "total")
			if math.IsNaN(v) {
				continue
			}
			a.X, a.Y = append(a.X, xOf(c)), append(a.Y, v)
			if base := experiments.PhaseMS(rc.Get(exp, "cpu/paper", p), "total"); !math.IsNaN(base) && base > 0 {
				r.X, r.Y = append(r.X, xOf(c)), append(r.Y, v/base)
			}
		}
		if len(r.X) > 0 {
			rel.Series = append(rel.Series, r)
		}
		if len(a.X) > 0 {
			abs.Series = append(abs.Series, a)
		}
	}
	rel.Notes = experiments.AvailabilityNotes(own, exp, hungarianCPU...)
	abs.Notes = rel.Notes
	return []report.Plot{rel, abs}
}

// hungarianTable1GPU are table1's CUDA implementations, drawn beside the
// CPU ones wherever a GPU ran.
var hungarianTable1GPU = []string{"cuda/paper", "cuda/fast", "cuda/hungarian-n3"}

// hungarianTable1Plots draws the CPU times (and the GPU times where a GPU ran) vs n per range beside the
// paper's (its Fig. 8), and cpu/paper's relative step times stacked per n
// for each range (the CPU counterpart of its Figs. 10-12).
func hungarianTable1Plots(run []bench.Record) []report.Plot {
	const exp = "hungarian/table1"
	own := hungarianOwn(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := experiments.IndexRecords(paper), experiments.IndexRecords(own)
	times := report.Plot{Name: "hungarian-table1", Title: experiments.PlotTitle("CPU total time vs matrix size, per cost range", Paper.Source+", Table 1 and Fig. 8"),
		XLabel: "matrix size n", YLabel: "total time (ms)", LogX: true, LogY: true,
		Notes: experiments.AvailabilityNotes(own, exp, append([]string{"cpu/paper", "cpu/jv"}, hungarianTable1GPU...)...)}
	cells := hungarianCells(own, paper)
	add := func(name string, idx experiments.Cells, impl, r string, paper bool) {
		s := report.Series{Name: name, Impl: impl, Group: "cost range " + r, Paper: paper}
		for _, c := range cells {
			if c.r != r {
				continue
			}
			if v := experiments.PhaseMS(idx.Get(exp, impl, hungarianParams(c.n, c.r)), "total"); !math.IsNaN(v) {
				s.X, s.Y = append(s.X, float64(c.n)), append(s.Y, v)
			}
		}
		if len(s.X) > 0 {
			times.Series = append(times.Series, s)
		}
	}
	for _, r := range lapcost.PaperRanges {
		add("paper's i7-6700K (O(n^4) Hungarian)", pc, "cpu/paper", r, true)
		add("cpu/paper (its port)", rc, "cpu/paper", r, false)
		add("cpu/jv", rc, "cpu/jv", r, false)
		for _, im := range hungarianTable1GPU {
			add(im, rc, im, r, false)
		}
	}
	for _, s := range times.Series {
		if strings.HasPrefix(s.Impl, "cuda/") {
			// a GPU ran: its totals beside the CPU's
			times.Title = experiments.PlotTitle("CPU and GPU total time vs matrix size, per cost range", Paper.Source+", Table 1 and Fig. 8 (GPU: Fig. 7)")
			times.Notes = append(times.Notes, "GPU total: the cost matrix already in device memory, the answer left there (host clock)")
			break
		}
	}
	out := []report.Plot{times}
	for _, r := range lapcost.PaperRanges {
		pl := report.Plot{Name: "hungarian-table1-steps-" + r, Title: experiments.PlotTitle("cpu/paper's steps, share of their summed time, cost range "+r, Paper.Source+", CPU counterpart of Figs. 10-12"),
			XLabel: "matrix size n", YLabel: "share of the summed step times"}
		if pl, ok := stepSharePlot(pl, rc, exp, "cpu/paper", r, cells); ok {
			out = append(out, pl)
		}
	}
	return out
}

// stepSharePlot fills pl with a stacked series per step of impl's cells at
// range r: each step's share of the time, per n (Figs. 10-12 for
// cuda/paper, the same view of cpu/paper); ok is false when no cell has
// them.
func stepSharePlot(pl report.Plot, rc experiments.Cells, exp, impl, r string, cells []hungarianCell) (_ report.Plot, ok bool) {
	var series []report.Series
	for _, st := range hungarianSteps {
		s := report.Series{Name: st}
		for _, c := range cells {
			if c.r != r {
				continue
			}
			rec := rc.Get(exp, impl, hungarianParams(c.n, c.r))
			if math.IsNaN(hungarianMS(rec)) {
				continue
			}
			v := experiments.PhaseMS(rec, st)
			if math.IsNaN(v) {
				v = 0
			}
			s.X, s.Y = append(s.X, float64(c.n)), append(s.Y, v)
		}
		series = append(series, s)
	}
	pl.Series = report.Relative(series)
	pl.Stacked = true
	return pl, len(pl.Series) > 0 && len(pl.Series[0].X) > 0
}

// hungarianRelClaims gives the claim of Fig. 4 (range n, large n) or Fig. 5
// (n = 2048, the lowest range): the paper's O(n^4) CPU Hungarian is the
// fastest of the CPU algorithms there.
func hungarianRelClaims(run []bench.Record, exp string) []experiments.Claim {
	own := hungarianOwn(run, exp)
	rc := experiments.IndexRecords(own)
	c := experiments.Claim{ID: exp + "#cpu-paper-fastest", Where: "Fig. 4", PaperFigure: "cpu/paper fastest (every other algorithm's time / cpu/paper's above 1)",
		Text: "At range n and fairly large n, the O(n^4) CPU Hungarian is the fastest CPU algorithm: ours is, at the largest n where it and another ran, the fastest one. Reproduced when it is cpu/paper."}
	pick := func(hc hungarianCell) bool { return hc.r == "n" }
	if exp == "hungarian/fig5" {
		c.Where = "Fig. 5"
		c.Text = "At the lowest range (0.1n, n = 2048) the O(n^4) CPU Hungarian is the fastest CPU algorithm: ours is the fastest one at range 0.1n. Reproduced when it is cpu/paper."
		pick = func(hc hungarianCell) bool { return hc.r == "0.1n" }
	}
	cells := hungarianCells(own)
	var missing []experiments.ClaimCell
	for i := len(cells) - 1; i >= 0; i-- {
		hc := cells[i]
		if !pick(hc) {
			continue
		}
		p := hungarianParams(hc.n, hc.r)
		base := experiments.CellOf(rc, exp, "cpu/paper", p)
		missing = append(missing, base)
		if !experiments.OKCells(base) {
			continue
		}
		// cpu/paper against its strongest rival: the fastest other.
		var rival *bench.Record
		for _, impl := range hungarianCPU[1:] {
			if x := experiments.CellOf(rc, exp, impl, p); experiments.OKCells(x) && (rival == nil || hungarianMS(x.Rec) < hungarianMS(rival)) {
				rival = x.Rec
			}
		}
		if rival == nil {
			continue
		}
		faster, note := experiments.CompareWithin(c.ID, experiments.SamplesOf(base.Rec, bench.TotalPhase), experiments.SamplesOf(rival, bench.TotalPhase))
		c.Ours = fmt.Sprintf("at n = %d, range %s: the fastest other, %s, takes %s of cpu/paper's time (%s)", hc.n, hc.r, rival.Impl,
			experiments.Ratio(hungarianMS(rival), hungarianMS(base.Rec)), note)
		c.Verdict = experiments.BySamples(faster, -1)
		// ours: the fastest other / cpu/paper, above the margin when cpu/paper is the faster
		c = c.WithFigure(hungarianMS(rival)/hungarianMS(base.Rec), experiments.MarginBand(c.ID, experiments.NotReproduced, experiments.Inconclusive, experiments.Reproduced))
		return []experiments.Claim{c}
	}
	if len(missing) == 0 {
		missing = []experiments.ClaimCell{{Rec: nil, Impl: "cpu/paper", Params: nil}}
	}
	return []experiments.Claim{c.NotRunFor(missing...)}
}
