package hungarian

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/lap"
)

// The CUDA side of the Hungarian paper: the GPU solvers, Tables 2-4 and
// Fig. 6 (each an experiment of its own that, run alone, measures just what
// it needs; in a run that has hungarian/table1 they are also rendered from
// table1's cells, so one measurement feeds every table), and the plots of
// Figs. 6, 7 and 9-12.

// runHungarian runs one named implementation, CPU or CUDA (impls.LAP), on
// m; a CUDA one without a driver or device is unavailable.
func runHungarian(ctx context.Context, impl string, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, error) {
	im, err := impls.LAP.Lookup(impl)
	if err != nil {
		return nil, fmt.Errorf("%w: implementation %s is not built into this binary", experiments.ErrUnavailable, impl)
	}
	res, err := im.Solve(ctx, m, rec)
	return res, experiments.MarkUnavailable(err)
}

// hungarianDerived are the experiments rendered from hungarian/table1's
// cells when a run has none of their own.
var hungarianDerived = []string{"hungarian/table2", "hungarian/table3", "hungarian/table4", "hungarian/fig6"}

// hungarianView returns the records of exp in run, or, when there are none,
// hungarian/table1's relabelled as exp; the peers' records (hungarianPeers)
// are left out: tables that show them look for them in the whole run.
func hungarianView(run []bench.Record, exp string) []bench.Record {
	if own := hungarianOwn(run, exp); len(own) > 0 {
		return own
	}
	var out []bench.Record
	for _, r := range hungarianOwn(run, "hungarian/table1") {
		r.Experiment = exp
		out = append(out, r)
	}
	return out
}

// hungarianOwn returns the records of exp in run that are semibench's own
// (not a peer's).
func hungarianOwn(run []bench.Record, exp string) []bench.Record {
	var out []bench.Record
	for _, r := range experiments.OfExperiment(run, exp) {
		if !strings.HasPrefix(r.Impl, hungarianPeerPrefix) {
			out = append(out, r)
		}
	}
	return out
}

// hungarianMS is an implementation's time as every Hungarian table and plot
// compares it: its total, the host clock around the solve with the matrix
// already on the device (CUDA) or in memory (CPU), every allocation, launch,
// synchronisation and host step of the solve inside.
func hungarianMS(r *bench.Record) float64 { return experiments.PhaseMS(r, bench.TotalPhase) }

// hungarianText renders a record's total, or its status.
func hungarianText(r *bench.Record) string { return experiments.CellText(r, bench.TotalPhase) }

// The published codes the paper's CUDA columns are compared with, measured
// by the peer scripts (results/peers/README.md) on the user's machine: their records are experiment
// hungarian/table1's, with hungarianParams, under these names.
const (
	hungarianPeerPrefix = "peer/"
	// PeerHungarianGPU is paclopes/HungarianGPU (the paper's code) as
	// published.
	PeerHungarianGPU = "peer/hungariangpu"
	// PeerHungarianGPUPlain is its build with plain device scalars.
	PeerHungarianGPUPlain = "peer/hungariangpu-plain"
	// PeerHyLAC is HyLAC (Kawtikwar and Nagi, JPDC 2024).
	PeerHyLAC = "peer/hylac"
	// hungarianPeerExp is the experiment the peers' records carry.
	hungarianPeerExp = "hungarian/table1"
)

// hungarianPeers indexes the peers' records of run, whatever experiment the
// table being rendered is for.
func hungarianPeers(run []bench.Record) experiments.Cells {
	var peers []bench.Record
	for _, r := range run {
		if r.Experiment == hungarianPeerExp && strings.HasPrefix(r.Impl, hungarianPeerPrefix) {
			peers = append(peers, r)
		}
	}
	return experiments.IndexRecords(peers)
}

// peerNotRun is a peer's cell when its result file is not among the records.
const peerNotRun = "not run (results/peers)"

// peerText renders a peer's phase, or peerNotRun when the peer has no
// record for the cell.
func peerText(r *bench.Record, phase string) string {
	if r == nil {
		return peerNotRun
	}
	return experiments.CellText(r, phase)
}

