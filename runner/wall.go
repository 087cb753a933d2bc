package runner

// The cell's whole wall time. The budget pays for a cell's setup (the
// generation, digest and reference of its case's input, paid by the
// first cell of the case, most of it only by the first case of the run
// with that input: the run's store keeps it), its runs with whatever the
// implementation does between its timed windows (a CUDA implementation's
// first run in the process loads its module: seconds), the stopping
// rules' looks between its samples (the settle rule judging a claim over
// forty cells: a tenth of a second a look on the H100), and its check.
// The committed H100 run of 46bc881 priced cells by their timed runs
// alone and had 76 of its 192 cells over 50 ms within 3x of what they
// took; treefix/fig4's cuda/vectorial on the ldoor stand-in was estimated
// at 1 ms and took 2.0 s (21 samples of 0.55 ms, each with a look of
// 80 ms).
//
// A cell is estimated from its own earlier runs on this machine kind
// (Past) where there are any, part by part; otherwise from models fitted
// as the run goes, like the estimate of one run (estimate.go): a run's
// wall by experiment and implementation, a case's setup (new input, or
// input already in the store) and a check by experiment.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/stats"
)

// wallModel estimates cells' wall times, from the history (Past) and
// from what this run measures.
type wallModel struct {
	past Past
	// timed estimates one timed run of a cell without history, and what
	// it rests on (the estimator's), which a run's wall scales (ratios)
	// where the cell's siblings have no history (timedOf).
	timed func(*experiments.Experiment, string, *experiments.Case) (float64, string)
	// byImpl are the plan's cells of each implementation in each paper
	// (loadKey: the history of its module's load, and kinObs), measured are the experiments' implementations that have
	// measured a cell of their own in this run, and kin keeps the history
	// of each one's cells (kinObs).
	byImpl   map[string][]*cell
	measured map[expImpl]bool
	kin      map[expImpl][]observation
	// ratios are the measured cells' wall of a run (the first run's
	// excess and the looks apart) over their median timed run, by
	// experiment|impl and by paper|impl: the wall of a run of a cell
	// without history is its timed estimate times the ratio of the
	// nearest measured cell (treefix's CUDA cells spend 3-15 ms a run
	// outside their windows of 0.4-3.4 ms).
	ratios map[string][]ratioObs
	// The models fitted as the run goes: a case's setup when its input
	// is new to the run (setup) and when the run's store holds it already
	// (warm), a check, by experiment (by paper while an experiment has
	// none).
	setup, warm, check *estimator
	// loads are the first runs' excess of each CUDA implementation's
	// first cell in this run (its module loaded), and cuda the CUDA
	// implementations that have run (by loadKey).
	loads []float64
	cuda  map[string]bool
	// kernels: the run loaded every kernel module before its first cell
	// (Config.Kernels), so that no cell loads one.
	kernels bool
	// inputs are the inputs set up in this run (inputKey).
	inputs map[string]bool
	// ratio holds, by backend (true: CUDA), a run's wall over its timed
	// median: the ratio of a cell whose kind has no run measured.
	ratio map[bool][]float64
	// colds are the setups of new inputs this run measured.
	colds []float64
	// starts are the fresh processes' own times, and replicas each
	// cell's latest replicate's wall (observeReplicate).
	starts   []float64
	replicas map[string]float64
	// looks are the measured looks, by the cells of the claim judged
	// (work: the cells), and lookMemo lookMS's answers.
	looks    []observation
	lookMemo map[lookKey]float64
	cache    map[string]*pastCell
	keys     keyMemo
	loadPast map[string]float64
	// drifts are, for the latest cells measured that have history, what a
	// run took over what their history said: this run's machine beside
	// its earlier runs (a 2-core machine shared with other work ran its
	// cells 2-4x slower than its committed runs).
	drifts []float64
	// hostDrifts are, for the latest setups and checks of driftFloorMS
	// or more by their history, what they took over what their history
	// said (hostDrift).
	hostDrifts []float64
	// setups keeps setupPast's answers.
	setups map[setupKey]setupVal
	// driftIs is drift() while drifts has driftAt entries, hostIs
	// hostDrift() while hostDrifts has hostAt.
	driftAt, hostAt int
	driftIs, hostIs float64
}

