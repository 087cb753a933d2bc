package experiments

import (
	"github.com/semibench/semibench/bench"
)

// The cells the claims of Kleene (000) read, per scale (Experiment.Needs).

func kleeneTable2Needs(s Scale, o Options) []Need {
	ns := kleeneSizes(s)
	k := len(ns)
	top := CellRefs("kleene/table2", []string{"cpu/paper"}, kleeneParams(ns[k-2]), kleeneParams(ns[k-1]))
	low := CellRefs("kleene/table2", []string{"cpu/paper"}, kleeneParams(ns[0]), kleeneParams(ns[1]))
	all := CaseCells("kleene/table2", s, o, []string{"cpu/paper"}, func(p bench.Params) bool { return p.Get("weights") == "normal" })
	arcs := CaseCells("kleene/table2", s, o, []string{"cpu/fast|cpu/paper"}, func(p bench.Params) bool { return p.Get("weights") == "normal" })
	growth := ByScale("kleene/table2#growth", s, top, low)
	if s != Paper {
		growth = Need{Claim: "kleene/table2#growth", Least: top}
	}
	return []Need{growth,
		ByScale("kleene/table2#update-bottleneck", s, all, low),
		ByScale("kleene/table2#arcs", s, arcs, nil),
	}
}

func kleeneTable3Needs(s Scale, o Options) []Need {
	ns := kleeneSizes(s)
	speed := func(n int) []CellRef {
		return CellRefs("kleene/table3", []string{"cpu/paper", "cuda/paper"}, kleeneParams(n))
	}
	exact := CaseCells("kleene/table3", s, o, []string{"cuda/paper", "cuda/fast"}, func(p bench.Params) bool { return p.Get("weights") == "int" })
	var every []CellRef
	for _, n := range ns {
		every = append(every, speed(n)...)
	}
	return []Need{
		ByScale("kleene/table3#speedup", s, speed(4000), speed(ns[len(ns)-2])),
		ByScale("kleene/table3#exact", s, exact, nil),
		ByScale("kleene/table3#speedup-grows", s, every, append(speed(ns[0]), speed(ns[1])...)),
		ByScale("kleene/table3#host-phases-same", s, speed(4000), speed(ns[len(ns)-2])),
	}
}
