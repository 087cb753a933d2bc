package apsp

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/problems/apsp"
)

func apspSemiringsTable(run []bench.Record) []report.Table {
	const exp = "apsp/semirings"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	t := report.Table{
		Title:  "apsp/semirings — sGJE in each semiring against an independent algorithm; operation counts against the paper's formulas",
		Header: []string{"semiring", "n", "reference", "cpu/sgje", "cpu/fast", "cuda/fast", "stars", "mults (n³-n)", "adds (n(n-1)²)", "sgje total ms", "fast total ms", "cuda/fast total ms", "cuda/fast end to end ms"},
	}
	refs := map[string]string{"min-plus": "Bellman-Ford", "max-plus": "Bellman-Ford (negated)", "boolean": "BFS",
		"real": "pivoting GJ of I-A", "real-inverse": "pivoting GJ"}
	for _, sr := range apspSemiringNames {
		var ns []int
		for _, r := range own {
			if r.Params.Get("semiring") == sr {
				if n, err := strconv.Atoi(r.Params.Get("n")); err == nil && !slices.Contains(ns, n) {
					ns = append(ns, n)
				}
			}
		}
		slices.Sort(ns)
		for _, n := range ns {
			p := bench.Params{{Name: "semiring", Value: sr}, {Name: "n", Value: strconv.Itoa(n)}}
			s, f, g := rc.Get(exp, "cpu/sgje", p), rc.Get(exp, "cpu/fast", p), rc.Get(exp, "cuda/fast", p)
			want := apsp.FormulaCounts(n)
			cnt := func(key string, formula int64) string {
				if s == nil || s.Metrics == nil {
					return "—"
				}
				v := s.Metrics[key]
				mark := " ok"
				if int64(v) != formula {
					mark = " ≠ " + experiments.FormatCount(float64(formula))
				}
				return experiments.FormatCount(v) + mark
			}
			t.Rows = append(t.Rows, []string{sr, strconv.Itoa(n), refs[sr], checkText(s), checkText(f), checkText(g),
				cnt("stars", want.Stars), cnt("mults", want.Mults), cnt("adds", want.Adds), experiments.CellText(s, "total"), experiments.CellText(f, "total"), experiments.CellText(g, "total"), experiments.CellText(g, "end_to_end")})
		}
	}
	t.Notes = append(t.Notes, "real: the closure A* = (I-A)⁻¹ (operation C' = 1/(1-c)); real-inverse: the direct variant (A, B_I, B_O, C'') giving A⁻¹, run on I-A so both share the reference; cuda/fast inverts as the closure of I minus its input (cudaapsp.Inverse).",
		"cuda/fast: min-plus and max-plus in float32 (integer weights: exact; max-plus as the negated min-plus closure of -A), Boolean in 32-bit words, real in float64.",
		"Times: total is the headline, the host clock around the solve: for the CPU implementations the whole call, for cuda/fast the solve with the matrix in device memory (the upload, the download and the host conversions to float32, to 32-bit words or to I-A outside it); end to end adds those, at these sizes mostly fixed costs.")
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	return []report.Table{t}
}

// checkText is "ok", "FAILED" or why the cell did not run.
func checkText(r *bench.Record) string {
	switch {
	case r == nil:
		return "—"
	case r.Check != nil && r.Check.OK:
		return "ok"
	case r.Check != nil:
		return "FAILED"
	}
	return r.Status
}

// ---- apsp/systolic ---------------------------------------------------------

