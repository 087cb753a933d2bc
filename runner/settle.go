package runner

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/stats"
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

// indexReaders records which claims read each cell.
func (r *run) indexReaders() {
	r.readers = map[*cell][]*claimPlan{}
	for _, cp := range r.plan.claims {
		for _, lv := range cp.levels {
			for _, c := range lv {
				if !slices.Contains(r.readers[c], cp) {
					r.readers[c] = append(r.readers[c], cp)
				}
			}
		}
	}
}

// settleHook makes a cell's repetitions stop when its claims are settled.
// prev is the cell's earlier record when the run tops it up, else nil.
func (r *run) settleHook(c *cell, p *bench.Protocol, rec *bench.Record, inst *experiments.Instance, prev *bench.Record) {
	if !r.settling || len(r.readers[c]) == 0 || p.Reps <= 1 {
		return
	}
	per := r.est.estimate(c.exp, c.impl, c.cs)
	p.Enough = func(phases []bench.Phase) bool {
		if per > r.left() {
			rec.Stop = fmt.Sprintf("stopped after %d sample(s): the budget left pays for no more", len(phases[0].SamplesMS))
			return true
		}
		partial := *rec
		partial.Status, partial.Input, partial.Metrics = bench.StatusOK, inst.Input, inst.Metrics
		partial.Phases = phases
		if prev != nil {
			partial.Phases = mergePhases(prev.Phases, phases, partial.Statistic)
		}
		stop, why := r.settled(c, partial)
		if stop {
			rec.Stop = why
		}
		return stop
	}
}

