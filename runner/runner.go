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
// before CPU), then every other cell, each tier the cheapest case first. A case's cells that run
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
	// Gone holds the keys of cells the result file already records
	// unavailable (--resume): while they still cannot run here they are
	// not recorded again.
	Gone map[string]bool
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
	// Outer samples the outer level of noise where the claims need it
	// (outer.go); nil: fresh allocations in this process
	// (NewAllocationSampler).
	Outer OuterSampler
	// Kernels, when set, loads the GPU kernels (every module, compiled
	// where the disk cache lacks it) before the first cell of a run whose
	// plan has a CUDA cell that can run here, within the budget, and says
	// what it did; the result file notes it (and its error). Once it has
	// loaded them no cell's estimate counts a module's load
	// (cmd/semibench: cuda.LoadKernels on each GPU the run uses).
	Kernels func(ctx context.Context) (note string, err error)
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

// run is one Run: the configuration, and the parts that each do one job
// (their types say which). The passes over the plan (passes.go,
// settle.go, aa.go, batch.go) are its methods; which pass measures a cell
// is an argument (pass), never a flag of the run.
type run struct {
	cfg    Config
	ctx    context.Context // ctx of Run, ended at the budget's end too
	out    *bench.Appender
	budget *budget
	plan   *plan
	price  *pricer    // the estimates of cells (estimate.go)
	ledger *ledger    // the records this run wrote
	aa     *aaPairs   // the A/A cells and the noise they measured (aa.go)
	side   *sideBatch // long one-core cells waiting to run side by side (batch.go)
	hand   hand       // the case set up in hand (measure.go)
	meter  *meter     // progress (progress.go)
	outer  OuterSampler
	// coldSetup says, of each cell that set its case up, whether that
	// setup was its input's first in the run (the wall model's setup).
	coldSetup map[*cell]bool
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
	r := &run{cfg: cfg, out: out, budget: newBudget(cfg.Budget, cfg.Reserve, start), ledger: &ledger{},
		aa: newAAPairs(), side: &sideBatch{cores: coreUse{}}, coldSetup: map[*cell]bool{}}
	r.ctx = ctx
	r.outer = cfg.Outer
	if r.outer == nil {
		r.outer = NewAllocationSampler()
	}
	if r.budget.on() {
		var cancel context.CancelFunc
		r.ctx, cancel = context.WithDeadlineCause(ctx, r.budget.end(), errBudget)
		defer cancel()
	}
	r.price = newPricer(&r.cfg, r.budget, r.aa, &r.hand)
	r.plan = buildPlan(&r.cfg, r.price, exps)
	if cfg.Shard.N > 1 {
		r.plan = r.plan.shard(cfg.Shard, r.price)
	}
	r.price.setPlan(r.plan)
	already := 0
	for _, c := range r.plan.cells {
		switch {
		case cfg.Done[c.key]:
			c.done, c.measured = true, true
			already++
		case cfg.Gone[c.key] && c.unavailable != nil:
			c.done = true
		}
	}
	r.meter = newMeter(cfg.Progress, cfg.Terminal, start, r.budget.limit, r.plan.measurable(), already)
	defer r.meter.close()
	defer r.hand.release()
	if err := r.recordUnavailable(); err != nil {
		return err
	}
	r.plan.indexReaders()
	r.plan.hosts = experiments.ClaimHosts(exps)
	r.loadKernels()
	if err := r.passes(); err != nil {
		return r.stop(err)
	}
	r.meter.finish(r.plan.atPaper())
	return nil
}

// loadKernels loads the GPU kernels (Config.Kernels) when a CUDA cell of
// the plan can run here, and notes what it did.
func (r *run) loadKernels() {
	if r.cfg.Kernels == nil || !slices.ContainsFunc(r.plan.cells, func(c *cell) bool {
		return !c.done && c.unavailable == nil && strings.HasPrefix(c.impl, "cuda/")
	}) {
		return
	}
	note, err := r.cfg.Kernels(r.ctx)
	if err != nil {
		note = strings.TrimSpace(note + " (loading the kernels: " + err.Error() + ")")
	}
	if note != "" {
		r.out.AddNotes(note)
	}
	r.price.wall.kernels = err == nil
}

// Interrupted is Run's error when its context was cancelled before the
// end (Ctrl-C, SIGTERM; not the budget's end): how many of the plan's
// cells (aliases included) have a record.
type Interrupted struct {
	Recorded, Cells int
	Err             error // the context's
}

func (e *Interrupted) Error() string {
	return fmt.Sprintf("interrupted after %d of %d cells", e.Recorded, e.Cells)
}

func (e *Interrupted) Unwrap() error { return e.Err }

// tally counts the plan's cells, aliases included, and those with a
// record.
func (r *run) tally() (recorded, cells int) {
	for _, c := range r.plan.cells {
		n := 1 + len(c.aliases)
		cells += n
		if c.done {
			recorded += n
		}
	}
	return recorded, cells
}

