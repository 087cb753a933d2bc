// Package runner executes experiments: for every case and implementation it
// estimates the cell, skips it when it would overrun the budget, measures it
// with the timing protocol, checks its output, and appends the record to the
// result file as soon as the cell finishes. Progress and an ETA go to a
// writer (stderr on a terminal).
//
// Order: cells that cannot run on this machine are recorded unavailable
// first, before any budget decision. Then every experiment's headline cells
// (Experiment.IsHeadline) run, the GPU ones (cuda/) before the CPU ones,
// then the others: three tiers. Within a tier the cases go cheapest first
// by the current estimates (which learn from every finished cell), and a
// case's cells of one tier run together on one Setup, so a case is set up
// at most once per tier (the instance is kept while consecutive cells share
// it). The budget is one pool for the whole run: a cell is skipped when
// its estimate exceeds what is left of it, so time one experiment leaves
// unused flows to every other, and the run stops at the budget's end.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Config is one run.
type Config struct {
	Scale experiments.Scale
	Impl  string // implementation pattern; empty runs all
	// Where selects the cases by their parameters; nil runs all.
	Where  experiments.Where
	Reps   int // timed repetitions (default 5)
	Warmup int // warm-up runs (default 1)
	// Budget bounds the run: a cell whose estimate exceeds what is left is
	// skipped, and a cell still running when it ends is stopped and
	// recorded as skipped. 0: unlimited.
	Budget time.Duration
	// LongRun is the estimated time of one run beyond which a cell is run
	// once, without warm-up (the papers time such long computations once):
	// its record then holds one sample, and its table cell says so through
	// the sample count. 0 means DefaultLongRun; negative means never.
	LongRun  time.Duration
	Options  experiments.Options
	Progress io.Writer // nil: no progress lines
	// Available reports whether an implementation can run on this machine
	// (an error wrapping experiments.ErrUnavailable when not); nil means
	// experiments.Available.
	Available func(impl string) error
}

// cell is one (case, implementation) pair awaiting its turn.
type cell struct {
	exp  *experiments.Experiment
	cs   *experiments.Case
	impl string
}

// group is the cells of one case in one tier: they share one Setup.
type group struct {
	tier  int
	cells []cell
}

// The tiers, in the order they run.
const (
	tierGPUHeadline = iota // headline cells of CUDA implementations
	tierHeadline           // the other headline cells
	tierRest               // every other cell
	tiers
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

// Run executes the experiments and appends a record per cell to out, in
// the order the package comment describes. It returns the first error that
// stops the whole run (cancellation of ctx, a result file that cannot be
// written); a failing cell is recorded and the run goes on, and the end of
// the budget is no error.
func Run(ctx context.Context, cfg Config, exps []*experiments.Experiment, out *bench.Appender) error {
	if cfg.Reps <= 0 {
		cfg.Reps = 5
	}
	if cfg.Warmup < 0 {
		cfg.Warmup = 0
	}
	if cfg.Available == nil {
		cfg.Available = experiments.Available
	}
	if cfg.LongRun == 0 {
		cfg.LongRun = DefaultLongRun
	}
	if cfg.Options.Shared == nil {
		// The run's store of work several cells share (the powers of
		// A(D_m), generated instances): computed once, dropped at the end.
		cfg.Options.Shared = experiments.NewShared(0)
		defer func() { slog.Info(cfg.Options.Shared.Summary()); cfg.Options.Shared.Release() }()
	}
	start := time.Now()
	r := &run{cfg: cfg, out: out, est: newEstimator(), runs: float64(cfg.Warmup + cfg.Reps), start: start}
	r.ctx = ctx
	if cfg.Budget > 0 {
		var cancel context.CancelFunc
		r.ctx, cancel = context.WithDeadlineCause(ctx, start.Add(cfg.Budget), errBudget)
		defer cancel()
	}
	groups, unavailable, total := r.plan(exps)
	r.meter = newMeter(cfg.Progress, start, cfg.Budget)
	defer r.meter.close()
	defer r.release()
	r.total = total
	if err := r.finishAll(unavailable); err != nil {
		return err
	}
	for len(groups) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := r.next(groups)
		g := groups[k]
		groups = append(groups[:k], groups[k+1:]...)
		err := r.runGroup(g, groups)
		if errors.Is(err, errSpent) {
			return r.skipAll(append(groups, g))
		}
		if err != nil {
			return err
		}
	}
	r.meter.done(r.done)
	return nil
}

