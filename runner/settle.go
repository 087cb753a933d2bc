package runner

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Samples as the verdict needs them, in three passes over the claims of a
// budgeted run. First every claim gets its cells measured: a cell takes
// samples one at a time and stops as soon as every claim it feeds is
// settled (experiments.SettleClaim: the verdict the same at every corner
// of the cells' confidence intervals, at this machine's noise); a cell
// whose claims are not settled stops after one sample unless its samples
// are cheap (FirstPassCheap a run, or a quarter of what its claims' other
// cells still cost; both judged by the runs the cell has taken). Then,
// the cheapest claim first, each claim left
// unsettled tops its cells up, the one with the fewest samples first,
// until it settles or has --reps. Last, what is left of the budget brings
// the claims' cells up to --reps (refine), before the rest of the tables.
// A run without a budget keeps the fixed repetitions.

// settled reports whether c, with the record partial, may stop sampling,
// and why; first is the claims' first pass. beside keeps, for the
// measurement's looks, what each waiting claim's other cells cost on
// average (besideMS): nothing is measured between two looks.
func (r *run) settled(c *cell, partial bench.Record, first bool, beside map[*claimPlan]float64) (bool, string) {
	var recs []bench.Record // the run's records with partial, built when a claim is judged
	withPartial := func() []bench.Record {
		if recs == nil {
			recs = append(slices.Clone(r.ledger.recs), partial)
			for _, a := range c.aliases {
				cp := partial
				cp.Experiment = a.exp.Name
				recs = append(recs, cp)
			}
		}
		return recs
	}
	samples := experiments.SamplesOf(&partial, bench.TotalPhase)
	n := len(samples)
	per := bench.Median(samples) // what a run of c takes, measured
	var ids, waiting, unsettled []string
	// The claims unsettled at their last look first: one of them still
	// unsettled ends the look before the others, settled and often dearer
	// (treefix's Fig. 4 claim over 40 cells costs a second a look), are
	// judged again.
	readers := slices.Clone(r.plan.readers[c])
	slices.SortStableFunc(readers, func(a, b *claimPlan) int {
		switch {
		case a.unsettled == b.unsettled:
			return 0
		case a.unsettled:
			return -1
		}
		return 1
	})
	for _, cp := range readers {
		cells := cp.levelOf(c)
		var others []*cell
		for _, x := range cells {
			if x != c && !x.measured {
				others = append(others, x)
			}
		}
		if len(others) > 0 {
			avg, ok := beside[cp]
			if !ok {
				avg = r.besideMS(others)
				beside[cp] = avg
			}
			if per*float64(r.cfg.Reps-n) <= avg/4 {
				return false, ""
			}
			waiting = append(waiting, cp.id)
			continue
		}
		t0 := time.Now()
		st := experiments.SettleClaimOf(r.plan.hosts[cp.id], cp.id, withPartial(), refsOf(cells), r.aa.noise, r.cfg.Reps)
		r.looked(cp, len(cells), msSince(t0))
		cp.unsettled = !st.Settled
		if !st.Settled {
			if first && per >= float64(FirstPassCheap)/1e6 {
				unsettled = append(unsettled, cp.id)
				continue
			}
			return false, ""
		}
		ids = append(ids, cp.id)
	}
	if len(unsettled) > 0 {
		why := fmt.Sprintf("stopped after %d sample(s) in the first pass, %s not yet settled: topped up once every claim has its cells", n, experiments.FirstOf(unsettled, 3))
		return true, why
	}
	var why []string
	if len(ids) > 0 {
		why = append(why, fmt.Sprintf("settled after %d sample(s): %s", n, experiments.FirstOf(ids, 3)))
	}
	if len(waiting) > 0 {
		why = append(why, fmt.Sprintf("stopped after %d sample(s) to wait for the other cells of %s", n, experiments.FirstOf(waiting, 3)))
	}
	return true, strings.Join(why, "; ")
}

// looked notes what a judgment of the claim over cells took, for the
// estimates of the looks to come.
func (r *run) looked(cp *claimPlan, cells int, ms float64) {
	cp.lookMS = ms
	r.price.wall.lookedAt(cells, ms)
}

