package experiments

import (
	"strconv"
)

// The cells the claims of 2-domination (002) read, per scale (Experiment.Needs).

// domExactNeeds are the cells of a table of exact values: every m of the
// scale, by the implementations given (alternatives allowed); the least
// the m up to 8.
func domExactNeeds(claim, exp string, impl string, s Scale, o Options) Need {
	all := CaseCells(exp, s, o, []string{impl}, nil)
	least := CaseCells(exp, s, o, []string{impl}, AtMost("m", 8))
	return ByScale(claim, s, all, least)
}

// domLargest is the largest m of an experiment's cases at a scale.
func domLargest(exp string, s Scale, o Options) int {
	m := -1
	for _, c := range ByName(exp).Cases(s, o) {
		m = max(m, IntOf(c.Params, "m"))
	}
	return m
}

func domTable1Needs(s Scale, o Options) []Need {
	const exp = "domination/table1"
	at := func(m int) []CellRef { return CellRefs(exp, []string{"cpu/paper"}, dominationParams(m)) }
	return []Need{domExactNeeds(exp+"#values", exp, "cpu/paper", s, o),
		ByScale(exp+"#alg1-time", s, at(12), at(min(9, domLargest(exp, s, o))))}
}

func domFormulaNeeds(s Scale, o Options) []Need {
	const exp, impl = "domination/formula", "cuda/sparse|cpu/sparse"
	all := CaseCells(exp, s, o, []string{impl}, nil)
	small := CaseCells(exp, s, o, []string{impl}, AtMost("m", 7))
	var large []CellRef // m = 8..12
	for _, c := range all {
		if m := IntOf(c.Params, "m"); m >= 8 && m <= 12 {
			large = append(large, c)
		}
	}
	if len(large) == 0 { // quick scale: m <= 7 only
		large = small
	}
	var out []Need
	for _, id := range []string{"regular", "n-mod-3", "exceptions"} {
		out = append(out, ByScale(exp+"#"+id, s, large, nil))
	}
	return append(out,
		ByScale(exp+"#c5", s, all, small),
		ByScale(exp+"#alpha-at-most-2", s, all, small),
		ByScale(exp+"#small-m", s, small, nil))
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
			at := func(m int) []CellRef { return CellRefs(exp, []string{impl}, dominationParams(m)) }
			out = append(out, ByScale(exp+"#time-"+impl, s, at(12), at(min(8, domLargest(exp, s, o)))))
		}
		return out
	}
}

func domTable2Needs(s Scale, o Options) []Need {
	const exp = "domination/table2"
	at := func(m int) []CellRef { return CellRefs(exp, []string{"cuda/paper"}, dominationParams(m)) }
	ms := CaseCells(exp, s, o, []string{"cuda/paper"}, nil)
	if len(ms) == 0 {
		return nil
	}
	first := IntOf(ms[0].Params, "m")
	least := at(first)
	both := func(m int, impls ...string) []CellRef { return CellRefs(exp, impls, dominationParams(m)) }
	small := CaseCells(exp, s, o, []string{"cpu/paper"}, AtMost("m", 6))
	return []Need{ByScale(exp+"#gpu-time", s, at(12), least),
		ByScale(exp+"#seq-time", s, both(10, "cpu/paper"), both(first, "cpu/paper")),
		ByScale(exp+"#multicore-time", s, both(11, "cpu/fast"), both(first, "cpu/fast")),
		ByScale(exp+"#openmp-speedup", s, both(10, "cpu/paper", "cpu/fast"), both(first, "cpu/paper", "cpu/fast")),
		ByScale(exp+"#gpu-speedup", s, both(11, "cpu/fast", "cuda/paper"), both(first, "cpu/fast", "cuda/paper")),
		ByScale(exp+"#under-1s", s, small, nil),
	}
}

func domTable5Needs(s Scale, o Options) []Need {
	const exp = "domination/table5"
	first := IntOf(ByName(exp).Cases(s, o)[0].Params, "m")
	// The largest m at which the paper gives each version's total.
	paperM := []int{10, 11, 12, 12}
	var out []Need
	for i, impl := range domVersions {
		at := func(m int) []CellRef { return CellRefs(exp, []string{impl}, dominationParams(m)) }
		out = append(out, ByScale(exp+"#v"+strconv.Itoa(i+1), s, at(paperM[i]), at(first)))
	}
	both := func(m int) []CellRef { return CellRefs(exp, []string{domV3, domV4}, dominationParams(m)) }
	return append(out, ByScale(exp+"#v4-faster", s, both(12), both(first)),
		ByScale(exp+"#openmp-beats-gpu", s, both(12), both(first)))
}
