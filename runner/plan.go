package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// cell is one (case, implementation) pair of the plan.
type cell struct {
	exp  *experiments.Experiment
	cs   *experiments.Case
	impl string
	key  string // exp|impl|params, as bench.Record.Key
	// input and load are inputKey's and loadKey's, once asked.
	input, load string
	// order is the cell's place in the experiments' own order, for ties;
	// caseIdx numbers its case.
	order, caseIdx int
	// aliases are the cells of other experiments that are this one's
	// measurement (Experiment.SameAs): each gets a copy of its record.
	aliases []*cell
	// unavailable is why the cell cannot run on this machine, or nil.
	unavailable error
	// done: the cell has its record (measured, skipped or unavailable);
	// measured: a record with times (ok or check failed).
	done, measured bool
}

// claimPlan is one claim's cells at its two levels: Least (below the
// paper's sizes) and Paper. A level is nil when this run has none of its
// cells, or when one of them cannot run here (blocked says why).
type claimPlan struct {
	id      string
	levels  [2][]*cell // least, paper
	blocked [2]string
	phases  bool // its rule reads its cells' phases (experiments.Need.Phases)
	// unsettled: the settle rule's last look at it, after a sample of one
	// of its cells, found it unsettled (runner/settle.go judges those first).
	unsettled bool
	// cheapTried: settleCheap has topped it up (once a run).
	cheapTried bool
	// lookMS is what the settle rule's last judgment of it took.
	lookMS float64
	// in is the level holding each of its cells (its paper level first;
	// indexReaders), so that levelOf costs nothing on a claim over
	// hundreds of cells.
	in map[*cell]int
}

// The levels of a claim's cells.
const (
	levelLeast = iota
	levelPaper
)

// plan is every cell of a run and the claims that read them: what the
// passes (passes.go) walk. It is made once, before any cell runs; the
// cells' done and measured and the claims' unsettled and cheapTried are
// the only state the passes change.
type plan struct {
	cells   []*cell          // measured here, in the experiments' order
	byKey   map[string]*cell // every cell, aliases included
	claims  []*claimPlan
	readers map[*cell][]*claimPlan             // the claims that read each cell
	hosts   map[string]*experiments.Experiment // the experiment computing each claim
	byInput map[string][]*cell                 // the cells of each input (inputKey)
}

// buildPlan lists the cells of exps at the run's scale, resolves the
// claims' needs to them, folds aliases (SameAs, MeasuredBy) into the cells
// that measure them, and asks once per implementation whether it can run
// (cfg.Available); a claim's alternatives resolve to the cheapest by price.
func buildPlan(cfg *Config, price *pricer, exps []*experiments.Experiment) *plan {
	p := &plan{byKey: map[string]*cell{}}
	inRun := map[string]*experiments.Experiment{}
	for _, e := range exps {
		inRun[e.Name] = e
	}
	avail := map[string]error{}
	available := func(impl string) error {
		err, seen := avail[impl]
		if !seen {
			err = cfg.Available(impl)
			avail[impl] = err
		}
		return err
	}
	var aliases []*cell
	caseIdx := 0
	for _, e := range exps {
		if e.MeasuredBy != "" && inRun[e.MeasuredBy] != nil {
			continue // rendered from the cells of MeasuredBy, measured once there
		}
		cs := e.Cases(cfg.Scale, cfg.Options)
		for i := range cs {
			if !cfg.Where.Match(cs[i].Params) {
				continue
			}
			caseIdx++
			for _, impl := range e.ImplsFor(cs[i], cfg.Impl) {
				c := &cell{exp: e, cs: &cs[i], impl: impl, order: len(p.byKey), caseIdx: caseIdx}
				c.key = e.Name + "|" + impl + "|" + cs[i].Params.String()
				c.unavailable = available(impl)
				p.byKey[c.key] = c
				if sameAs(e, impl, inRun) != "" {
					aliases = append(aliases, c)
					continue
				}
				p.cells = append(p.cells, c)
			}
		}
	}
	// An alias whose counterpart is planned rides on it; one without a
	// counterpart (its case absent there) is measured for itself.
	for _, a := range aliases {
		target := p.byKey[sameAs(a.exp, a.impl, inRun)+"|"+a.impl+"|"+a.cs.Params.String()]
		if target == nil || target.exp.Statistic != a.exp.Statistic || slices.Contains(aliases, target) {
			p.cells = append(p.cells, a)
			continue
		}
		target.aliases = append(target.aliases, a)
	}
	slices.SortStableFunc(p.cells, func(a, b *cell) int { return a.order - b.order })
	for _, n := range experiments.Needs(exps, cfg.Scale, cfg.Options) {
		cp := &claimPlan{id: n.Claim, phases: n.Phases}
		for lv, refs := range [2][]experiments.CellRef{n.Least, n.Paper} {
			cp.levels[lv], cp.blocked[lv] = p.resolve(refs, inRun, price)
		}
		p.claims = append(p.claims, cp)
	}
	return p
}

// sameAs is the experiment whose cell measures e's cells of impl when both
// are in the run, or "".
func sameAs(e *experiments.Experiment, impl string, inRun map[string]*experiments.Experiment) string {
	for _, s := range e.SameAs {
		if inRun[s.Experiment] != nil && slices.Contains(s.Impls, impl) {
			return s.Experiment
		}
	}
	return ""
}