// hungarianCasesFor lists the table1 cells at a scale (ranges restricted
// when ranges is not nil) with the given implementations.
func hungarianCasesFor(s experiments.Scale, o experiments.Options, ranges []string, impls []string) []experiments.Case {
	if ranges == nil {
		ranges = lapcost.PaperRanges
	}
	var cs []experiments.Case
	for _, n := range hungarianNs(s) {
		for _, r := range ranges {
			cs = append(cs, hungarianCase(n, r, o, impls))
		}
	}
	return cs
}

// registerHungarianCUDA registers these experiments.
func registerHungarianCUDA() {
	experiments.Register(&experiments.Experiment{
		Name:        "hungarian/table2",
		Headline:    []string{"cuda/*", "cpu/jv"},
		MeasuredBy:  "hungarian/table1",
		Paper:       Paper.File,
		Description: "LAP speedups CPU / CUDA vs n and cost range (paper's Table 2, Fig. 9)",
		Statistic:   bench.StatMedian,
		Work:        hungarianCellWork,
		Impls:       []string{"cpu/paper", "cpu/jv", "cuda/paper", "cuda/fast"},
		NsPerWork:   hungarianNsPerWork,
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			return hungarianCasesFor(s, o, nil, nil)
		},
		Tables: func(run []bench.Record) []report.Table {
			return hungarianTable2(hungarianView(run, "hungarian/table2"))
		},
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(hungarianTable2Claims(run), hungarianSpeedupGrowsClaim(run))
		},
		Needs: hungarianTable2Needs,
		Plots: func(run []bench.Record) []report.Plot {
			return hungarianSpeedupPlots(hungarianView(run, "hungarian/table2"))
		},
	})
	experiments.Register(&experiments.Experiment{
		Name:        "hungarian/table3",
		Headline:    []string{"cuda/paper", "cpu/paper"},
		MeasuredBy:  "hungarian/table1",
		Paper:       Paper.File,
		Description: "LAP per-step speedups cpu/paper / cuda/paper at range n (paper's Table 3)",
		Statistic:   bench.StatMedian,
		Work:        hungarianCellWork,
		Impls:       []string{"cpu/paper", "cuda/paper"},
		NsPerWork:   hungarianNsPerWork,
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			return hungarianCasesFor(s, o, []string{"n"}, nil)
		},
		Tables: func(run []bench.Record) []report.Table {
			return hungarianTable3(hungarianView(run, "hungarian/table3"))
		},
		Claims: hungarianTable3Claims,
		Needs:  hungarianTable3Needs,
		Plots: func(run []bench.Record) []report.Plot {
			return hungarianStepPlots(hungarianView(run, "hungarian/table3"))
		},
	})
	experiments.Register(&experiments.Experiment{
		Name:        "hungarian/table4",
		Headline:    []string{"cuda/*"},
		MeasuredBy:  "hungarian/table1",
		Paper:       Paper.File,
		Description: "LAP CUDA run times beside the paper's Tesla K20c and GTX 970 and the published codes (HungarianGPU, HyLAC) measured on the same machine (results/peers; paper's Table 4)",
		Statistic:   bench.StatMedian,
		Work:        hungarianCellWork,
		Impls:       []string{"cuda/paper", "cuda/fast"},
		NsPerWork:   hungarianNsPerWork,
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			return hungarianCasesFor(s, o, nil, nil)
		},
		Tables: func(run []bench.Record) []report.Table {
			return hungarianTable4(hungarianView(run, "hungarian/table4"), run)
		},
		Claims: func(run []bench.Record) []experiments.Claim { return []experiments.Claim{hungarianK20cClaim(run)} },
		Needs:  hungarianTable4Needs,
		Plots: func(run []bench.Record) []report.Plot {
			return hungarianCUDAPlots(hungarianView(run, "hungarian/table4"))
		},
	})
	experiments.Register(&experiments.Experiment{
		Name:        "hungarian/fig6",
		Headline:    []string{"cuda/*"},
		MeasuredBy:  "hungarian/table1",
		Paper:       Paper.File,
		Description: "CUDA O(n^3) Hungarian's time divided by the CUDA O(n^4) Hungarian's, vs n, three ranges (paper's Fig. 6)",
		Statistic:   bench.StatMedian,
		Work:        hungarianCellWork,
		Impls:       []string{"cuda/paper", "cuda/hungarian-n3"},
		NsPerWork:   hungarianNsPerWork,
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			return hungarianCasesFor(s, o, nil, nil)
		},
		Tables: func(run []bench.Record) []report.Table { return hungarianFig6(hungarianView(run, "hungarian/fig6")) },
		Claims: hungarianFig6Claims,
		Needs:  hungarianFig6Needs,
		Plots: func(run []bench.Record) []report.Plot {
			return hungarianFig6Plots(hungarianView(run, "hungarian/fig6"))
		},
	})
}

