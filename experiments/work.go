package experiments

import (
	"context"
	"maps"

	"github.com/semibench/semibench/bench"
)

// Each experiment declares the least work one run of its cells does
// (Experiment.Work, bench.Work): semiring updates, other floating-point
// and integer operations, DRAM bytes and host-link bytes, from the
// problem's sizes. The declaration reaches every record the runner
// writes through the path the instance's metrics take already: Register
// wraps the experiment's cases so that each instance's Finish, which the
// runner calls with a cell's record before writing it, adds the
// declaration to the record's metrics (bench.Work.SetMetrics), and the
// window its paper times where it declares one (Experiment.Window,
// bench.Window.SetMetrics). WorkOf and WindowOf give the work and the
// window of any record, of files written before too.

// declareWork makes e's instances write e's declared work into every
// record they finish; nothing when e declares none.
func declareWork(e *Experiment) {
	if e.Work == nil || e.Cases == nil {
		return
	}
	cases := e.Cases
	e.Cases = func(s Scale, o Options) []Case {
		cs := cases(s, o)
		for i := range cs {
			cs[i].Setup = withWork(e, cs[i].Setup)
		}
		return cs
	}
}

// withWork wraps setup so that its instance's Finish, after the case's own
// (which may set the record's ReusedFrom), adds e's work to the record.
func withWork(e *Experiment, setup func(context.Context) (*Instance, error)) func(context.Context) (*Instance, error) {
	if setup == nil {
		return nil
	}
	return func(ctx context.Context) (*Instance, error) {
		inst, err := setup(ctx)
		if inst == nil || err != nil {
			return inst, err
		}
		finish := inst.Finish
		inst.Finish = func(impl string, rec *bench.Record) {
			if finish != nil {
				finish(impl, rec)
			}
			addWork(e, rec)
		}
		return inst, nil
	}
}

// addWork writes e's declared work for rec, and its window where e
// declares one, into rec's metrics, on a copy of the map (a record's
// metrics start as its instance's, which every implementation of the case
// shares); nothing when e declares no work for rec.
func addWork(e *Experiment, rec *bench.Record) {
	if e == nil || e.Work == nil {
		return
	}
	w, ok := e.Work(rec)
	if !ok {
		return
	}
	m := maps.Clone(rec.Metrics)
	if m == nil {
		m = map[string]float64{}
	}
	w.SetMetrics(m)
	var win bench.Window // none: SetMetrics removes any the map held
	if e.Window != nil {
		if d, ok := e.Window(rec); ok {
			win = d
		}
	}
	win.SetMetrics(m)
	rec.Metrics = m
}

// WorkOf is the least work one run of rec's cell does: the work the record's
// metrics carry (work.*) when present, else the declaration of the
// record's experiment computed from the record (its implementation,
// parameters and metrics), so that records written before work was
// declared get theirs. ok is false for a record of an unknown experiment
// or one that declares nothing for the cell.
func WorkOf(rec *bench.Record) (bench.Work, bool) {
	return declared(rec, bench.WorkFromMetrics, func(e *Experiment) func(*bench.Record) (bench.Work, bool) { return e.Work })
}

// WindowOf is the window of rec's cell that its paper times, where the
// cell declares one (Experiment.Window): the window the record's metrics
// carry (work.window.*) when present, else the declaration of the
// record's experiment computed from the record, so that records written
// before windows were declared get theirs. ok is false for a record of an
// unknown experiment or of a cell that declares no window.
func WindowOf(rec *bench.Record) (bench.Window, bool) {
	return declared(rec, bench.WindowFromMetrics, func(e *Experiment) func(*bench.Record) (bench.Window, bool) { return e.Window })
}

// declared is WorkOf and WindowOf: what rec's metrics carry (fromMetrics),
// else what its experiment's declaration (of) computes from rec.
func declared[T any](rec *bench.Record, fromMetrics func(map[string]float64) (T, bool), of func(*Experiment) func(*bench.Record) (T, bool)) (T, bool) {
	var zero T
	if rec == nil {
		return zero, false
	}
	if w, ok := fromMetrics(rec.Metrics); ok {
		return w, true
	}
	e := ByName(rec.Experiment)
	if e == nil || of(e) == nil {
		return zero, false
	}
	return of(e)(rec)
}