// driftWindow is how many of the latest cells with history the drift
// is the median of, and driftFloorMS the least wall of a run (by the
// history) a cell must have to count: a run of a millisecond or less is
// its fixed costs' and the timer's, and its ratio swings 4x either way.
const (
	driftWindow  = 9
	driftFloorMS = 5
)

// drift is the factor the history's times are scaled by: the median of
// the latest drifts, within [1/10, 10]; 1 before any.
func (w *wallModel) drift() float64 {
	if len(w.drifts) == 0 {
		return 1
	}
	if w.driftAt != len(w.drifts) { // the pricing asks for it for every pending cell
		w.driftAt, w.driftIs = len(w.drifts), min(10, max(0.1, stats.Median(w.drifts[max(0, len(w.drifts)-driftWindow):])))
	}
	return w.driftIs
}

// Pseudo-implementations under which the setup and check models keep
// their observations (by experiment, and by paper).
const (
	setupImpl = "setup"
	warmImpl  = "setup (input in the run's store)"
	checkImpl = "check"
)

// DefaultLoadMS is the estimate of a CUDA implementation's first run in
// a process beyond its later runs, before any is measured: on the H100
// (the 7-minute run of 46bc881) treefix's cuda/parallel took 2.6 s,
// hungarian's cuda/hungarian-n3 1.7 s, kleene's cuda/fast 0.83 s.
const DefaultLoadMS = 1500

// defaultLookPerCellMS is the prior of a settle rule's look, per cell of
// the claim it judges (treefix's Fig. 4 claim, 40 cells: 80-120 ms on the
// H100's host).
const defaultLookPerCellMS = 2.0

// newWallModel makes the models; timed estimates one timed run (the
// per-run wall's prior, scaled by the backend's ratio).
func newWallModel(past Past, timed func(*experiments.Experiment, string, *experiments.Case) (float64, string)) *wallModel {
	w := &wallModel{past: past, timed: timed, inputs: map[string]bool{}, ratio: map[bool][]float64{}, cuda: map[string]bool{},
		measured: map[expImpl]bool{}, kin: map[expImpl][]observation{},
		ratios: map[string][]ratioObs{}, replicas: map[string]float64{}, cache: map[string]*pastCell{}, loadPast: map[string]float64{}, keys: keyMemo{}, setups: map[setupKey]setupVal{}, lookMemo: map[lookKey]float64{}}
	zero := func(*experiments.Experiment, string) float64 { return 0 }
	none := func(_ *experiments.Experiment, impl string, _ *experiments.Case) (float64, string) {
		return 0, "none measured yet"
	}
	w.setup, w.warm, w.check = newEstimator(), newEstimator(), newEstimator()
	for _, m := range []*estimator{w.setup, w.warm, w.check} {
		m.prior, m.fixed, m.own, m.maxScale = none, zero, true, 10
	}
	// A new input with no setup of its paper measured yet costs what the
	// run's other new inputs took, the median.
	w.setup.prior = func(*experiments.Experiment, string, *experiments.Case) (float64, string) {
		if len(w.colds) == 0 {
			return 0, "none measured yet"
		}
		return stats.Median(w.colds), "the median setup of a new input in this run"
	}
	// An experiment's first new input is priced from its paper's new
	// inputs, nearest in work (maxScale bounds the scaling), while the
	// experiment has none of its own: treefix's Table 1 and Fig. 4 share
	// their stand-ins (the 2-core run of 9b86b0f generated G3_circuit's,
	// 1.6 million vertices, for Table 1 in 118 ms and, numbered at random,
	// for Fig. 4 in 335 ms, priced at 9 ms from the run's other new
	// inputs); then from its own (a random numbering costs 3x a
	// breadth-first one).
	w.setup.own, w.setup.ownFirst = false, true
	// A setup with its input in the store is at most one without.
	w.warm.prior = func(e *experiments.Experiment, _ string, cs *experiments.Case) (float64, string) {
		return w.setup.estimate(e, setupImpl, cs), "as a setup of a new input"
	}
	return w
}

