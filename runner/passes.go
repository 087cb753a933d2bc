package runner

import (
	"slices"
	"strings"

	"github.com/semibench/semibench/experiments"
)

// pass is the planner's pass a cell is measured in. It decides the
// cell's stopping rules (sampling.go) and its Stop words, and names the
// work in the progress line.
type pass int

const (
	// passClaims is the claims' first pass: every claim's cells, the
	// cheapest claim first, each cell stopping as soon as its claims are
	// settled (in a budgeted run); also the long one-core cells run side
	// by side.
	passClaims pass = iota
	// passAA measures the A/A cells in full (their spread is part of the
	// run's noise).
	passAA
	// passTopUp tops up the cells of claims left unsettled.
	passTopUp
	// passRefine brings the claims' cells up to --reps with the budget
	// left.
	passRefine
	// passRest runs the cells no claim has run.
	passRest
	// passSide measures long one-core cells side by side (batch.go).
	passSide
	// passOuter measures claims' cells again at the outer level.
	passOuter
)

// settles reports whether cells measured in pass p stop when their
// claims are settled: in a budgeted run, in the claims' passes and the
// rest (a claim cell left for the rest of the tables).
func (p pass) settles(budgeted bool) bool {
	return budgeted && (p == passClaims || p == passTopUp || p == passRest)
}

// runClaims runs the claims' cells of one level, the cheapest claim first
// by the current estimates per claim it decides (the cells of Rote's sweep
// decide eight claims at once), each claim's cells together (a case's
// cells one after another).
func (r *run) runClaims(lv int) error {
	tried := map[*claimPlan]bool{}
	for {
		var best *claimPlan
		bestScore, bestCost := 0.0, 0.0
		for _, cp := range r.plan.claims {
			if tried[cp] || cp.at(lv) == nil {
				continue
			}
			cost := r.price.cells(cp.at(lv))
			if cost == 0 && allDone(cp.at(lv)) {
				tried[cp] = true
				continue
			}
			score := cost / float64(r.plan.decides(cp.at(lv), lv, tried))
			if best == nil || score < bestScore {
				best, bestScore, bestCost = cp, score, cost
			}
		}
		if best == nil {
			return nil
		}
		tried[best] = true
		if bestCost > r.budget.left() && r.side.waiting() && bestCost <= r.budget.left()+r.budget.heldMS {
			if err := r.runSide(); err != nil { // the time held back for them, given back for this claim
				return err
			}
		}
		if bestCost > r.budget.left() {
			continue // waits for the rest of the tables, where its cells may still fit one by one
		}
		if lv == levelPaper && bestCost > r.budget.left()/cheapSettleAt {
			if err := r.settleCheap(); err != nil {
				return err
			}
		}
		cells := r.claimOrder(best.at(lv))
		for _, c := range cells {
			if c.done {
				continue
			}
			if held, err := r.deferSide(c); held || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			if err := r.runCell(c, nil, passClaims); err != nil {
				return err
			}
		}
	}
}

// claimOrder orders a claim's cells so that a case's cells run one after
// another on one Setup, the cheapest case first, and within a case the
// cheapest cell first: the costliest cell comes last, when the claim can
// be judged, so that it stops sampling as soon as the claim is settled.
func (r *run) claimOrder(cells []*cell) []*cell {
	defer r.price.hold()()
	out := slices.Clone(cells)
	caseCost := map[int]float64{}
	for _, c := range out {
		caseCost[c.caseIdx] += r.price.cell(c)
	}
	slices.SortStableFunc(out, func(a, b *cell) int {
		if a.caseIdx != b.caseIdx {
			if d := cmpFloat(caseCost[a.caseIdx], caseCost[b.caseIdx]); d != 0 {
				return d
			}
			return caseOrder(a) - caseOrder(b)
		}
		return cmpFloat(r.price.cell(a), r.price.cell(b))
	})
	return out
}

// caseOrder orders cells by their case, so that a case's cells run one
// after another on one Setup.
func caseOrder(c *cell) int { return c.caseIdx }

func allDone(cells []*cell) bool {
	for _, c := range cells {
		if !c.done {
			return false
		}
	}
	return true
}

// allMeasured reports whether every cell has a record with times (ok or
// check failed): not skipped, unavailable or failed.
func allMeasured(cells []*cell) bool {
	for _, c := range cells {
		if !c.measured {
			return false
		}
	}
	return true
}

// The tiers of the cells no claim reads, in the order they run.
const (
	tierGPUHeadline = iota // headline cells of CUDA implementations
	tierHeadline           // the other headline cells
	tierRest               // every other cell
)

// tierOf is the tier of an implementation's cells in an experiment.
func tierOf(e *experiments.Experiment, impl string) int {
	switch {
	case !e.IsHeadline(impl):
		return tierRest
	case strings.HasPrefix(impl, "cuda/"):
		return tierGPUHeadline
	}
	return tierHeadline
}

// runRest runs the cells no claim has run, by tier, the cheapest case
// first, a case's cells of one tier together.
func (r *run) runRest() error {
	type group struct {
		tier  int
		cells []*cell
	}
	var groups []*group
	byCase := map[*experiments.Case]map[int]*group{}
	for _, c := range r.plan.cells {
		if c.done {
			continue
		}
		t := tierOf(c.exp, c.impl)
		if byCase[c.cs] == nil {
			byCase[c.cs] = map[int]*group{}
		}
		g := byCase[c.cs][t]
		if g == nil {
			g = &group{tier: t}
			byCase[c.cs][t] = g
			groups = append(groups, g)
		}
		g.cells = append(g.cells, c)
	}
	cost := func(g *group) float64 { return r.price.cells(g.cells) }
	for len(groups) > 0 {
		release := r.price.hold()
		k := 0
		for i, g := range groups {
			if g.tier < groups[k].tier || g.tier == groups[k].tier && cost(g) < cost(groups[k]) {
				k = i
			}
		}
		release()
		g := groups[k]
		groups = append(groups[:k], groups[k+1:]...)
		var pending []*cell
		for _, h := range groups {
			pending = append(pending, h.cells...)
		}
		cells := g.cells
		for len(cells) > 0 {
			release := r.price.hold()
			j := 0
			for i := range cells {
				if r.price.cell(cells[i]) < r.price.cell(cells[j]) {
					j = i
				}
			}
			release()
			c := cells[j]
			cells = append(cells[:j:j], cells[j+1:]...)
			if c.done {
				continue
			}
			if err := r.runCell(c, append(slices.Clone(cells), pending...), passRest); err != nil {
				return err
			}
		}
	}
	return nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