// hungarianDerivedTables renders the derived experiments from table1's
// cells, for those with no records of their own in run.
func hungarianDerivedTables(run []bench.Record) []report.Table {
	var out []report.Table
	for _, name := range hungarianDerived {
		if len(experiments.OfExperiment(run, name)) > 0 {
			continue
		}
		out = append(out, experiments.ByName(name).Tables(run)...)
	}
	return out
}

// hungarianDerivedPlots is hungarianDerivedTables for the plots.
func hungarianDerivedPlots(run []bench.Record) []report.Plot {
	var out []report.Plot
	for _, name := range hungarianDerived {
		if len(experiments.OfExperiment(run, name)) > 0 {
			continue
		}
		out = append(out, experiments.ByName(name).Plots(run)...)
	}
	return out
}

// hungarianTable2 renders the speedups beside the paper's Table 2.
func hungarianTable2(own []bench.Record) []report.Table {
	const exp = "hungarian/table2"
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := experiments.IndexRecords(paper), experiments.IndexRecords(own)
	t := report.Table{
		Title:  "hungarian/table2 — speedup CPU total / CUDA total (paper: Table 2, i7-6700K / GTX 970)",
		Header: []string{"n", "range", "paper", "cpu/paper / cuda/paper", "cpu/paper / cuda/fast", "cpu/jv / cuda/fast"},
	}
	for _, c := range hungarianCells(own) {
		p := hungarianParams(c.n, c.r)
		ps := math.NaN()
		if r := pc.Get(exp, "cuda/paper", p); r != nil {
			if v, ok := r.Metrics["speedup"]; ok {
				ps = v
			}
		}
		slow, jv := hungarianMS(rc.Get(exp, "cpu/paper", p)), hungarianMS(rc.Get(exp, "cpu/jv", p))
		gp, gf := hungarianMS(rc.Get(exp, "cuda/paper", p)), hungarianMS(rc.Get(exp, "cuda/fast", p))
		paperText := "—"
		if !math.IsNaN(ps) {
			paperText = report.FormatRatio(ps)
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(c.n), c.r, paperText, experiments.Ratio(slow, gp), experiments.Ratio(slow, gf), experiments.Ratio(jv, gf)})
	}
	t.Notes = append(t.Notes,
		"total on both sides: the host clock around the solve, the matrix in memory (CPU) or already on the device (CUDA, as the paper times it), every allocation, launch, synchronisation and host step inside; the CUDA upload and download are in end_to_end, kept in the result files.",
		"cpu/jv / cuda/fast compares the fastest exact solvers of each side; the paper compares its O(n^4) algorithm on both.",
		experiments.CheckSummary(own, exp))
	return []report.Table{t}
}