// passes runs the planner's passes in order (ARCHITECTURE.md, "The
// planner"): in a budgeted run the A/A cells, every claim's Least cells,
// the A/A pairs, every claim's Paper cells, the long one-core cells held
// back, the A/A pairs again, the claims' top-ups, the outer level, the
// refine; then, in every run, the rest of the tables.
func (r *run) passes() error {
	if r.budget.on() && r.outer != nil {
		// the file says that its claims were judged at both levels: the
		// verdicts it gives read every claim so (experiments.OuterAware)
		r.out.AddNotes(experiments.OuterNotePrefix + "this run samples a claim's cells in " + levelWords(r.outer.Level()) +
			" where the spread between runs could carry its figure across its band's edge; a claim it did not sample so is judged from its one draw")
	}
	if r.budget.on() {
		r.aa.due = r.budget.start.Add(max(aaFirstPairs, r.budget.limit/6))
		r.aa.choose(r.plan, r.price)
		if err := r.runAA(false, passClaims); err != nil {
			return err
		}
	}
	for _, lv := range []int{levelLeast, levelPaper} {
		if err := r.runClaims(lv); err != nil {
			return err
		}
		if lv == levelLeast && r.budget.on() && len(r.aa.pairs) == 0 {
			if err := r.runAA(true, passClaims); err != nil { // the pairs, minutes apart
				return err
			}
		}
	}
	if err := r.runSide(); err != nil { // the long one-core cells held back, at once
		return err
	}
	if r.budget.on() {
		if err := r.runAA(true, passClaims); err != nil { // more pairs, minutes later
			return err
		}
	}
	if err := r.settleAll(); err != nil {
		return err
	}
	if err := r.outerLevel(); err != nil {
		return err
	}
	if err := r.refine(); err != nil {
		return err
	}
	return r.runRest()
}

// stop ends a run cut short: at the budget's end every cell not measured
// is recorded skipped (errSpent is no error), on any other error the run
// returns it.
func (r *run) stop(err error) error {
	if ierr := r.interrupted(); ierr != nil {
		recorded, cells := r.tally()
		r.meter.close()
		return &Interrupted{Recorded: recorded, Cells: cells, Err: ierr}
	}
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
	r.meter.finish(r.plan.atPaper())
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
			rec := x.record()
			rec.Status, rec.Error = bench.StatusUnavailable, c.unavailable.Error()
			recs = append(recs, rec)
		}
	}
	return r.finishAll(recs)
}

// runCell measures one cell in pass p, or records why it is skipped, and
// appends its record and its aliases' copies. pending are the cells after
// it, for the ETA.
func (r *run) runCell(c *cell, pending []*cell, p pass) error {
	if err := r.interrupted(); err != nil {
		return err
	}
	if err := r.aaWhenDue(p); err != nil {
		return err
	}
	if r.side.waiting() && (r.budget.spent() || r.price.cellIn(c, p) > r.budget.left()) {
		if err := r.runSide(); err != nil { // the held cells first: their time was set aside
			return err
		}
	}
	if r.budget.spent() {
		return errSpent
	}
	est := r.price.cellIn(c, p)
	if pending == nil {
		pending = r.remaining(c)
	}
	pr := r.price.protocol(c)
	r.meter.cell(passName(p, r.budget.on()), c, pr.Warmup, pr.Reps, r.eta(est, pending), r.plan.atPaper())
	rec, err := r.measure(c, est, p)
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

// eta is the estimate of the cell starting now and every cell after it,
// never more than the budget left.
func (r *run) eta(first float64, pending []*cell) time.Duration {
	return duration(min(saturate(first+r.price.cells(pending)), r.budget.left()))
}

// interrupted returns the error that ends the whole run: Run's context
// cancelled for another reason than the budget; nil when the budget ended.
func (r *run) interrupted() error {
	if err := r.ctx.Err(); err != nil && !errors.Is(context.Cause(r.ctx), errBudget) {
		return err
	}
	return nil
}

// errSpent tells Run that the budget is spent with cells left.
var errSpent = errors.New("budget spent")

// skipAll records the cells as skipped because the budget is spent, in
// one write of the result file.
func (r *run) skipAll(cells []*cell) error {
	var recs []bench.Record
	for _, c := range cells {
		est := r.price.cell(c)
		run, basis := r.price.explain(c) // a claim skipped for time says on what its estimate rests
		for _, x := range append([]*cell{c}, c.aliases...) {
			rec := x.record()
			rec.Status, rec.EstimateMS, rec.EstimateWallMS, rec.EstimateRunMS, rec.Basis = bench.StatusSkipped, est, est, run, basis
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
	r.meter.add(recs)
	return r.out.AppendAll(recs)
}

// finish stamps and appends a cell's record and a copy for each of its
// aliases, naming the cell they reuse.
func (r *run) finish(c *cell, rec bench.Record) error {
	if rec.Status != bench.StatusOK {
		slog.Debug("cell not ok", "experiment", rec.Experiment, "impl", rec.Impl, "params", rec.Params.String(), "status", rec.Status, "err", rec.Error)
	}
	recs := r.ledger.keep(c, rec)
	r.meter.add(recs)
	r.meter.finished(rec, r.plan.atPaper())
	return r.out.AppendAll(recs)
}

func statistic(e *experiments.Experiment) string {
	if e.Statistic == "" {
		return bench.StatMedian
	}
	return e.Statistic
}