// run is the state of one Run.
type run struct {
	cfg   Config
	ctx   context.Context // ctx of Run, ended at the budget's end too
	out   *bench.Appender
	est   *estimator
	runs  float64 // warm-up plus timed runs per cell
	start time.Time
	meter *meter
	done  int // cells recorded
	total int // cells in the run

	inst     *experiments.Instance
	instCase *experiments.Case
}

// plan lists the cells, records none yet, and returns the groups of the
// cells that can run here and the records of those that cannot.
func (r *run) plan(exps []*experiments.Experiment) (groups []*group, unavailable []bench.Record, total int) {
	avail := map[string]error{}
	inRun := map[string]bool{}
	for _, e := range exps {
		inRun[e.Name] = true
	}
	for _, e := range exps {
		if e.MeasuredBy != "" && inRun[e.MeasuredBy] {
			continue // rendered from the cells of MeasuredBy, measured once there
		}
		cs := e.Cases(r.cfg.Scale, r.cfg.Options)
		for i := range cs {
			if !r.cfg.Where.Match(cs[i].Params) {
				continue
			}
			var byTier [tiers]group
			for _, impl := range e.ImplsFor(cs[i], r.cfg.Impl) {
				total++
				err, seen := avail[impl]
				if !seen {
					err = r.cfg.Available(impl)
					avail[impl] = err
				}
				c := cell{e, &cs[i], impl}
				switch {
				case err != nil:
					rec := r.record(c)
					rec.Status, rec.Error = bench.StatusUnavailable, err.Error()
					unavailable = append(unavailable, rec)
				default:
					g := &byTier[tierOf(e, impl)]
					g.cells = append(g.cells, c)
				}
			}
			for t := range byTier {
				if g := byTier[t]; len(g.cells) > 0 {
					g.tier = t
					groups = append(groups, &g)
				}
			}
		}
	}
	return groups, unavailable, total
}

// DefaultLongRun is Config.LongRun's default: a minute a run.
const DefaultLongRun = time.Minute

// protocol is the cell's timing protocol: the run's, or one run without
// warm-up for a cell whose one run is estimated beyond LongRun.
func (r *run) protocol(c cell) bench.Protocol {
	p := bench.Protocol{Warmup: r.cfg.Warmup, Reps: r.cfg.Reps, Statistic: statistic(c.exp)}
	if r.long(c) {
		p.Warmup, p.Reps = 0, 1
	}
	return p
}

// long reports whether one run of c is estimated beyond LongRun.
func (r *run) long(c cell) bool {
	return r.cfg.LongRun > 0 && r.est.estimate(c.exp, c.impl, c.cs.Work) > float64(r.cfg.LongRun)/1e6
}

// estimate is a cell's estimated milliseconds, warm-up and timed runs
// together, saturated.
func (r *run) estimate(c cell) float64 {
	runs := r.runs
	if r.long(c) {
		runs = 1
	}
	return saturate(r.est.estimate(c.exp, c.impl, c.cs.Work) * runs)
}

// cost is a group's estimated milliseconds, saturated.
func (r *run) cost(g *group) float64 {
	sum := 0.0
	for _, c := range g.cells {
		sum = saturate(sum + r.estimate(c))
	}
	return sum
}

// next picks the group to run: one of the first tier left, the cheapest
// by the current estimates, the earliest listed among equals.
func (r *run) next(groups []*group) int {
	best, bestCost := -1, 0.0
	for k, g := range groups {
		c := r.cost(g)
		if best < 0 || g.tier < groups[best].tier || g.tier == groups[best].tier && c < bestCost {
			best, bestCost = k, c
		}
	}
	return best
}

// left is the part of the budget not yet spent, in milliseconds
// (+Inf without a budget).
func (r *run) left() float64 {
	if r.cfg.Budget <= 0 {
		return math.Inf(1)
	}
	return max(0, float64(r.cfg.Budget-time.Since(r.start))/1e6)
}

// runGroup runs one group's cells, cheapest first; pending are the groups
// after it, for the ETA.
func (r *run) runGroup(g *group, pending []*group) error {
	cells := g.cells
	for len(cells) > 0 {
		if err := r.interrupted(); err != nil {
			return err
		}
		if r.spent() {
			g.cells = cells // the cells not run, for skipAll
			return errSpent
		}
		k, est := 0, r.estimate(cells[0])
		for i := 1; i < len(cells); i++ {
			if e := r.estimate(cells[i]); e < est {
				k, est = i, e
			}
		}
		c := cells[k]
		cells = append(cells[:k:k], cells[k+1:]...)
		r.meter.cell(r.done, r.total, c, r.eta(est, cells, pending))
		rec, err := r.measure(c, est)
		if err != nil {
			return err
		}
		if err := r.finish(rec); err != nil {
			return err
		}
	}
	return nil
}