// hungarianTable3 renders the per-step speedups at range n beside the
// paper's Table 3: a row of the paper's and a row of ours per n.
func hungarianTable3(own []bench.Record) []report.Table {
	const exp = "hungarian/table3"
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := experiments.IndexRecords(paper), experiments.IndexRecords(own)
	steps := lap.PaperSteps[1:] // step1..step6
	t := report.Table{
		Title:  "hungarian/table3 — speedup per step, cpu/paper / cuda/paper, range n; global: total / total (paper: Table 3)",
		Header: append(append([]string{"n", "source"}, steps...), "global"),
	}
	for _, c := range hungarianCells(own) {
		if c.r != "n" {
			continue
		}
		p := hungarianParams(c.n, c.r)
		if r := pc.Get(exp, "cuda/paper", p); r != nil {
			row := []string{strconv.Itoa(c.n), "paper (i7-6700K / GTX 970)"}
			for _, s := range steps {
				row = append(row, metricRatio(r, "speedup_"+s))
			}
			t.Rows = append(t.Rows, append(row, metricRatio(r, "speedup")))
		}
		cpu, gpu := rc.Get(exp, "cpu/paper", p), rc.Get(exp, "cuda/paper", p)
		row := []string{strconv.Itoa(c.n), "ours (cpu/paper / cuda/paper)"}
		for _, s := range steps {
			row = append(row, experiments.Ratio(experiments.PhaseMS(cpu, s), experiments.PhaseMS(gpu, s)))
		}
		t.Rows = append(t.Rows, append(row, experiments.Ratio(hungarianMS(cpu), hungarianMS(gpu))))
	}
	t.Notes = append(t.Notes,
		"Each step's time is summed over the run (every call of the step): host clock for cpu/paper, CUDA events for cuda/paper. global is total over total (host clock, cuda/paper with the matrix on the device): cuda/paper's init (the slack matrix built on the device) is in its total, as cpu/paper's init is in its.",
		"— where a step never ran (ratio of zero times) or a cell is missing.",
		experiments.CheckSummary(own, exp))
	return []report.Table{t}
}

func metricRatio(r *bench.Record, key string) string {
	if v, ok := r.Metrics[key]; ok {
		return report.FormatRatio(v)
	}
	return "—"
}

