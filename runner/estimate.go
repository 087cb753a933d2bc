package runner

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/stats"
)

// pricer prices cells for the planner: what one timed run of a cell takes
// (the estimator, or the cell's earlier runs on this machine kind), how
// many runs it takes in a pass, and so what the whole cell costs, its
// setup, runs, looks and check (the wall model, wall.go). Every budget
// decision reads it.
type pricer struct {
	cfg    *Config
	est    *estimator
	wall   *wallModel
	budget *budget
	aa     *aaPairs // the A/A cells, measured in full
	hand   *hand    // the case in hand: a cell of another pays its setup
	plan   *plan    // the claims reading each cell; nil while the plan is made
	runs   float64  // warm-up plus timed runs of a cell measured in full
	// memo holds each claim level's unmeasured cells' cost while the
	// pricer is held (hold); nil otherwise.
	memo map[levelKey]levelCost
}

func newPricer(cfg *Config, b *budget, aa *aaPairs, h *hand) *pricer {
	p := &pricer{cfg: cfg, est: newEstimator(), budget: b, aa: aa, hand: h, runs: float64(cfg.Warmup + cfg.Reps)}
	p.wall = newWallModel(cfg.Past, func(e *experiments.Experiment, impl string, cs *experiments.Case) (float64, string) {
		return p.est.explain(e, impl, cs)
	})
	return p
}

// setPlan gives the pricer the plan it prices.
func (p *pricer) setPlan(pl *plan) {
	p.plan = pl
	p.wall.byImpl = map[string][]*cell{}
	for _, c := range pl.cells {
		p.wall.byImpl[loadKey(c)] = append(p.wall.byImpl[loadKey(c)], c)
	}
}

// perRun is the estimate of one timed run of c in milliseconds: the
// median of its earlier runs on this machine kind, else its experiment's
// other cells' history or the estimator's (wallModel.timedOf).
func (p *pricer) perRun(c *cell) float64 {
	if pc := p.wall.pastOf(c); pc != nil && pc.timed > 0 {
		return p.wall.drift() * pc.timed
	}
	ms, _ := p.wall.timedOf(c)
	return ms
}

// explain is the estimate of one timed run of c and what it rests on.
func (p *pricer) explain(c *cell) (float64, string) {
	if pc := p.wall.pastOf(c); pc != nil && pc.timed > 0 {
		basis := fmt.Sprintf("this cell's median run in %d earlier run(s) of this machine kind", pc.runs)
		if pc.source != "" {
			basis = fmt.Sprintf("the median run of %s, which computed this cell's work in %d earlier run(s) of this machine kind", pc.source, pc.runs)
		}
		if d := p.wall.drift(); d != 1 {
			basis += fmt.Sprintf(", times %.2f (this run's cells against their history so far)", d)
		}
		return p.wall.drift() * pc.timed, basis
	}
	return p.wall.timedOf(c)
}

// extrapolated reports whether c's estimate reaches beyond what this
// machine kind has measured (UnprovenMargin): c has no earlier run of its
// own with a wall, and its work exceeds that of every other cell of its
// experiment and implementation measured in this run or with such
// runs, where one is. A cell priced by its prior alone, none of its
// kind measured, is not: nothing was scaled up.
func (p *pricer) extrapolated(c *cell) bool {
	if pc := p.wall.pastOf(c); pc != nil && !pc.bare || p.plan == nil {
		return false
	}
	most := 0.0
	for _, x := range p.plan.cells {
		if x == c || x.exp != c.exp || x.impl != c.impl {
			continue
		}
		if pc := p.wall.pastOf(x); x.measured || pc != nil && !pc.bare {
			most = max(most, x.cs.WorkOf(x.impl))
		}
	}
	return most > 0 && c.cs.WorkOf(c.impl) > most
}

// runWall is the estimate of one run of c with whatever it does around
// its timed window (its earlier runs' wall, else the fitted model).
func (p *pricer) runWall(c *cell) float64 {
	if pc := p.wall.pastOf(c); pc != nil {
		return p.wall.drift() * pc.perRun
	}
	return p.wall.runWall(c)
}