// ratioObs is a measured cell's work and its run's wall over its timed
// median.
type ratioObs struct{ work, ratio float64 }

// runWall is the wall of one run of c without history: its timed
// estimate times the ratio of the measured cell of its experiment (else
// of its paper) nearest in work, else its backend's median ratio, else
// 1 on a CPU and 2 on a GPU.
func (w *wallModel) runWall(c *cell) float64 {
	t, _ := w.timedOf(c)
	if readsShared(c) {
		return t // a cell that reads shared work is its fixed cost
	}
	work := c.cs.WorkOf(c.impl)
	for _, k := range w.keys.of(c.exp, c.impl) {
		if obs := w.ratios[k]; len(obs) > 0 && work > 0 {
			return t * nearestRatio(obs, work)
		}
	}
	cuda := strings.HasPrefix(c.impl, "cuda/")
	if rs := w.ratio[cuda]; len(rs) > 0 {
		return t * stats.Median(rs)
	}
	if cuda {
		return 2 * t
	}
	return t
}

// timedOf is the estimate of one timed run of c, which has no history
// of its own, and what it rests on: while no cell of its experiment and
// implementation has been measured in this run, the history of the plan's
// other cells of them (kinObs: their median runs times the drift) scaled
// by the work as the estimator scales this run's (predict); else, or
// where they have none, the estimator's. On the H100, 2-domination's
// formula by cpu/sparse at m = 5, never measured there before, ran first
// of its cells in b3c9c15's second run, and the experiment's prior put a
// run at 0.66 ms: it took 7 ms, where its cells at m = 2-4 had history.
func (w *wallModel) timedOf(c *cell) (float64, string) {
	if !readsShared(c) && !w.measured[expImpl{c.exp, c.impl}] {
		if obs := w.kinObs(c); len(obs) > 0 && c.cs.WorkOf(c.impl) > 0 {
			d := w.drift()
			ms, basis := predict(obs, c.cs.WorkOf(c.impl), c.exp.Fixed(c.impl)/d, 0)
			basis = fmt.Sprintf("%s in %s's history on this machine kind (%d other cell(s) of %s)", basis, c.exp.Name, len(obs), c.impl)
			if d != 1 {
				basis += fmt.Sprintf(", times %.2f (this run's cells against their history so far)", d)
			}
			return saturate(d * ms), basis
		}
	}
	return w.timed(c.exp, c.impl, c.cs)
}

// kinObs are the median runs, by their history on this machine kind, of
// the plan's other cells of c's experiment and implementation that do
// their own work and have history of their own; read once.
func (w *wallModel) kinObs(c *cell) []observation {
	k := expImpl{c.exp, c.impl}
	obs, ok := w.kin[k]
	if ok {
		return obs
	}
	for _, x := range w.byImpl[loadKey(c)] {
		if x.exp != c.exp || x == c || readsShared(x) {
			continue
		}
		if pc := w.pastOf(x); pc != nil && pc.source == "" && pc.timed > 0 && x.cs.WorkOf(x.impl) > 0 {
			obs = append(obs, observation{work: x.cs.WorkOf(x.impl), ms: pc.timed, params: x.cs.Params.String(), family: familyOf(x.cs.Params)})
		}
	}
	if w.byImpl != nil { // the plan made
		w.kin[k] = obs
	}
	return obs
}

