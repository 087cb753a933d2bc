package hungarian

import (
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/generators/lapcost"
)

// The cells the claims of Hungarian (001) read, per scale (Experiment.Needs).

func hungarianFig4Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	ns := hungarianNs(s)
	at := func(n int) []experiments.CellRef {
		return experiments.CellRefs("hungarian/fig4", hungarianCPU, hungarianParams(n, "n"))
	}
	return []experiments.Need{experiments.ByScale("hungarian/fig4#cpu-paper-fastest", s, at(ns[len(ns)-1]), at(ns[len(ns)/2]))}
}

func hungarianFig5Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	c := experiments.CellRefs("hungarian/fig5", hungarianCPU, hungarianParams(hungarianFig5N(s), "0.1n"))
	worst := experiments.CellRefs("hungarian/fig5", hungarianCPU, hungarianParams(hungarianFig5N(s), hungarianFig5Ranges[len(hungarianFig5Ranges)-1]))
	return []experiments.Need{experiments.ByScale("hungarian/fig5#cpu-paper-fastest", s, c, nil), experiments.ByScale("hungarian/fig5#cpu-paper-worst", s, worst, nil)}
}

// hungarianAt lists the cells of impls of experiment exp at size n and
// each of the ranges.
func hungarianAt(exp string, impls []string, n int, ranges ...string) []experiments.CellRef {
	var out []experiments.CellRef
	for _, r := range ranges {
		out = append(out, experiments.CellRefs(exp, impls, hungarianParams(n, r))...)
	}
	return out
}

func hungarianTable1Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "hungarian/table1"
	ns := hungarianNs(s)
	top, mid := ns[len(ns)-1], ns[len(ns)/2]
	cpu, gpu := []string{"cpu/paper"}, []string{"cuda/paper"}
	extremes := []string{"0.1n", "10n"}
	return []experiments.Need{
		experiments.WithPhases(experiments.ByScale(exp+"#cpu-dominant-steps", s, hungarianAt(exp, cpu, top, lapcost.PaperRanges...), hungarianAt(exp, cpu, mid, lapcost.PaperRanges...))),
		experiments.ByScale(exp+"#range-shares", s, hungarianAt(exp, gpu, top, extremes...), hungarianAt(exp, gpu, mid, extremes...)),
		experiments.ByScale(exp+"#cuda-correct", s, experiments.CaseCells(exp, s, o, gpu, nil), experiments.CaseCells(exp, s, o, gpu, experiments.AtMost("n", mid))),
	}
}

func hungarianTable3Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	ns := hungarianNs(s)
	top, mid := ns[len(ns)-1], ns[len(ns)/2]
	both := []string{"cpu/paper", "cuda/paper"}
	var out []experiments.Need
	for _, id := range []string{"steps-1-6", "step4", "step3-worst"} {
		out = append(out, experiments.WithPhases(experiments.ByScale("hungarian/table3#"+id, s, hungarianAt("hungarian/table3", both, top, "n"), hungarianAt("hungarian/table3", both, mid, "n"))))
	}
	// Every range: Table 1's cells (Table 3's own are at range n).
	return append(out, experiments.WithPhases(experiments.ByScale("hungarian/table3#other-ranges", s,
		hungarianAt("hungarian/table1", both, top, lapcost.PaperRanges...), hungarianAt("hungarian/table1", both, mid, lapcost.PaperRanges...))))
}

func hungarianTable4Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	ns := hungarianNs(s)
	gpu := []string{"cuda/paper"}
	return []experiments.Need{experiments.ByScale("hungarian/table4#k20c", s, hungarianAt("hungarian/table4", gpu, ns[len(ns)-1], "n"), hungarianAt("hungarian/table4", gpu, ns[len(ns)/2], "n"))}
}

func hungarianFig6Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	impls := []string{"cuda/paper", "cuda/hungarian-n3"}
	all := experiments.CaseCells("hungarian/fig6", s, o, impls, nil)
	least := experiments.CaseCells("hungarian/fig6", s, o, impls, experiments.AtMost("n", hungarianNs(s)[len(hungarianNs(s))/2]))
	return []experiments.Need{experiments.ByScale("hungarian/fig6#n4-over-n3", s, all, least)}
}

func hungarianTable2Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	ns := hungarianNs(s)
	var out []experiments.Need
	for _, r := range lapcost.PaperRanges {
		at := func(n int) []experiments.CellRef {
			return experiments.CellRefs("hungarian/table2", []string{"cpu/paper", "cuda/paper"}, hungarianParams(n, r))
		}
		out = append(out, experiments.ByScale("hungarian/table2#speedup-"+r, s, at(ns[len(ns)-1]), at(ns[len(ns)/2])))
	}
	both := []string{"cpu/paper", "cuda/paper"}
	ends := append(hungarianAt("hungarian/table2", both, ns[0], lapcost.PaperRanges...), hungarianAt("hungarian/table2", both, ns[len(ns)-1], lapcost.PaperRanges...)...)
	mids := append(hungarianAt("hungarian/table2", both, ns[0], lapcost.PaperRanges...), hungarianAt("hungarian/table2", both, ns[len(ns)/2], lapcost.PaperRanges...)...)
	return append(out, experiments.ByScale("hungarian/table2#speedup-grows", s, ends, mids))
}
