package experiments

import (
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/lapcost"
	cputreefix "github.com/semibench/semibench/impls/cpu/treefix"
	cudatreefix "github.com/semibench/semibench/impls/cuda/treefix"
)

// The cells each paper's claims read, per scale (Experiment.Needs). A
// claim's Paper cells are at the paper's sizes, its Least cells below them;
// at quick and large scale no cell is at the paper's size, so every claim
// there has only Least cells and its verdict is indicative.

// caseCells lists the cells of experiment exp at scale s whose parameters
// satisfy keep (nil keeps all), one per implementation of impls that the
// case runs. An implementation may name alternatives, "cuda/sparse|cpu/sparse":
// the runner measures the one it can run here at the least cost.
func caseCells(exp string, s Scale, o Options, impls []string, keep func(bench.Params) bool) []CellRef {
	e := registry[exp]
	if e == nil {
		return nil
	}
	var out []CellRef
	for _, c := range e.Cases(s, o) {
		if keep != nil && !keep(c.Params) {
			continue
		}
		names := c.Impls
		if names == nil {
			names = e.Impls
		}
		for _, impl := range impls {
			if slices.ContainsFunc(strings.Split(impl, "|"), func(a string) bool { return slices.Contains(names, a) }) {
				out = append(out, CellRef{exp, impl, c.Params})
			}
		}
	}
	return out
}

// intOf is the integer parameter k of p, or -1.
func intOf(p bench.Params, k string) int {
	v, err := strconv.Atoi(p.Get(k))
	if err != nil {
		return -1
	}
	return v
}

// atMost keeps the parameter sets whose integer k is at most v.
func atMost(k string, v int) func(bench.Params) bool {
	return func(p bench.Params) bool { x := intOf(p, k); return x >= 0 && x <= v }
}

// byScale is a need whose cells at paper scale are paper (with least below
// them) and at any other scale least only.
func byScale(claim string, s Scale, paper, least []CellRef) Need {
	if s != Paper {
		if least == nil {
			least = paper
		}
		return Need{Claim: claim, Least: least}
	}
	return Need{Claim: claim, Paper: paper, Least: least}
}

// ---- Kleene (000) ----

func kleeneTable2Needs(s Scale, o Options) []Need {
	ns := kleeneSizes(s)
	k := len(ns)
	top := cells("kleene/table2", []string{"cpu/paper"}, kleeneParams(ns[k-2]), kleeneParams(ns[k-1]))
	low := cells("kleene/table2", []string{"cpu/paper"}, kleeneParams(ns[0]), kleeneParams(ns[1]))
	if s != Paper {
		return []Need{{Claim: "kleene/table2#growth", Least: top}}
	}
	return []Need{byScale("kleene/table2#growth", s, top, low)}
}

func kleeneTable3Needs(s Scale, o Options) []Need {
	ns := kleeneSizes(s)
	speed := func(n int) []CellRef {
		return cells("kleene/table3", []string{"cpu/paper", "cuda/paper"}, kleeneParams(n))
	}
	exact := caseCells("kleene/table3", s, o, []string{"cuda/paper", "cuda/fast"}, func(p bench.Params) bool { return p.Get("weights") == "int" })
	return []Need{
		byScale("kleene/table3#speedup", s, speed(4000), speed(ns[len(ns)-2])),
		byScale("kleene/table3#exact", s, exact, nil),
	}
}

// ---- Hungarian (001) ----

// hungarianLargest is the largest n of hungarian/table1 at a scale.
func hungarianLargest(s Scale) int { ns := hungarianNs(s); return ns[len(ns)-1] }

func hungarianFig4Needs(s Scale, o Options) []Need {
	ns := hungarianNs(s)
	at := func(n int) []CellRef {
		return cells("hungarian/fig4", hungarianCPU, hungarianParams(n, "n"))
	}
	return []Need{byScale("hungarian/fig4#cpu-paper-fastest", s, at(ns[len(ns)-1]), at(ns[len(ns)/2]))}
}

func hungarianFig5Needs(s Scale, o Options) []Need {
	c := cells("hungarian/fig5", hungarianCPU, hungarianParams(hungarianFig5N(s), "0.1n"))
	return []Need{byScale("hungarian/fig5#cpu-paper-fastest", s, c, nil)}
}

func hungarianFig6Needs(s Scale, o Options) []Need {
	impls := []string{"cuda/paper", "cuda/hungarian-n3"}
	all := caseCells("hungarian/fig6", s, o, impls, nil)
	least := caseCells("hungarian/fig6", s, o, impls, atMost("n", hungarianNs(s)[len(hungarianNs(s))/2]))
	return []Need{byScale("hungarian/fig6#n4-over-n3", s, all, least)}
}

func hungarianTable2Needs(s Scale, o Options) []Need {
	ns := hungarianNs(s)
	var out []Need
	for _, r := range lapcost.PaperRanges {
		at := func(n int) []CellRef {
			return cells("hungarian/table2", []string{"cpu/paper", "cuda/paper"}, hungarianParams(n, r))
		}
		out = append(out, byScale("hungarian/table2#speedup-"+r, s, at(ns[len(ns)-1]), at(ns[len(ns)/2])))
	}
	return out
}

// ---- 2-domination (002) ----

// domExactNeeds are the cells of a table of exact values: every m of the
// scale, by the implementations given (alternatives allowed); the least
// the m up to 8.
func domExactNeeds(claim, exp string, impl string, s Scale, o Options) Need {
	all := caseCells(exp, s, o, []string{impl}, nil)
	least := caseCells(exp, s, o, []string{impl}, atMost("m", 8))
	return byScale(claim, s, all, least)
}

