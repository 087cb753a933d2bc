package experiments

import (
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
)

// CellRef names one cell: an experiment's implementation at one parameter
// setting. A cell of an experiment measured by another (MeasuredBy) names
// the experiment the claim reads; the runner measures it under MeasuredBy
// when both are in the run.
type CellRef struct {
	Experiment, Impl string
	Params           bench.Params
}

// Key is the cell's key, as bench.Record.Key gives it.
func (c CellRef) Key() string { return c.Experiment + "|" + c.Impl + "|" + c.Params.String() }

// Need declares the cells that decide one claim at a scale, so that a run
// with a budget plans by claims: the cheapest claims' cells first.
type Need struct {
	// Claim is the ID of the claim (Claim.ID) the cells decide.
	Claim string
	// Paper are the cells that decide the claim at the paper's sizes (or
	// the size the claim names). Empty when this scale has none of them.
	Paper []CellRef
	// Least is a cheaper set of cells, below the paper's sizes, that gives
	// an indicative verdict when Paper cannot run; nil when there is none.
	Least []CellRef
	// Phases: the claim's rule reads its cells' phases, not only their
	// headline times. The runner then never measures them side by side
	// with other cells (runner/batch.go): short memory-bound phases moved
	// by 7-57% there (the Kleene CPU program's convert CCS and topological
	// sort at n = 4000 on the H100's host) where whole runs moved by 4%.
	Phases bool
}

// WithPhases is n with Phases set: the claim reads its cells' phases.
func WithPhases(n Need) Need {
	n.Phases = true
	return n
}

// CellRefs lists cells of one experiment and implementation at every
// parameter setting given.
func CellRefs(exp string, impls []string, params ...bench.Params) []CellRef {
	var out []CellRef
	for _, p := range params {
		for _, impl := range impls {
			out = append(out, CellRef{exp, impl, p})
		}
	}
	return out
}

// Needs returns the needs of every claim of the experiments at a scale,
// in the experiments' order.
func Needs(exps []*Experiment, s Scale, o Options) []Need {
	var out []Need
	for _, e := range exps {
		if e.Needs != nil {
			out = append(out, e.Needs(s, o)...)
		}
	}
	return out
}

// Helpers of the papers' Needs. A claim's Paper cells are at the paper's
// sizes, its Least cells below them; at quick and large scale no cell is
// at the paper's size, so every claim there has only Least cells and its
// verdict is indicative.

// CaseCells lists the cells of experiment exp at scale s whose parameters
// satisfy keep (nil keeps all), one per implementation of impls that the
// case runs. An implementation may name alternatives, "cuda/sparse|cpu/sparse":
// the runner measures the one it can run here at the least cost.
func CaseCells(exp string, s Scale, o Options, impls []string, keep func(bench.Params) bool) []CellRef {
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

// IntOf is the integer parameter k of p, or -1.
func IntOf(p bench.Params, k string) int {
	v, err := strconv.Atoi(p.Get(k))
	if err != nil {
		return -1
	}
	return v
}

// AtMost keeps the parameter sets whose integer k is at most v.
func AtMost(k string, v int) func(bench.Params) bool {
	return func(p bench.Params) bool { x := IntOf(p, k); return x >= 0 && x <= v }
}

// ByScale is a need whose cells at paper scale are paper (with least below
// them) and at any other scale least only.
func ByScale(claim string, s Scale, paper, least []CellRef) Need {
	if s != Paper {
		if least == nil {
			least = paper
		}
		return Need{Claim: claim, Least: least}
	}
	return Need{Claim: claim, Paper: paper, Least: least}
}