func apspSystolicTable(run []bench.Record) []report.Table {
	const exp = "apsp/systolic"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	t := report.Table{
		Title: "apsp/systolic — the arrays GJE0 and GJE1 simulated, beside the paper's formulas",
		Header: []string{"n", "processors", "(n+1)²", "c11 out", "4n+1", "cnn out", "7n-2", "largest active", "n²/3", "active fraction (≤ 1/3)",
			"tracks", "utilization GJE0 (1/2)", "utilization GJE1 (1)", "steps/s", "check", "cuda/systolic", "GPU steps/s"},
	}
	var ns []int
	for _, r := range own {
		if n, err := strconv.Atoi(r.Params.Get("n")); err == nil && !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	rc := experiments.IndexRecords(own)
	for _, n := range ns {
		r := rc.Get(exp, "cpu/systolic", bench.Params{{Name: "n", Value: strconv.Itoa(n)}})
		g := rc.Get(exp, "cuda/systolic", bench.Params{{Name: "n", Value: strconv.Itoa(n)}})
		gpuRate := "—"
		if g != nil && g.Metrics != nil && experiments.Ran(g) {
			gpuRate = fmt.Sprintf("%.3g", g.Metrics["gpu_steps_per_s"])
		}
		if r == nil || r.Metrics == nil || !experiments.Ran(r) {
			t.Rows = append(t.Rows, []string{strconv.Itoa(n), "—", strconv.Itoa((n + 1) * (n + 1)), "—", strconv.Itoa(4*n + 1), "—", strconv.Itoa(7*n - 2),
				"—", fmt.Sprintf("%.1f", float64(n*n)/3), "—", "—", "—", "—", "—", checkText(r), checkText(g), gpuRate})
			continue
		}
		m := r.Metrics
		t.Rows = append(t.Rows, []string{strconv.Itoa(n),
			experiments.FormatCount(m["processors"]), strconv.Itoa((n + 1) * (n + 1)),
			experiments.FormatCount(m["c11_step"]), strconv.Itoa(4*n + 1),
			experiments.FormatCount(m["cnn_step"]), strconv.Itoa(7*n - 2),
			experiments.FormatCount(m["max_active"]), fmt.Sprintf("%.1f", float64(n*n)/3), fmt.Sprintf("%.3f", m["max_active_fraction"]),
			experiments.FormatCount(m["tracks"]),
			strconv.FormatFloat(m["utilization_gje0"], 'g', 4, 64), strconv.FormatFloat(m["utilization_gje1"], 'g', 4, 64),
			fmt.Sprintf("%.3g", m["steps_per_s"]), checkText(r), checkText(g), gpuRate})
	}
	t.Notes = append(t.Notes,
		"c11 out: steps from c11's input to its output; cnn out: steps from c11's input to cnn's output. Utilization: operations in one period of a three-track stream over n² computing processors × period (6n for GJE0, 3n for GJE1).",
		"Largest active: the most computing processors in one step of a single matrix, (n²+2)/3 or so, a third of the n² computing processors rounded up (n²/3 beside it); active fraction: that count over all (n+1)² processors.",
		"steps/s: simulated steps per second of the GJE0 stream on this machine (one goroutine; the whole array each step). cuda/systolic: GJE0 on the GPU, a thread per processor and a launch per step, checked equal to the CPU simulator in every output, output step and active count; GPU steps/s of the same stream.",
		"In the result file, cpu/systolic's total is its whole call (the single matrices and both streams); cuda/systolic's total is the GJE0 stream with its data in device memory (phase steps inside; h2d, d2h and the single matrices outside, in end to end).")
	if pic := apspFig4(); pic != "" {
		t.Notes = append(t.Notes, "The array for a 4×4 matrix after 11 steps (the paper's Fig. 4), ^ up, \\ down-right, / down-left:\n"+pic)
	}
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	return append([]report.Table{t}, apspSweepTable(own)...)
}

// apspSweepTable shows the sweep's findings beside the paper's figures,
// one row per claim (apspSweepClaims gives the verdicts).
func apspSweepTable(own []bench.Record) []report.Table {
	claims := apspSweepClaims(own)
	if len(claims) == 0 || claims[0].Verdict == experiments.NotRun {
		return nil
	}
	t := report.Table{
		Title:  "apsp/systolic — every n from 1 to the sweep's largest: GJE1 with m < n, the wedge, the unidirectional array, the schedule found by search, beside the paper",
		Header: []string{"where", "paper", "simulated", "verdict"},
	}
	for _, c := range claims {
		t.Rows = append(t.Rows, []string{c.Where, c.PaperFigure, c.Ours, c.VerdictText()})
	}
	t.Notes = append(t.Notes,
		"Tracks and period: found by search on one simulated matrix's register use (tracks: the most matrices entering on consecutive steps that never want one register at one step; period: the shortest that keeps a stream on those tracks free of such collisions), then the whole found stream simulated with sGJE's results checked.",
		"Wedge and unidirectional array: our readings of section 6 and of the report cited in section 8 (systolic.Wedge, systolic.Unidirectional say which); the lower bound's proof is not reproduced, only that the arrays meet it.")
	return []report.Table{t}
}

func apspBlockedRows(recs []bench.Record) []int {
	var ns []int
	for _, r := range recs {
		if n, err := strconv.Atoi(r.Params.Get("n")); err == nil && !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	return ns
}

func apspBlockedParams(n int) bench.Params {
	return bench.Params{{Name: "n", Value: strconv.Itoa(n)}, {Name: "semiring", Value: "min-plus float32"}}
}

// apspRate is n³ updates over a phase's time, in units per second (1e9:
// G/s, 1e12: T/s), or "—".
func apspRate(r *bench.Record, phase string, n int, unit float64) string {
	ms := experiments.PhaseMS(r, phase)
	if math.IsNaN(ms) || ms == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", float64(n)*float64(n)*float64(n)/(ms*1e-3)/unit)
}

// apspOfLimit is a rate against a measured limit (same unit), as a
// percentage, or "—".
func apspOfLimit(r *bench.Record, phase string, n int, unit, limit float64) string {
	ms := experiments.PhaseMS(r, phase)
	if math.IsNaN(ms) || ms == 0 || !(limit > 0) {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)*float64(n)*float64(n)/(ms*1e-3)/unit/limit)
}

// apspGPUPath names the path of cuda/fast's products in record g and
// gives its measured limit, as text and in T updates/s: the non-negative
// path where g carries its limit, else the pair.
func apspGPUPath(g *bench.Record) (path, limit string, lim float64) {
	if g.Metrics == nil {
		return "pair", "—", 0
	}
	pair, nonNeg := g.Metrics["gpu_limit_tups"], g.Metrics["gpu_limit_nonneg_tups"]
	switch {
	case nonNeg > 0:
		return "3-way", fmt.Sprintf("%.2f (pair %.2f)", nonNeg, pair), nonNeg
	case pair > 0:
		return "pair", fmt.Sprintf("%.2f", pair), pair
	}
	return "pair", "—", 0
}

func apspBlockedTable(run []bench.Record) []report.Table {
	const exp = "apsp/blocked"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	cpu := report.Table{
		Title:  "apsp/blocked — min-plus float32 closure on the CPU, headline: total: sGJE (the paper's listing, one thread) vs blocked Gauss-Jordan (cpu/fast)",
		Header: []string{"n", "cpu/sgje total ms", "cpu/fast total ms", "cpu/sgje / cpu/fast", "cpu/sgje G updates/s", "cpu/fast G updates/s", "in-cache limit G updates/s", "cpu/fast / limit"},
	}
	gpu := report.Table{
		Title:  "apsp/blocked — min-plus float32 closure on the GPU, headline: total (cuda/fast, blocked Gauss-Jordan over 128×128 blocks) against its measured limit",
		Header: []string{"n", "cuda/fast total ms", "closure ms (events)", "h2d ms", "d2h ms", "end to end ms", "T updates/s (total)", "products", "measured limit T updates/s", "cuda/fast / limit", "cpu/fast total ms", "cpu/fast / cuda/fast (total)", "check"},
	}
	for _, n := range apspBlockedRows(own) {
		p := apspBlockedParams(n)
		s, f, g := rc.Get(exp, "cpu/sgje", p), rc.Get(exp, "cpu/fast", p), rc.Get(exp, "cuda/fast", p)
		if s != nil || f != nil {
			limit, lim := "—", 0.0
			if f != nil && f.Metrics != nil && f.Metrics["limit_gups"] > 0 {
				lim = f.Metrics["limit_gups"]
				limit = fmt.Sprintf("%.1f", lim)
			}
			cpu.Rows = append(cpu.Rows, []string{strconv.Itoa(n), experiments.CellText(s, "total"), experiments.CellText(f, "total"),
				experiments.Ratio(experiments.PhaseMS(s, "total"), experiments.PhaseMS(f, "total")), apspRate(s, "total", n, 1e9), apspRate(f, "total", n, 1e9),
				limit, apspOfLimit(f, "total", n, 1e9, lim)})
		}
		if g != nil {
			path, limit, lim := apspGPUPath(g)
			gpu.Rows = append(gpu.Rows, []string{strconv.Itoa(n), experiments.CellText(g, "total"), experiments.CellText(g, "closure"), experiments.CellText(g, "h2d"), experiments.CellText(g, "d2h"),
				experiments.CellText(g, "end_to_end"), apspRate(g, "total", n, 1e12), path, limit, apspOfLimit(g, "total", n, 1e12, lim),
				experiments.CellText(f, "total"), experiments.Ratio(experiments.PhaseMS(f, "total"), experiments.PhaseMS(g, "total")), checkText(g)})
		}
	}
	cpu.Notes = append(cpu.Notes, "Total is the headline: the host clock around the whole solve (the matrix in memory); rates and ratios are of totals.",
		"An update is one c := c ⊕ a ⊗ b: n³ per closure. Target: cpu/fast at least 8x cpu/sgje at n = 2000 on a 2-core machine.",
		"In-cache limit: cpu/fast's block update on a 64×256 block that stays in cache, on all threads (apsp.PeakMinPlus32), measured with each case.")
	gpu.Notes = append(gpu.Notes, "Total is the headline: the host clock around the solve with the matrix in device memory (padding, every launch, the pivots' check and the unpadding inside; the upload before and the download after it outside). closure: CUDA events around the elimination, a part of total; h2d and d2h: the matrix to and from the device (host clock); end to end: the whole call, matrix in host memory to closure in host memory. Rates and ratios are of totals. Target: at least 10 T updates/s at n = 16384 on an H100.",
		"Products: the path of cuda/fast's products, by its rule: the instance's weights are positive, so it takes the non-negative path (3-way: two updates in two FADDs and one 3-way integer minimum, VIMNMX3) wherever the device has that minimum in one instruction (the record then carries that path's limit), else the pair (one FADD and one FMNMX an update).",
		fmt.Sprintf("Measured limit, of the path taken: a kernel of 16 independent chains per thread on every SM, c := min(c, c + e) (the pair, cudaapsp.PeakMinPlus32) or c := min(c, c + e, c + f) (3-way, cudaapsp.PeakMinPlus32NonNeg), best of five launches; the pair's limit is given beside the 3-way's. Checks: the certificate D = I ⊕ A ⊗ D, on the CPU up to n = %d, above it with A ⊗ D computed on the GPU by cuda/fast's product kernel.", apspCPUCertificateMax))
	var out []report.Table
	for _, t := range []*report.Table{&cpu, &gpu} {
		if len(t.Rows) > 0 {
			t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
			t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
			out = append(out, *t)
		}
	}
	return out
}