// domLargest is the largest m of an experiment's cases at a scale.
func domLargest(exp string, s Scale, o Options) int {
	m := -1
	for _, c := range registry[exp].Cases(s, o) {
		m = max(m, intOf(c.Params, "m"))
	}
	return m
}

func domTable1Needs(s Scale, o Options) []Need {
	return []Need{domExactNeeds("domination/table1#values", "domination/table1", "cpu/paper", s, o)}
}

// domTableNeeds are the needs of Table 3, 4 or 6: its exact values and
// the paper's times of Algorithms 3-5 at m = 12 (whole matrices).
func domTableNeeds(exp string) func(Scale, Options) []Need {
	return func(s Scale, o Options) []Need {
		out := []Need{domExactNeeds(exp+"#values", exp, "cuda/sparse|cpu/sparse", s, o)}
		impls := []string{domWholeSeq, domWholePar}
		if exp == "domination/table6" {
			impls = impls[:1]
		}
		for _, impl := range impls {
			at := func(m int) []CellRef { return cells(exp, []string{impl}, dominationParams(m)) }
			out = append(out, byScale(exp+"#time-"+impl, s, at(12), at(min(8, domLargest(exp, s, o)))))
		}
		return out
	}
}

func domTable2Needs(s Scale, o Options) []Need {
	const exp = "domination/table2"
	at := func(m int) []CellRef { return cells(exp, []string{"cuda/paper"}, dominationParams(m)) }
	ms := caseCells(exp, s, o, []string{"cuda/paper"}, nil)
	if len(ms) == 0 {
		return nil
	}
	least := at(intOf(ms[0].Params, "m"))
	return []Need{byScale(exp+"#gpu-time", s, at(12), least)}
}

func domTable5Needs(s Scale, o Options) []Need {
	const exp = "domination/table5"
	first := intOf(registry[exp].Cases(s, o)[0].Params, "m")
	// The largest m at which the paper gives each version's total.
	paperM := []int{10, 11, 12, 12}
	var out []Need
	for i, impl := range domVersions {
		at := func(m int) []CellRef { return cells(exp, []string{impl}, dominationParams(m)) }
		out = append(out, byScale(exp+"#v"+strconv.Itoa(i+1), s, at(paperM[i]), at(first)))
	}
	both := func(m int) []CellRef { return cells(exp, []string{domV3, domV4}, dominationParams(m)) }
	return append(out, byScale(exp+"#v4-faster", s, both(12), both(first)))
}

// ---- Rote (003) ----

// apspSystolicIDs are the claims of apsp/systolic read from the simulated
// arrays of every n, and those read from the sweep.
var (
	apspArrayIDs = []string{"processors", "c11-step", "cnn-step", "utilization-gje0", "utilization-gje1"}
	apspSweepIDs = []string{"gje1-m", "wedge", "uni-steps", "uni-processors", "lower-bound", "active-nodes", "sched-gje0", "sched-gje1"}
)

func apspSystolicNeeds(s Scale, o Options) []Need {
	const exp = "apsp/systolic"
	arrays := caseCells(exp, s, o, []string{"cpu/systolic"}, func(p bench.Params) bool { return p.Get("sweep") == "" })
	sweep := caseCells(exp, s, o, []string{"cpu/systolic"}, func(p bench.Params) bool { return p.Get("sweep") != "" })
	var out []Need
	for _, id := range apspArrayIDs {
		out = append(out, byScale(exp+"#"+id, s, arrays, nil))
	}
	for _, id := range apspSweepIDs {
		out = append(out, byScale(exp+"#"+id, s, sweep, nil))
	}
	return out
}

// ---- Treefix (004) ----

func treefixFig6Needs(s Scale, o Options) []Need {
	const exp = "treefix/fig6"
	tree := func(names ...string) []CellRef {
		return caseCells(exp, s, o, []string{cpuLevels}, func(p bench.Params) bool { return slices.Contains(names, p.Get("tree")) })
	}
	return []Need{
		byScale(exp+"#cage15-fewer-levels", s, tree("cage15", "nlpkkt120"), nil),
		byScale(exp+"#star-profile", s, tree("star"), nil),
		byScale(exp+"#caterpillar-profile", s, tree("caterpillar"), nil),
	}
}

func treefixFig7Needs(s Scale, o Options) []Need {
	const exp = "treefix/fig7"
	impls := []string{cudatreefix.Parallel, cudatreefix.Vectorial}
	var out []Need
	for _, shape := range []string{"star", "caterpillar"} {
		largest := -1
		for _, c := range registry[exp].Cases(s, o) {
			if c.Params.Get("tree") == shape {
				largest = max(largest, intOf(c.Params, "n"))
			}
		}
		at := func(n int) []CellRef {
			return caseCells(exp, s, o, impls, func(p bench.Params) bool { return p.Get("tree") == shape && intOf(p, "n") == n })
		}
		var paper []CellRef
		if largest == 1<<24 {
			paper = at(1 << 24)
		}
		out = append(out, byScale(exp+"#"+shape, s, paper, at(max(largest/16, 1))))
	}
	return out
}

func treefixAccuracyNeeds(s Scale, o Options) []Need {
	impls := []string{cputreefix.Vectorial, cputreefix.Parallel, cudatreefix.Vectorial, cudatreefix.Parallel}
	return []Need{byScale("treefix/accuracy#2-bits", s, caseCells("treefix/accuracy", s, o, impls, nil), nil)}
}