// planned is how many warm-ups and samples c is expected to take when
// measured in pass ps: one run for a long cell; for a cell that the settle
// rule stops, one sample, or --reps when a run is cheap (FirstPassCheap:
// it samples on while its claims are unsettled); else --reps.
func (p *pricer) planned(c *cell, ps pass) (warm, samples int) {
	pr := p.protocol(c)
	switch {
	case p.long(c):
		return 0, 1
	case ps == passAA || !ps.settles(p.budget.on()) || !p.read(c):
		return pr.Warmup, pr.Reps
	case p.perRun(c) < float64(FirstPassCheap)/1e6 || ps == passClaims && p.waitsCheaply(c):
		return pr.Warmup, pr.Reps
	}
	return pr.Warmup, 1
}

// waitsCheaply reports whether c, in the claims' first pass, will take
// its --reps while a claim it feeds waits for dearer cells (run.cheapBeside:
// its samples cost at most a quarter of what each of those still costs),
// priced by their timed runs.
func (p *pricer) waitsCheaply(c *cell) bool {
	if p.plan == nil {
		return false
	}
	for _, cp := range p.plan.readers[c] {
		rest, n := p.unmeasured(cp, c)
		if !c.measured {
			rest -= p.firstRuns(c)
			n--
		}
		if n > 0 && p.perRun(c)*float64(p.cfg.Reps-1) <= rest/float64(4*n) {
			return true
		}
	}
	return false
}

// firstRuns is what c's warm-up and first sample cost by their timed runs.
func (p *pricer) firstRuns(c *cell) float64 {
	return p.perRun(c) * float64(p.protocol(c).Warmup+1)
}

// unmeasured is what the unmeasured cells of the level of cp holding c
// cost by their first runs (firstRuns), and how many they are: read once
// per level while the pricer is held (hold).
func (p *pricer) unmeasured(cp *claimPlan, c *cell) (float64, int) {
	lv, _ := cp.level(c)
	k := levelKey{cp, lv}
	if v, ok := p.memo[k]; ok {
		return v.ms, v.n
	}
	var v levelCost
	for _, x := range cp.levels[lv] {
		if !x.measured {
			v.ms += p.firstRuns(x)
			v.n++
		}
	}
	if p.memo != nil {
		p.memo[k] = v
	}
	return v.ms, v.n
}

// levelKey names a claim's level of cells, and levelCost what its
// unmeasured cells cost (unmeasured).
type (
	levelKey struct {
		cp *claimPlan
		lv int
	}
	levelCost struct {
		ms float64
		n  int
	}
)

// hold keeps what unmeasured reads of each claim level until the
// returned release: for a batch of prices between which nothing is
// measured (a look of the settle rule, the pending cells' estimate), so
// that a claim over hundreds of cells is read once a batch, not once per
// cell priced (treefix/accuracy's looks on the H200 took 0.1-0.3 s each,
// 16 s of a 7-minute run of 9b86b0f). Holds nest.
func (p *pricer) hold() (release func()) {
	if p.memo != nil {
		return func() {}
	}
	p.memo = map[levelKey]levelCost{}
	return func() { p.memo = nil }
}

// wallPlan is c's measurement in pass ps of warm warm-ups and samples
// samples, setting its case up when setup is set; topped is the claim a
// top-up is for (nil: none).
func (p *pricer) wallPlan(c *cell, ps pass, warm, samples int, setup bool, topped *claimPlan) wallPlan {
	pl := wallPlan{runs: warm + samples, setup: setup, check: true, implCells: p.wall.byImpl[loadKey(c)],
		load: p.wall.willLoad(c) && warm+samples > 0}
	if setup {
		pl.siblngs = p.siblings(c)
	}
	if ps.settles(p.budget.on()) && p.read(c) && samples > 1 {
		pl.looks, pl.lookMS = samples-1, p.lookMS(c, topped)
	}
	return pl
}

// siblings are the plan's cells of c's input (inputKey).
func (p *pricer) siblings(c *cell) []*cell {
	if p.plan == nil {
		return []*cell{c}
	}
	return p.plan.byInput[inputKey(c)]
}

