package apsp

import (
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/experimentstest"
)

// Every testable claim of the paper is held to a record set on which its
// rule holds and one on which it fails (ruleCases, keyed by claim ID): a
// rule that cannot fail is no rule.

var (
	mk     = experimentstest.Mk
	failed = experimentstest.Failed
	phases = experimentstest.Phases
	np     = experimentstest.N
)

type ruleCase = experimentstest.RuleCase

// ruleCases holds every testable claim of the paper to its rule, keyed
// by claim ID; CheckRules keeps it complete.
func ruleCases() map[string]ruleCase {
	const sys, sr = "apsp/systolic", "apsp/semirings"
	systolic := func(key string, v float64) []bench.Record {
		mt := map[string]float64{"processors": 25, "c11_step": 17, "cnn_step": 26, "utilization_gje0": 0.5, "utilization_gje1": 1, "max_active_fraction": 0.3}
		if key != "" {
			mt[key] = v
		}
		return []bench.Record{mk(sys, "cpu/systolic", np(4), phases("total", 1), mt)}
	}
	sweep := func(key string, v float64) []bench.Record {
		mt := map[string]float64{"sweep_max_n": 8, "uni_processors_max_n": 320, "wedge_max_load": 2, "uni_n1_steps": 1, "sched_gje1_n1_tracks": 2, "sched_gje1_n1_period": 2}
		for _, k := range apspSweepCounters {
			mt[k] = 0
		}
		mt["gje1m_pairs"], mt["uni_processors_per_n2"] = 28, 5
		mt[key] = v
		return []bench.Record{mk(sys, "cpu/systolic", bench.Params{{Name: "sweep", Value: "n=1..8"}}, phases("total", 1), mt)}
	}
	srCell := func(semiring string) bench.Params {
		return bench.Params{{Name: "semiring", Value: semiring}, {Name: "n", Value: "4"}}
	}
	return map[string]ruleCase{
		"apsp/systolic#processors":       {Hold: systolic("", 0), Fail: systolic("processors", 24)},
		"apsp/systolic#cnn-step":         {Hold: systolic("", 0), Fail: systolic("cnn_step", 27)},
		"apsp/systolic#c11-step":         {Hold: systolic("", 0), Fail: systolic("c11_step", 16)},
		"apsp/systolic#utilization-gje0": {Hold: systolic("", 0), Fail: systolic("utilization_gje0", 0.4)},
		"apsp/systolic#utilization-gje1": {Hold: systolic("", 0), Fail: systolic("utilization_gje1", 0.9)},
		"apsp/systolic#two-thirds-idle":  {Hold: systolic("", 0), Fail: systolic("max_active_fraction", 0.5)},
		"apsp/systolic#active-nodes":     {Hold: sweep("gje1m_bad", 0), Fail: sweep("active_nodes_bad", 3)},
		"apsp/systolic#sched-gje0":       {Hold: sweep("gje1m_bad", 0), Fail: sweep("sched_gje0_bad", 1)},
		"apsp/systolic#sched-gje1":       {Hold: sweep("gje1m_bad", 0), Fail: sweep("sched_gje1_bad", 1)},
		"apsp/systolic#gje1-m":           {Hold: sweep("gje1m_bad", 0), Fail: sweep("gje1m_bad", 2)},
		"apsp/systolic#wedge":            {Hold: sweep("gje1m_bad", 0), Fail: sweep("wedge_bad", 1)},
		"apsp/systolic#uni-steps":        {Hold: sweep("gje1m_bad", 0), Fail: sweep("uni_bad", 1)},
		"apsp/systolic#uni-processors":   {Hold: sweep("uni_processors_per_n2", 5.4), Fail: sweep("uni_processors_per_n2", 6.88)},
		"apsp/systolic#lower-bound":      {Hold: sweep("gje1m_bad", 0), Fail: sweep("below_bound", 1)},
		"apsp/semirings#op-counts": {Hold: []bench.Record{mk(sr, "cpu/sgje", srCell("min-plus"), phases("total", 1), map[string]float64{"stars": 4, "mults": 60, "adds": 36})},
			Fail: []bench.Record{mk(sr, "cpu/sgje", srCell("min-plus"), phases("total", 1), map[string]float64{"stars": 4, "mults": 60, "adds": 35})}},
		"apsp/semirings#instances": {
			Hold: []bench.Record{mk(sr, "cpu/fast", srCell("min-plus"), phases("total", 1), nil), mk(sr, "cpu/fast", srCell("boolean"), phases("total", 1), nil), mk(sr, "cpu/fast", srCell("real"), phases("total", 1), nil)},
			Fail: []bench.Record{mk(sr, "cpu/fast", srCell("min-plus"), phases("total", 1), nil), mk(sr, "cpu/fast", srCell("boolean"), phases("total", 1), nil), failed(mk(sr, "cpu/fast", srCell("real"), phases("total", 1), nil))}},
		"apsp/blocked#decomposition": {Hold: []bench.Record{mk("apsp/blocked", "cpu/fast", np(512), phases("total", 1), nil)},
			Fail: []bench.Record{failed(mk("apsp/blocked", "cpu/fast", np(512), phases("total", 1), nil))}},
	}
}

// TestClaimRules holds every rule of the paper to its cases
// (experimentstest.CheckRules).
func TestClaimRules(t *testing.T) { experimentstest.CheckRules(t, Paper.File, ruleCases()) }