// nearestRatio is the ratio of the observation nearest to work in log
// work (obs sorted by work; the lower on a tie): a binary search, since
// the settle rule's looks price every other cell of a claim over
// hundreds of cells.
func nearestRatio(obs []ratioObs, work float64) float64 {
	i, _ := slices.BinarySearchFunc(obs, work, func(o ratioObs, v float64) int { return cmpFloat(o.work, v) })
	switch {
	case i == len(obs):
		return obs[i-1].ratio
	case i == 0 || obs[i].work == work:
		return obs[i].ratio
	}
	lo, hi := obs[i-1], obs[i]
	if math.Log(work/lo.work) <= math.Log(hi.work/work) {
		return lo.ratio
	}
	return hi.ratio
}

// inputKey names a case's input: cases of one paper with the same
// parameters read the same generated input (hungarian's Table 1 and
// Figs. 4 and 5, treefix's trees), which the run's store keeps.
func inputKey(c *cell) string {
	if c.input == "" {
		c.input = c.exp.Paper + "|" + c.cs.Params.String()
	}
	return c.input
}

// readsShared reports whether c will read work another cell of the run
// has computed (Case.ReadsShared).
func readsShared(c *cell) bool { return c.cs.ReadsShared != nil && c.cs.ReadsShared(c.impl) }

// pastOf is the cell's earlier runs, nil when none (or no Past), of the
// kind this run's will be: reading shared work or not.
func (w *wallModel) pastOf(c *cell) *pastCell {
	if w.past == nil {
		return nil
	}
	reads := readsShared(c)
	k := c.key
	if reads {
		k += "|reads"
	}
	pc, ok := w.cache[k]
	if !ok {
		pc = digest(w.past.Records(c.key), reads)
		if pc == nil && !reads {
			pc = w.sourcePast(c)
		}
		w.cache[k] = pc
	}
	return pc
}

// sourcePast is, for a cell whose earlier runs only read their costly
// work from another cell (ReusedFrom) and that will compute it itself
// now, the history of the cell that computed it: on two cores
// 2-domination's Table 3 at m = 10 had read its powers from
// domination/formula's cell (168 s) and was priced at 49 s by the fit
// when it came first, then stopped by the budget's end. Nil when no
// earlier run names such a cell or that cell has no history of its own.
func (w *wallModel) sourcePast(c *cell) *pastCell {
	for _, r := range w.past.Records(c.key) {
		if r.ReusedFrom == "" || r.ReusedFrom == c.key {
			continue
		}
		if pc := digest(w.past.Records(r.ReusedFrom), false); pc != nil {
			pc.source = r.ReusedFrom
			return pc
		}
	}
	return nil
}

// setupOf estimates the setup c pays as the first cell of its case: the
// input's generation when no case of the run has it yet (cold). From the
// history (setupPast) times the host's drift; else the models.
func (w *wallModel) setupOf(c *cell, siblings []*cell, fresh bool) float64 {
	cold := fresh || !w.inputs[inputKey(c)]
	if ms, ok := w.setupPast(c, siblings, cold); ok {
		return w.hostDrift() * ms
	}
	if cold {
		return w.setup.estimate(c.exp, setupImpl, c.cs)
	}
	return w.warm.estimate(c.exp, warmImpl, c.cs)
}

// setupPast is the setup c pays as the first cell of its case by the
// history of its input's cells (siblings): the most any of them paid in a
// run (the median over runs) when cold, the least it paid when not; false
// when the history has none.
func (w *wallModel) setupPast(c *cell, siblings []*cell, cold bool) (float64, bool) {
	k := setupKey{c.cs, cold}
	if v, ok := w.setups[k]; ok { // the history stands still: the pricing asks for it for every pending cell
		return v.ms, v.ok
	}
	ms, ok := setupIn(w, c, siblings, cold)
	w.setups[k] = setupVal{ms, ok}
	return ms, ok
}

// setupKey and setupVal keep setupPast's answers.
type (
	setupKey struct {
		cs   *experiments.Case
		cold bool
	}
	setupVal struct {
		ms float64
		ok bool
	}
)