// lookMS is what one look of the settle rule after a sample of c costs,
// as settled spends it: the claims c feeds are judged, those unsettled at
// their last look first (topped, the claim a top-up is for, among them),
// each at its last judgment's cost (else the per-cell prior), and the
// first expected unsettled ends the look; a claim waiting for its other
// cells is not judged (what they cost is read once a measurement). The
// H200's second run of 9b86b0f priced its top-ups of treefix/fig4's
// cuda/vectorial cells at every claim they feed, judged in full each
// look: 6.1-7.1 s for 24 samples, which took 0.45-0.95 s (a look of
// 17 ms: the claim topped up judged, unsettled, and the look ended).
func (p *pricer) lookMS(c *cell, topped *claimPlan) float64 {
	if p.plan == nil {
		return 0
	}
	sum := 0.0
	for _, unsettled := range []bool{true, false} {
		for _, cp := range p.plan.readers[c] {
			if (cp.unsettled || cp == topped) != unsettled {
				continue
			}
			_, n := p.unmeasured(cp, c)
			if !c.measured {
				n--
			}
			if n > 0 {
				continue
			}
			if cp.lookMS > 0 {
				sum += cp.lookMS
			} else {
				sum += p.wall.lookMS(len(cp.levelOf(c)))
			}
			if unsettled {
				return sum
			}
		}
	}
	return sum
}

// cellIn is c's estimated wall in milliseconds measured in pass ps, its
// setup included unless its case is in hand.
func (p *pricer) cellIn(c *cell, ps pass) float64 {
	warm, samples := p.planned(c, ps)
	ms, _ := p.wall.estimate(c, p.wallPlan(c, ps, warm, samples, p.hand.cs != c.cs, nil))
	return ms
}

// replicate is the estimated wall of one replicate of c at the outer
// level under protocol pr: a fresh process starts, sets the case up as
// a new input and loads a CUDA module; a fresh allocation sets the case
// up again, its input in the run's store.
func (p *pricer) replicate(c *cell, level string, pr bench.Protocol) float64 {
	pl := wallPlan{runs: pr.Warmup + pr.Reps, setup: true, check: true, siblngs: p.siblings(c), implCells: p.wall.byImpl[loadKey(c)]}
	start := 0.0
	if level == bench.LevelProcess {
		// a fresh process loads the module in its cell, or, loading the
		// kernels first, in its own time (startMS)
		pl.load = strings.HasPrefix(c.impl, "cuda/") && !p.wall.kernels
		start = p.wall.startMS()
		pl.cold = true
	}
	ms, _ := p.wall.estimate(c, pl)
	return saturate(max(ms+start, p.wall.replicas[c.key])) // the last replicate measured, where there is one
}

// topUp is the estimated wall of extra more samples of c in pass ps
// (measureMore: a CUDA cell's warm-up again; its case set up again unless
// in hand) for the claim topped (nil: a refine).
func (p *pricer) topUp(c *cell, extra int, ps pass, topped *claimPlan) float64 {
	warm := 0
	if strings.HasPrefix(c.impl, "cuda/") {
		warm = p.protocol(c).Warmup
	}
	ms, _ := p.wall.estimate(c, p.wallPlan(c, ps, warm, extra, p.hand.cs != c.cs, topped))
	return ms
}

// read reports whether a claim reads c.
func (p *pricer) read(c *cell) bool { return p.plan != nil && len(p.plan.readers[c]) > 0 }

// long reports whether one run of c is estimated beyond LongRun.
func (p *pricer) long(c *cell) bool {
	return p.cfg.LongRun > 0 && p.perRun(c) > float64(p.cfg.LongRun)/1e6
}

// protocol is the cell's timing protocol: the run's, or one run without
// warm-up for a cell whose one run is estimated beyond LongRun; in a
// budgeted run a cell whose one run is estimated at NoWarmup or more has
// no warm-up, a GPU cell once its implementation has finished a cell of
// this run (see NoWarmup).
func (p *pricer) protocol(c *cell) bench.Protocol {
	pr := bench.Protocol{Warmup: p.cfg.Warmup, Reps: p.cfg.Reps, Statistic: statistic(c.exp)}
	if p.long(c) {
		pr.Warmup, pr.Reps = 0, 1
	}
	warm := !strings.HasPrefix(c.impl, "cuda/") || p.est.ran[c.impl]
	if p.cfg.Budget > 0 && warm && p.perRun(c) >= float64(NoWarmup)/1e6 {
		pr.Warmup = 0
	}
	return pr
}

