package experiments

import (
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/generators/trees"
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
	all := caseCells("kleene/table2", s, o, []string{"cpu/paper"}, func(p bench.Params) bool { return p.Get("weights") == "normal" })
	arcs := caseCells("kleene/table2", s, o, []string{"cpu/fast|cpu/paper"}, func(p bench.Params) bool { return p.Get("weights") == "normal" })
	growth := byScale("kleene/table2#growth", s, top, low)
	if s != Paper {
		growth = Need{Claim: "kleene/table2#growth", Least: top}
	}
	return []Need{growth,
		byScale("kleene/table2#update-bottleneck", s, all, low),
		byScale("kleene/table2#arcs", s, arcs, nil),
	}
}

func kleeneTable3Needs(s Scale, o Options) []Need {
	ns := kleeneSizes(s)
	speed := func(n int) []CellRef {
		return cells("kleene/table3", []string{"cpu/paper", "cuda/paper"}, kleeneParams(n))
	}
	exact := caseCells("kleene/table3", s, o, []string{"cuda/paper", "cuda/fast"}, func(p bench.Params) bool { return p.Get("weights") == "int" })
	var every []CellRef
	for _, n := range ns {
		every = append(every, speed(n)...)
	}
	return []Need{
		byScale("kleene/table3#speedup", s, speed(4000), speed(ns[len(ns)-2])),
		byScale("kleene/table3#exact", s, exact, nil),
		byScale("kleene/table3#speedup-grows", s, every, append(speed(ns[0]), speed(ns[1])...)),
		byScale("kleene/table3#host-phases-same", s, speed(4000), speed(ns[len(ns)-2])),
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
	worst := cells("hungarian/fig5", hungarianCPU, hungarianParams(hungarianFig5N(s), hungarianFig5Ranges[len(hungarianFig5Ranges)-1]))
	return []Need{byScale("hungarian/fig5#cpu-paper-fastest", s, c, nil), byScale("hungarian/fig5#cpu-paper-worst", s, worst, nil)}
}

// hungarianAt lists the cells of impls of experiment exp at size n and
// each of the ranges.
func hungarianAt(exp string, impls []string, n int, ranges ...string) []CellRef {
	var out []CellRef
	for _, r := range ranges {
		out = append(out, cells(exp, impls, hungarianParams(n, r))...)
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
		byScale(exp+"#cpu-dominant-steps", s, hungarianAt(exp, cpu, top, lapcost.PaperRanges...), hungarianAt(exp, cpu, mid, lapcost.PaperRanges...)),
		byScale(exp+"#range-shares", s, hungarianAt(exp, gpu, top, extremes...), hungarianAt(exp, gpu, mid, extremes...)),
		byScale(exp+"#cuda-correct", s, caseCells(exp, s, o, gpu, nil), caseCells(exp, s, o, gpu, atMost("n", mid))),
	}
}

func hungarianTable3Needs(s Scale, o Options) []Need {
	ns := hungarianNs(s)
	top, mid := ns[len(ns)-1], ns[len(ns)/2]
	both := []string{"cpu/paper", "cuda/paper"}
	var out []Need
	for _, id := range []string{"steps-1-6", "step4", "step3-worst"} {
		out = append(out, byScale("hungarian/table3#"+id, s, hungarianAt("hungarian/table3", both, top, "n"), hungarianAt("hungarian/table3", both, mid, "n")))
	}
	// Every range: Table 1's cells (Table 3's own are at range n).
	return append(out, byScale("hungarian/table3#other-ranges", s,
		hungarianAt("hungarian/table1", both, top, lapcost.PaperRanges...), hungarianAt("hungarian/table1", both, mid, lapcost.PaperRanges...)))
}

func hungarianTable4Needs(s Scale, o Options) []Need {
	ns := hungarianNs(s)
	gpu := []string{"cuda/paper"}
	return []Need{byScale("hungarian/table4#k20c", s, hungarianAt("hungarian/table4", gpu, ns[len(ns)-1], "n"), hungarianAt("hungarian/table4", gpu, ns[len(ns)/2], "n"))}
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
	both := []string{"cpu/paper", "cuda/paper"}
	ends := append(hungarianAt("hungarian/table2", both, ns[0], lapcost.PaperRanges...), hungarianAt("hungarian/table2", both, ns[len(ns)-1], lapcost.PaperRanges...)...)
	mids := append(hungarianAt("hungarian/table2", both, ns[0], lapcost.PaperRanges...), hungarianAt("hungarian/table2", both, ns[len(ns)/2], lapcost.PaperRanges...)...)
	return append(out, byScale("hungarian/table2#speedup-grows", s, ends, mids))
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
	const exp = "domination/table1"
	at := func(m int) []CellRef { return cells(exp, []string{"cpu/paper"}, dominationParams(m)) }
	return []Need{domExactNeeds(exp+"#values", exp, "cpu/paper", s, o),
		byScale(exp+"#alg1-time", s, at(12), at(min(9, domLargest(exp, s, o))))}
}

func domFormulaNeeds(s Scale, o Options) []Need {
	const exp, impl = "domination/formula", "cuda/sparse|cpu/sparse"
	all := caseCells(exp, s, o, []string{impl}, nil)
	small := caseCells(exp, s, o, []string{impl}, atMost("m", 7))
	var large []CellRef // m = 8..12
	for _, c := range all {
		if m := intOf(c.Params, "m"); m >= 8 && m <= 12 {
			large = append(large, c)
		}
	}
	if len(large) == 0 { // quick scale: m <= 7 only
		large = small
	}
	var out []Need
	for _, id := range []string{"regular", "n-mod-3", "exceptions"} {
		out = append(out, byScale(exp+"#"+id, s, large, nil))
	}
	return append(out,
		byScale(exp+"#c5", s, all, small),
		byScale(exp+"#alpha-at-most-2", s, all, small),
		byScale(exp+"#small-m", s, small, nil))
}

// domTableNeeds are the needs of Table 3, 4 or 6: its exact values and
// the paper's times of Algorithms 3-5 at m = 12 (whole matrices).
func domTableNeeds(exp string) func(Scale, Options) []Need {
	return func(s Scale, o Options) []Need {
		out := []Need{domExactNeeds(exp+"#values", exp, "cuda/sparse|cpu/sparse", s, o)}
		if exp == "domination/table3" {
			out = append(out, domExactNeeds(exp+"#dense-from-third", exp, "cuda/sparse|cpu/sparse", s, o),
				domExactNeeds(exp+"#r0-plus-a", exp, "cuda/sparse|cpu/sparse", s, o))
		}
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
	first := intOf(ms[0].Params, "m")
	least := at(first)
	both := func(m int, impls ...string) []CellRef { return cells(exp, impls, dominationParams(m)) }
	small := caseCells(exp, s, o, []string{"cpu/paper"}, atMost("m", 6))
	return []Need{byScale(exp+"#gpu-time", s, at(12), least),
		byScale(exp+"#seq-time", s, both(10, "cpu/paper"), both(first, "cpu/paper")),
		byScale(exp+"#multicore-time", s, both(11, "cpu/fast"), both(first, "cpu/fast")),
		byScale(exp+"#openmp-speedup", s, both(10, "cpu/paper", "cpu/fast"), both(first, "cpu/paper", "cpu/fast")),
		byScale(exp+"#gpu-speedup", s, both(11, "cpu/fast", "cuda/paper"), both(first, "cpu/fast", "cuda/paper")),
		byScale(exp+"#under-1s", s, small, nil),
	}
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
	return append(out, byScale(exp+"#v4-faster", s, both(12), both(first)),
		byScale(exp+"#openmp-beats-gpu", s, both(12), both(first)))
}

// ---- Rote (003) ----

// apspSystolicIDs are the claims of apsp/systolic read from the simulated
// arrays of every n, and those read from the sweep.
var (
	apspArrayIDs = []string{"processors", "c11-step", "cnn-step", "utilization-gje0", "utilization-gje1", "two-thirds-idle"}
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

func apspSemiringNeeds(s Scale, o Options) []Need {
	const exp = "apsp/semirings"
	all := caseCells(exp, s, o, []string{"cpu/sgje"}, nil)
	least := caseCells(exp, s, o, []string{"cpu/sgje"}, atMost("n", apspSemiringSizes(s)[0]))
	return []Need{byScale(exp+"#op-counts", s, all, least), byScale(exp+"#instances", s, all, least)}
}

func apspBlockedNeeds(s Scale, o Options) []Need {
	const exp = "apsp/blocked"
	return []Need{byScale(exp+"#decomposition", s, caseCells(exp, s, o, []string{"cpu/fast"}, nil), nil)}
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
	impls := []string{cudaParallel, cudaVectorial}
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
	return append(out, treefixFig7MoreNeeds(s, o)...)
}

// treefixFig7At lists fig7's cells of impls on the shapes at size n (the
// paper's 2^24 at paper scale, else the largest of the scale).
func treefixFig7At(s Scale, o Options, impls []string, n int, shapes ...string) []CellRef {
	return caseCells("treefix/fig7", s, o, impls, func(p bench.Params) bool {
		return slices.Contains(shapes, p.Get("tree")) && intOf(p, "n") == n
	})
}

func treefixFig7MoreNeeds(s Scale, o Options) []Need {
	sizes := fig7Sizes(s)
	top := sizes[len(sizes)-1]
	less := sizes[max(len(sizes)-5, 0)] // 1/16 of the largest at paper scale
	slow := []string{cudaParallel, cpuSequential}
	vec := []string{cudaVectorial}
	return []Need{
		byScale("treefix/fig7#parallel-slow-caterpillar", s, treefixFig7At(s, o, slow, top, "caterpillar"), treefixFig7At(s, o, slow, less, "caterpillar")),
		byScale("treefix/fig7#vectorial-insensitive", s, treefixFig7At(s, o, vec, top, "star", "caterpillar"), treefixFig7At(s, o, vec, less, "star", "caterpillar")),
	}
}

func treefixFig4Needs(s Scale, o Options) []Need {
	const exp = "treefix/fig4"
	gpu := []string{cudaParallel, cudaVectorial}
	all := caseCells(exp, s, o, gpu, nil)
	sizes := fig7Sizes(s)
	extremes := treefixFig7At(s, o, gpu, sizes[len(sizes)-1], "star", "caterpillar")
	tree := func(impls []string, names ...string) []CellRef {
		return caseCells(exp, s, o, impls, func(p bench.Params) bool { return slices.Contains(names, p.Get("tree")) })
	}
	largest := trees.Table1[len(trees.Table1)-1].Name
	return []Need{
		byScale(exp+"#vectorial-faster", s, append(slices.Clone(all), extremes...), nil),
		byScale(exp+"#vectorial-grows", s, caseCells(exp, s, o, gpu[1:], nil), nil),
		byScale(exp+"#cage15-faster", s, tree(gpu[:1], "cage15", "nlpkkt120"), nil),
		byScale(exp+"#transfers-same", s, tree(gpu, largest), nil),
		byScale(exp+"#integer-exact", s, all, nil),
	}
}

func treefixFig5Needs(s Scale, o Options) []Need {
	const exp = "treefix/fig5"
	largest := trees.Table1[len(trees.Table1)-1].Name
	c := caseCells(exp, s, o, []string{cpuSequential, cudaVectorial}, func(p bench.Params) bool { return p.Get("tree") == largest })
	return []Need{byScale(exp+"#vectorial-60x", s, c, nil)}
}

func treefixTable1Needs(s Scale, o Options) []Need {
	const exp = "treefix/table1"
	return []Need{byScale(exp+"#trees", s, caseCells(exp, s, o, []string{cpuBuild}, nil), nil)}
}

func treefixAccuracyNeeds(s Scale, o Options) []Need {
	impls := []string{cpuVectorial, cpuParallel, cudaVectorial, cudaParallel}
	all := caseCells("treefix/accuracy", s, o, impls, nil)
	return []Need{byScale("treefix/accuracy#2-bits", s, all, nil), byScale("treefix/accuracy#vectorial-less-accurate", s, all, nil)}
}
