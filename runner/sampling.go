package runner

import (
	"fmt"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Sampling: how many timed samples a cell takes. As nvbench's stopping
// criteria do, a cell's measurement asks its rules after each sample
// whether to stop; the first rule that says stop ends it and its words
// become the record's Stop. The rules of a pass (pass.rules):
//
//   - limitRule: the most samples the measurement may take (--reps, a
//     cheap cell's CheapFactor x --reps, one long run, a top-up's extra
//     samples), always first;
//   - budgetRule: the budget left pays for no more runs;
//   - settleRule: every claim the cell feeds is settled (settle.go), or,
//     in the first pass, waits for its other cells.

// StoppingRule decides, after each timed sample of a cell, whether the
// cell takes another.
type StoppingRule interface {
	// Stop reports whether the measurement stops after these samples,
	// and why (the record's Stop).
	Stop(s Samples) (stop bool, why string)
}

// Samples is what a StoppingRule looks at: the phases this measurement
// has timed so far, and all the cell's phases (for a top-up, the earlier
// record's samples first, then these).
type Samples struct {
	New, All []bench.Phase
}

// count is the number of samples of phases (those of total, or of the
// first phase).
func count(ps []bench.Phase) int {
	for _, p := range ps {
		if p.Name == bench.TotalPhase {
			return len(p.SamplesMS)
		}
	}
	if len(ps) == 0 {
		return 0
	}
	return len(ps[0].SamplesMS)
}

// sampling runs one measurement's rules: bench.Protocol.Enough asks it
// after each sample but the last the protocol allows, and final gives
// the reason once the measurement ends.
type sampling struct {
	rules     []StoppingRule
	limit     limitRule
	prev      []bench.Phase // the earlier record's phases, for a top-up
	statistic string
	why       string  // the rule that stopped it, once one has
	looksMS   float64 // the time the rules took
}

// newSampling is a measurement of at most limit.most new samples under
// rules (asked after the limit).
func newSampling(limit limitRule, prev []bench.Phase, statistic string, rules ...StoppingRule) *sampling {
	return &sampling{rules: rules, limit: limit, prev: prev, statistic: statistic}
}

// samples is what the rules see of new.
func (s *sampling) samples(new []bench.Phase) Samples {
	all := new
	if len(s.prev) > 0 {
		all = mergePhases(s.prev, new, s.statistic)
	}
	return Samples{New: new, All: all}
}

// enough is bench.Protocol.Enough: the first rule that stops.
func (s *sampling) enough(new []bench.Phase) bool {
	t0 := time.Now()
	defer func() { s.looksMS += msSince(t0) }()
	smp := s.samples(new)
	if stop, why := s.limit.Stop(smp); stop {
		s.why = why
		return true
	}
	for _, r := range s.rules {
		if stop, why := r.Stop(smp); stop {
			s.why = why
			return true
		}
	}
	return false
}

// protocol is p with the limit's samples and the rules asked after each.
func (s *sampling) protocol(p bench.Protocol) bench.Protocol {
	p.Reps = s.limit.most
	if len(s.rules) > 0 && p.Reps > 1 {
		p.Enough = s.enough
	}
	return p
}

// final is why the measurement of new stopped: the rule that stopped it,
// or else the limit's words.
func (s *sampling) final(new []bench.Phase) string {
	if s.why != "" || s.limit.why == nil {
		return s.why
	}
	return s.limit.why(count(s.samples(new).All))
}

// limitRule stops at the most samples a measurement may take; why words
// it by the cell's samples in all.
type limitRule struct {
	most int
	why  func(n int) string
}

// Stop implements StoppingRule.
func (l limitRule) Stop(s Samples) (bool, string) {
	if count(s.New) < l.most {
		return false, ""
	}
	if l.why == nil {
		return true, ""
	}
	return true, l.why(count(s.All))
}

// fixedWhy is a limit's words that do not depend on the count.
func fixedWhy(why string) func(int) string { return func(int) string { return why } }

// budgetRule stops a cell whose next run, perMS, the budget left no
// longer pays for.
type budgetRule struct {
	perMS float64
	b     *budget
}

// Stop implements StoppingRule.
func (b budgetRule) Stop(s Samples) (bool, string) {
	if b.perMS > b.b.left() {
		return true, fmt.Sprintf("stopped after %d sample(s): the budget left pays for no more", count(s.New))
	}
	return false, ""
}

// settleRule stops a cell once the claims it feeds are settled with its
// samples so far (run.settled); first is the claims' first pass.
type settleRule struct {
	r     *run
	c     *cell
	rec   *bench.Record // the record being measured: its statistic and key
	inst  *experiments.Instance
	first bool
	// beside is settled's, for the measurement's looks.
	beside map[*claimPlan]float64
}

// Stop implements StoppingRule.
func (s settleRule) Stop(smp Samples) (bool, string) {
	partial := *s.rec
	partial.Status, partial.Input, partial.Metrics = bench.StatusOK, s.inst.Input, s.inst.Metrics
	partial.Phases = smp.All
	return s.r.settled(s.c, partial, s.first, s.beside)
}