// hungarianTable4 renders the CUDA times beside the paper's Tesla K20c
// (Table 4) and GTX 970 (Table 1), and beside the published codes measured
// by the peer scripts (their records, found in run: hungarianPeers).
func hungarianTable4(own, run []bench.Record) []report.Table {
	const exp = "hungarian/table4"
	if len(own) == 0 {
		return nil
	}
	k20, _ := paperdata.PaperRecords(exp)
	gtx, _ := paperdata.PaperRecords("hungarian/table1")
	kc, gc, rc, pc := experiments.IndexRecords(k20), experiments.IndexRecords(gtx), experiments.IndexRecords(own), hungarianPeers(run)
	t := report.Table{
		Title: "hungarian/table4 — CUDA run times, ms: total (matrix on the device, host clock) and end_to_end (host memory to host memory), beside the paper's Tesla K20c (Table 4) and GTX 970 (Table 1) and the published codes on this machine",
		Header: []string{"n", "range", "paper K20c", "paper GTX 970",
			"HungarianGPU published, total", "HungarianGPU plain, total", "HyLAC, total", "HyLAC, end_to_end",
			"cuda/paper, total", "cuda/fast, total", "cuda/fast, end_to_end",
			"K20c / cuda/paper", "HungarianGPU plain / cuda/fast (total)", "HyLAC / cuda/fast (end_to_end)"},
	}
	peers := []string{PeerHungarianGPU, PeerHungarianGPUPlain, PeerHyLAC}
	missing := map[string]bool{}
	// cells measured on both sides, those where cuda/fast is slower, and
	// those where it is at least 3x faster (issue 35's target)
	var plainCells, plainSlower, plainThrice, hylacCells, hylacSlower, hylacThrice int
	for _, c := range hungarianCells(own) {
		p := hungarianParams(c.n, c.r)
		k, g := kc.Get(exp, "cuda/paper", p), gc.Get("hungarian/table1", "cuda/paper", p)
		gp, gf := rc.Get(exp, "cuda/paper", p), rc.Get(exp, "cuda/fast", p)
		pub, plain, hylac := pc.Get(hungarianPeerExp, PeerHungarianGPU, p), pc.Get(hungarianPeerExp, PeerHungarianGPUPlain, p), pc.Get(hungarianPeerExp, PeerHyLAC, p)
		for i, r := range []*bench.Record{pub, plain, hylac} {
			if r == nil {
				missing[peers[i]] = true
			}
		}
		fTotal, fE2E := experiments.PhaseMS(gf, bench.TotalPhase), experiments.PhaseMS(gf, bench.EndToEndPhase)
		plainRatio, hylacRatio := experiments.PhaseMS(plain, bench.TotalPhase)/fTotal, experiments.PhaseMS(hylac, bench.EndToEndPhase)/fE2E
		if !math.IsNaN(plainRatio) && !math.IsInf(plainRatio, 0) {
			plainCells++
			if plainRatio < 1 {
				plainSlower++
			}
			if plainRatio >= 3 {
				plainThrice++
			}
		}
		if !math.IsNaN(hylacRatio) && !math.IsInf(hylacRatio, 0) {
			hylacCells++
			if hylacRatio < 1 {
				hylacSlower++
			}
			if hylacRatio >= 3 {
				hylacThrice++
			}
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(c.n), c.r, experiments.CellText(k, "total"), experiments.CellText(g, "total"),
			peerText(pub, bench.TotalPhase), peerText(plain, bench.TotalPhase), peerText(hylac, bench.TotalPhase), peerText(hylac, bench.EndToEndPhase),
			hungarianText(gp), hungarianText(gf), experiments.CellText(gf, bench.EndToEndPhase),
			experiments.Ratio(experiments.PhaseMS(k, "total"), hungarianMS(gp)),
			experiments.Ratio(experiments.PhaseMS(plain, bench.TotalPhase), fTotal), experiments.Ratio(experiments.PhaseMS(hylac, bench.EndToEndPhase), fE2E)})
	}
	t.Notes = append(t.Notes,
		"Ours: total is the host clock around the solve with the matrix already on the device (every allocation, launch, synchronisation and host step of the solve inside; the answer left on the device); end_to_end adds the upload (cuda/paper: the costs scanned, then converted to int32 on the host and copied; cuda/fast from commit 5e9b1cb: checked and converted in one pass, to int16 chunks where they fit, widened on the device, while the previous chunk is copied) and the download. The paper's K20c and GTX 970 times are its own, with the matrix on the device.",
		"The published codes are measured on the same machine by the peer scripts of results/peers/README.md and read from their result files (experiment hungarian/table1, same n and range): HungarianGPU is paclopes/HungarianGPU (the paper's code), as published and built with plain device scalars, its solve timed by the host clock with the matrix on the device (total); HyLAC is Kawtikwar and Nagi's (JPDC 2024), total and end_to_end as its script records them. Render them with `semibench table run.jsonl results/peers/<machine>/*.jsonl --merge`.",
		fmt.Sprintf("Ratios are the peer's time over cuda/fast's: above 1 cuda/fast is faster, below 1 it is slower. cuda/fast is slower than HungarianGPU plain (total) in %d of %d cells measured on both sides and at least 3x faster in %d; slower than HyLAC (end_to_end) in %d of %d and at least 3x faster in %d.", plainSlower, plainCells, plainThrice, hylacSlower, hylacCells, hylacThrice))
	var absent []string
	for _, name := range peers {
		if missing[name] {
			absent = append(absent, name)
		}
	}
	if len(absent) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%s: no record of %s among the records given for some cells; measure it on this machine as results/peers/README.md says and merge its result file.", peerNotRun, strings.Join(absent, ", ")))
	}
	t.Notes = append(t.Notes, experiments.CheckSummary(own, exp))
	return []report.Table{t}
}

// hungarianFig6 renders cuda/hungarian-n3's time over cuda/paper's.
func hungarianFig6(own []bench.Record) []report.Table {
	const exp = "hungarian/fig6"
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	t := report.Table{
		Title:  "hungarian/fig6 — CUDA O(n^3) Hungarian / CUDA O(n^4) Hungarian, total (paper: Fig. 6)",
		Header: []string{"n", "range", "cuda/paper (O(n^4)), total ms", "cuda/hungarian-n3, total ms", "cuda/hungarian-n3 / cuda/paper"},
	}
	for _, c := range hungarianCells(own) {
		p := hungarianParams(c.n, c.r)
		a, b := rc.Get(exp, "cuda/paper", p), rc.Get(exp, "cuda/hungarian-n3", p)
		t.Rows = append(t.Rows, []string{strconv.Itoa(c.n), c.r, hungarianText(a), hungarianText(b), experiments.Ratio(hungarianMS(b), hungarianMS(a))})
	}
	t.Notes = append(t.Notes,
		"The paper (Fig. 6): its O(n^4) CUDA algorithm is faster than its O(n^3) one on these matrices 'by a factor of more than about two' (ratios above 2). total: the host clock around the solve with the matrix on the device; the transfers are in end_to_end.",
		experiments.CheckSummary(own, exp))
	return []report.Table{t}
}