// setupIn is setupPast without its memo.
func setupIn(w *wallModel, c *cell, siblings []*cell, cold bool) (float64, bool) {
	var byRun [][]float64
	var paid []float64
	for _, s := range siblings {
		pc := w.pastOf(s)
		if pc == nil {
			continue
		}
		for i, v := range pc.setupBy {
			for len(byRun) <= i {
				byRun = append(byRun, nil)
			}
			byRun[i] = append(byRun[i], v)
			if v > 0 && s.cs == c.cs {
				paid = append(paid, v)
			}
		}
	}
	switch {
	case len(byRun) == 0:
		return 0, false
	case cold:
		var most []float64
		for _, vs := range byRun {
			most = append(most, slices.Max(vs))
		}
		return stats.Median(most), true
	case len(paid) > 0:
		return slices.Min(paid), true
	}
	return 0, false
}

// hostDrift is the factor the history's setups and checks are scaled by:
// the median of the latest of this run's setups and checks over their
// history (hostDrifts), within [1/10, 10]; 1 before any. The drift of
// the runs does not apply: on a GPU machine a run is the device's and a
// setup the host's, and the code of a run changes from commit to commit
// (the H200's runs of 9b86b0f ran treefix/fig4's CUDA cells at 0.21-0.25x
// their history, and priced the stand-in trees' generation, 0.2-2.6 s,
// at as little: 16 of their cells 4-6x under).
func (w *wallModel) hostDrift() float64 {
	if len(w.hostDrifts) == 0 {
		return 1
	}
	if w.hostAt != len(w.hostDrifts) {
		w.hostAt, w.hostIs = len(w.hostDrifts), min(10, max(0.1, stats.Median(w.hostDrifts[max(0, len(w.hostDrifts)-driftWindow):])))
	}
	return w.hostIs
}

// loadOf estimates a CUDA implementation's first run in this process
// beyond its later runs (its module loaded): from the history of its
// cells (cells: the median of the loads seen, none when its cells have
// history and none showed one: several implementations share a module,
// and the first to run loads it), else the loads measured in this run,
// else DefaultLoadMS.
func (w *wallModel) loadOf(c *cell, cells []*cell) float64 {
	v, ok := w.loadPast[loadKey(c)]
	if !ok {
		// By run, the newest first (the code that loads a module changes
		// from commit to commit): the most any cell's first measurement
		// exceeded its runs by; the median of the newest loadRuns runs.
		var most []float64
		for _, x := range cells {
			pc := w.pastOf(x)
			if pc == nil {
				continue
			}
			for i, x := range pc.firsts[:min(loadRuns, len(pc.firsts))] {
				for len(most) <= i {
					most = append(most, 0)
				}
				if x >= minLoadMS {
					most[i] = max(most[i], x)
				}
			}
		}
		v = -1 // no history
		if len(most) > 0 {
			v = stats.Median(most)
		}
		w.loadPast[loadKey(c)] = v
	}
	switch {
	case v >= 0:
		return v
	case len(w.loads) > 0:
		return stats.Median(w.loads)
	}
	return DefaultLoadMS
}

// loadKey names the code a CUDA cell's first run loads: its
// implementation in its paper (cuda/paper is a module of its own in each
// paper's problem: kleene, lap_paper, minplus).
func loadKey(c *cell) string {
	if c.load == "" {
		c.load = c.exp.Paper + "|" + c.impl
	}
	return c.load
}

// willLoad reports whether c, run now, would load its CUDA module: its
// implementation's first cell in the process, the kernels not loaded
// before the first cell.
func (w *wallModel) willLoad(c *cell) bool {
	return strings.HasPrefix(c.impl, "cuda/") && !w.kernels && !w.cuda[loadKey(c)]
}

// loadRuns is how many of the newest earlier runs a load is judged by.
const loadRuns = 3

// DefaultStartMS is the estimate of a fresh process's own time (its
// start, reading its arguments and machine, its end) around the cell it
// measures, before one is measured.
const DefaultStartMS = 500

