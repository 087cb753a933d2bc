package runner

// Measuring one cell: its memory check, its case set up once for the
// cells of the case, the timing protocol, the check of its output, and
// top-ups of its samples.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/stats"
	"github.com/semibench/semibench/internal/sysmem"
)

// memoryCheck returns why the cell's case would not fit in memory, or "".
func (r *run) memoryCheck(c *cell) string {
	host, device := c.cs.HostBytes, c.cs.DeviceBytes
	if c.cs.Memory != nil {
		host, device = c.cs.Memory(c.impl)
	}
	if host > 0 {
		if r.hand.cs != c.cs {
			r.hand.release() // the instance in hand goes before the next is judged
		}
		if r.cfg.Options.Shared != nil {
			r.cfg.Options.Shared.MakeRoom(host) // shared pieces give way first
		}
		if free := sysmem.Free(); free > 0 && host > free {
			l := sysmem.HostLimit()
			return fmt.Sprintf("needs %s of host memory, %s available (limit %s, from %s)", gibText(host), gibText(free), gibText(l.Bytes), l.Source)
		}
	}
	if strings.HasPrefix(c.impl, "cuda/") && device > 0 && r.cfg.DeviceMemory > 0 && device > r.cfg.DeviceMemory {
		return fmt.Sprintf("needs %s of GPU memory, the GPU has %s", gibText(device), gibText(r.cfg.DeviceMemory))
	}
	return ""
}

