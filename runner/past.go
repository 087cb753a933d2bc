package runner

import (
	"slices"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/stats"
)

// Past is the history of earlier runs the planner reads: the runs of this
// machine kind (label, CPU model, core count, GPU model) at this run's
// scale, from the result files in the tree and in git. The history
// package implements it; nil in Config.Past means no history (a run
// priced and judged alone, --no-history).
type Past interface {
	// Records are the cell's records (key: bench.Record.Key) in earlier
	// runs: the newest run first, and a run's records of the cell (a
	// top-up or refine appends the cell again, its wall the whole cell's
	// so far) in the order the run wrote them, so that each run's first
	// record is its first measurement and its last the cell as the run
	// left it. nil when no earlier run has the cell.
	Records(key string) []bench.Record
	// Between is the claim's figures over the earlier runs of this
	// machine kind; nil with fewer than 3 runs.
	Between(claimID string) *experiments.Between
}

// pastRuns splits a cell's records from Past into runs, the newest first:
// a run's records finish one after another, and the next (older) run's
// first record finished before the last one of the run before it.
func pastRuns(recs []bench.Record) [][]bench.Record {
	var out [][]bench.Record
	for i := range recs {
		if i == 0 || recs[i].Finished.IsZero() || !recs[i].Finished.After(recs[i-1].Finished) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], recs[i])
	}
	return out
}

// wallParts is what one record's wall says of its cell.
type wallParts struct {
	setup, check float64 // the setup it paid (0: none) and its check
	runs         int     // warm-ups and samples
	perRun       float64 // one run's wall, the first run's excess and the looks apart
	first        float64 // the first run's excess over perRun
	looks        float64 // the stopping rules' looks, all of them
}

// partsOf reads a record's wall; false when it has none.
func partsOf(rec *bench.Record) (wallParts, bool) {
	w := rec.Wall
	if w == nil || w.MeasureMS <= 0 || rec.Status != bench.StatusOK && rec.Status != bench.StatusCheckFailed {
		return wallParts{}, false
	}
	samples := experiments.SamplesOf(rec, bench.TotalPhase)
	runs := w.Runs
	if runs <= 0 {
		runs = len(samples) + len(rec.WarmupMS)
	}
	if runs <= 0 {
		return wallParts{}, false
	}
	p := wallParts{setup: w.SetupMS, check: w.CheckMS, runs: runs, looks: w.LooksMS}
	rest := max(0, w.MeasureMS-w.LooksMS)
	switch {
	case w.FirstRunMS > 0 && runs > 1:
		p.first = max(0, w.FirstRunMS-(rest-w.FirstRunMS)/float64(runs-1))
	case w.FirstRunMS == 0 && len(rec.WarmupMS) > 0 && len(samples) > 0:
		// Files before FirstRunMS: a module loaded inside the warm-up's
		// window shows in its total.
		p.first = max(0, rec.WarmupMS[0]-stats.Median(samples))
	}
	p.first = min(p.first, rest)
	p.perRun = (rest - p.first) / float64(runs)
	return p, true
}

// pastCell is a cell's earlier runs on this machine kind, digested.
type pastCell struct {
	runs   int       // earlier runs that measured it
	timed  float64   // the median of the runs' medians of total
	perRun float64   // the median of the runs' wall of one run
	first  float64   // the least first-run excess of the runs' first measurements
	firsts []float64 // each run's first measurement's excess
	check  float64   // the median check of the runs' first measurements
	setups []float64
	// setupBy are the setups the runs' first measurements paid, by run
	// (newest first; 0 where it paid none).
	setupBy []float64
	// source is the cell whose history this is where it is not the
	// cell's own (sourcePast), else empty.
	source string
	// bare: no run had a wall (timedPast), so perRun is the timed median.
	bare bool
}

// digest reads a cell's records in earlier runs (Past.Records): those
// that read work another cell computed when reads is set, else those that
// did all their own (2-domination's Table 3 on two cores computed its
// powers in 20 s in one run and read them in 0.1 ms in the next).
func digest(all []bench.Record, reads bool) *pastCell {
	var recs []bench.Record
	for _, r := range all {
		if (r.ReusedFrom != "") == reads {
			recs = append(recs, r)
		}
	}
	var timed, per, firstPer, checks, setupBy []float64
	var heads []wallParts
	var bare [][]bench.Record
	n := 0
	for _, run := range pastRuns(recs) {
		first, ok := partsOf(&run[0])
		if !ok {
			bare = append(bare, run)
			continue
		}
		n++
		heads = append(heads, first)
		last := &run[len(run)-1]
		if s := experiments.SamplesOf(last, bench.TotalPhase); len(s) > 0 && (last.ReusedFrom != "") == reads {
			timed = append(timed, stats.Median(s))
		}
		firstPer = append(firstPer, first.perRun)
		if lp, ok := partsOf(last); ok {
			per = append(per, lp.perRun)
		}
		checks = append(checks, first.check)
		setupBy = append(setupBy, first.setup)
	}
	if n == 0 {
		return timedPast(bare)
	}
	pc := &pastCell{runs: n, perRun: pickPerRun(per, firstPer), check: stats.Median(checks), setupBy: setupBy}
	// A first measurement's excess over its runs at the cell's least wall
	// of a run: what loading a module cost, also where it happened
	// outside the warm-up's window (2-domination's cuda/v3-gpu: 3.8 s
	// of a measurement of 3.85 s, its warm-up's total 24 ms).
	for _, h := range heads {
		x := max(h.first, float64(h.runs)*h.perRun+h.first-float64(h.runs)*pc.perRun)
		pc.firsts = append(pc.firsts, x)
	}
	pc.first = slices.Min(pc.firsts)
	if len(timed) > 0 {
		pc.timed = stats.Median(timed)
	}
	return pc
}

// timedPast digests a cell's earlier runs whose records have no wall
// (files written before bench.CellWall), used only where none of its runs
// has one: a run's wall is its timed median (a lower bound), its first
// run's excess, setup and check unknown (none); nil when no run was
// measured. On two cores 2-domination's Table 2 by cpu/sparse at m = 10
// had two such runs (17.9 s and 93.8 s a run); without them the 2-core
// run of b3c9c15 priced it at 47 s by a fit, started it with 1.6 minutes
// of its budget left, and the budget's end stopped it after 98 s.
func timedPast(runs [][]bench.Record) *pastCell {
	var timed []float64
	for _, run := range runs {
		last := &run[len(run)-1] // the cell as the run left it
		if s := experiments.SamplesOf(last, bench.TotalPhase); len(s) > 0 && (last.Status == bench.StatusOK || last.Status == bench.StatusCheckFailed) {
			timed = append(timed, stats.Median(s))
		}
	}
	if len(timed) == 0 {
		return nil
	}
	m := stats.Median(timed)
	return &pastCell{runs: len(timed), timed: m, perRun: m, bare: true}
}

// pickPerRun is the history's wall of one run: the least of the runs'
// first measurements and of the cells as each run left them. A run's
// wall drifts up with what happens beside it, seldom down: a module
// loaded (in files without FirstRunMS), the settle rule's looks (in files
// without LooksMS: the H200's top-ups of treefix/fig4's cuda/vectorial
// cells of 2026-12-01, 24 samples of 0.55 ms each with a look of 15 ms,
// put their last records at 13-17 ms a run, their first at 3.3 ms).
func pickPerRun(last, first []float64) float64 {
	return slices.Min(slices.Concat(last, first))
}