// cell is a cell's estimated wall in milliseconds, in its next pass: an
// A/A cell's, else the claims' (which samples a cell no claim reads in
// full), saturated. A cell that claims read may stop after its first
// sample: the plan counts that one, and it takes more only while the
// budget pays for them.
func (p *pricer) cell(c *cell) float64 {
	if p.aa.pending(c) {
		return p.cellIn(c, passAA)
	}
	return p.cellIn(c, passClaims)
}

// cells is the estimate of the cells not yet measured, a case's setup
// paid by its first cell only.
func (p *pricer) cells(cells []*cell) float64 {
	defer p.hold()()
	sum := 0.0
	seen := map[*experiments.Case]bool{}
	for _, c := range cells {
		if c.done {
			continue
		}
		ps := passClaims
		if p.aa.pending(c) {
			ps = passAA
		}
		warm, samples := p.planned(c, ps)
		ms, _ := p.wall.estimate(c, p.wallPlan(c, ps, warm, samples, p.hand.cs != c.cs && !seen[c.cs], nil))
		seen[c.cs] = true
		sum = saturate(sum + ms)
	}
	return sum
}

// oneRunEach is the estimate of one more run of each of the cells.
func (p *pricer) oneRunEach(cells []*cell) float64 {
	sum := 0.0
	for _, c := range cells {
		sum += p.runWall(c)
	}
	return sum
}

// DefaultLongRun is Config.LongRun's default: a minute a run.
const DefaultLongRun = time.Minute

// NoWarmup is the estimated run beyond which a budgeted run measures a
// cell without warm-up. In the committed runs of the 2-core Xeon and the
// H100's host, a CPU cell of a second or more took, in its first timed run
// (the one right after the warm-up), the median of its later runs within
// 1% (0.991-0.996 at the median, 0.88-1.23 at the 10th and 90th
// percentiles, 188 cells): nothing a warm-up measurably changes, at the
// cost of a whole run. On the H100 (the 7-minute run of d477eb3,
// results/intel-xeon_nvidia-h100-80gb-hbm3/20261127-reproduce-7m-d477eb3.jsonl.gz) a GPU
// cell of a second or more took its warm-up within 3% of its timed run
// (2-domination's cuda/sparse at m = 11 and 12, cuda/parallel on the
// caterpillar of 2^24), but the first cell of an implementation spends
// seconds loading its module (2.2 s against an 8 ms run): a GPU cell
// skips its warm-up only once its implementation has run. Short cells
// keep theirs (they cost little). Each record keeps its warm-ups' times
// (WarmupMS) to measure it again.
const NoWarmup = time.Second

// estimator predicts a cell's milliseconds per run. Before an
// implementation has finished a cell of an experiment (or of its paper),
// from the experiment's prior (its fixed cost, FixedMS, plus NsPerWork
// times the case's declared work); after, from this machine's
// measurements: one measured cell scales by the work (time proportional
// to work), two or more fit the experiment's cost model to them, time =
// c * work^b on the upper half of the cells measured (least squares in
// logs, b kept within [minExp, maxExp]), and scale the nearest measured
// cell by it, its fixed cost held apart. Cells of the same family (the
// same non-numeric parameters: the same tree, cost range or semiring)
// are preferred to the others, whose time may follow the work
// differently. The priors are only a start: what this run measures
// replaces them.
type estimator struct {
	obs map[string][]observation // by experiment|impl and by paper|impl
	// version counts the observations of each key of obs; cache holds
	// each estimate with the versions of its two keys it was made at (the
	// planner and the ETA ask for every pending cell's estimate after each
	// cell, and an observation changes only its implementation's).
	version map[string]int
	cache   map[estimateKey]estimated
	// ran holds the implementations that have finished a cell.
	ran map[string]bool
	// prior is the estimate of a cell none of whose kind is measured, and
	// fixed the part of a run that does not grow with the work; nil: the
	// experiment's (Experiment.Prior, Fixed), for the estimate of one run.
	// The wall models (wall.go) give their own.
	prior func(exp *experiments.Experiment, impl string, cs *experiments.Case) (float64, string)
	fixed func(exp *experiments.Experiment, impl string) float64
	// maxScale, when set, bounds the factor a prediction may scale the
	// nearest observation by, either way: a setup or a check grows with
	// the input, not with the work (2-domination's work grows by orders
	// of magnitude from one m to the next, its setups do not).
	maxScale float64
	keyMemo  keyMemo
	// own keeps to the experiment's observations, never its paper's:
	// the setup and check models, whose work differs in kind from one
	// experiment to another (apsp's Table 1 scaled from the systolic
	// sweep's setups put one at three hours).
	own bool
	// ownFirst keeps to the experiment's observations where it has some,
	// and reads its paper's only while it has none (the setups of new
	// inputs: wall.go).
	ownFirst bool
}

