package kleene

import (
	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// The cells the claims of Kleene (000) read, per scale (Experiment.Needs).

func kleeneTable2Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	ns := kleeneSizes(s)
	k := len(ns)
	top := experiments.CellRefs("kleene/table2", []string{"cpu/paper"}, kleeneParams(ns[k-2]), kleeneParams(ns[k-1]))
	low := experiments.CellRefs("kleene/table2", []string{"cpu/paper"}, kleeneParams(ns[0]), kleeneParams(ns[1]))
	all := experiments.CaseCells("kleene/table2", s, o, []string{"cpu/paper"}, func(p bench.Params) bool { return p.Get("weights") == "normal" })
	arcs := experiments.CaseCells("kleene/table2", s, o, []string{"cpu/fast|cpu/paper"}, func(p bench.Params) bool { return p.Get("weights") == "normal" })
	growth := experiments.ByScale("kleene/table2#growth", s, top, low)
	if s != experiments.Paper {
		growth = experiments.Need{Claim: "kleene/table2#growth", Least: top}
	}
	// Both read Update W's phase: their cells run alone (Need.Phases).
	return []experiments.Need{experiments.WithPhases(growth),
		experiments.WithPhases(experiments.ByScale("kleene/table2#update-bottleneck", s, all, low)),
		experiments.ByScale("kleene/table2#arcs", s, arcs, nil),
	}
}

func kleeneTable3Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	ns := kleeneSizes(s)
	speed := func(n int) []experiments.CellRef {
		return experiments.CellRefs("kleene/table3", []string{"cpu/paper", "cuda/paper"}, kleeneParams(n))
	}
	exact := experiments.CaseCells("kleene/table3", s, o, []string{"cuda/paper", "cuda/fast"}, func(p bench.Params) bool { return p.Get("weights") == "int" })
	var every []experiments.CellRef
	for _, n := range ns {
		every = append(every, speed(n)...)
	}
	return []experiments.Need{
		experiments.ByScale("kleene/table3#speedup", s, speed(4000), speed(ns[len(ns)-2])),
		experiments.ByScale("kleene/table3#exact", s, exact, nil),
		experiments.ByScale("kleene/table3#speedup-grows", s, every, append(speed(ns[0]), speed(ns[1])...)),
		experiments.WithPhases(experiments.ByScale("kleene/table3#host-phases-same", s, speed(4000), speed(ns[len(ns)-2]))),
	}
}