func gibText(b uint64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

// measure runs one cell in pass p, or decides it is skipped, and returns
// its record. The error is for the whole run: its context cancelled (not
// by the budget).
func (r *run) measure(c *cell, est float64, p pass) (bench.Record, error) {
	rec := c.record()
	rec.EstimateRunMS, rec.Basis = r.price.explain(c)
	rec.EstimateMS, rec.EstimateWallMS = est, est
	skip := func(why string) (bench.Record, error) {
		rec.Status, rec.Error = bench.StatusSkipped, why
		return rec, nil
	}
	// Memory first: a cell that cannot fit says so whatever the time left.
	if why := r.memoryCheck(c); why != "" {
		return skip(why)
	}
	if left := r.budget.left(); est > left || left == 0 {
		if left == 0 {
			return skip(fmt.Sprintf("estimated %s; the %s budget is spent", duration(est).Round(time.Millisecond), r.cfg.Budget))
		}
		return skip(fmt.Sprintf("estimated %s exceeds the %s left of the %s budget",
			duration(est).Round(time.Millisecond), duration(left).Round(time.Millisecond), r.cfg.Budget))
	}
	if left := r.budget.left(); r.budget.on() && est*UnprovenMargin > left && r.price.extrapolated(c) {
		return skip(fmt.Sprintf("estimated %s (%s), larger than any cell of its kind measured on this machine kind; %d times that exceeds the %s left of the %s budget",
			duration(est).Round(time.Millisecond), rec.Basis, UnprovenMargin, duration(left).Round(time.Millisecond), r.cfg.Budget))
	}
	wall := &bench.CellWall{}
	inst, err := r.instance(c, wall)
	if err != nil {
		if r.ctx.Err() != nil {
			return r.stopped(rec, est, "while setting the case up")
		}
		// The input itself failed: every implementation of the case fails with it.
		slog.Error("case setup failed", "experiment", c.exp.Name, "params", c.cs.Params.String(), "err", err)
		rec.Status, rec.Error = bench.StatusFailed, "setup: "+err.Error()
		return rec, nil
	}
	rec.Input, rec.Metrics = inst.Input, inst.Metrics
	proto := r.price.protocol(c)
	proto.WarmupMS = &rec.WarmupMS
	limit := limitRule{most: proto.Reps, why: func(n int) string { return r.fullStop(c, n, p) }}
	if proto.Reps < r.cfg.Reps {
		rec.Note, rec.Stop = r.longNote(c), "one long run"
		limit.why = fixedWhy(rec.Stop)
	}
	smp := r.sampling(c, p, limit, &rec, inst, nil)
	proto = smp.protocol(proto)
	var watch *bench.GPUWatch // nil-safe: Wrap returns its function, Finish nil
	if strings.HasPrefix(c.impl, "cuda/") && r.cfg.GPUState != nil {
		watch = bench.NewGPUWatch(r.cfg.GPUState, max(1, r.cfg.Options.GPUs), proto)
	}
	t := r.timeRuns(c, inst, proto, watch.Wrap)
	rec.GPU = watch.Finish()
	wall.CPUMS, wall.LooksMS = t.cpuMS, smp.looksMS
	r.side.cores.observe(c, t.cpuMS, t.wallMS)
	if smp.why != "" {
		rec.Stop = smp.why
	}
	rec, err = r.conclude(c, inst, rec, est, t, wall)
	if err == nil && rec.Stop == "" && rec.Status == bench.StatusOK {
		rec.Stop = smp.final(rec.Phases)
	}
	return rec, err
}

// sampling is the stopping rules of c measured in pass p up to limit
// (sampling.go): in a pass that settles claims, for a cell that claims
// read, the budget's and the settle rule's, else the limit alone. rec is
// the record being measured, prev the earlier record's phases of a
// top-up.
func (r *run) sampling(c *cell, p pass, limit limitRule, rec *bench.Record, inst *experiments.Instance, prev []bench.Phase) *sampling {
	if !p.settles(r.budget.on()) || len(r.plan.readers[c]) == 0 {
		return newSampling(limit, prev, rec.Statistic)
	}
	return newSampling(limit, prev, rec.Statistic,
		budgetRule{perMS: r.price.runWall(c), b: r.budget},
		settleRule{r: r, c: c, rec: rec, inst: inst, first: p == passClaims, beside: map[*claimPlan]float64{}})
}

// longNote is the note of a cell run once because one run is long.
func (r *run) longNote(c *cell) string {
	return fmt.Sprintf("one run without warm-up: one run was estimated at %s, beyond the %s long-run threshold",
		duration(r.price.perRun(c)).Round(time.Second), r.cfg.LongRun)
}

// lose notes in the result file ms of c's measurement that the budget's
// end or an interruption stopped and no record keeps (experiments.LostNote,
// InterruptedLostNote), so that the report does not count it as the
// harness's time.
func (r *run) lose(c *cell, ms float64) {
	if ms <= 0 {
		return
	}
	what := c.exp.Name + " " + c.impl + " " + c.cs.Params.String()
	if r.interrupted() != nil {
		r.out.AddNotes(experiments.InterruptedLostNote(ms, what))
		return
	}
	r.out.AddNotes(experiments.LostNote(ms, what))
}

// stopped is rec ended by an interruption (an error for the run) or by
// the budget's end (the cell recorded skipped), what saying when.
func (r *run) stopped(rec bench.Record, est float64, what string) (bench.Record, error) {
	if err := r.interrupted(); err != nil {
		return rec, err
	}
	rec.Status, rec.EstimateMS = bench.StatusSkipped, est
	rec.Error = fmt.Sprintf("stopped at the end of the %s budget %s", r.cfg.Budget, what)
	return rec, nil
}

// UnprovenMargin is how many times its estimate a budgeted run keeps in
// hand to start a cell whose estimate is scaled up from smaller cells,
// with no earlier run of its own on this machine kind that recorded its
// wall (pricer.extrapolated; a file older than bench.CellWall gives only
// a timed median, a lower bound): such estimates miss most, and a cell stopped by
// the budget's end loses all its time. The 2-core run of 62157c4 started
// 2-domination's formula at m = 11 by cpu/sparse, priced at 15.6 minutes
// by a fit from m = 9, with 20 minutes left, and lost those 20 minutes;
// that of b3c9c15 started Table 2 at m = 10, priced at 47 s by a fit,
// with 96 s left, and lost those. A cell with its own history, or priced
// by its prior alone, is started whenever its estimate fits.
const UnprovenMargin = 3

// cpuTime is the process's CPU time so far (a variable for the tests).
var cpuTime = sysmem.CPUTime

// runFunc is one run of a cell, as bench.Measure times it.
type runFunc = func(ctx context.Context, rec *bench.Recorder) error

// timing is what timeRuns measured: the phases, the last output, the
// error, the wall and CPU milliseconds of the whole measurement, and the
// wall of each run (warm-ups first), whole.
type timing struct {
	phases        []bench.Phase
	last          any
	err           error
	began         time.Time
	wallMS, cpuMS float64
	runs          []float64
}

// timeRuns runs c's protocol on inst (wrap wraps each run: the GPU watch).
func (r *run) timeRuns(c *cell, inst *experiments.Instance, proto bench.Protocol, wrap func(runFunc) runFunc) timing {
	t := timing{began: time.Now()}
	cpu0 := cpuTime()
	var run runFunc = func(ctx context.Context, rec *bench.Recorder) error {
		o, err := inst.Run(ctx, c.impl, rec)
		t.last = o
		return err
	}
	if wrap != nil {
		run = wrap(run)
	}
	inner := run
	run = func(ctx context.Context, rec *bench.Recorder) error {
		t0 := time.Now()
		err := inner(ctx, rec)
		t.runs = append(t.runs, msSince(t0))
		r.meter.ran()
		return err
	}
	t.phases, t.err = bench.Measure(r.ctx, proto, run)
	t.wallMS = msSince(t.began)
	if cpu := cpuTime(); cpu > 0 {
		t.cpuMS = float64(cpu-cpu0) / 1e6
	}
	return t
}

// conclude makes c's record from its timing: checks the output, feeds the
// estimator, and fills in the wall time and why it stopped.
func (r *run) conclude(c *cell, inst *experiments.Instance, rec bench.Record, est float64, t timing, wall *bench.CellWall) (bench.Record, error) {
	wall.MeasureMS = t.wallMS
	wall.Runs = len(t.runs)
	if len(t.runs) > 0 {
		wall.FirstRunMS = t.runs[0]
	}
	switch err := t.err; {
	case errors.Is(err, experiments.ErrUnavailable):
		rec.Status, rec.Error = bench.StatusUnavailable, err.Error()
	case err != nil && r.ctx.Err() != nil:
		r.lose(c, t.wallMS)
		return r.stopped(rec, est, fmt.Sprintf("after %s of it", time.Since(t.began).Round(time.Millisecond)))
	case err != nil:
		rec.Status, rec.Error = bench.StatusFailed, err.Error()
	default:
		rec.Phases = t.phases
		t0 := time.Now()
		chk := inst.Check(c.impl, t.last)
		wall.CheckMS = msSince(t0)
		rec.Check = &chk
		rec.Status = bench.StatusOK
		if !chk.OK {
			rec.Status = bench.StatusCheckFailed
		}
		if inst.Finish != nil {
			inst.Finish(c.impl, &rec) // work read from Options.Shared: ReusedFrom, and the samples it reports
		}
		timed := 0.0
		switch p := rec.Phase(bench.TotalPhase); {
		case p == nil:
		case rec.ReusedFrom == "":
			r.price.est.observe(c.exp, c.impl, c.cs, p.MedianMS)
			timed = p.MedianMS
		case readsShared(c): // what it adds to the work it read, not the whole cell's cost
			r.price.est.observeReads(c.exp, c.impl, c.cs, p.MedianMS)
		}
		// A cell that reports samples another cell measured (ReusedFrom)
		// timed no more than its own measurement.
		wall.TimedMS = min(timedMS(&rec), wall.MeasureMS)
		r.price.wall.observe(c, wall, len(rec.WarmupMS), timed, r.coldSetup[c], r.price.siblings(c))
	}
	wall.PeakRSS = sysmem.PeakRSS()
	rec.Wall = wall
	return rec, nil
}

// fullStop says why a cell measured in pass p took all its n samples.
func (r *run) fullStop(c *cell, n int, p pass) string {
	settling := r.budget.on() && p != passRefine
	switch {
	case p == passAA:
		return fmt.Sprintf("%d sample(s): an A/A cell, measured in full (its spread is part of the run's noise)", n)
	case settling && len(r.plan.readers[c]) == 0:
		return fmt.Sprintf("%d sample(s): the --reps of a cell no claim reads", n)
	case settling && n > r.cfg.Reps:
		return fmt.Sprintf("%d sample(s), the maximum of a cheap cell (%d x --reps): its claims were not settled before", n, CheapFactor)
	case settling:
		return fmt.Sprintf("%d sample(s), the --reps maximum: its claims were not settled before", n)
	}
	return fmt.Sprintf("%d sample(s): the fixed repetitions of a run without a budget", n)
}

// instance is c's case set up (hand.instance), noting in the wall model
// that its input is now in the run, and whether this setup was the
// input's first in the run (coldSetup).
func (r *run) instance(c *cell, wall *bench.CellWall) (*experiments.Instance, error) {
	inHand := r.hand.cs == c.cs
	key := inputKey(c)
	cold := !r.price.wall.inputs[key]
	inst, err := r.hand.instance(r.ctx, c, wall)
	if err == nil && !inHand {
		r.price.wall.inputs[key] = true
		r.coldSetup[c] = cold
	}
	return inst, err
}

// hand is the case set up in hand: a case's cells that run one after
// another share one Setup.
type hand struct {
	inst *experiments.Instance
	cs   *experiments.Case
}

// instance is c's case set up, the one in hand when it is c's; the setup
// time goes to wall.
func (h *hand) instance(ctx context.Context, c *cell, wall *bench.CellWall) (*experiments.Instance, error) {
	if h.cs == c.cs {
		return h.inst, nil
	}
	h.release()
	t0 := time.Now()
	inst, err := c.cs.Setup(ctx)
	wall.SetupMS = msSince(t0)
	if err != nil {
		return nil, err
	}
	h.inst, h.cs = inst, c.cs
	return inst, nil
}

// release frees the instance in hand.
func (h *hand) release() {
	if h.inst != nil && h.inst.Release != nil {
		h.inst.Release()
	}
	h.inst, h.cs = nil, nil
}

// measureMore times extra more runs of c in pass p, without a new
// estimate or budget decision: a top-up (prev holds the earlier samples,
// which come first in the record returned) or an A/A repeat (prev is
// empty: the record holds the new samples alone, and is not written). Its
// status is not ok when the runs failed, or were stopped.
func (r *run) measureMore(c *cell, prev bench.Record, extra int, p pass) (bench.Record, error) {
	rec := prev
	if len(prev.Phases) == 0 {
		rec = c.record()
	}
	wall := &bench.CellWall{}
	inst, err := r.instance(c, wall)
	if err != nil {
		if ierr := r.interrupted(); ierr != nil {
			return rec, ierr
		}
		rec.Status = bench.StatusFailed
		return rec, nil
	}
	proto := r.price.protocol(c)
	if len(prev.Phases) > 0 && !strings.HasPrefix(c.impl, "cuda/") {
		proto.Warmup = 0 // its case's data may be cold, but a CPU cell's code is not
	}
	rec.WarmupMS = slices.Clone(rec.WarmupMS)
	proto.WarmupMS = &rec.WarmupMS
	rec.Stop = ""
	var prevp *bench.Record
	if len(prev.Phases) > 0 {
		prevp = &prev
	}
	smp := r.sampling(c, p, limitRule{most: extra, why: func(n int) string { return r.fullStop(c, n, p) }}, &rec, inst, prev.Phases)
	proto = smp.protocol(proto)
	t := r.timeRuns(c, inst, proto, nil)
	rec.Stop = smp.why
	phases, err, last := t.phases, t.err, t.last
	wall.MeasureMS, wall.CPUMS, wall.LooksMS, wall.Runs = t.wallMS, t.cpuMS, smp.looksMS, len(t.runs)
	if len(t.runs) > 0 {
		wall.FirstRunMS = t.runs[0]
	}
	if err != nil {
		if r.ctx.Err() != nil { // the budget's end or an interruption: the earlier record stands, these samples are lost
			r.lose(c, t.wallMS)
		}
		if ierr := r.interrupted(); ierr != nil {
			return rec, ierr
		}
		rec.Status = bench.StatusFailed
		return rec, nil
	}
	t0 := time.Now()
	chk := inst.Check(c.impl, last)
	wall.CheckMS = msSince(t0)
	if !chk.OK {
		rec.Status = bench.StatusCheckFailed
		rec.Check = &chk
		return rec, nil
	}
	r.price.wall.observe(c, wall, len(rec.WarmupMS)-len(prev.WarmupMS), stats.Median(samplesOf(phases)), r.coldSetup[c], r.price.siblings(c))
	if prevp != nil {
		phases = mergePhases(prev.Phases, phases, rec.Statistic)
		if pw := prev.Wall; pw != nil { // the record's wall covers both measurements
			wall.SetupMS += pw.SetupMS
			wall.MeasureMS += pw.MeasureMS
			wall.CheckMS += pw.CheckMS
			wall.LooksMS += pw.LooksMS
			wall.Runs += pw.Runs
			wall.FirstRunMS = pw.FirstRunMS
		}
	}
	rec.Phases, rec.Status = phases, bench.StatusOK
	wall.TimedMS = min(timedMS(&rec), wall.MeasureMS)
	wall.PeakRSS = sysmem.PeakRSS()
	rec.Wall = wall
	if rec.Stop == "" {
		rec.Stop = smp.final(t.phases)
	}
	if prevp != nil {
		rec.Stop += fmt.Sprintf(" (topped up from %d)", len(experiments.SamplesOf(prevp, bench.TotalPhase)))
	}
	return rec, nil
}

// samplesOf is the samples of total among phases.
func samplesOf(phases []bench.Phase) []float64 {
	for _, p := range phases {
		if p.Name == bench.TotalPhase {
			return p.SamplesMS
		}
	}
	return nil
}

// timedMS is the sum of a record's timed samples: end_to_end's, or
// total's where there is none.
func timedMS(rec *bench.Record) float64 {
	p := rec.Phase(bench.EndToEndPhase)
	if p == nil {
		p = rec.Phase(bench.TotalPhase)
	}
	if p == nil {
		return 0
	}
	sum := 0.0
	for _, v := range p.SamplesMS {
		sum += v
	}
	return sum
}

func msSince(t time.Time) float64 { return float64(time.Since(t)) / 1e6 }
