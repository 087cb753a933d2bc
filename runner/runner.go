// Package runner executes experiments: it plans a run by the papers'
// claims, estimates each cell, skips what would overrun the budget or the
// memory, measures the rest with the timing protocol, checks every output,
// and appends each record to the result file as soon as its cell finishes.
//
// Order: the cells that cannot run on this machine are recorded
// unavailable first, before any budget decision. Then the claims: each
// claim declares the cells that decide it (experiments.Need), at the
// paper's sizes and at a cheaper set below them. First every claim's
// cheaper set, the cheapest claim first (a claim whose cells cannot all
// run here pulls none of its cells in); then every claim's cells at the
// paper's sizes, again the cheapest first. The cost of a claim is the
// estimate of its cells not yet measured, so work two claims share is paid
// once. Last, the other cells of the tables: headline cells first (GPU
// before CPU), then the rest, the cheapest first. A case's cells that run
// one after another share one Setup. The budget is one pool for the whole
// run, less a reserve for what follows it (the report): a claim whose
// cells would overrun what is left waits for the cheaper ones, a cell
// whose estimate exceeds what is left is skipped, and the run stops at the
// budget's end.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Config is one run.
type Config struct {
	Scale experiments.Scale
	Impl  string // implementation pattern; empty runs all
	// Where selects the cases by their parameters; nil runs all.
	Where  Where
	Reps   int // timed repetitions (default 6)
	Warmup int // warm-up runs (default 1)
	// Budget bounds the run: a cell whose estimate exceeds what is left is
	// skipped, and a cell still running when it ends is stopped and
	// recorded as skipped. 0: unlimited.
	Budget time.Duration
	// Reserve is the part of Budget kept for the work after the cells
	// (reproduce's report and plots): the cells plan and stop within
	// Budget - Reserve.
	Reserve time.Duration
	// LongRun is the estimated time of one run beyond which a cell is run
	// once, without warm-up (the papers time such long computations once):
	// its record then holds one sample, and its table cell says so through
	// the sample count. 0 means DefaultLongRun, or a fortieth of the budget
	// when that is less; negative means never.
	LongRun time.Duration
	Options experiments.Options
	// Shard runs one share of the plan (Shard.K of Shard.N); the zero
	// value runs all of it.
	Shard Shard
	// Done holds the keys (bench.Record.Key) of cells already measured
	// ok in the result file by the same code on this machine (--resume):
	// they are not measured again.
	Done map[string]bool
	// Progress receives progress: a live line when Terminal, else a line
	// per finished cell at most every ten seconds. nil: none.
	Progress io.Writer
	Terminal bool
	// Available reports whether an implementation can run on this machine
	// (an error wrapping experiments.ErrUnavailable when not); nil means
	// experiments.Available.
	Available func(impl string) error
	// GPUState reads the GPUs around each cuda/ cell (nvml.Sampler); nil
	// records none.
	GPUState bench.GPUSampler
	// DeviceMemory is one GPU's memory in bytes, for the cells' declared
	// needs; 0: unknown (not checked).
	DeviceMemory uint64
	// Past is the history of earlier runs of this machine kind and scale
	// (the cells' records there); nil: none.
	Past Past
}

// DefaultReps is Config.Reps's default: the fewest samples benchstat
// trusts for a comparison.
const DefaultReps = 6

// maxMS is the largest estimate in milliseconds: the longest
// time.Duration (about 292 years). Estimates saturate at it.
const maxMS = float64(math.MaxInt64) / 1e6

// saturate clamps an estimate in milliseconds to [0, maxMS]; NaN and +Inf
// (an overflowing prior) become maxMS, so an estimate never wraps negative
// and always encodes as JSON.
func saturate(ms float64) float64 {
	switch {
	case math.IsNaN(ms) || ms >= maxMS:
		return maxMS
	case ms <= 0:
		return 0
	}
	return ms
}