// hungarianSeries collects one implementation's value per n at range r.
func hungarianSeries(name string, cells []hungarianCell, r string, val func(p bench.Params) float64) report.Series {
	s := report.Series{Name: name, Group: "cost range " + r}
	for _, c := range cells {
		if c.r != r {
			continue
		}
		if v := val(hungarianParams(c.n, c.r)); !math.IsNaN(v) && v > 0 {
			s.X, s.Y = append(s.X, float64(c.n)), append(s.Y, v)
		}
	}
	return s
}

// hungarianCUDAPlots draws Fig. 7: CUDA run times vs n per range, the
// paper's GTX 970 beside cuda/paper and cuda/fast.
func hungarianCUDAPlots(own []bench.Record) []report.Plot {
	if len(own) == 0 {
		return nil
	}
	exp := own[0].Experiment
	gtx, _ := paperdata.PaperRecords("hungarian/table1")
	gc, rc := experiments.IndexRecords(gtx), experiments.IndexRecords(own)
	cells := hungarianCells(own)
	pl := report.Plot{Name: "hungarian-fig7", Title: experiments.PlotTitle("CUDA total time vs matrix size, per cost range", Paper.Source+", Fig. 7"), XLabel: "matrix size n",
		YLabel: "total time (ms)", LogX: true, LogY: true,
		Notes: append([]string{"total: the cost matrix already in device memory, the answer left there (host clock)"},
			experiments.AvailabilityNotes(own, exp, "cuda/paper", "cuda/fast")...)}
	for _, r := range lapcost.PaperRanges {
		experiments.AppendSeries(&pl,
			experiments.ImplSeries(hungarianSeries("paper's GTX 970 (its CUDA code)", cells, r, func(p bench.Params) float64 {
				return experiments.PhaseMS(gc.Get("hungarian/table1", "cuda/paper", p), "total")
			}), "cuda/paper", true),
			experiments.ImplSeries(hungarianSeries("cuda/paper (its port)", cells, r, func(p bench.Params) float64 { return hungarianMS(rc.Get(exp, "cuda/paper", p)) }), "cuda/paper", false),
			experiments.ImplSeries(hungarianSeries("cuda/fast", cells, r, func(p bench.Params) float64 { return hungarianMS(rc.Get(exp, "cuda/fast", p)) }), "cuda/fast", false))
	}
	return experiments.PlotsWithNotes(pl)
}

// hungarianSpeedupPlots draws Fig. 9: CPU / CUDA speedup vs n per range.
func hungarianSpeedupPlots(own []bench.Record) []report.Plot {
	if len(own) == 0 {
		return nil
	}
	exp := own[0].Experiment
	paper, _ := paperdata.PaperRecords("hungarian/table2")
	pc, rc := experiments.IndexRecords(paper), experiments.IndexRecords(own)
	cells := hungarianCells(own)
	pl := report.Plot{Name: "hungarian-fig9", Title: experiments.PlotTitle("speedup of CUDA over CPU (CPU total time / CUDA total time), per cost range", Paper.Source+", Fig. 9"),
		XLabel: "matrix size n", YLabel: "speedup (x)", LogX: true, LogY: true,
		Notes: experiments.AvailabilityNotes(own, exp, "cpu/paper", "cpu/jv", "cuda/paper", "cuda/fast")}
	ratio := func(cpu, gpu string) func(p bench.Params) float64 {
		return func(p bench.Params) float64 {
			return hungarianMS(rc.Get(exp, cpu, p)) / hungarianMS(rc.Get(exp, gpu, p))
		}
	}
	for _, r := range lapcost.PaperRanges {
		experiments.AppendSeries(&pl,
			experiments.ImplSeries(hungarianSeries("paper's GTX 970 over i7-6700K", cells, r, func(p bench.Params) float64 {
				if rec := pc.Get("hungarian/table2", "cuda/paper", p); rec != nil {
					if v, ok := rec.Metrics["speedup"]; ok {
						return v
					}
				}
				return math.NaN()
			}), "cuda/paper", true),
			experiments.ImplSeries(hungarianSeries("cpu/paper / cuda/paper", cells, r, ratio("cpu/paper", "cuda/paper")), "cuda/paper", false),
			experiments.ImplSeries(hungarianSeries("cpu/jv / cuda/fast", cells, r, ratio("cpu/jv", "cuda/fast")), "cuda/fast", false))
	}
	return experiments.PlotsWithNotes(pl)
}

