package treefix

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/problems/treefix"
)

func metricText(r *bench.Record, name string, decimals int) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	v, ok := r.Metrics[name]
	if !ok {
		return "—"
	}
	if decimals == 0 {
		return experiments.FormatCount(v)
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// anyRecord returns the first record of the parameters among the impls.
func anyRecord(c experiments.Cells, exp string, p bench.Params, impls ...string) *bench.Record {
	for _, im := range impls {
		if r := c.Get(exp, im, p); r != nil {
			return r
		}
	}
	return nil
}

// treefixPaperByTree returns the paper's records of an experiment by tree
// name; for Table I, rows missing from the paper's tables (paper/*.jsonl)
// come from the same transcription in generators/trees (trees.Table1).
func treefixPaperByTree(exp string) map[string]*bench.Record {
	recs, _ := paperdata.PaperRecords(exp)
	out := map[string]*bench.Record{}
	for i := range recs {
		out[recs[i].Params.Get("tree")] = &recs[i]
	}
	if exp == "treefix/table1" {
		for _, row := range trees.Table1 {
			if out[row.Name] == nil {
				out[row.Name] = &bench.Record{Metrics: map[string]float64{"n": float64(row.N), "depth": float64(row.Depth), "branching": row.Branching}}
			}
		}
	}
	return out
}

func treefixTable1(run []bench.Record) []report.Table {
	const exp = "treefix/table1"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper := treefixPaperByTree(exp)
	rc := experiments.IndexRecords(own)
	t := report.Table{
		Title: "treefix/table1 — benchmark trees (paper: Table I), the CPU build of CSR and the Euler-tour vector, and the GPU build of the Euler tour, ms",
		Header: []string{"tree", "source", "n", "depth", "avg. branching", "paper n", "paper depth", "paper branching",
			"CSR build", "Euler-tour build", "GPU Euler-tour build (total)", "GPU Euler tour (events)"},
	}
	standIn := false
	for _, p := range experiments.DistinctParams(own) {
		r := rc.Get(exp, cpuBuild, p)
		pr := paper[p.Get("tree")]
		if p.Get("source") == srcStandIn {
			standIn = true
		}
		t.Rows = append(t.Rows, []string{p.Get("tree"), p.Get("source"), metricText(r, "n", 0), metricText(r, "depth", 0),
			metricText(r, "branching", 2), metricText(pr, "n", 0), metricText(pr, "depth", 0), metricText(pr, "branching", 2),
			experiments.CellText(r, "csr"), experiments.CellText(r, "euler_tour"), experiments.CellText(rc.Get(exp, cudaBuild, p), bench.TotalPhase),
			experiments.CellText(rc.Get(exp, cudaBuild, p), treefix.PhaseEulerTour)})
	}
	if standIn {
		t.Notes = append(t.Notes, "stand-in: not the paper's tree but a random tree with its depth and average branching factor "+
			"(levels sized by a bell profile; 1/256 of the vertices at quick scale). Put the SuiteSparse matrices in the folder SEMIBENCH_MTX_DIR names for the real trees.")
	}
	t.Notes = append(t.Notes, "Depth counts levels, as Table I's branching factor = n / depth shows (504855/490 = 1030.32).",
		"CPU builds: the host clock over each build. GPU Euler-tour build (total): the host clock around the build with the CSR lists and parent array already on the device (the buffers' allocation, the launches and the synchronisation inside), the vector left there; (events): CUDA events over its launches.")
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

var treefixShort = map[string]string{
	cpuSequential: "sequential", cpuParallel: "parallel", cpuVectorial: "vectorial", cpuVectorialCompensated: "vectorial-comp.",
	cudaParallel: "cuda parallel", cudaVectorial: "cuda vectorial", cudaVectorialCompensated: "cuda vectorial-comp.",
}

// treefixRatios are the ratio columns of the timing tables: parallel and
// compensated against vectorial, on the CPU and on the GPU.
var treefixRatios = []struct{ name, num, den string }{
	{"cpu parallel / vectorial", cpuParallel, cpuVectorial},
	{"cpu compensated / vectorial", cpuVectorialCompensated, cpuVectorial},
	{"cuda parallel / vectorial", cudaParallel, cudaVectorial},
	{"cuda compensated / vectorial", cudaVectorialCompensated, cudaVectorial},
}

// ratioCells returns the treefixRatios of one row's phase (both sides the
// same phase: like for like).
func ratioCells(rc experiments.Cells, exp string, p bench.Params, phase string) []string {
	var out []string
	for _, r := range treefixRatios {
		out = append(out, experiments.Ratio(experiments.PhaseMS(rc.Get(exp, r.num, p), phase), experiments.PhaseMS(rc.Get(exp, r.den, p), phase)))
	}
	return out
}

func ratioHeader(suffix string) []string {
	var out []string
	for _, r := range treefixRatios {
		out = append(out, r.name+suffix)
	}
	return out
}

// timedCells returns one row's cells of phase for every timed
// implementation.
func timedCells(rc experiments.Cells, exp string, p bench.Params, phase string) []string {
	var out []string
	for _, im := range treefixTimedImpls {
		out = append(out, experiments.CellText(rc.Get(exp, im, p), phase))
	}
	return out
}

// timedHeader names the columns of timedCells.
func timedHeader(prefix string) []string {
	var out []string
	for _, im := range treefixTimedImpls {
		out = append(out, prefix+im)
	}
	return out
}

// treefixTotalNote says what the timing tables' figures are.
const treefixTotalNote = "Headline columns (the implementations' names) are total: the host clock around one solve with its input where the paper puts it, every allocation, launch, synchronisation and host step inside. " +
	"For the GPU the tree and weights are already on the device (uploaded before, phase h2d) and the results left there (downloaded after, phase d2h); total includes the GPU's Euler-tour build of the vectorial ones, which the paper does on the host before its transfer. " +
	"For the CPU, total is the whole call (the Euler-tour vector built beforehand, as for the paper's vectorial input). " +
	"'compute' columns are the paper's own computation time: CUDA events over the BFS launch (cuda/parallel) or over write + scan + read (cuda/vectorial*), the host clock over the traversal or over write + scan + read on the CPU; a part of total, never a headline. Ratios compare one figure with the same figure."

func treefixTimesTable(run []bench.Record, exp string) []report.Table {
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	t := report.Table{
		Title:  exp + " — +Rootfix total and the paper's computation time, ms, and the GPU's transfers (paper: Fig. 4a and 4b, GTX670 GPU)",
		Header: []string{"tree", "source", "numbering", "n", "depth"},
	}
	t.Header = append(t.Header, treefixTimedImpls...)
	t.Header = append(t.Header, ratioHeader(" (total)")...)
	t.Header = append(t.Header, timedHeader("compute ")...)
	t.Header = append(t.Header, "h2d cuda/parallel", "h2d cuda/vectorial", "d2h", "GPU Euler tour", "paper parallel computation (GTX670)")
	paper := treefixPaperByTree("treefix/fig4")
	for _, p := range experiments.DistinctParams(own) {
		r := anyRecord(rc, exp, p, treefixTimedImpls...)
		row := []string{p.Get("tree"), p.Get("source"), p.Get("numbering"), metricText(r, "n", 0), metricText(r, "depth", 0)}
		paperMS := ""
		if pr := paper[p.Get("tree")]; pr != nil && pr.Params.Get("n") == p.Get("n") { // same size only
			paperMS = experiments.CellText(pr, treefix.PhaseCompute)
		}
		row = append(row, timedCells(rc, exp, p, bench.TotalPhase)...)
		row = append(row, ratioCells(rc, exp, p, bench.TotalPhase)...)
		row = append(row, timedCells(rc, exp, p, treefix.PhaseCompute)...)
		cv := rc.Get(exp, cudaVectorial, p)
		row = append(row, experiments.CellText(rc.Get(exp, cudaParallel, p), treefix.PhaseH2D), experiments.CellText(cv, treefix.PhaseH2D),
			experiments.CellText(cv, treefix.PhaseD2H), experiments.CellText(cv, treefix.PhaseEulerTour), paperMS)
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, treefixTotalNote)
	t.Notes = append(t.Notes,
		"Paper (text of section IV-A, GTX670): the parallel implementation needs 21 ms on nlpkkt120 (3.54 M vertices) and 12 ms on cage15 (5.15 M); Fig. 4's other values survive only as a figure.",
		"Weights are integers in {-1,0,1} stored as float32 (exact), so every implementation is checked for equality with the int64 reference.",
		"GPU transfers: h2d carries the CSR lists (and for the vectorial ones the parent array, from which the GPU builds the Euler tour, timed apart as the GPU Euler tour, inside total) and the weights; d2h the results; both outside total.")
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

// treefixFig4Tables is Fig. 4's table and, when the run has no cells of
// treefix/fig5 (the same cases), Fig. 5's speedups from Fig. 4's cells.
func treefixFig4Tables(run []bench.Record) []report.Table {
	out := treefixTimesTable(run, "treefix/fig4")
	if len(experiments.OfExperiment(run, "treefix/fig5")) == 0 {
		out = append(out, speedupTable(run, "treefix/fig4")...)
	}
	return out
}

// treefixFig4Plots likewise adds Fig. 5's plot from Fig. 4's cells.
func treefixFig4Plots(run []bench.Record) []report.Plot {
	out := treefixTreePlots(run, "treefix/fig4", false)
	if len(experiments.OfExperiment(run, "treefix/fig5")) == 0 {
		out = append(out, treefixTreePlots(run, "treefix/fig4", true)...)
	}
	return out
}

func treefixSpeedupTable(run []bench.Record) []report.Table { return speedupTable(run, "treefix/fig5") }

// speedupTable renders Fig. 5 from the cells of exp (treefix/fig5, or
// treefix/fig4 whose cases are the same).
func speedupTable(run []bench.Record, exp string) []report.Table {
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	t := report.Table{
		Title:  "treefix/fig5 — +Rootfix speedup over cpu/sequential, by total and by the paper's computation time (paper: Fig. 5, GTX670 GPU over one CPU core, computation time), cells of " + exp,
		Header: []string{"tree", "source", "numbering", "n", "sequential total ms"},
	}
	t.Header = append(t.Header, treefixTimedImpls[1:]...)
	for _, im := range treefixTimedImpls[1:] {
		t.Header = append(t.Header, "compute "+im)
	}
	for _, p := range experiments.DistinctParams(own) {
		seqR := rc.Get(exp, cpuSequential, p)
		r := anyRecord(rc, exp, p, treefixTimedImpls...)
		row := []string{p.Get("tree"), p.Get("source"), p.Get("numbering"), metricText(r, "n", 0), experiments.CellText(seqR, bench.TotalPhase)}
		for _, phase := range []string{bench.TotalPhase, treefix.PhaseCompute} {
			seq := experiments.PhaseMS(seqR, phase)
			for _, im := range treefixTimedImpls[1:] {
				row = append(row, experiments.Ratio(seq, experiments.PhaseMS(rc.Get(exp, im, p), phase)))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, "Speedups divide cpu/sequential's figure by the implementation's same figure: total by total (the headline), compute by compute (the paper's measure).", treefixTotalNote)
	t.Notes = append(t.Notes, fmt.Sprintf("Paper (section IV-A, Fig. 5): counting computation only, the vectorial implementation's speedup is %s on the largest benchmarks (GPU against one CPU core; here against cpu/sequential, one core of this machine).", experiments.CatalogueFigure("treefix/fig5#vectorial-60x")))
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

// treefixTreePlots draws, per tree of Table I (a category: bars, not
// lines), the +Rootfix total of each implementation (or its speedup over
// cpu/sequential), one plot per numbering of the vertices.
func treefixTreePlots(run []bench.Record, exp string, speedup bool) []report.Plot {
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	impls := treefixTimedImpls
	if speedup {
		impls = impls[1:]
	}
	notes := experiments.AvailabilityNotes(own, exp, treefixTimedImpls...)
	var numberings []string
	for _, p := range experiments.DistinctParams(own) {
		if nb := p.Get("numbering"); !slices.Contains(numberings, nb) {
			numberings = append(numberings, nb)
		}
	}
	var out []report.Plot
	for k, nb := range numberings {
		var rows []bench.Params
		for _, p := range experiments.DistinctParams(own) {
			if p.Get("numbering") == nb {
				rows = append(rows, p)
			}
		}
		// By the case's vertex count, from its parameters: a record the
		// budget skipped has no metrics, but its case has its n.
		sizeOf := func(p bench.Params) float64 {
			if n, err := strconv.ParseFloat(p.Get("n"), 64); err == nil {
				return n
			}
			if r := anyRecord(rc, exp, p, treefixTimedImpls...); r != nil {
				return r.Metrics["n"]
			}
			return 0
		}
		sort.SliceStable(rows, func(a, b int) bool { return sizeOf(rows[a]) < sizeOf(rows[b]) })
		pl := report.Plot{Name: "treefix-" + exp[len("treefix/"):],
			Title:  experiments.PlotTitle("+Rootfix total time on the Table I trees ("+nb+" numbering)", Paper.Source+", Fig. 4"),
			XLabel: "tree (by vertex count)", YLabel: "total time (ms)", LogY: true, Notes: notes}
		if speedup {
			pl.Name = "treefix-fig5"
			pl.Title = experiments.PlotTitle("+Rootfix speedup over cpu/sequential, total time by total time ("+nb+" numbering)", Paper.Source+", Fig. 5 (cells of "+exp+")")
			pl.YLabel = "speedup over cpu/sequential (x)"
		}
		if k > 0 {
			pl.Name += "-" + nb
		}
		for _, p := range rows {
			pl.Categories = append(pl.Categories, p.Get("tree"))
		}
		for _, im := range impls {
			s := report.Series{Name: im, Impl: im}
			for i, p := range rows {
				v := experiments.PhaseMS(rc.Get(exp, im, p), bench.TotalPhase)
				if speedup {
					v = experiments.PhaseMS(rc.Get(exp, cpuSequential, p), bench.TotalPhase) / v
				}
				if !math.IsNaN(v) {
					s.X, s.Y = append(s.X, float64(i)), append(s.Y, v)
				}
			}
			if len(s.X) > 0 {
				pl.Series = append(pl.Series, s)
			}
		}
		out = append(out, experiments.PlotsWithNotes(pl)...)
	}
	return out
}

func sortSeries(s *report.Series) {
	idx := make([]int, len(s.X))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.X[idx[a]] < s.X[idx[b]] })
	x, y := make([]float64, len(idx)), make([]float64, len(idx))
	for i, j := range idx {
		x[i], y[i] = s.X[j], s.Y[j]
	}
	s.X, s.Y = x, y
}

func treefixFig7Table(run []bench.Record) []report.Table {
	const exp = "treefix/fig7"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	t := report.Table{
		Title:  "treefix/fig7 — +Rootfix on stars and caterpillars, total and the paper's computation time, ms (paper: Fig. 7, GTX670, computation time)",
		Header: []string{"shape", "n"},
	}
	t.Header = append(t.Header, treefixTimedImpls...)
	t.Header = append(t.Header, ratioHeader(" (total)")...)
	t.Header = append(t.Header, timedHeader("compute ")...)
	t.Header = append(t.Header, ratioHeader(" (compute)")...)
	t.Header = append(t.Header, "paper parallel / vectorial (computation)")
	for _, p := range experiments.DistinctParams(own) {
		row := []string{p.Get("tree"), p.Get("n")}
		row = append(row, timedCells(rc, exp, p, bench.TotalPhase)...)
		row = append(row, ratioCells(rc, exp, p, bench.TotalPhase)...)
		row = append(row, timedCells(rc, exp, p, treefix.PhaseCompute)...)
		row = append(row, ratioCells(rc, exp, p, treefix.PhaseCompute)...)
		paper := ""
		if p.Get("n") == strconv.Itoa(1<<24) {
			paper = fmt.Sprintf("%gx", experiments.PaperValue("treefix/fig7#"+p.Get("tree")))
		}
		row = append(row, paper)
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, treefixTotalNote)
	t.Notes = append(t.Notes, fmt.Sprintf("Paper (section IV-A): the vectorial implementation is %s faster than the parallel one on the star of 2^24 vertices, and on the caterpillar the parallel one is %s slower than the vectorial one (and slower than sequential).",
		fmt.Sprintf("%gx", experiments.PaperValue("treefix/fig7#star")), fmt.Sprintf("%gx", experiments.PaperValue("treefix/fig7#caterpillar"))))
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

func treefixFig7Plots(run []bench.Record) []report.Plot {
	const exp = "treefix/fig7"
	own := experiments.OfExperiment(run, exp)
	rc := experiments.IndexRecords(own)
	var out []report.Plot
	for _, shape := range []string{"star", "caterpillar"} {
		pl := report.Plot{Name: "treefix-fig7-" + shape, Title: experiments.PlotTitle("+Rootfix total time on the "+shape+" vs its vertex count", Paper.Source+", Fig. 7"),
			XLabel: "vertices n", YLabel: "total time (ms)", LogX: true, LogY: true,
			Notes: experiments.AvailabilityNotes(own, exp, treefixTimedImpls...)}
		for _, im := range treefixTimedImpls {
			s := report.Series{Name: im, Impl: im}
			for _, p := range experiments.DistinctParams(own) {
				if p.Get("tree") != shape {
					continue
				}
				if v := experiments.PhaseMS(rc.Get(exp, im, p), bench.TotalPhase); !math.IsNaN(v) {
					n, _ := strconv.Atoi(p.Get("n"))
					s.X, s.Y = append(s.X, float64(n)), append(s.Y, v)
				}
			}
			if len(s.X) > 0 {
				sortSeries(&s)
				pl.Series = append(pl.Series, s)
			}
		}
		out = append(out, experiments.PlotsWithNotes(pl)...)
	}
	return out
}

// accuracyFloor is where an exact result (relative error 0) is drawn on
// the log axis.
const accuracyFloor = 1e-12

type accuracyRow struct {
	chain string
	cond  float64
	errs  map[string]float64
}

func accuracyRows(own []bench.Record, op string) []accuracyRow {
	byChain := map[string]*accuracyRow{}
	var rows []*accuracyRow
	for _, r := range own {
		if r.Params.Get("op") != op || r.Check == nil || (r.Status != bench.StatusOK && r.Status != bench.StatusCheckFailed) {
			continue
		}
		ch := r.Params.Get("chain")
		row := byChain[ch]
		if row == nil {
			row = &accuracyRow{chain: ch, cond: r.Metrics["cond"], errs: map[string]float64{}}
			byChain[ch] = row
			rows = append(rows, row)
		}
		row.errs[r.Impl] = r.Check.MaxErr
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].cond < rows[b].cond })
	out := make([]accuracyRow, len(rows))
	for i, r := range rows {
		out[i] = *r
	}
	return out
}

// extraBits is how many bits more the error of vect is than par's on the
// row's chain, log2(vect's / par's); false when either is missing or exact.
func (r accuracyRow) extraBits(vect, par string) (float64, bool) {
	v, p := r.errs[vect], r.errs[par]
	if v <= 0 || p <= 0 {
		return 0, false
	}
	return math.Log2(v / p), true
}

func errText(m map[string]float64, im string) string {
	v, ok := m[im]
	if !ok {
		return "—"
	}
	return strconv.FormatFloat(v, 'e', 2, 64)
}

func treefixAccuracyTable(run []bench.Record) []report.Table {
	const exp = "treefix/accuracy"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	var out []report.Table
	for _, op := range []string{"rootfix", "leaffix"} {
		rows := accuracyRows(own, op)
		if len(rows) == 0 {
			continue
		}
		t := report.Table{
			Title:  fmt.Sprintf("treefix/accuracy — +%s float32 relative error of the whole chain's sum (chains of %d vertices, GenSum weights)", op[:1]+op[1:], accuracyN),
			Header: []string{"chain", "condition number", "u32·C"},
		}
		for _, im := range treefixTimedImpls {
			t.Header = append(t.Header, treefixShort[im])
		}
		worse, worst := 0, 0.0
		gWorse, gWorst, gRows := 0, 0.0, 0
		for _, r := range rows {
			if c, ok := r.errs[cudaVectorialCompensated]; ok {
				gRows++
				if c > max(r.errs[cudaParallel], treefix.U32) {
					gWorse++
				}
				if bits, ok := r.extraBits(cudaVectorial, cudaParallel); ok {
					gWorst = max(gWorst, bits)
				}
			}
			row := []string{r.chain, strconv.FormatFloat(r.cond, 'e', 2, 64), strconv.FormatFloat(treefix.U32*r.cond, 'e', 2, 64)}
			for _, im := range treefixTimedImpls {
				row = append(row, errText(r.errs, im))
			}
			t.Rows = append(t.Rows, row)
			if c, p := r.errs[cpuVectorialCompensated], r.errs[cpuParallel]; c > max(p, treefix.U32) {
				worse++
			}
			if bits, ok := r.extraBits(cpuVectorial, cpuParallel); ok {
				worst = max(worst, bits)
			}
		}
		t.Notes = append(t.Notes,
			"Paper: the vectorial algorithm reorders and adds operations, which \"may lead to a 2-bit lost in the worst case\" against the parallel one; as a rule of thumb a sum loses up to lg(C) bits.",
			fmt.Sprintf("Here: the vectorial error exceeds the parallel one by at most %.1f bits over these chains; the compensated one is above max(parallel, u32) on %d of %d chains.", worst, worse, len(rows)),
			"Checks: each result against the exact (math/big) sum of the same float32 weights, with each implementation's error model (u32 = 2^-24, rigorous, no term dropped): a recursive sum (cpu/sequential, cpu/parallel, cuda/parallel, and cpu/vectorial's one-part scan, from the root for Rootfix and from the leaf for Leaffix) errs by at most the running bound E_k = (E_{k-1} + u32·|s_k|)/(1-u32) over its exact partial sums s_k, about u32·Σ|s_k|; cuda/vectorial's scan, of evaluation height h <= 64 + 8·tiles of 4096 entries (80 here), by at most γ_h(u32)·Σ|w|; the vectorial Leaffix read adds two roundings, (e_a + e_b + u32·|exact|)/(1-u32) each; the compensated ones use treefix.Bound and cudatreefix.Bound. A result farther from the exact sum than its bound fails, at every condition number (the old a-priori 3·γ_2n·Σ|w| passed a zero result above a condition number of about 280; these bounds reach the result's own magnitude near 10^5).",
			"On a chain, the plain vectorial Rootfix reads a prefix of the same terms in the same order as the traversals (the CPU scan is blocked per goroutine only above 32768 entries), so the Rootfix errors coincide; Leaffix subtracts two prefixes, and there the vectorial error shows.")
		if gRows > 0 {
			t.Notes = append(t.Notes, fmt.Sprintf("GPU: cuda/vectorial's error exceeds cuda/parallel's by at most %.1f bits (its scan sums within tiles, then across them: another order than the chain's); cuda/vectorial-compensated is above max(cuda/parallel, u32) on %d of %d chains.", gWorst, gWorse, gRows))
		}
		t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
		out = append(out, t)
	}
	return out
}

func treefixAccuracyPlots(run []bench.Record) []report.Plot {
	own := experiments.OfExperiment(run, "treefix/accuracy")
	var out []report.Plot
	for _, op := range []string{"rootfix", "leaffix"} {
		rows := accuracyRows(own, op)
		if len(rows) == 0 {
			continue
		}
		pl := report.Plot{Name: "treefix-accuracy-" + op,
			Title:  experiments.PlotTitle(fmt.Sprintf("+%s in float32: relative error of a chain's sum vs its condition number", strings.ToUpper(op[:1])+op[1:]), fmt.Sprintf("%s, accuracy study (chains of %d vertices)", Paper.Source, accuracyN)),
			XLabel: "condition number C of the chain's sum", YLabel: "relative error", LogX: true, LogY: true,
			Notes: append([]string{fmt.Sprintf("one point per chain and implementation; exact results (error 0) are drawn at %g", accuracyFloor)},
				experiments.AvailabilityNotes(own, "treefix/accuracy", treefixTimedImpls...)...)}
		ref := report.Series{Name: "u32·C (rule of thumb)", Impl: "reference"}
		// A line, not a point per chain: its ends and its bend at 10.
		lo, hi := rows[0].cond, rows[len(rows)-1].cond
		for _, c := range []float64{lo, min(max(10/treefix.U32, lo), hi), hi} {
			if len(ref.X) == 0 || c > ref.X[len(ref.X)-1] {
				ref.X, ref.Y = append(ref.X, c), append(ref.Y, min(treefix.U32*c, 10))
			}
		}
		pl.Series = append(pl.Series, ref)
		pl.Notes = append(pl.Notes, fmt.Sprintf("the rule of thumb u32·C is drawn flat at 10 beyond C = 10/u32 = %.2g: a relative error above 1 already leaves no correct bit, so the bound says nothing more there", 10/treefix.U32))
		pl.Notes = append(pl.Notes, coincidingNotes(rows, treefixTimedImpls)...)
		for _, im := range treefixTimedImpls {
			s := report.Series{Name: im, Impl: im, Points: true}
			for _, r := range rows {
				if v, ok := r.errs[im]; ok {
					s.X, s.Y = append(s.X, r.cond), append(s.Y, max(v, accuracyFloor))
				}
			}
			if len(s.X) > 0 {
				pl.Series = append(pl.Series, s)
			}
		}
		out = append(out, pl)
	}
	return out
}

// coincidingNotes names the implementations whose errors are the same at
// every chain (each marker drawn over the others: distinct markers keep
// them visible, and the note says they coincide).
func coincidingNotes(rows []accuracyRow, impls []string) []string {
	same := func(a, b string) bool {
		n := 0
		for _, r := range rows {
			va, oka := r.errs[a]
			vb, okb := r.errs[b]
			if oka != okb || va != vb {
				return false
			}
			if oka {
				n++
			}
		}
		return n > 0
	}
	var notes []string
	done := map[string]bool{}
	for i, a := range impls {
		if done[a] {
			continue
		}
		group := []string{a}
		for _, b := range impls[i+1:] {
			if !done[b] && same(a, b) {
				group = append(group, b)
				done[b] = true
			}
		}
		if len(group) > 1 {
			notes = append(notes, strings.Join(group, ", ")+": the same error at every chain, their markers drawn over one another")
		}
	}
	return notes
}