// besideMS is what the claim's other cells still to run cost on average.
// A cell whose samples still to take cost at most a quarter of it takes
// its --reps while the claim waits for them (a cheap cell beside a costly
// one); many cells of one cost (an accuracy study's hundreds) each stop
// after one sample.
func (r *run) besideMS(others []*cell) float64 {
	defer r.price.hold()()
	rest := 0.0
	for _, x := range others {
		rest += r.price.cell(x)
	}
	return rest / float64(len(others))
}

// FirstPassCheap is the run below which a cell of an unsettled claim
// keeps sampling in the first pass: such samples cost little beside the
// budget, and settle claims at once.
const FirstPassCheap = 20 * time.Millisecond

// settleAll is the second pass: each claim left unsettled by the first,
// the cheapest first, tops its cells up (settleClaim), the paper's sizes
// before the cheaper levels.
func (r *run) settleAll() error {
	if !r.budget.on() {
		return nil
	}
	for _, lv := range []int{levelPaper, levelLeast} {
		for _, cp := range r.measuredClaims(lv) {
			if err := r.interrupted(); err != nil {
				return err
			}
			if r.budget.spent() {
				return nil
			}
			if err := r.settleClaim(cp, cp.levels[lv]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Cheap top-ups before a costly claim: in the first pass at the papers'
// sizes, before a claim whose cells cost more than a cheapSettleAt-th of
// the budget left, each claim already measured and left unsettled whose
// top-ups cost at most a cheapSettleShare-th of it is topped up
// (settleClaim), once: a claim that seconds of samples decide is not left
// to a second pass that the costly claims may leave no time for (the
// H100's 7-minute run of 67c2d1c ended its first pass 45 s before the
// budget, with Fig. 5's tie at 0.1n, on cells of 50 ms, unsettled).
const (
	cheapSettleAt    = 10
	cheapSettleShare = 20
)

// settleCheap tops up the claims at the papers' sizes that are measured,
// unsettled and cheap to top up (see cheapSettleShare), each once a run,
// all of them within a cheapSettleShare-th of the budget left.
func (r *run) settleCheap() error {
	if !r.budget.on() {
		return nil
	}
	end := r.budget.left() * (1 - 1.0/cheapSettleShare) // all of them together within the share
	for _, cp := range r.plan.claims {
		cells := cp.levels[levelPaper]
		if cells == nil || cp.cheapTried || !allMeasured(cells) || r.topUpCost(cp, cells) > r.budget.left()-end {
			continue
		}
		cp.cheapTried = true
		if err := r.settleClaim(cp, cells); err != nil {
			return err
		}
	}
	return nil
}

// topUpCost bounds what settleClaim may spend on cp's cells: each cell's
// samples up to its maxSamples (a long cell, one more run).
func (r *run) topUpCost(cp *claimPlan, cells []*cell) float64 {
	sum := 0.0
	for _, c := range cells {
		n := r.ledger.samples(c)
		per := r.price.runWall(c) + r.price.lookMS(c, cp)
		switch {
		case n == 0 || n >= r.maxSamples(c):
		case r.price.long(c):
			sum += per
		default:
			sum += per * float64(r.maxSamples(c)-n)
		}
	}
	return saturate(sum)
}

// refsOf names cells as the claims' rules look them up.
func refsOf(cells []*cell) []experiments.CellRef {
	var out []experiments.CellRef
	for _, c := range cells {
		out = append(out, experiments.CellRef{Experiment: c.exp.Name, Impl: c.impl, Params: c.cs.Params})
		for _, a := range c.aliases {
			out = append(out, experiments.CellRef{Experiment: a.exp.Name, Impl: a.impl, Params: a.cs.Params})
		}
	}
	return out
}

// settleClaim tops up the cells of a claim level whose verdict their
// samples leave unsettled, the cell with the fewest samples first (the
// cheaper on a tie), until it settles, every cell has its maxSamples (a
// long cell, one more run), or the budget cannot pay for the next.
func (r *run) settleClaim(cp *claimPlan, cells []*cell) error {
	if !r.budget.on() || !allMeasured(cells) {
		return nil
	}
	tried := map[*cell]bool{}
	for {
		t0 := time.Now()
		st := experiments.SettleClaimOf(r.plan.hosts[cp.id], cp.id, r.ledger.recs, refsOf(cells), r.aa.noise, r.cfg.Reps)
		r.looked(cp, len(cells), msSince(t0))
		cp.unsettled = !st.Settled // its top-ups' looks judge it first
		if st.Settled || st.Claim.Verdict == experiments.NotRun {
			return nil
		}
		var next *cell
		nextN := 0
		for _, c := range cells {
			n := r.ledger.samples(c)
			if tried[c] || n == 0 || n >= r.maxSamples(c) {
				continue
			}
			if next == nil || n < nextN || n == nextN && r.price.cell(c) < r.price.cell(next) {
				next, nextN = c, n
			}
		}
		if next == nil {
			return nil
		}
		tried[next] = true
		extra := r.maxSamples(next) - nextN
		if r.price.long(next) {
			// One more run of a long cell (the Kleene CPU program at n =
			// 4000: half a minute), then the claim is judged again: up to
			// --reps of them would spend minutes of the budget on one claim.
			extra = 1
		}
		if err := r.topUp(next, extra, passTopUp, cp); err != nil {
			return err
		}
	}
}

// CheapFactor is how many times --reps a cheap cell may take while its
// claims are unsettled: its interval narrows with the square root of its
// samples (the error split over all of them: stats.CellBounds), so a
// claim near its band's edge on cells of milliseconds (Fig. 5's CPU
// algorithms at n = 2048, treefix's growth over 20 trees) can settle.
const CheapFactor = 4

// CheapShare is the share of the budget a cheap cell's samples beyond
// --reps may cost at most: a hundredth (4.2 s of a 7-minute run).
const CheapShare = 100

// maxSamples is the most samples c takes while its claims are unsettled:
// --reps, or CheapFactor times it for a cell whose extra samples cost at
// most a CheapShare-th of the budget.
func (r *run) maxSamples(c *cell) int {
	per := r.price.runWall(c)
	if r.cfg.Budget > 0 && per*float64((CheapFactor-1)*r.cfg.Reps) <= float64(r.cfg.Budget)/1e6/CheapShare {
		return CheapFactor * r.cfg.Reps
	}
	return r.cfg.Reps
}

// refine brings every claim's cells up to --reps with what is left of the
// budget, the paper's sizes first, the cheapest first: so that benchstat
// and the tables read full samples.
func (r *run) refine() error {
	if !r.budget.on() {
		return nil
	}
	for _, lv := range []int{levelPaper, levelLeast} {
		var cells []*cell
		for _, cp := range r.plan.claims {
			for _, c := range cp.levels[lv] {
				if !slices.Contains(cells, c) && c.measured && r.ledger.samples(c) > 0 && r.ledger.samples(c) < r.cfg.Reps {
					cells = append(cells, c)
				}
			}
		}
		slices.SortStableFunc(cells, func(a, b *cell) int { return cmpFloat(r.price.cell(a), r.price.cell(b)) })
		for _, c := range cells {
			if err := r.interrupted(); err != nil {
				return err
			}
			if r.budget.spent() {
				return nil
			}
			if err := r.topUp(c, r.cfg.Reps-r.ledger.samples(c), passRefine, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// topUp measures extra more samples of c in pass p (passTopUp or
// passRefine) and appends its record again with every sample, the earlier
// ones first (a later record of a cell replaces the earlier for every
// reader). A top-up stops early once c's claims are settled; a refine
// takes as many as the budget pays for. A top-up the budget cannot pay
// for is left. topped is the claim a top-up is for (nil: a refine).
func (r *run) topUp(c *cell, extra int, p pass, topped *claimPlan) error {
	prev := r.ledger.last(c)
	if prev == nil || extra <= 0 {
		return nil
	}
	want := extra
	settle := p != passRefine
	if !settle {
		// The refine takes as many samples as the budget pays for, priced
		// by the cell's wall (its record measured it): 2-domination's
		// formula at m = 12 on the H200 (its record: one sample of 16.4 s
		// and a check of 9.3 s) was given five more samples with 64 s
		// left, stopped at the budget's end, and the 57 s it ran were lost
		// with them.
		extra = refineSamples(extra, r.price.runWall(c), r.price.topUp(c, 0, p, topped), r.budget.left())
	}
	est := r.price.topUp(c, extra, p, topped)
	if extra <= 0 || est > r.budget.left() {
		return nil
	}
	warm := 0
	if strings.HasPrefix(c.impl, "cuda/") {
		warm = r.price.protocol(c).Warmup
	}
	r.meter.cell(passName(p, true), c, warm, extra, r.eta(est, r.remaining(c)), r.plan.atPaper())
	rec, err := r.measureMore(c, *prev, extra, p)
	if err != nil || rec.Status != bench.StatusOK {
		return err // a top-up that failed or was stopped leaves the earlier record standing
	}
	n := len(experiments.SamplesOf(&rec, bench.TotalPhase))
	rec.EstimateWallMS = prev.EstimateWallMS + est
	rec.EstimateMS = rec.EstimateWallMS
	switch {
	case !settle && extra < want:
		rec.Stop = fmt.Sprintf("%d sample(s): refined with the budget left once every claim had its turn, as many as it paid for (--reps %d); before, %s", n, r.cfg.Reps, prev.Stop)
	case !settle:
		rec.Stop = fmt.Sprintf("%d sample(s): refined to --reps with the budget left once every claim had its turn; before, %s", n, prev.Stop)
	case extra == 1 && r.price.long(c) && n < r.cfg.Reps:
		rec.Stop = fmt.Sprintf("%d sample(s): one more run of a long cell, its claims not settled by the first", n)
	}
	return r.out.AppendAll(r.ledger.keep(c, rec))
}

// refineSamples is how many of want more samples fit in left ms when each
// costs per ms and the top-up fixed ms once.
func refineSamples(want int, per, fixed, left float64) int {
	k := (left - fixed) / per
	switch {
	case per <= 0 || k >= float64(want): // also an unbounded left (+Inf)
		return want
	case k < 1 || math.IsNaN(k):
		return 0
	}
	return int(k)
}

// mergePhases joins a record's earlier phases with new samples of the same
// phases, the earlier samples first; a phase one side lacks gets 0 there.
func mergePhases(old, add []bench.Phase, statistic string) []bench.Phase {
	nOld, nAdd := phaseLen(old), phaseLen(add)
	var out []bench.Phase
	names := map[string]bool{}
	for _, p := range old {
		names[p.Name] = true
		q := p
		q.SamplesMS = slices.Clone(p.SamplesMS)
		if a := findPhase(add, p.Name); a != nil {
			q.SamplesMS = append(q.SamplesMS, a.SamplesMS...)
		} else {
			q.SamplesMS = append(q.SamplesMS, make([]float64, nAdd)...)
		}
		out = append(out, q)
	}
	for _, p := range add {
		if !names[p.Name] {
			q := p
			q.SamplesMS = append(make([]float64, nOld), p.SamplesMS...)
			out = append(out, q)
		}
	}
	for i := range out {
		out[i].MedianMS = bench.Median(out[i].SamplesMS)
		out[i].StatMS = bench.Summarize(statistic, out[i].SamplesMS)
	}
	return out
}

func phaseLen(ps []bench.Phase) int {
	for _, p := range ps {
		return len(p.SamplesMS)
	}
	return 0
}

func findPhase(ps []bench.Phase, name string) *bench.Phase {
	for i := range ps {
		if ps[i].Name == name {
			return &ps[i]
		}
	}
	return nil
}

// measuredClaims is the claims whose cells at level lv are all measured,
// the cheapest to measure again (a run of each cell) first.
func (r *run) measuredClaims(lv int) []*claimPlan {
	var cps []*claimPlan
	for _, cp := range r.plan.claims {
		if cells := cp.levels[lv]; cells != nil && allMeasured(cells) {
			cps = append(cps, cp)
		}
	}
	slices.SortStableFunc(cps, func(a, b *claimPlan) int {
		return cmpFloat(r.price.oneRunEach(a.levels[lv]), r.price.oneRunEach(b.levels[lv]))
	})
	return cps
}