// resolve maps a claim level's cell references to the plan's measured
// cells: through MeasuredBy and aliases, and to the cheapest alternative
// that can run here. It returns nil when a reference is not in this run,
// and nil with the reason when one cannot run on this machine.
func (p *plan) resolve(refs []experiments.CellRef, inRun map[string]*experiments.Experiment, price *pricer) ([]*cell, string) {
	if len(refs) == 0 {
		return nil, ""
	}
	var out []*cell
	for _, ref := range refs {
		exp := ref.Experiment
		if e := inRun[exp]; e != nil && e.MeasuredBy != "" && inRun[e.MeasuredBy] != nil {
			exp = e.MeasuredBy
		}
		var best *cell
		var why error
		for _, impl := range strings.Split(ref.Impl, "|") {
			c := p.byKey[exp+"|"+impl+"|"+ref.Params.String()]
			if c == nil {
				continue
			}
			if c.unavailable != nil {
				why = c.unavailable
				continue
			}
			if m := p.measurer(c); best == nil || price.cell(m) < price.cell(best) {
				best = m
			}
		}
		switch {
		case best != nil:
			if !slices.Contains(out, best) {
				out = append(out, best)
			}
		case why != nil:
			return nil, fmt.Sprintf("needs %s: %v", ref.Impl, why)
		default:
			return nil, "" // not in this run (scale, --impl or --where)
		}
	}
	return out, ""
}

// measurer is the cell whose measurement c's record is: c, or the cell
// it is an alias of.
func (p *plan) measurer(c *cell) *cell {
	for _, m := range p.cells {
		if m == c || slices.Contains(m.aliases, c) {
			return m
		}
	}
	return c
}

// record starts a cell's record.
func (c *cell) record() bench.Record {
	return bench.Record{Experiment: c.exp.Name, Impl: c.impl, Params: c.cs.Params, Statistic: statistic(c.exp)}
}

// indexReaders records which claims read each cell, and the cells of
// each input.
func (p *plan) indexReaders() {
	p.byInput = map[string][]*cell{}
	for _, c := range p.cells {
		p.byInput[inputKey(c)] = append(p.byInput[inputKey(c)], c)
	}
	p.readers = map[*cell][]*claimPlan{}
	for _, cp := range p.claims {
		cp.in = map[*cell]int{}
		for _, lv := range []int{levelLeast, levelPaper} {
			for _, c := range cp.levels[lv] {
				cp.in[c] = lv // the paper level last: it wins
				if !slices.Contains(p.readers[c], cp) {
					p.readers[c] = append(p.readers[c], cp)
				}
			}
		}
	}
}

// at is the cells the claim runs in a phase: in the first, its Least
// cells, or its Paper ones when it has no Least; in the second, its Paper
// ones.
func (cp *claimPlan) at(lv int) []*cell {
	if lv == levelLeast && cp.levels[levelLeast] == nil && cp.blocked[levelLeast] == "" {
		return cp.levels[levelPaper]
	}
	return cp.levels[lv]
}

// levelOf is the level of the claim's cells that holds c (its paper
// level first).
func (cp *claimPlan) levelOf(c *cell) []*cell {
	if lv, ok := cp.level(c); ok {
		return cp.levels[lv]
	}
	return nil
}

// level is the index of the level levelOf gives, and whether c is the
// claim's.
func (cp *claimPlan) level(c *cell) (int, bool) {
	if cp.in != nil {
		lv, ok := cp.in[c]
		return lv, ok
	}
	for _, lv := range []int{levelPaper, levelLeast} {
		if slices.Contains(cp.levels[lv], c) {
			return lv, true
		}
	}
	return 0, false
}

// decides counts the claims not yet tried at this level whose cells
// would all be measured once these are: the claims a set of cells decides.
func (p *plan) decides(cells []*cell, lv int, tried map[*claimPlan]bool) int {
	n := 0
	for _, cq := range p.claims {
		if tried[cq] || cq.at(lv) == nil {
			continue
		}
		covered := true
		for _, c := range cq.at(lv) {
			if !c.done && !slices.Contains(cells, c) {
				covered = false
				break
			}
		}
		if covered {
			n++
		}
	}
	return max(1, n)
}

// atPaper counts the claims whose cells at the papers' sizes are all
// measured: what the progress line reports. A claim measured only below
// them is indicative in the report, not decided, so it is not counted
// (the report's "decided" also leaves out the inconclusive, which only
// judging tells).
func (p *plan) atPaper() int {
	n := 0
	for _, cp := range p.claims {
		if lv := cp.levels[levelPaper]; lv != nil && allMeasured(lv) {
			n++
		}
	}
	return n
}

// measurable counts the claims whose cells at the papers' sizes this
// machine can run: what the progress counts the claims measured out of.
func (p *plan) measurable() int {
	n := 0
	for _, cp := range p.claims {
		if cp.levels[levelPaper] != nil {
			n++
		}
	}
	return n
}

// phasesRead reports whether a claim reads c's phases (Need.Phases):
// then c never runs side by side with others (batch.go).
func (p *plan) phasesRead(c *cell) bool {
	for _, cp := range p.readers[c] {
		if cp.phases {
			return true
		}
	}
	return false
}