// duration converts a saturated estimate to a time.Duration.
func duration(ms float64) time.Duration {
	ms = saturate(ms)
	if ms == maxMS {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(ms * 1e6)
}

// errBudget is the cause of the run's context ending at the budget.
var errBudget = errors.New("budget spent")

// run is the state of one Run.
type run struct {
	cfg   Config
	ctx   context.Context // ctx of Run, ended at the budget's end too
	out   *bench.Appender
	est   *estimator
	runs  float64 // warm-up plus timed runs per cell
	start time.Time
	limit time.Duration // Budget - Reserve; 0 without a budget
	plan  *plan
	meter *meter
	// recs are the records this run wrote, for the settle rule.
	recs []bench.Record
	// noise is the machine's noise the settle rule uses (log-sd):
	// DefaultNoise until the run's A/A pairs measure it.
	noise    float64
	aa       aaState
	readers  map[*cell][]*claimPlan             // the claims that read each cell
	hosts    map[string]*experiments.Experiment // the experiment computing each claim
	settling bool                               // adaptive samples: a budgeted run
	// firstPass: the claims' cells are being measured for the first time
	// (see settle.go); false once each unsettled claim is topped up.
	firstPass  bool
	aaRunning  bool                // an A/A cell's first measurement is under way
	cores      coreUse             // the cores each implementation's cells kept busy (batch.go)
	cheapTried map[*claimPlan]bool // claims settleCheap has topped up
	aaDue      time.Time           // when the first A/A pairs are measured, at the latest
	aaBusy     bool                // the A/A pairs are being measured
	side       []*cell             // long one-core cells waiting to run side by side
	heldMS     float64             // their estimates, held back from the budget left
	done       int                 // cells recorded
	total      int                 // cells in the run

	inst     *experiments.Instance
	instCase *experiments.Case
}

// Run executes the experiments and appends a record per cell to out, in
// the order the package comment describes. It returns the first error that
// stops the whole run (cancellation of ctx, a result file that cannot be
// written); a failing cell is recorded and the run goes on, and the end of
// the budget is no error.
func Run(ctx context.Context, cfg Config, exps []*experiments.Experiment, out *bench.Appender) error {
	if cfg.Reps <= 0 {
		cfg.Reps = DefaultReps
	}
	if cfg.Warmup < 0 {
		cfg.Warmup = 0
	}
	if cfg.Available == nil {
		cfg.Available = experiments.Available
	}
	if cfg.LongRun == 0 {
		cfg.LongRun = DefaultLongRun
		if cfg.Budget > 0 {
			cfg.LongRun = min(cfg.LongRun, max(time.Second, cfg.Budget/40))
		}
	}
	if cfg.Options.Shared == nil {
		// The run's store of work several cells share (the powers of
		// A(D_m), generated instances): computed once, dropped at the end.
		cfg.Options.Shared = experiments.NewShared(0)
		defer func() { slog.Info(cfg.Options.Shared.Summary()); cfg.Options.Shared.Release() }()
	}
	start := time.Now()
	r := &run{cfg: cfg, out: out, est: newEstimator(), runs: float64(cfg.Warmup + cfg.Reps), start: start,
		noise: experiments.DefaultNoise, settling: cfg.Budget > 0, firstPass: cfg.Budget > 0, cores: coreUse{}, cheapTried: map[*claimPlan]bool{}}
	r.ctx = ctx
	if cfg.Budget > 0 {
		r.limit = max(time.Millisecond, cfg.Budget-max(0, cfg.Reserve))
		var cancel context.CancelFunc
		r.ctx, cancel = context.WithDeadlineCause(ctx, start.Add(r.limit), errBudget)
		defer cancel()
	}
	r.plan = r.buildPlan(exps)
	if cfg.Shard.N > 1 {
		r.plan = r.plan.shard(cfg.Shard, r)
	}
	for _, c := range r.plan.cells {
		r.total += 1 + len(c.aliases)
		if cfg.Done[c.key] {
			c.done, c.measured = true, true
		}
	}
	r.meter = newMeter(cfg.Progress, cfg.Terminal, start, r.limit)
	defer r.meter.close()
	defer r.release()
	if err := r.recordUnavailable(); err != nil {
		return err
	}
	r.indexReaders()
	r.hosts = experiments.ClaimHosts(exps)
	if r.settling {
		r.aaDue = start.Add(max(aaFirstPairs, r.limit/6))
		r.chooseAA()
		if err := r.runAA(false); err != nil {
			return r.stop(err)
		}
	}
	for _, lv := range []int{levelLeast, levelPaper} {
		if err := r.runClaims(lv); err != nil {
			return r.stop(err)
		}
		if lv == levelLeast && r.settling && len(r.aa.pairs) == 0 {
			if err := r.runAA(true); err != nil { // the pairs, minutes apart
				return r.stop(err)
			}
		}
	}
	if err := r.runSide(); err != nil { // the long one-core cells held back, at once
		return r.stop(err)
	}
	if r.settling {
		if err := r.runAA(true); err != nil { // more pairs, minutes later
			return r.stop(err)
		}
	}
	if err := r.settleAll(); err != nil {
		return r.stop(err)
	}
	if err := r.refine(); err != nil {
		return r.stop(err)
	}
	if err := r.runRest(); err != nil {
		return r.stop(err)
	}
	r.meter.done(r.done, r.atPaper())
	return nil
}

// stop ends a run cut short: at the budget's end every cell not measured
// is recorded skipped (errSpent is no error), on any other error the run
// returns it.
func (r *run) stop(err error) error {
	if !errors.Is(err, errSpent) {
		return err
	}
	var left []*cell
	for _, c := range r.plan.cells {
		if !c.done {
			left = append(left, c)
		}
	}
	if err := r.skipAll(left); err != nil {
		return err
	}
	r.meter.done(r.done, r.atPaper())
	return nil
}

// recordUnavailable records every cell that cannot run on this machine,
// in one write of the result file.
func (r *run) recordUnavailable() error {
	var recs []bench.Record
	for _, c := range r.plan.cells {
		if c.unavailable == nil || c.done {
			continue
		}
		c.done = true
		for _, x := range append([]*cell{c}, c.aliases...) {
			rec := r.record(x)
			rec.Status, rec.Error = bench.StatusUnavailable, c.unavailable.Error()
			recs = append(recs, rec)
		}
	}
	return r.finishAll(recs)
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
			cost := r.claimCost(cp.at(lv))
			if cost == 0 && r.allDone(cp.at(lv)) {
				tried[cp] = true
				continue
			}
			score := cost / float64(r.decides(cp.at(lv), lv, tried))
			if best == nil || score < bestScore {
				best, bestScore, bestCost = cp, score, cost
			}
		}
		if best == nil {
			return nil
		}
		tried[best] = true
		if bestCost > r.left() && len(r.side) > 0 && bestCost <= r.left()+r.heldMS {
			if err := r.runSide(); err != nil { // the time held back for them, given back for this claim
				return err
			}
		}
		if bestCost > r.left() {
			continue // waits for the rest of the tables, where its cells may still fit one by one
		}
		if lv == levelPaper && bestCost > r.left()/cheapSettleAt {
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
			if err := r.runCell(c, nil); err != nil {
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
	out := slices.Clone(cells)
	caseCost := map[int]float64{}
	for _, c := range out {
		caseCost[c.caseIdx] += r.estimate(c)
	}
	slices.SortStableFunc(out, func(a, b *cell) int {
		if a.caseIdx != b.caseIdx {
			if d := cmpFloat(caseCost[a.caseIdx], caseCost[b.caseIdx]); d != 0 {
				return d
			}
			return caseOrder(a) - caseOrder(b)
		}
		return cmpFloat(r.estimate(a), r.estimate(b))
	})
	return out
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

// caseOrder orders cells by their case, so that a case's cells run one
// after another on one Setup.
func caseOrder(c *cell) int { return c.caseIdx }

// decides counts the claims not yet tried at this level whose cells
// would all be measured once these are: the claims a set of cells decides.
func (r *run) decides(cells []*cell, lv int, tried map[*claimPlan]bool) int {
	n := 0
	for _, cq := range r.plan.claims {
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

// claimCost is the estimate of a claim level's cells not yet measured.
func (r *run) claimCost(cells []*cell) float64 {
	sum := 0.0
	for _, c := range cells {
		if !c.done {
			sum = saturate(sum + r.estimate(c))
		}
	}
	return sum
}

func (r *run) allDone(cells []*cell) bool {
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

// atPaper counts the claims whose cells at the papers' sizes are all
// measured: what the progress line reports. A claim measured only below
// them is indicative in the report, not decided, so it is not counted
// (the report's "decided" also leaves out the inconclusive, which only
// judging tells).
func (r *run) atPaper() int {
	n := 0
	for _, cp := range r.plan.claims {
		if lv := cp.levels[levelPaper]; lv != nil && allMeasured(lv) {
			n++
		}
	}
	return n
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
	cost := func(g *group) float64 { return r.claimCost(g.cells) }
	for len(groups) > 0 {
		k := 0
		for i, g := range groups {
			if g.tier < groups[k].tier || g.tier == groups[k].tier && cost(g) < cost(groups[k]) {
				k = i
			}
		}
		g := groups[k]
		groups = append(groups[:k], groups[k+1:]...)
		var pending []*cell
		for _, h := range groups {
			pending = append(pending, h.cells...)
		}
		cells := g.cells
		for len(cells) > 0 {
			j := 0
			for i := range cells {
				if r.estimate(cells[i]) < r.estimate(cells[j]) {
					j = i
				}
			}
			c := cells[j]
			cells = append(cells[:j:j], cells[j+1:]...)
			if c.done {
				continue
			}
			if err := r.runCell(c, append(slices.Clone(cells), pending...)); err != nil {
				return err
			}
		}
	}
	return nil
}

// runCell measures one cell, or records why it is skipped, and appends
// its record and its aliases' copies. pending are the cells after it, for
// the ETA.
func (r *run) runCell(c *cell, pending []*cell) error {
	if err := r.interrupted(); err != nil {
		return err
	}
	if err := r.aaWhenDue(); err != nil {
		return err
	}
	if len(r.side) > 0 && (r.spent() || r.estimate(c) > r.left()) {
		if err := r.runSide(); err != nil { // the held cells first: their time was set aside
			return err
		}
	}
	if r.spent() {
		return errSpent
	}
	est := r.estimate(c)
	if pending == nil {
		pending = r.remaining(c)
	}
	r.meter.cell(r.done, r.total, c, r.eta(est, pending), r.atPaper())
	rec, err := r.measure(c, est)
	if err != nil {
		return err
	}
	c.done = true
	c.measured = rec.Status == bench.StatusOK || rec.Status == bench.StatusCheckFailed
	return r.finish(c, rec)
}

// remaining is every cell of the plan not yet recorded but c: with c's
// own estimate, the run's ETA.
func (r *run) remaining(c *cell) []*cell {
	var out []*cell
	for _, x := range r.plan.cells {
		if x != c && !x.done && x.unavailable == nil {
			out = append(out, x)
		}
	}
	return out
}

// DefaultLongRun is Config.LongRun's default: a minute a run.
const DefaultLongRun = time.Minute

// protocol is the cell's timing protocol: the run's, or one run without
// warm-up for a cell whose one run is estimated beyond LongRun; in a
// budgeted run a cell whose one run is estimated at NoWarmup or more has
// no warm-up, a GPU cell once its implementation has finished a cell of
// this run (see NoWarmup).
func (r *run) protocol(c *cell) bench.Protocol {
	p := bench.Protocol{Warmup: r.cfg.Warmup, Reps: r.cfg.Reps, Statistic: statistic(c.exp)}
	if r.long(c) {
		p.Warmup, p.Reps = 0, 1
	}
	warm := !strings.HasPrefix(c.impl, "cuda/") || r.est.ran[c.impl]
	if r.cfg.Budget > 0 && warm && r.est.estimate(c.exp, c.impl, c.cs) >= float64(NoWarmup)/1e6 {
		p.Warmup = 0
	}
	return p
}

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

// long reports whether one run of c is estimated beyond LongRun.
func (r *run) long(c *cell) bool {
	return r.cfg.LongRun > 0 && r.est.estimate(c.exp, c.impl, c.cs) > float64(r.cfg.LongRun)/1e6
}

// estimate is a cell's estimated milliseconds, warm-up and timed runs
// together, saturated.
func (r *run) estimate(c *cell) float64 {
	runs := r.runs
	switch {
	case r.long(c):
		runs = 1
	case r.settling && len(r.readers[c]) > 0:
		// A cell that claims read may stop after its first sample: the
		// plan counts that one, and a cell takes more only while the
		// budget pays for them.
		runs = float64(r.protocol(c).Warmup) + 1
	}
	return saturate(r.est.estimate(c.exp, c.impl, c.cs) * runs)
}

// left is the part of the budget not yet spent, in milliseconds
// (+Inf without a budget).
func (r *run) left() float64 {
	if r.cfg.Budget <= 0 {
		return math.Inf(1)
	}
	return max(0, float64(r.limit-time.Since(r.start))/1e6-r.heldMS)
}

// eta is the estimate of the cell starting now and every cell after it,
// never more than the budget left.
func (r *run) eta(first float64, pending []*cell) time.Duration {
	sum := first
	for _, c := range pending {
		if !c.done {
			sum = saturate(sum + r.estimate(c))
		}
	}
	return duration(min(sum, r.left()))
}

// interrupted returns the error that ends the whole run: Run's context
// cancelled for another reason than the budget; nil when the budget ended.
func (r *run) interrupted() error {
	if err := r.ctx.Err(); err != nil && !errors.Is(context.Cause(r.ctx), errBudget) {
		return err
	}
	return nil
}

// release frees the instance in hand.
func (r *run) release() {
	if r.inst != nil && r.inst.Release != nil {
		r.inst.Release()
	}
	r.inst, r.instCase = nil, nil
}

// errSpent tells Run that the budget is spent with cells left.
var errSpent = errors.New("budget spent")

// spent reports whether a budget was set and nothing of it is left.
func (r *run) spent() bool { return r.cfg.Budget > 0 && r.left() == 0 }

// skipAll records the cells as skipped because the budget is spent, in
// one write of the result file.
func (r *run) skipAll(cells []*cell) error {
	var recs []bench.Record
	for _, c := range cells {
		est := r.estimate(c)
		run, basis := r.est.explain(c.exp, c.impl, c.cs) // a claim skipped for time says on what its estimate rests
		for _, x := range append([]*cell{c}, c.aliases...) {
			rec := r.record(x)
			rec.Status, rec.EstimateMS, rec.EstimateRunMS, rec.Basis = bench.StatusSkipped, est, run, basis
			rec.Error = fmt.Sprintf("estimated %s; the %s budget is spent", duration(est).Round(time.Millisecond), r.cfg.Budget)
			recs = append(recs, rec)
		}
		c.done = true
	}
	return r.finishAll(recs)
}

// finishAll stamps and appends records in one write of the result file.
func (r *run) finishAll(recs []bench.Record) error {
	if len(recs) == 0 {
		return nil
	}
	now := time.Now().UTC()
	for i := range recs {
		recs[i].Finished = now
	}
	r.done += len(recs)
	return r.out.AppendAll(recs)
}

// finish stamps and appends a cell's record and a copy for each of its
// aliases, naming the cell they reuse.
func (r *run) finish(c *cell, rec bench.Record) error {
	if rec.Status != bench.StatusOK {
		slog.Debug("cell not ok", "experiment", rec.Experiment, "impl", rec.Impl, "params", rec.Params.String(), "status", rec.Status, "err", rec.Error)
	}
	recs := r.keep(c, rec)
	r.done += len(recs)
	r.meter.finished(c, rec, r.done, r.total, r.atPaper())
	return r.out.AppendAll(recs)
}

// keep stamps a cell's record, adds it and a copy for each of its aliases
// (naming the cell they reuse) to the run's records, and returns them
// for the file.
func (r *run) keep(c *cell, rec bench.Record) []bench.Record {
	rec.Finished = time.Now().UTC()
	recs := []bench.Record{rec}
	for _, a := range c.aliases {
		cp := rec
		cp.Experiment, cp.Statistic = a.exp.Name, statistic(a.exp)
		cp.ReusedFrom, cp.Wall = c.key, nil
		recs = append(recs, cp)
	}
	r.recs = append(r.recs, recs...)
	return recs
}

func statistic(e *experiments.Experiment) string {
	if e.Statistic == "" {
		return bench.StatMedian
	}
	return e.Statistic
}