// startMS is a fresh process's own time: the median of those this run
// measured, else DefaultStartMS.
func (w *wallModel) startMS() float64 {
	if len(w.starts) == 0 {
		return DefaultStartMS
	}
	return stats.Median(w.starts)
}

// observeReplicate adds a replicate measured at the outer level: a fresh
// process's own time beyond its cell's wall.
func (w *wallModel) observeReplicate(c *cell, level string, o OuterRecord) {
	w.replicas[c.key] = o.WallMS
	if level != bench.LevelProcess || o.Wall == nil {
		return
	}
	if own := o.WallMS - (o.Wall.SetupMS + o.Wall.MeasureMS + o.Wall.CheckMS); own > 0 {
		w.starts = append(w.starts, own)
	}
}

// minLoadMS is the least first-run excess that counts as a module loaded.
const minLoadMS = 50

// observe adds one measurement of c (its own wall, not a topped-up
// record's sum) to the models: its run's wall over its timed median, its
// first run's excess (a load when its implementation's first CUDA cell),
// its setup and check, and, where the history has them, their drifts.
// timed is its median timed run (0: none of its own); cold says whether
// its setup, if it paid one, generated its input; siblings are the cells
// of its input (the setup's history).
func (w *wallModel) observe(c *cell, wall *bench.CellWall, warmups int, timed float64, cold bool, siblings []*cell) {
	rec := bench.Record{Status: bench.StatusOK, Wall: wall, WarmupMS: make([]float64, warmups)}
	p, ok := partsOf(&rec)
	if !ok {
		return
	}
	// Parts below wallFloorMS are the clock's and the runtime's, not the
	// cell's: they price nothing, and would order cells by noise.
	if wall.SetupMS >= wallFloorMS {
		if cold {
			w.setup.observe(c.exp, setupImpl, c.cs, wall.SetupMS)
			w.colds = append(w.colds, wall.SetupMS)
		} else {
			w.warm.observe(c.exp, warmImpl, c.cs, wall.SetupMS)
		}
	}
	if wall.CheckMS >= wallFloorMS {
		w.check.observe(c.exp, checkImpl, c.cs, wall.CheckMS)
	}
	if pc := w.pastOf(c); pc != nil && !pc.bare && pc.perRun >= driftFloorMS && p.perRun > 0 {
		w.drifts = append(w.drifts, p.perRun/pc.perRun)
	}
	if ms, ok := w.setupPast(c, siblings, cold); ok && wall.SetupMS > 0 && ms >= driftFloorMS {
		w.hostDrifts = append(w.hostDrifts, wall.SetupMS/ms)
	}
	if pc := w.pastOf(c); pc != nil && pc.check >= driftFloorMS && wall.CheckMS > 0 {
		w.hostDrifts = append(w.hostDrifts, wall.CheckMS/pc.check)
	}
	cuda := strings.HasPrefix(c.impl, "cuda/")
	if cuda && !w.cuda[loadKey(c)] {
		w.cuda[loadKey(c)] = true
		if p.runs > 1 && p.first >= minLoadMS {
			w.loads = append(w.loads, p.first)
		}
	}
	if timed > 0 {
		w.measured[expImpl{c.exp, c.impl}] = true
	}
	if work := c.cs.WorkOf(c.impl); timed > 0 && p.perRun > 0 && work > 0 {
		r := min(p.perRun/timed, maxRatio)
		for _, k := range w.keys.of(c.exp, c.impl) {
			// kept by work (the first measured first among equals), for
			// nearestRatio
			i, _ := slices.BinarySearchFunc(w.ratios[k], work, func(o ratioObs, v float64) int {
				if o.work <= v {
					return -1
				}
				return 1
			})
			w.ratios[k] = slices.Insert(w.ratios[k], i, ratioObs{work, r})
		}
		if timed >= 1 {
			w.ratio[cuda] = append(w.ratio[cuda], r)
		}
	}
}

// maxRatio bounds a run's wall over its timed median as the model takes
// it in: treefix's CUDA cells reach 13 on the H100, and a first run that
// loaded a module, in a file without FirstRunMS, far more.
const maxRatio = 20

