package experiments

import (
	"github.com/semibench/semibench/generators/lapcost"
)

// The cells the claims of Hungarian (001) read, per scale (Experiment.Needs).

// hungarianLargest is the largest n of hungarian/table1 at a scale.
func hungarianLargest(s Scale) int { ns := hungarianNs(s); return ns[len(ns)-1] }

func hungarianFig4Needs(s Scale, o Options) []Need {
	ns := hungarianNs(s)
	at := func(n int) []CellRef {
		return CellRefs("hungarian/fig4", hungarianCPU, hungarianParams(n, "n"))
	}
	return []Need{ByScale("hungarian/fig4#cpu-paper-fastest", s, at(ns[len(ns)-1]), at(ns[len(ns)/2]))}
}

func hungarianFig5Needs(s Scale, o Options) []Need {
	c := CellRefs("hungarian/fig5", hungarianCPU, hungarianParams(hungarianFig5N(s), "0.1n"))
	worst := CellRefs("hungarian/fig5", hungarianCPU, hungarianParams(hungarianFig5N(s), hungarianFig5Ranges[len(hungarianFig5Ranges)-1]))
	return []Need{ByScale("hungarian/fig5#cpu-paper-fastest", s, c, nil), ByScale("hungarian/fig5#cpu-paper-worst", s, worst, nil)}
}

// hungarianAt lists the cells of impls of experiment exp at size n and
// each of the ranges.
func hungarianAt(exp string, impls []string, n int, ranges ...string) []CellRef {
	var out []CellRef
	for _, r := range ranges {
		out = append(out, CellRefs(exp, impls, hungarianParams(n, r))...)
	}
	return out
}

func hungarianTable1Needs(s Scale, o Options) []Need {
	const exp = "hungarian/table1"
	ns := hungarianNs(s)
	top, mid := ns[len(ns)-1], ns[len(ns)/2]
	cpu, gpu := []string{"cpu/paper"}, []string{"cuda/paper"}
	extremes := []string{"0.1n", "10n"}
	return []Need{
		ByScale(exp+"#cpu-dominant-steps", s, hungarianAt(exp, cpu, top, lapcost.PaperRanges...), hungarianAt(exp, cpu, mid, lapcost.PaperRanges...)),
		ByScale(exp+"#range-shares", s, hungarianAt(exp, gpu, top, extremes...), hungarianAt(exp, gpu, mid, extremes...)),
		ByScale(exp+"#cuda-correct", s, CaseCells(exp, s, o, gpu, nil), CaseCells(exp, s, o, gpu, AtMost("n", mid))),
	}
}

func hungarianTable3Needs(s Scale, o Options) []Need {
	ns := hungarianNs(s)
	top, mid := ns[len(ns)-1], ns[len(ns)/2]
	both := []string{"cpu/paper", "cuda/paper"}
	var out []Need
	for _, id := range []string{"steps-1-6", "step4", "step3-worst"} {
		out = append(out, ByScale("hungarian/table3#"+id, s, hungarianAt("hungarian/table3", both, top, "n"), hungarianAt("hungarian/table3", both, mid, "n")))
	}
	// Every range: Table 1's cells (Table 3's own are at range n).
	return append(out, ByScale("hungarian/table3#other-ranges", s,
		hungarianAt("hungarian/table1", both, top, lapcost.PaperRanges...), hungarianAt("hungarian/table1", both, mid, lapcost.PaperRanges...)))
}

func hungarianTable4Needs(s Scale, o Options) []Need {
	ns := hungarianNs(s)
	gpu := []string{"cuda/paper"}
	return []Need{ByScale("hungarian/table4#k20c", s, hungarianAt("hungarian/table4", gpu, ns[len(ns)-1], "n"), hungarianAt("hungarian/table4", gpu, ns[len(ns)/2], "n"))}
}

func hungarianFig6Needs(s Scale, o Options) []Need {
	impls := []string{"cuda/paper", "cuda/hungarian-n3"}
	all := CaseCells("hungarian/fig6", s, o, impls, nil)
	least := CaseCells("hungarian/fig6", s, o, impls, AtMost("n", hungarianNs(s)[len(hungarianNs(s))/2]))
	return []Need{ByScale("hungarian/fig6#n4-over-n3", s, all, least)}
}

func hungarianTable2Needs(s Scale, o Options) []Need {
	ns := hungarianNs(s)
	var out []Need
	for _, r := range lapcost.PaperRanges {
		at := func(n int) []CellRef {
			return CellRefs("hungarian/table2", []string{"cpu/paper", "cuda/paper"}, hungarianParams(n, r))
		}
		out = append(out, ByScale("hungarian/table2#speedup-"+r, s, at(ns[len(ns)-1]), at(ns[len(ns)/2])))
	}
	both := []string{"cpu/paper", "cuda/paper"}
	ends := append(hungarianAt("hungarian/table2", both, ns[0], lapcost.PaperRanges...), hungarianAt("hungarian/table2", both, ns[len(ns)-1], lapcost.PaperRanges...)...)
	mids := append(hungarianAt("hungarian/table2", both, ns[0], lapcost.PaperRanges...), hungarianAt("hungarian/table2", both, ns[len(ns)/2], lapcost.PaperRanges...)...)
	return append(out, ByScale("hungarian/table2#speedup-grows", s, ends, mids))
}