// hungarianStepPlots draws Figs. 10-12: cuda/paper's relative step times
// stacked per n, one figure per range present.
func hungarianStepPlots(own []bench.Record) []report.Plot {
	if len(own) == 0 {
		return nil
	}
	exp := own[0].Experiment
	rc := experiments.IndexRecords(own)
	cells := hungarianCells(own)
	var out []report.Plot
	for k, r := range lapcost.PaperRanges {
		pl := report.Plot{Name: "hungarian-fig" + strconv.Itoa(10+k), Title: experiments.PlotTitle("cuda/paper's steps, share of their summed device time, cost range "+r, Paper.Source+", Fig. "+strconv.Itoa(10+k)),
			XLabel: "matrix size n", YLabel: "share of the summed device step times"}
		if pl, ok := stepSharePlot(pl, rc, exp, "cuda/paper", r, cells); ok {
			out = append(out, pl)
		}
	}
	return out
}

// hungarianFig6Plots draws Fig. 6: cuda/hungarian-n3 / cuda/paper vs n.
func hungarianFig6Plots(own []bench.Record) []report.Plot {
	if len(own) == 0 {
		return nil
	}
	exp := own[0].Experiment
	rc := experiments.IndexRecords(own)
	cells := hungarianCells(own)
	pl := report.Plot{Name: "hungarian-fig6", Title: experiments.PlotTitle("CUDA O(n^3) Hungarian's total time / CUDA O(n^4) Hungarian's, per cost range", Paper.Source+", Fig. 6"), XLabel: "matrix size n",
		Notes:  experiments.AvailabilityNotes(own, exp, "cuda/hungarian-n3", "cuda/paper"),
		YLabel: "time / cuda/paper time", LogX: true, LogY: true}
	for _, r := range lapcost.PaperRanges {
		experiments.AppendSeries(&pl, experiments.ImplSeries(hungarianSeries("cuda/hungarian-n3 / cuda/paper", cells, r, func(p bench.Params) float64 {
			return hungarianMS(rc.Get(exp, "cuda/hungarian-n3", p)) / hungarianMS(rc.Get(exp, "cuda/paper", p))
		}), "cuda/hungarian-n3", false))
	}
	return experiments.PlotsWithNotes(pl)
}