// keys are where the estimator keeps and looks up an implementation's
// observations (see keys).
func (e *estimator) keys(exp *experiments.Experiment, impl string) [2]string {
	return e.keyMemo.of(exp, impl)
}

// keyMemo keeps keys by experiment and implementation: the pricing asks
// for them for every pending cell after every sample.
type keyMemo map[expImpl][2]string

type expImpl struct {
	exp  *experiments.Experiment
	impl string
}

// of is keys(exp, impl).
func (m keyMemo) of(exp *experiments.Experiment, impl string) [2]string {
	k := expImpl{exp, impl}
	ks, ok := m[k]
	if !ok {
		ks = keys(exp, impl)
		m[k] = ks
	}
	return ks
}

type estimateKey struct {
	exp  *experiments.Experiment
	impl string
	cs   *experiments.Case
}

type estimated struct {
	keys     [2]string
	versions [2]int
	ms       float64
	basis    string
}

// observation is one measured cell: its declared work, its median ms per
// run, and its parameters (for the basis text).
type observation struct {
	work, ms       float64
	params, family string
}

// The bounds of a fitted exponent: a cost model's declared work may be off
// by a power, not by more.
const (
	minExp = 0.3
	maxExp = 2.0
)

// sharedReadMS is the least estimate of a cell that reads its work from
// the run's store (2-domination's Tables 3, 4 and 6 on powers another
// cell computed: Algorithms 3-5 on their fingerprints, 0.001-0.04 ms on
// the H100 in the 9-minute run of e770f14).
const sharedReadMS = 0.01

func newEstimator() *estimator {
	return &estimator{obs: map[string][]observation{}, version: map[string]int{}, cache: map[estimateKey]estimated{}, ran: map[string]bool{}, keyMemo: keyMemo{}}
}

// keys are where an experiment's implementation looks its measurements up:
// its own, then its paper's: the same implementation on another table of
// the same paper whose prior is the same, so that its work is counted in
// the same units (2-domination's Algorithm 1 counts arcs, its Algorithm 2
// (min,+) updates).
func keys(exp *experiments.Experiment, impl string) [2]string {
	return [2]string{exp.Name + "|" + impl, fmt.Sprintf("%s|%s|%g", exp.Paper, impl, exp.NsPerWork[impl])}
}

func (e *estimator) estimate(exp *experiments.Experiment, impl string, cs *experiments.Case) float64 {
	ms, _ := e.explain(exp, impl, cs)
	return ms
}

// explain is the estimate of a run of cs by impl and what it rests on.
func (e *estimator) explain(exp *experiments.Experiment, impl string, cs *experiments.Case) (float64, string) {
	if e.prior == nil && cs.ReadsShared != nil && cs.ReadsShared(impl) {
		return e.explainReads(exp, impl, cs)
	}
	k := estimateKey{exp, impl, cs}
	c, ok := e.cache[k]
	if ok && c.versions == [2]int{e.version[c.keys[0]], e.version[c.keys[1]]} {
		return c.ms, c.basis
	}
	if !ok {
		c.keys = e.keys(exp, impl)
	}
	c.versions = [2]int{e.version[c.keys[0]], e.version[c.keys[1]]}
	c.ms, c.basis = e.compute(exp, impl, cs, c.keys)
	if e.prior == nil || len(e.obs[c.keys[0]])+len(e.obs[c.keys[1]]) > 0 {
		e.cache[k] = c // a prior of its own may change without an observation here
	}
	return c.ms, c.basis
}