// eta is the estimate of the cell starting now and every cell after it,
// never more than the budget left.
func (r *run) eta(first float64, cells []cell, pending []*group) time.Duration {
	sum := first
	for _, c := range cells {
		sum = saturate(sum + r.estimate(c))
	}
	for _, g := range pending {
		sum = saturate(sum + r.cost(g))
	}
	return duration(min(sum, r.left()))
}

// measure runs one cell, or decides it is skipped, and returns its record.
// The error is for the whole run: its context cancelled (not by the
// budget).
func (r *run) measure(c cell, est float64) (bench.Record, error) {
	rec := r.record(c)
	skip := func(why string) (bench.Record, error) {
		rec.Status, rec.EstimateMS, rec.Error = bench.StatusSkipped, est, why
		return rec, nil
	}
	if left := r.left(); est > left || left == 0 {
		if left == 0 {
			return skip(fmt.Sprintf("estimated %s; the %s budget is spent", duration(est).Round(time.Millisecond), r.cfg.Budget))
		}
		return skip(fmt.Sprintf("estimated %s exceeds the %s left of the %s budget",
			duration(est).Round(time.Millisecond), duration(left).Round(time.Millisecond), r.cfg.Budget))
	}
	// stopped tells an interruption (an error for the run) from the
	// budget's end (the cell is recorded skipped).
	stopped := func(what string) (bench.Record, error) {
		if err := r.interrupted(); err != nil {
			return rec, err
		}
		return skip(fmt.Sprintf("stopped at the end of the %s budget %s", r.cfg.Budget, what))
	}
	if r.instCase != c.cs {
		r.release()
		inst, err := c.cs.Setup(r.ctx)
		if err != nil {
			if r.ctx.Err() != nil {
				return stopped("while setting the case up")
			}
			// The input itself failed: every implementation of the case fails with it.
			slog.Error("case setup failed", "experiment", c.exp.Name, "params", c.cs.Params.String(), "err", err)
			rec.Status, rec.Error = bench.StatusFailed, "setup: "+err.Error()
			return rec, nil
		}
		r.inst, r.instCase = inst, c.cs
	}
	inst := r.inst
	rec.Input, rec.Metrics = inst.Input, inst.Metrics
	var last any
	began := time.Now()
	proto := r.protocol(c)
	if proto.Reps < r.cfg.Reps {
		rec.Note = fmt.Sprintf("one run without warm-up: one run was estimated at %s, beyond the %s long-run threshold",
			duration(r.est.estimate(c.exp, c.impl, c.cs.Work)).Round(time.Second), r.cfg.LongRun)
	}
	phases, err := bench.Measure(r.ctx, proto,
		func(ctx context.Context, rec *bench.Recorder) error {
			o, err := inst.Run(ctx, c.impl, rec)
			last = o
			return err
		})
	switch {
	case errors.Is(err, experiments.ErrUnavailable):
		rec.Status, rec.Error = bench.StatusUnavailable, err.Error()
	case err != nil && r.ctx.Err() != nil:
		return stopped(fmt.Sprintf("after %s of it", time.Since(began).Round(time.Millisecond)))
	case err != nil:
		rec.Status, rec.Error = bench.StatusFailed, err.Error()
	default:
		rec.Phases = phases
		chk := inst.Check(c.impl, last)
		rec.Check = &chk
		rec.Status = bench.StatusOK
		if !chk.OK {
			rec.Status = bench.StatusCheckFailed
		}
		if inst.Finish != nil {
			inst.Finish(c.impl, &rec) // work read from Options.Shared: ReusedFrom, and the samples it reports
		}
		if p := rec.Phase(bench.TotalPhase); p != nil && rec.ReusedFrom == "" { // a cell that read shared work says nothing of its cost
			r.est.observe(c.exp, c.impl, c.cs.Work, p.MedianMS)
		}
	}
	return rec, nil
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

// record starts a cell's record.
func (r *run) record(c cell) bench.Record {
	return bench.Record{Experiment: c.exp.Name, Impl: c.impl, Params: c.cs.Params, Statistic: statistic(c.exp)}
}

// errSpent tells Run that the budget is spent with cells left in a group.
var errSpent = errors.New("budget spent")

// spent reports whether a budget was set and nothing of it is left.
func (r *run) spent() bool { return r.cfg.Budget > 0 && r.left() == 0 }

// skipAll records every cell of groups as skipped because the budget is
// spent, in one write of the result file.
func (r *run) skipAll(groups []*group) error {
	var recs []bench.Record
	for _, g := range groups {
		for _, c := range g.cells {
			rec := r.record(c)
			est := r.estimate(c)
			rec.Status, rec.EstimateMS = bench.StatusSkipped, est
			rec.Error = fmt.Sprintf("estimated %s; the %s budget is spent", duration(est).Round(time.Millisecond), r.cfg.Budget)
			recs = append(recs, rec)
		}
	}
	if err := r.finishAll(recs); err != nil {
		return err
	}
	r.meter.done(r.done)
	return nil
}

// finishAll stamps and appends records in one write of the result file.
func (r *run) finishAll(recs []bench.Record) error {
	now := time.Now().UTC()
	for i := range recs {
		recs[i].Finished = now
	}
	r.done += len(recs)
	return r.out.AppendAll(recs)
}

// finish stamps and appends a record.
func (r *run) finish(rec bench.Record) error {
	rec.Finished = time.Now().UTC()
	if rec.Status != bench.StatusOK {
		slog.Debug("cell not ok", "experiment", rec.Experiment, "impl", rec.Impl, "params", rec.Params.String(), "status", rec.Status, "err", rec.Error)
	}
	r.done++
	return r.out.Append(rec)
}

func statistic(e *experiments.Experiment) string {
	if e.Statistic == "" {
		return bench.StatMedian
	}
	return e.Statistic
}

// meter keeps the progress line: the cell in hand and the estimated time of
// the cells left, redrawn every second so a long cell shows it is alive.
type meter struct {
	w      io.Writer
	start  time.Time
	budget time.Duration // 0: none
	mu     sync.Mutex
	label  string        // "[k/n] experiment impl params"
	since  time.Time     // when the cell in hand started
	left   time.Duration // estimate of the cells from the one in hand on
	stop   chan struct{}
	exited chan struct{} // closed when the redrawing goroutine has returned
	once   sync.Once
}

func newMeter(w io.Writer, start time.Time, budget time.Duration) *meter {
	m := &meter{w: w, start: start, budget: budget, stop: make(chan struct{}), exited: make(chan struct{})}
	if w == nil {
		close(m.exited)
	} else {
		go func() {
			defer close(m.exited)
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-m.stop:
					return
				case <-t.C:
					m.draw()
				}
			}
		}()
	}
	return m
}