// settled reports whether c, with the record partial, may stop sampling,
// and why.
func (r *run) settled(c *cell, partial bench.Record) (bool, string) {
	var recs []bench.Record // the run's records with partial, built when a claim is judged
	withPartial := func() []bench.Record {
		if recs == nil {
			recs = append(slices.Clone(r.recs), partial)
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
	readers := slices.Clone(r.readers[c])
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
			if r.cheapBeside(per, n, others) {
				return false, ""
			}
			waiting = append(waiting, cp.id)
			continue
		}
		st := experiments.SettleClaimOf(r.hosts[cp.id], cp.id, withPartial(), refsOf(cells), r.noise, r.cfg.Reps)
		cp.unsettled = !st.Settled
		if !st.Settled {
			if r.firstPass && per >= float64(FirstPassCheap)/1e6 {
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

// cheapBeside reports whether the samples still to take (after n, per ms
// each) cost at most a quarter of what the claim's other cells still to
// run cost on average: then the cell takes its --reps while the claim
// waits for them (a cheap cell beside a costly one). Many cells of one
// cost (an accuracy study's hundreds) each stop after one sample.
func (r *run) cheapBeside(per float64, n int, others []*cell) bool {
	rest := 0.0
	for _, x := range others {
		rest += r.estimate(x)
	}
	return per*float64(r.cfg.Reps-n) <= rest/float64(4*len(others))
}

// FirstPassCheap is the run below which a cell of an unsettled claim
// keeps sampling in the first pass: such samples cost little beside the
// budget, and settle claims at once.
const FirstPassCheap = 20 * time.Millisecond

// settleAll is the second pass: each claim left unsettled by the first,
// the cheapest first, tops its cells up (settleClaim), the paper's sizes
// before the cheaper levels.
func (r *run) settleAll() error {
	if !r.settling {
		return nil
	}
	r.firstPass = false
	for _, lv := range []int{levelPaper, levelLeast} {
		var cps []*claimPlan
		for _, cp := range r.plan.claims {
			if cells := cp.levels[lv]; cells != nil && allMeasured(cells) {
				cps = append(cps, cp)
			}
		}
		slices.SortStableFunc(cps, func(a, b *claimPlan) int { return cmpFloat(r.claimRunCost(a.levels[lv]), r.claimRunCost(b.levels[lv])) })
		for _, cp := range cps {
			if err := r.interrupted(); err != nil {
				return err
			}
			if r.spent() {
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
	if !r.settling {
		return nil
	}
	end := r.left() * (1 - 1.0/cheapSettleShare) // all of them together within the share
	saved := r.firstPass
	r.firstPass = false // a top-up samples as the second pass does
	defer func() { r.firstPass = saved }()
	for _, cp := range r.plan.claims {
		cells := cp.levels[levelPaper]
		if cells == nil || r.cheapTried[cp] || !allMeasured(cells) || r.topUpCost(cells) > r.left()-end {
			continue
		}
		r.cheapTried[cp] = true
		if err := r.settleClaim(cp, cells); err != nil {
			return err
		}
	}
	return nil
}

// topUpCost bounds what settleClaim may spend on cells: each cell's
// samples up to its maxSamples (a long cell, one more run).
func (r *run) topUpCost(cells []*cell) float64 {
	sum := 0.0
	for _, c := range cells {
		n := r.samples(c)
		per := r.est.estimate(c.exp, c.impl, c.cs)
		switch {
		case n == 0 || n >= r.maxSamples(c):
		case r.long(c):
			sum += per
		default:
			sum += per * float64(r.maxSamples(c)-n)
		}
	}
	return saturate(sum)
}

// claimRunCost is the estimate of one more run of each of the cells.
func (r *run) claimRunCost(cells []*cell) float64 {
	sum := 0.0
	for _, c := range cells {
		sum += r.est.estimate(c.exp, c.impl, c.cs)
	}
	return sum
}

// levelOf is the level of the claim's cells that holds c (its paper
// level first).
func (cp *claimPlan) levelOf(c *cell) []*cell {
	for _, lv := range []int{levelPaper, levelLeast} {
		if slices.Contains(cp.levels[lv], c) {
			return cp.levels[lv]
		}
	}
	return nil
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
	if !r.settling || !allMeasured(cells) {
		return nil
	}
	tried := map[*cell]bool{}
	for {
		if st := experiments.SettleClaimOf(r.hosts[cp.id], cp.id, r.recs, refsOf(cells), r.noise, r.cfg.Reps); st.Settled || st.Claim.Verdict == experiments.NotRun {
			return nil
		}
		var next *cell
		nextN := 0
		for _, c := range cells {
			n := r.samples(c)
			if tried[c] || n == 0 || n >= r.maxSamples(c) {
				continue
			}
			if next == nil || n < nextN || n == nextN && r.estimate(c) < r.estimate(next) {
				next, nextN = c, n
			}
		}
		if next == nil {
			return nil
		}
		tried[next] = true
		extra := r.maxSamples(next) - nextN
		if r.long(next) {
			// One more run of a long cell (the Kleene CPU program at n =
			// 4000: half a minute), then the claim is judged again: up to
			// --reps of them would spend minutes of the budget on one claim.
			extra = 1
		}
		if err := r.topUp(next, extra, true); err != nil {
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
	per := r.est.estimate(c.exp, c.impl, c.cs)
	if r.cfg.Budget > 0 && per*float64((CheapFactor-1)*r.cfg.Reps) <= float64(r.cfg.Budget)/1e6/CheapShare {
		return CheapFactor * r.cfg.Reps
	}
	return r.cfg.Reps
}

// refine brings every claim's cells up to --reps with what is left of the
// budget, the paper's sizes first, the cheapest first: so that benchstat
// and the tables read full samples.
func (r *run) refine() error {
	if !r.settling {
		return nil
	}
	for _, lv := range []int{levelPaper, levelLeast} {
		var cells []*cell
		for _, cp := range r.plan.claims {
			for _, c := range cp.levels[lv] {
				if !slices.Contains(cells, c) && c.measured && r.samples(c) > 0 && r.samples(c) < r.cfg.Reps {
					cells = append(cells, c)
				}
			}
		}
		slices.SortStableFunc(cells, func(a, b *cell) int { return cmpFloat(r.estimate(a), r.estimate(b)) })
		for _, c := range cells {
			if err := r.interrupted(); err != nil {
				return err
			}
			if r.spent() {
				return nil
			}
			if err := r.topUp(c, r.cfg.Reps-r.samples(c), false); err != nil {
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

// last is the record this run wrote last for c, or nil.
func (r *run) last(c *cell) *bench.Record {
	for i := len(r.recs) - 1; i >= 0; i-- {
		if r.recs[i].Key() == c.key {
			return &r.recs[i]
		}
	}
	return nil
}

// samples is the number of timed samples c's last record holds (0 when
// it has none, or did not pass its check).
func (r *run) samples(c *cell) int {
	rec := r.last(c)
	if rec == nil || rec.Status != bench.StatusOK || rec.ReusedFrom != "" {
		return 0
	}
	return len(experiments.SamplesOf(rec, bench.TotalPhase))
}

// topUp measures extra more samples of c and appends its record again
// with every sample, the earlier ones first (a later record of a cell
// replaces the earlier for every reader). settle stops it early once
// c's claims are settled. A top-up the budget cannot pay for is left.
func (r *run) topUp(c *cell, extra int, settle bool) error {
	prev := r.last(c)
	if prev == nil || extra <= 0 {
		return nil
	}
	per := r.est.estimate(c.exp, c.impl, c.cs)
	want := extra
	if !settle {
		// The refine takes as many samples as the budget pays for, priced
		// by what the cell's record measured: 2-domination's formula at
		// m = 12 on the H200 (its record: one sample of 16.4 s and a check
		// of 9.3 s) was given five more samples with 64 s left, stopped at
		// the budget's end, and the 57 s it ran were lost with them.
		var fixed float64
		per, fixed = r.topUpCosts(c, prev, per)
		extra = refineSamples(extra, per, fixed, r.left())
	}
	if extra <= 0 || per*float64(extra) > r.left() {
		return nil
	}
	r.meter.cell(r.done, r.total, c, r.eta(per*float64(extra), r.remaining(c)), r.atPaper())
	saved := r.settling
	r.settling = settle
	rec, err := r.measureMore(c, *prev, extra)
	r.settling = saved
	if err != nil || rec.Status != bench.StatusOK {
		return err // a top-up that failed or was stopped leaves the earlier record standing
	}
	n := len(experiments.SamplesOf(&rec, bench.TotalPhase))
	switch {
	case !settle && extra < want:
		rec.Stop = fmt.Sprintf("%d sample(s): refined with the budget left once every claim had its turn, as many as it paid for (--reps %d); before, %s", n, r.cfg.Reps, prev.Stop)
	case !settle:
		rec.Stop = fmt.Sprintf("%d sample(s): refined to --reps with the budget left once every claim had its turn; before, %s", n, prev.Stop)
	case extra == 1 && r.long(c) && n < r.cfg.Reps:
		rec.Stop = fmt.Sprintf("%d sample(s): one more run of a long cell, its claims not settled by the first", n)
	}
	return r.out.AppendAll(r.keep(c, rec))
}

// topUpCosts prices a top-up of c from its last record prev: a sample
// costs the planner's estimate est, or the wall time per run the record
// measured when that is more (warm-ups and the time between windows
// included); once per top-up come the record's setup and check times and,
// for a CUDA cell, a warm-up run (measureMore takes one there).
func (r *run) topUpCosts(c *cell, prev *bench.Record, est float64) (per, fixed float64) {
	per = est
	if w := prev.Wall; w != nil {
		if runs := len(experiments.SamplesOf(prev, bench.TotalPhase)) + len(prev.WarmupMS); runs > 0 {
			per = max(per, w.MeasureMS/float64(runs))
		}
		fixed = w.SetupMS + w.CheckMS
	}
	if strings.HasPrefix(c.impl, "cuda/") && r.protocol(c).Warmup > 0 {
		fixed += per
	}
	return per, fixed
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

// aaState is the run's A/A measurement: a few cheap cells of the claims,
// measured again apart in time, whose spread is the machine's noise.
type aaState struct {
	cells []*cell
	pairs [][2][]float64
	names []string
}

// aaPerBackend is how many cells per backend (CPU, GPU) the A/A pairs use.
const aaPerBackend = 2

// chooseAA picks the A/A cells: per backend the cheapest claim cells of
// distinct experiments estimated at 20 ms to 1 s a run (shorter cells'
// spread is the timer's and the launch's more than the machine's), none
// of a case whose work the run's store may share (Case.ReadsShared: its
// second measurement may read what the first computed; 2-domination's
// cuda/sparse at m = 8 gave a noise of 41% on the H100 that way).
func (r *run) chooseAA() {
	byBackend := map[bool][]*cell{}
	for c := range r.readers {
		if c.unavailable != nil || c.done || c.cs.ReadsShared != nil {
			continue
		}
		if ms := r.est.estimate(c.exp, c.impl, c.cs); ms >= 20 && ms <= 1000 {
			gpu := strings.HasPrefix(c.impl, "cuda/")
			byBackend[gpu] = append(byBackend[gpu], c)
		}
	}
	for _, gpu := range []bool{false, true} {
		cs := byBackend[gpu]
		slices.SortStableFunc(cs, func(a, b *cell) int {
			if d := cmpFloat(r.estimate(a), r.estimate(b)); d != 0 {
				return d
			}
			return a.order - b.order
		})
		var exps []string
		for _, c := range cs {
			if len(exps) == aaPerBackend || slices.Contains(exps, c.exp.Name) {
				continue
			}
			exps = append(exps, c.exp.Name)
			r.aa.cells = append(r.aa.cells, c)
		}
	}
}

// aaFirstPairs is the least time between the A/A cells' first
// measurement and their pairs: the pairs come at the end of the cheaper
// level's pass, or at a sixth of the budget and a minute at least if that
// pass lasts longer (a 3-minute run on two cores spent its whole budget
// in it, on Rote's sweep, and measured no noise).
const aaFirstPairs = time.Minute

// aaWhenDue measures the first A/A pairs once their time (aaDue) has come.
func (r *run) aaWhenDue() error {
	if !r.settling || r.aaBusy || len(r.aa.pairs) > 0 || r.aaDue.IsZero() || time.Now().Before(r.aaDue) {
		return nil
	}
	r.aaBusy = true
	defer func() { r.aaBusy = false }()
	return r.runAA(true)
}

// runAA measures the A/A cells (their records are the run's like any
// other's) when they have none yet; with pair, it measures each again: a
// pair per cell, its two sides minutes apart. The noise becomes what the
// pairs measured so far say, written as a note of the result file. (A
// pair measured at once, at the run's start, is not apart in time: on the
// 2-core Xeon cpu/jv's repeat there took 41.6 ms against 55.4 ms first
// and 54.9 ms minutes later, and the H100's runs read a noise of 14% from
// such pairs.)
func (r *run) runAA(pair bool) error {
	for _, c := range r.aa.cells {
		if !c.done {
			saved := r.settling
			r.settling, r.aaRunning = false, true // an A/A cell takes --reps: its spread is part of the noise
			err := r.runCell(c, nil)
			r.settling, r.aaRunning = saved, false
			if err != nil {
				return err
			}
		}
	}
	if !pair {
		return nil
	}
	for _, c := range r.aa.cells {
		first := r.last(c)
		if first == nil || first.Status != bench.StatusOK {
			continue
		}
		again, err := r.measureMore(c, bench.Record{}, r.cfg.Reps)
		if err != nil {
			return err
		}
		if again.Status != bench.StatusOK || again.ReusedFrom != "" || first.ReusedFrom != "" {
			continue
		}
		a, b := experiments.SamplesOf(first, bench.TotalPhase), experiments.SamplesOf(&again, bench.TotalPhase)
		r.aa.pairs = append(r.aa.pairs, [2][]float64{a, b})
		r.aa.names = append(r.aa.names, fmt.Sprintf("%s %s %.4g then %.4g ms", c.impl, c.cs.Params.String(), stats.Median(a), stats.Median(b)))
	}
	if len(r.aa.pairs) == 0 {
		return nil
	}
	// The settle rule reads the noise as the spread of one sample about
	// its cell's typical time: the larger of the drift between the pairs'
	// medians and the spread of the A/A cells' own samples (the median
	// cell's).
	sigma, n := stats.NoiseFromPairs(r.aa.pairs)
	var spreads []float64
	for _, p := range r.aa.pairs {
		for _, s := range p {
			if sd := stats.LogSD(s); sd > 0 {
				spreads = append(spreads, sd)
			}
		}
	}
	if len(spreads) > 0 {
		sigma = max(sigma, stats.Median(spreads))
	}
	if sigma > 0 {
		r.noise = sigma
		r.out.AddNotes(experiments.NoiseNote(sigma, n, strings.Join(r.aa.names, "; ")))
	}
	return nil
}