// explainReads is the estimate of a run of cs by impl that reads its
// costly work from the run's store and times only what it adds (the
// formula's witnesses on powers another cell computed: 48 ms at m = 8 and
// 199 ms at m = 9 on two cores, where the fixed cost priced them at
// 0.3 ms): from the cells of the experiment that read so, scaled by the
// work such a cell does (readsWork); else the whole cell's estimate times
// the share of its work such a cell does; at least the fixed cost.
func (e *estimator) explainReads(exp *experiments.Experiment, impl string, cs *experiments.Case) (float64, string) {
	least := max(exp.Fixed(impl), sharedReadMS)
	work, whole := readsWork(exp, impl, cs)
	if obs := e.obs[readsKey(exp, impl)]; len(obs) > 0 && work > 0 {
		ms, basis := predict(obs, work, 0, 0)
		return saturate(max(least, ms)), fmt.Sprintf("reads work another cell of this run computed: %s on %d measured cell(s) of %s that read so", basis, len(obs), impl)
	}
	if work > 0 && whole > 0 {
		ms, basis := e.compute(exp, impl, cs, e.keys(exp, impl))
		return saturate(max(least, ms*work/whole)), fmt.Sprintf("reads work another cell of this run computed: %.2g of the whole cell's work, whose estimate is %.3g ms (%s)", work/whole, ms, basis)
	}
	return least, "reads work another cell of this run computed: the experiment's fixed cost"
}

// readsKey is where the runs of cells that read shared work are kept:
// apart from their experiment's others, whose work they do not do.
func readsKey(exp *experiments.Experiment, impl string) string {
	return exp.Name + "|" + impl + "|reads"
}

// readsWork is the work (operations, bench.Work.Ops) a cell of cs by impl
// does when it reads its costly work from the run's store, and the whole
// cell's, as the experiment declares them (experiments.WorkOf on the
// record such a cell writes, ReusedFrom set, and on one without); zeros
// where it declares none.
func readsWork(exp *experiments.Experiment, impl string, cs *experiments.Case) (reads, whole float64) {
	rec := bench.Record{Experiment: exp.Name, Impl: impl, Params: cs.Params}
	w, ok := experiments.WorkOf(&rec)
	if !ok {
		return 0, 0
	}
	rec.ReusedFrom = "the run's store"
	r, ok := experiments.WorkOf(&rec)
	if !ok {
		return 0, 0
	}
	return r.Ops(), w.Ops()
}

// observeReads adds a measured cell that read shared work (median ms per
// run) to the estimates of such cells (explainReads).
func (e *estimator) observeReads(exp *experiments.Experiment, impl string, cs *experiments.Case, ms float64) {
	work, _ := readsWork(exp, impl, cs)
	if work <= 0 || ms <= 0 {
		return
	}
	k := readsKey(exp, impl)
	e.obs[k] = append(e.obs[k], observation{work: work, ms: ms, params: cs.Params.String(), family: familyOf(cs.Params)})
}

// compute is explain without the cache.
func (e *estimator) compute(exp *experiments.Experiment, impl string, cs *experiments.Case, ks [2]string) (float64, string) {
	work, family := cs.WorkOf(impl), familyOf(cs.Params)
	fixed := 0.0
	if e.fixed != nil {
		fixed = e.fixed(exp, impl)
	} else {
		fixed = exp.Fixed(impl)
	}
	// The experiment's own cells, unless its paper's (which hold them)
	// have one nearer in work: 2-domination's Table 3 measured to m = 8
	// is better estimated at m = 12 from the formula's cell at m = 12
	// than by an exponent fitted to m = 5..8.
	var obs []observation
	var from string
	bestDist := math.Inf(1)
	for i, key := range ks {
		pool := e.obs[key]
		if len(pool) == 0 || i == 1 && (e.own || e.ownFirst && len(e.obs[ks[0]]) > 0) {
			continue
		}
		name := "this experiment's"
		if i == 1 {
			name = "this paper's"
		}
		if kin := sameFamily(pool, family); len(kin) > 0 && len(kin) < len(pool) {
			pool, name = kin, name+" same-family"
		}
		// On a tie the pool that can fit the cost model's exponent (two
		// works or more) wins: one cell only scales linearly (2-domination's
		// Table 3 measured at m = 8 alone, on two cores, put m = 12 at 43 h;
		// the paper's seven cells, at 1.2 h).
		if d := nearestDist(pool, work); d < bestDist || d == bestDist && distinctWorks(pool) > distinctWorks(obs) {
			obs, from, bestDist = pool, name, d
		}
	}
	if len(obs) == 0 {
		if e.prior != nil {
			ms, basis := e.prior(exp, impl, cs)
			return saturate(ms), basis
		}
		return saturate(exp.Prior(impl, cs)), "the experiment's prior (no cell of " + impl + " measured yet)"
	}
	ms, basis := predict(obs, work, fixed, e.maxScale)
	return saturate(ms), fmt.Sprintf("%s on %s %d measured cell(s) of %s", basis, from, len(obs), impl)
}