// cell announces the cell now starting.
func (m *meter) cell(k, n int, c cell, left time.Duration) {
	m.mu.Lock()
	m.label = fmt.Sprintf("[%d/%d] %s %s %s", k+1, n, c.exp.Name, c.impl, c.cs.Params.String())
	m.since, m.left = time.Now(), left
	m.mu.Unlock()
	m.draw()
}

// eta is the time the run has left: the estimate less the time the cell in
// hand has run, never more than the budget left.
func (m *meter) eta(now time.Time) time.Duration {
	eta := max(0, m.left-now.Sub(m.since))
	if m.budget > 0 {
		eta = min(eta, max(0, m.budget-now.Sub(m.start)))
	}
	return eta
}

func (m *meter) draw() {
	if m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	fmt.Fprintf(m.w, "\r\033[K%s  elapsed %s  ETA %s", m.label, now.Sub(m.start).Round(time.Second), m.eta(now).Round(time.Second))
}

// close ends the redrawing and waits for it to stop; it may be called more
// than once.
func (m *meter) close() {
	m.once.Do(func() { close(m.stop) })
	<-m.exited
}

// done ends the redrawing and prints the closing line.
func (m *meter) done(cells int) {
	m.close()
	if m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintf(m.w, "\r\033[Kdone: %d cells in %s\n", cells, time.Since(m.start).Round(time.Millisecond))
}

// estimator predicts a cell's milliseconds per run from the experiment's
// prior and, once an implementation has finished a cell, from its measured
// rate on the largest case seen so far.
type estimator struct {
	rate map[string]float64 // ms per work unit, by experiment|impl and by impl
	work map[string]float64
}

func newEstimator() *estimator {
	return &estimator{rate: map[string]float64{}, work: map[string]float64{}}
}

func (e *estimator) estimate(exp *experiments.Experiment, impl string, work float64) float64 {
	for _, key := range []string{exp.Name + "|" + impl, exp.Paper + "|" + impl} {
		if r, ok := e.rate[key]; ok {
			return saturate(r * work)
		}
	}
	return saturate(exp.NsPerWork[impl] * work / 1e6)
}

func (e *estimator) observe(exp *experiments.Experiment, impl string, work, ms float64) {
	if work <= 0 {
		return
	}
	for _, key := range []string{exp.Name + "|" + impl, exp.Paper + "|" + impl} {
		if work >= e.work[key] {
			e.work[key], e.rate[key] = work, ms/work
		}
	}
}