// hungarianTable2Claims gives Table 2's speedups, CPU O(n^4) total / CUDA
// O(n^4) total, one claim per range, at the largest n where both of ours
// ran (the paper's largest, 8192, when neither did).
func hungarianTable2Claims(run []bench.Record) []experiments.Claim {
	const exp = "hungarian/table2"
	own := hungarianView(run, exp)
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := experiments.IndexRecords(paper), experiments.IndexRecords(own)
	cells := hungarianCells(paper)
	var out []experiments.Claim
	for _, r := range lapcost.PaperRanges {
		c := experiments.Claim{ID: exp + "#speedup-" + r, Where: "Table 2",
			Text: fmt.Sprintf("The speedup CPU / CUDA of the paper's O(n^4) algorithm at range %s: ours is cpu/paper / cuda/paper at the largest n where both ran. %s", r, experiments.RatioRule(experiments.HigherBetter))}
		var last hungarianCell
		found := false
		for _, hc := range cells {
			if hc.r != r {
				continue
			}
			last = hc
			p := hungarianParams(hc.n, r)
			if experiments.OKCells(experiments.CellOf(rc, exp, "cpu/paper", p), experiments.CellOf(rc, exp, "cuda/paper", p)) {
				found = true
				break
			}
		}
		for i := len(cells) - 1; i >= 0 && found; i-- {
			hc := cells[i]
			p := hungarianParams(hc.n, r)
			if hc.r == r && experiments.OKCells(experiments.CellOf(rc, exp, "cpu/paper", p), experiments.CellOf(rc, exp, "cuda/paper", p)) {
				last = hc
				break
			}
		}
		p := hungarianParams(last.n, r)
		ps := math.NaN()
		if pr := pc.Get(exp, "cuda/paper", p); pr != nil && pr.Metrics != nil {
			if v, ok := pr.Metrics["speedup"]; ok {
				ps = v
			}
		}
		c.PaperFigure = fmt.Sprintf("%s at n = %d", experiments.Ratio(ps, 1), last.n)
		if !found {
			out = append(out, c.NotRunFor(experiments.CellOf(rc, exp, "cpu/paper", p), experiments.CellOf(rc, exp, "cuda/paper", p)))
			continue
		}
		ours := hungarianMS(rc.Get(exp, "cpu/paper", p)) / hungarianMS(rc.Get(exp, "cuda/paper", p))
		c, band := c.JudgeRatio(ps, ours, experiments.HigherBetter, experiments.UnitRatio)
		c.Ours = fmt.Sprintf("%s at n = %d, %s", report.FormatRatio(ours), last.n, band)
		out = append(out, c)
	}
	return out
}

// hungarianFig6Claims gives Fig. 6's claim: the O(n^4) CUDA algorithm is
// faster than the O(n^3) one "by a factor of more than about two".
func hungarianFig6Claims(run []bench.Record) []experiments.Claim {
	const exp = "hungarian/fig6"
	about := experiments.PaperValue(exp + "#n4-over-n3") // experiments/hungarian/paper/claims.json
	floor := experiments.TolLow(exp + "#n4-over-n3")     // "more than about": the catalogue's reading of it
	own := hungarianView(run, exp)
	rc := experiments.IndexRecords(own)
	c := experiments.Claim{ID: exp + "#n4-over-n3", Where: "Fig. 6",
		Text:        fmt.Sprintf("The O(n^4) CUDA Hungarian is faster than the O(n^3) CUDA one by more than about %g: ours is the smallest cuda/hungarian-n3 / cuda/paper over the cells where both ran. Reproduced when it is at least %g.", about, floor),
		PaperFigure: experiments.CatalogueFigure(exp + "#n4-over-n3")}
	least, where, count := math.Inf(1), "", 0
	var cells []experiments.ClaimCell
	for _, hc := range hungarianCells(own) {
		p := hungarianParams(hc.n, hc.r)
		a, b := experiments.CellOf(rc, exp, "cuda/paper", p), experiments.CellOf(rc, exp, "cuda/hungarian-n3", p)
		cells = append(cells, a, b)
		if !experiments.OKCells(a, b) {
			continue
		}
		count++
		if v := hungarianMS(b.Rec) / hungarianMS(a.Rec); v < least {
			least, where = v, p.String()
		}
	}
	if count == 0 {
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{{Rec: nil, Impl: "cuda/paper", Params: nil}}
		}
		return []experiments.Claim{c.NotRunFor(cells...)}
	}
	c.Ours = fmt.Sprintf("%s at %s (least of %d cells)", report.FormatRatio(least), where, count)
	c.Verdict = experiments.NotReproduced
	if math.IsNaN(floor) {
		c.Verdict, c.Reason = experiments.NotRun, "no tolerance in the catalogue: no verdict"
	}
	if least >= floor {
		c.Verdict = experiments.Reproduced
	}
	return []experiments.Claim{c.WithFigure(least, experiments.ThresholdBand(floor, math.Inf(1), experiments.UnitRatio))}
}
