package experiments

import (
	"github.com/semibench/semibench/bench"
)

// The cells the claims of Rote (003) read, per scale (Experiment.Needs).

// apspSystolicIDs are the claims of apsp/systolic read from the simulated
// arrays of every n, and those read from the sweep.
var (
	apspArrayIDs = []string{"processors", "c11-step", "cnn-step", "utilization-gje0", "utilization-gje1", "two-thirds-idle"}
	apspSweepIDs = []string{"gje1-m", "wedge", "uni-steps", "uni-processors", "lower-bound", "active-nodes", "sched-gje0", "sched-gje1"}
)

func apspSystolicNeeds(s Scale, o Options) []Need {
	const exp = "apsp/systolic"
	arrays := CaseCells(exp, s, o, []string{"cpu/systolic"}, func(p bench.Params) bool { return p.Get("sweep") == "" })
	sweep := CaseCells(exp, s, o, []string{"cpu/systolic"}, func(p bench.Params) bool { return p.Get("sweep") != "" })
	var out []Need
	for _, id := range apspArrayIDs {
		out = append(out, ByScale(exp+"#"+id, s, arrays, nil))
	}
	for _, id := range apspSweepIDs {
		out = append(out, ByScale(exp+"#"+id, s, sweep, nil))
	}
	return out
}

func apspSemiringNeeds(s Scale, o Options) []Need {
	const exp = "apsp/semirings"
	all := CaseCells(exp, s, o, []string{"cpu/sgje"}, nil)
	least := CaseCells(exp, s, o, []string{"cpu/sgje"}, AtMost("n", apspSemiringSizes(s)[0]))
	return []Need{ByScale(exp+"#op-counts", s, all, least), ByScale(exp+"#instances", s, all, least)}
}

func apspBlockedNeeds(s Scale, o Options) []Need {
	const exp = "apsp/blocked"
	return []Need{ByScale(exp+"#decomposition", s, CaseCells(exp, s, o, []string{"cpu/fast"}, nil), nil)}
}