// nearestDist is how far, in log work, the observation nearest to work
// lies.
func nearestDist(obs []observation, work float64) float64 {
	d := math.Inf(1)
	for _, o := range obs {
		d = min(d, math.Abs(math.Log(o.work/work)))
	}
	return d
}

// distinctWorks counts the different works of the observations.
func distinctWorks(obs []observation) int {
	seen := map[float64]bool{}
	for _, o := range obs {
		seen[o.work] = true
	}
	return len(seen)
}

// familyOf is a cell's family: its parameters whose values are not
// numbers (the size parameters vary within a family).
func familyOf(p bench.Params) string {
	var s string
	for _, kv := range p {
		if _, err := strconv.ParseFloat(kv.Value, 64); err != nil {
			s += kv.Name + "=" + kv.Value + ","
		}
	}
	return s
}

// sameFamily are the observations of the family.
func sameFamily(obs []observation, family string) []observation {
	var out []observation
	for _, o := range obs {
		if o.family == family {
			out = append(out, o)
		}
	}
	return out
}

// predict scales the measured cell nearest in work to work by the cost
// model fitted to obs. The prior's fixed cost (at most 90% of the least
// run measured) is held apart: only the rest scales with the work.
func predict(obs []observation, work, fixed, maxScale float64) (float64, string) {
	if work <= 0 {
		return 0, "no work"
	}
	near, least := obs[0], obs[0].ms
	for _, o := range obs[1:] {
		if math.Abs(math.Log(o.work/work)) < math.Abs(math.Log(near.work/work)) {
			near = o
		}
		least = min(least, o.ms)
	}
	fixed = min(fixed, 0.9*least)
	// the cells of the nearest work, by their median (the first cell of
	// an implementation may be cold)
	var at []float64
	for _, o := range obs {
		if o.work == near.work {
			at = append(at, o.ms)
		}
	}
	nearMS := stats.Median(at)
	b, fitted := exponent(obs)
	if work < near.work {
		b = min(b, 1) // fixed costs make a smaller cell no faster than linear
	}
	scale := math.Pow(work/near.work, b)
	if maxScale > 0 {
		scale = min(maxScale, max(1/maxScale, scale))
	}
	ms := fixed + (nearMS-fixed)*scale
	if !fitted {
		return ms, fmt.Sprintf("scaled by the work from %s", near.params)
	}
	return ms, fmt.Sprintf("fit time ∝ work^%.2f, from %s", b, near.params)
}

// exponent fits b in time = c * work^b to the upper half (by work) of the
// observations with distinct work, by least squares in logs; 1 (and
// false) with fewer than two.
func exponent(obs []observation) (float64, bool) {
	byWork := slices.Clone(obs)
	slices.SortFunc(byWork, func(a, b observation) int {
		switch {
		case a.work < b.work:
			return -1
		case a.work > b.work:
			return 1
		}
		return 0
	})
	byWork = slices.CompactFunc(byWork, func(a, b observation) bool { return a.work == b.work })
	if len(byWork) < 2 {
		return 1, false
	}
	up := byWork[len(byWork)/2:]
	if len(up) < 2 {
		up = byWork[len(byWork)-2:]
	}
	var sx, sy, sxx, sxy float64
	for _, o := range up {
		x, y := math.Log(o.work), math.Log(o.ms)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	n := float64(len(up))
	den := n*sxx - sx*sx
	if den <= 0 {
		return 1, false
	}
	b := (n*sxy - sx*sy) / den
	if math.IsNaN(b) {
		return 1, false
	}
	return min(maxExp, max(minExp, b)), true
}

// observe adds a measured cell (median ms per run) to the estimator.
func (e *estimator) observe(exp *experiments.Experiment, impl string, cs *experiments.Case, ms float64) {
	work := cs.WorkOf(impl)
	if work <= 0 || ms <= 0 {
		return
	}
	e.ran[impl] = true
	for _, key := range e.keys(exp, impl) {
		e.version[key]++
		e.obs[key] = append(e.obs[key], observation{work: work, ms: ms, params: cs.Params.String(), family: familyOf(cs.Params)})
	}
}
