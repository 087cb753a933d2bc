// Package runner executes experiments: for every case and implementation it
// estimates the cell, skips it when it would overrun the budget, measures it
// with the timing protocol, checks its output, and appends the record to the
// result file as soon as the cell finishes. Progress and an ETA go to a
// writer (stderr on a terminal).
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Config is one run.
type Config struct {
	Scale    experiments.Scale
	Impl     string        // implementation pattern; empty runs all
	Reps     int           // timed repetitions (default 5)
	Warmup   int           // warm-up runs (default 1)
	Budget   time.Duration // 0: unlimited
	Options  experiments.Options
	Progress io.Writer // nil: no progress lines
}

// cell is one (case, implementation) pair awaiting its turn.
type cell struct {
	exp  *experiments.Experiment
	cs   *experiments.Case
	impl string
	nth  int // the experiment's position in the run
}

// deadline is when experiment nth of count must be done: the budget is
// shared out evenly and cumulatively, so time an experiment leaves unused
// passes to the next, and a slow experiment early in the run cannot starve
// the ones after it.
func deadline(budget time.Duration, nth, count int) time.Duration {
	return time.Duration(float64(budget) * float64(nth+1) / float64(count))
}

// Run executes the experiments and appends a record per cell to out. With a
// budget, experiment k of K must finish by k/K of it (see deadline); a cell
// whose estimate would overrun that is recorded as skipped with its
// estimate. It
// returns the first error that stops the whole run (cancellation, a result
// file that cannot be written); a failing cell is recorded and the run goes
// on.
func Run(ctx context.Context, cfg Config, exps []*experiments.Experiment, out *bench.Appender) error {
	if cfg.Reps == 0 {
		cfg.Reps = 5
	}
	if cfg.Warmup < 0 {
		cfg.Warmup = 0
	}
	var cells []cell
	for k, e := range exps {
		cs := e.Cases(cfg.Scale, cfg.Options)
		for i := range cs {
			for _, impl := range e.ImplsFor(cs[i], cfg.Impl) {
				cells = append(cells, cell{e, &cs[i], impl, k})
			}
		}
	}
	est := newEstimator()
	runs := float64(cfg.Warmup + cfg.Reps)
	start := time.Now()
	meter := newMeter(cfg.Progress, start)
	defer meter.close()
	var inst *experiments.Instance
	var instCase *experiments.Case
	release := func() {
		if inst != nil && inst.Release != nil {
			inst.Release()
		}
		inst, instCase = nil, nil
	}
	defer release()

	for k, c := range cells {
		if err := ctx.Err(); err != nil {
			return err
		}
		estimate := est.estimate(c.exp, c.impl, c.cs.Work) * runs
		remaining := time.Duration(0)
		for _, d := range cells[k:] {
			remaining += time.Duration(est.estimate(d.exp, d.impl, d.cs.Work) * runs * 1e6)
		}
		meter.cell(k, len(cells), c, remaining)

		rec := bench.Record{Experiment: c.exp.Name, Impl: c.impl, Params: c.cs.Params, Statistic: statistic(c.exp)}
		if due := deadline(cfg.Budget, c.nth, len(exps)); cfg.Budget > 0 && time.Since(start)+time.Duration(estimate*1e6) > due {
			rec.Status = bench.StatusSkipped
			rec.EstimateMS = estimate
			rec.Error = fmt.Sprintf("estimated %s exceeds the %s left of this experiment's share of the %s budget",
				time.Duration(estimate*1e6).Round(time.Second), max(0, due-time.Since(start)).Round(time.Second), cfg.Budget)
			if err := finish(out, rec); err != nil {
				return err
			}
			continue
		}
		if err := experiments.Available(c.impl); err != nil {
			rec.Status, rec.Error = bench.StatusUnavailable, err.Error()
			if err := finish(out, rec); err != nil {
				return err
			}
			continue
		}
		if instCase != c.cs {
			release()
			var err error
			inst, err = c.cs.Setup(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				// The input itself failed: every implementation of the case fails with it.
				slog.Error("case setup failed", "experiment", c.exp.Name, "params", c.cs.Params.String(), "err", err)
				rec.Status, rec.Error = bench.StatusFailed, "setup: "+err.Error()
				if err := finish(out, rec); err != nil {
					return err
				}
				continue
			}
			instCase = c.cs
		}
		rec.Input, rec.Metrics = inst.Input, inst.Metrics
		var last any
		phases, err := bench.Measure(ctx, bench.Protocol{Warmup: cfg.Warmup, Reps: cfg.Reps, Statistic: rec.Statistic},
			func(ctx context.Context, r *bench.Recorder) error {
				o, err := inst.Run(ctx, c.impl, r)
				last = o
				return err
			})
		switch {
		case errors.Is(err, experiments.ErrUnavailable):
			rec.Status, rec.Error = bench.StatusUnavailable, err.Error()
		case err != nil && ctx.Err() != nil:
			return ctx.Err() // interrupted: the cell is not finished, keep what is
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
			if p := rec.Phase(bench.TotalPhase); p != nil {
				est.observe(c.exp, c.impl, c.cs.Work, p.MedianMS)
			}
		}
		last = nil
		if err := finish(out, rec); err != nil {
			return err
		}
	}
	meter.done(len(cells))
	return nil
}

func statistic(e *experiments.Experiment) string {
	if e.Statistic == "" {
		return bench.StatMedian
	}
	return e.Statistic
}

func finish(out *bench.Appender, rec bench.Record) error {
	rec.Finished = time.Now().UTC()
	if rec.Status != bench.StatusOK {
		slog.Debug("cell not ok", "experiment", rec.Experiment, "impl", rec.Impl, "params", rec.Params.String(), "status", rec.Status, "err", rec.Error)
	}
	return out.Append(rec)
}

// meter keeps the progress line: the cell in hand and the estimated time of
// the cells left, redrawn every second so a long cell shows it is alive.
type meter struct {
	w      io.Writer
	start  time.Time
	mu     sync.Mutex
	label  string        // "[k/n] experiment impl params"
	since  time.Time     // when the cell in hand started
	left   time.Duration // estimate of the cells from the one in hand on
	stop   chan struct{}
	exited chan struct{} // closed when the redrawing goroutine has returned
	once   sync.Once
}

func newMeter(w io.Writer, start time.Time) *meter {
	m := &meter{w: w, start: start, stop: make(chan struct{}), exited: make(chan struct{})}
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

func (m *meter) draw() {
	if m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	eta := max(0, m.left-time.Since(m.since))
	fmt.Fprintf(m.w, "\r\033[K%s  elapsed %s  ETA %s", m.label, time.Since(m.start).Round(time.Second), eta.Round(time.Second))
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
			return r * work
		}
	}
	return exp.NsPerWork[impl] * work / 1e6
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
