package domination

import (
	"math"
	"slices"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments/paperdata"
)

// domSeries is one series of a 2-domination figure: impl's phase in the
// records idx of exp, one point per m of ms where it has a positive time.
func domSeries(name string, idx experiments.Cells, exp, impl, phase string, ms []int) report.Series {
	s := report.Series{Name: name, Impl: impl}
	for _, m := range ms {
		if v := experiments.PhaseMS(idx.Get(exp, impl, dominationParams(m)), phase); !math.IsNaN(v) && v > 0 {
			s.X, s.Y = append(s.X, float64(m)), append(s.Y, v)
		}
	}
	return s
}

// dominationTable2Plots draws Table 2: Algorithm 2's time (50 powers of
// A(D_m)) against m, the paper's sequential, 48-thread and V100 times
// (hollow) beside our products' totals, log y.
func dominationTable2Plots(run []bench.Record) []report.Plot {
	const exp = "domination/table2"
	own, rc, pc, ms := domPlotRecords(run, exp)
	if len(own) == 0 {
		return nil
	}
	pl := report.Plot{Name: "domination-table2", Title: experiments.PlotTitle("Algorithm 2 (50 (min,+) powers of A(D_m)): time vs m, the paper's beside ours", Paper.Source+", Table 2"),
		XLabel: "m (the grid's P_m side)", YLabel: "time (ms)", LogY: true,
		Notes: append([]string{"paper (hollow markers): its Algorithm 2 running times on an EPYC 7642 (sequential, 48 OpenMP threads) and a V100; ours: total, the same span (see the table's notes)"},
			experiments.AvailabilityNotes(own, exp, dominationAll...)...)}
	experiments.AppendSeries(&pl,
		experiments.ImplSeries(domSeries("paper sequential (EPYC 7642)", pc, exp, "cpu/paper", "algorithm2", ms), "cpu/paper", true),
		experiments.ImplSeries(domSeries("paper 48 threads (EPYC 7642)", pc, exp, "cpu/openmp", "algorithm2", ms), "cpu/openmp", true),
		experiments.ImplSeries(domSeries("paper GPU (V100)", pc, exp, "cuda/paper", "algorithm2", ms), "cuda/paper", true))
	for _, im := range dominationAll {
		experiments.AppendSeries(&pl, domSeries(im, rc, exp, im, bench.TotalPhase, ms))
	}
	return experiments.PlotsWithNotes(pl)
}

// dominationTable5Plots draws Table 5: the total of Algorithms 2-5 against
// m, the paper's versions 1-4 (hollow) beside ours, each version in one
// colour, log y.
func dominationTable5Plots(run []bench.Record) []report.Plot {
	const exp = "domination/table5"
	own, rc, pc, ms := domPlotRecords(run, exp)
	if len(own) == 0 {
		return nil
	}
	pl := report.Plot{Name: "domination-table5", Title: experiments.PlotTitle("Total of Algorithms 2-5 vs m, the paper's versions 1-4 beside ours", Paper.Source+", Table 5"),
		XLabel: "m (the grid's P_m side)", YLabel: "total time (ms)", LogY: true,
		Notes: append([]string{"paper (hollow markers): its total running times, versions 1 sequential, 2 OpenMP (48 cores), 3 GPU, 4 GPU + OpenMP; ours (lines): the same versions, K = 50 powers, whole matrices, in the version's colour"},
			experiments.AvailabilityNotes(own, exp, domVersions...)...)}
	what := []string{"V1 sequential", "V2 OpenMP", "V3 GPU", "V4 GPU + OpenMP"}
	for k, im := range domPaperVersions {
		experiments.AppendSeries(&pl, experiments.ImplSeries(domSeries("paper "+what[k], pc, exp, im, bench.TotalPhase, ms), domVersions[k], true))
	}
	for k, im := range domVersions {
		experiments.AppendSeries(&pl, experiments.ImplSeries(domSeries(im+" ("+what[k][:2]+")", rc, exp, im, bench.TotalPhase, ms), im, false))
	}
	// The products' totals to the first repetition (n0 + a), as Table 5's
	// "to n0+a" columns, where they ran.
	for _, im := range dominationAll {
		if slices.ContainsFunc(own, func(r bench.Record) bool { return r.Impl == im && experiments.Ran(&r) }) {
			experiments.AppendSeries(&pl, domSeries(im+" to n0+a", rc, exp, im, bench.TotalPhase, ms))
		}
	}
	return experiments.PlotsWithNotes(pl)
}

// domPlotRecords is what a 2-domination figure draws from: the run's
// records of exp, indexed, the paper's, indexed, and the m of either.
func domPlotRecords(run []bench.Record, exp string) (own []bench.Record, rc, pc experiments.Cells, ms []int) {
	paper, _ := paperdata.PaperRecords(exp)
	own = experiments.OfExperiment(run, exp)
	return own, experiments.IndexRecords(own), experiments.IndexRecords(paper), dominationRowsOf(own, paper)
}
