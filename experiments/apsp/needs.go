package apsp

import (
	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// The cells the claims of Rote (003) read, per scale (Experiment.Needs).

// apspSystolicIDs are the claims of apsp/systolic read from the simulated
// arrays of every n, and those read from the sweep.
var (
	apspArrayIDs = []string{"processors", "c11-step", "cnn-step", "utilization-gje0", "utilization-gje1", "two-thirds-idle"}
	apspSweepIDs = []string{"gje1-m", "wedge", "uni-steps", "uni-processors", "lower-bound", "active-nodes", "sched-gje0", "sched-gje1"}
)

func apspSystolicNeeds(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "apsp/systolic"
	arrays := experiments.CaseCells(exp, s, o, []string{"cpu/systolic"}, func(p bench.Params) bool { return p.Get("sweep") == "" })
	sweep := experiments.CaseCells(exp, s, o, []string{"cpu/systolic"}, func(p bench.Params) bool { return p.Get("sweep") != "" })
	var out []experiments.Need
	for _, id := range apspArrayIDs {
		out = append(out, experiments.ByScale(exp+"#"+id, s, arrays, nil))
	}
	for _, id := range apspSweepIDs {
		out = append(out, experiments.ByScale(exp+"#"+id, s, sweep, nil))
	}
	return out
}

func apspSemiringNeeds(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "apsp/semirings"
	all := experiments.CaseCells(exp, s, o, []string{"cpu/sgje"}, nil)
	least := experiments.CaseCells(exp, s, o, []string{"cpu/sgje"}, experiments.AtMost("n", apspSemiringSizes(s)[0]))
	return []experiments.Need{experiments.ByScale(exp+"#op-counts", s, all, least), experiments.ByScale(exp+"#instances", s, all, least)}
}

func apspBlockedNeeds(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "apsp/blocked"
	return []experiments.Need{experiments.ByScale(exp+"#decomposition", s, experiments.CaseCells(exp, s, o, []string{"cpu/fast"}, nil), nil)}
}
