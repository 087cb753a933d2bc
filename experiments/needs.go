package experiments

import (
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
}

// cells lists cells of one experiment and implementation at every
// parameter setting given.
func cells(exp string, impls []string, params ...bench.Params) []CellRef {
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