// wallFloorMS is the least setup or check the models take in.
const wallFloorMS = 0.1

// wallPlan is what a cell's measurement is expected to do.
type wallPlan struct {
	runs    int     // warm-ups and samples
	looks   int     // looks of the stopping rules
	lookMS  float64 // one look
	setup   bool    // the cell sets its case up
	cold    bool    // as a new input, whatever the run holds (a fresh process)
	load    bool    // its CUDA implementation's first run in this process
	check   bool    // a check (always, but a side cell's)
	siblngs []*cell // the cells of its input, for the setup's history
	// implCells are the plan's cells of its implementation, for the
	// load's history.
	implCells []*cell
}

// estimate is c's wall in milliseconds under plan, and whether it rests
// on the cell's earlier runs.
func (w *wallModel) estimate(c *cell, pl wallPlan) (float64, bool) {
	pc := w.pastOf(c)
	ms := 0.0
	if pl.setup {
		ms += w.setupOf(c, pl.siblngs, pl.cold)
	}
	perRun, check, first := 0.0, 0.0, 0.0
	if pc != nil {
		d := w.drift()
		perRun, check, first = d*pc.perRun, w.hostDrift()*pc.check, d*w.pastFirst(c, pc)
	} else {
		perRun = w.runWall(c)
		check = w.check.estimate(c.exp, checkImpl, c.cs)
	}
	if pl.load {
		first = max(first, w.loadOf(c, pl.implCells))
	}
	ms += first + float64(pl.runs)*perRun + float64(pl.looks)*pl.lookMS
	if pl.check {
		ms += check
	}
	return saturate(ms), pc != nil
}

// pastFirst is the first-run excess c's history charges it: the least
// over its runs (pastCell.first), none for a CUDA cell whose every run
// paid minLoadMS or more in a run that loads the kernels before its
// first cell (kernels), where no cell loads a module. Such an excess is
// the module's load and NVRTC compile; with the kernels preloaded the
// H100's first run of b3c9c15 had no CUDA cell's first run exceed its
// others by more than 49 ms, and treefix/fig4's cuda/parallel on the
// af_shell9 stand-in, whose history's first runs exceeded theirs by
// 0.14-4.2 s, took 54 ms where it was priced at 195 ms.
func (w *wallModel) pastFirst(c *cell, pc *pastCell) float64 {
	if w.kernels && pc.first >= minLoadMS && strings.HasPrefix(c.impl, "cuda/") {
		return 0
	}
	return pc.first
}

// lookMS is a look at a claim judged over cells: the measured look of
// the claim nearest in cells, scaled by the cost model fitted to the
// run's looks (predict, the cells for the work), or defaultLookPerCellMS
// a cell before any. A look's cost grows more slowly than its cells: on
// the H100 of b3c9c15 the median per cell of the run's looks priced each
// of the five looks expected after treefix/accuracy's last cuda/parallel
// cell (chain 1, leaffix), judging its claims over hundreds of cells, at
// about 0.3 s (1.6 s for the cell, its runs 0.1 s); the one look it took
// cost 42 ms.
func (w *wallModel) lookMS(cells int) float64 {
	if len(w.looks) == 0 {
		return defaultLookPerCellMS * float64(cells)
	}
	k := lookKey{len(w.looks), cells}
	if ms, ok := w.lookMemo[k]; ok { // the pricing asks for it for every pending cell
		return ms
	}
	ms, _ := predict(w.looks, float64(cells), 0, 0)
	w.lookMemo[k] = ms
	return ms
}

// lookKey is a look's estimate as of the looks measured so far.
type lookKey struct{ measured, cells int }

// lookedAt adds a measured look at a claim judged over cells.
func (w *wallModel) lookedAt(cells int, ms float64) {
	if cells > 0 && ms > 0 {
		w.looks = append(w.looks, observation{work: float64(cells), ms: ms})
	}
}
