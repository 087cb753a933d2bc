package runner

// The outer level of noise, sampled in the run (issue 57). A claim's
// figure moves between processes and allocations by far more than
// between the samples of one process (the H100's two runs of 3393cf4 on
// one lease measured Kleene's update-W growth at 11.6x and 8.33x, each
// settled within itself). Where the two-level rule asks for it
// (experiments.OuterNeed: the between-run spread, history's or the
// prior, could carry the figure across its band's edge), the runner
// measures the claim's cells again at the outer level, each in a fresh
// process (the binary run again on exactly that cell: cmd/semibench's
// sampler) or on a fresh setup of its case in this process (the
// fallback), interleaved (A B A B: one round measures every cell of the
// claim once), as many rounds as the rule asks and the budget pays for,
// then asks again. Each replicate joins its cell's record
// (bench.Record.Replicates), appended again as a top-up is.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/sysmem"
)

// OuterSampler measures cells at the outer level of noise: one round,
// each cell once, in the order given.
type OuterSampler interface {
	// Level is the level it samples: bench.LevelProcess or
	// bench.LevelAllocation.
	Level() string
	// Sample measures each cell once at the outer level and returns its
	// record there, in the cells' order; an error stops the round (the
	// records before it are returned).
	Sample(ctx context.Context, cells []OuterCell) ([]OuterRecord, error)
}

// OuterCell is a cell to measure at the outer level, with what a fresh
// process needs to make exactly it again: its experiment, case and
// implementation, the run's scale and options (seed, threads, GPUs), and
// the timing protocol.
type OuterCell struct {
	Experiment *experiments.Experiment
	Case       *experiments.Case
	Impl       string
	Scale      experiments.Scale
	Options    experiments.Options
	Protocol   bench.Protocol
}

// Key is the cell's bench.Record.Key.
func (c OuterCell) Key() string {
	return c.Experiment.Name + "|" + c.Impl + "|" + c.Case.Params.String()
}

// OuterRecord is one cell measured once at the outer level: its record
// there (phases with their samples, check, its wall within the process)
// and the replicate's whole wall (the process's start and end, or the
// fresh setup and release, included).
type OuterRecord struct {
	bench.Record
	WallMS float64
}

// NewAllocationSampler samples the outer level on fresh allocations in
// the run's process: each cell's case set up afresh (what the run's store
// keeps, a generated input, it reads from there), measured, checked and
// released.
func NewAllocationSampler() OuterSampler { return allocationSampler{} }

type allocationSampler struct{}

func (allocationSampler) Level() string { return bench.LevelAllocation }

func (allocationSampler) Sample(ctx context.Context, cells []OuterCell) ([]OuterRecord, error) {
	var out []OuterRecord
	for _, c := range cells {
		t0 := time.Now()
		rec := bench.Record{Experiment: c.Experiment.Name, Impl: c.Impl, Params: c.Case.Params, Statistic: c.Protocol.Statistic}
		wall := &bench.CellWall{}
		inst, err := c.Case.Setup(ctx)
		wall.SetupMS = msSince(t0)
		if err != nil {
			return out, fmt.Errorf("%s: setting its case up: %w", c.Key(), err)
		}
		var last any
		t1 := time.Now()
		phases, err := bench.Measure(ctx, c.Protocol, func(ctx context.Context, r *bench.Recorder) error {
			o, err := inst.Run(ctx, c.Impl, r)
			last = o
			return err
		})
		wall.MeasureMS = msSince(t1)
		if err == nil {
			t2 := time.Now()
			chk := inst.Check(c.Impl, last)
			wall.CheckMS = msSince(t2)
			rec.Check, rec.Phases, rec.Status = &chk, phases, bench.StatusOK
			if !chk.OK {
				rec.Status = bench.StatusCheckFailed
			}
		}
		if inst.Release != nil {
			inst.Release()
		}
		wall.PeakRSS = sysmem.PeakRSS()
		rec.Wall = wall
		out = append(out, OuterRecord{Record: rec, WallMS: msSince(t0)})
		if err != nil {
			return out, fmt.Errorf("%s: %w", c.Key(), err)
		}
	}
	return out, nil
}

// outerNeed is experiments.OuterNeed (a variable for the tests).
var outerNeed = experiments.OuterNeed

// outerReps is the samples a replicate takes: enough for its median to
// be one draw of the cell's typical time, at a few runs' cost.
const outerReps = 3

// outerCell is c as the sampler measures it.
func (r *run) outerCell(c *cell) OuterCell {
	p := r.price.protocol(c)
	p.Reps = min(p.Reps, outerReps)
	if r.outer.Level() == bench.LevelProcess && strings.HasPrefix(c.impl, "cuda/") {
		p.Warmup = max(p.Warmup, 1) // a fresh process loads the implementation's module in its first run
	}
	p.Enough, p.WarmupMS = nil, nil
	return OuterCell{Experiment: c.exp, Case: c.cs, Impl: c.impl, Scale: r.cfg.Scale, Options: r.cfg.Options, Protocol: p}
}

// between is history's figures of a claim over this machine kind's
// earlier runs, nil without history.
func (r *run) between(id string) *experiments.Between {
	if r.cfg.Past == nil {
		return nil
	}
	return r.cfg.Past.Between(id)
}

// outerLevel is the outer level's pass: for each claim at the papers'
// sizes whose cells are measured and which the run settles within itself,
// the cheapest first, as many rounds of replicates as OuterNeed asks and
// the budget pays for, until it asks none. Each claim's cells are then
// appended again with their replicates, and a note says what decided it.
func (r *run) outerLevel() error {
	if !r.budget.on() || r.outer == nil {
		return nil
	}
	for _, cp := range r.measuredClaims(levelPaper) {
		if err := r.interrupted(); err != nil {
			return err
		}
		if r.budget.spent() {
			return nil
		}
		if err := r.outerClaim(cp); err != nil {
			return err
		}
	}
	return nil
}

// outerClaim samples claim cp's cells at the outer level as OuterNeed
// asks (see outerLevel).
func (r *run) outerClaim(cp *claimPlan) error {
	cells := cp.levels[levelPaper]
	host := r.plan.hosts[cp.id]
	if st := experiments.SettleClaimOf(host, cp.id, r.ledger.recs, refsOf(cells), r.aa.noise, r.cfg.Reps); !st.Settled || st.Claim.Class != "" {
		return nil // the outer level comes once the run settles the claim within itself
	}
	var measured []*cell
	for _, c := range cells {
		if rec := r.ledger.last(c); rec != nil && rec.Status == bench.StatusOK && rec.ReusedFrom == "" {
			measured = append(measured, c)
		}
	}
	if len(measured) == 0 {
		return nil
	}
	r.hand.release() // the replicates set their cases up afresh
	rounds, why := 0, ""
	var stopErr error
	for {
		need, w := outerNeed(host, cp.id, r.ledger.recs, refsOf(cells), r.aa.noise, r.between(cp.id))
		why = w
		if need <= 0 {
			break
		}
		round := 0.0
		for _, c := range measured {
			round += r.price.replicate(c, r.outer.Level(), r.outerCell(c).Protocol)
		}
		fit := need
		if left := r.budget.left(); round > 0 && float64(need)*round > left {
			fit = int(left / round)
		}
		if fit <= 0 {
			why = fmt.Sprintf("%d more round(s) asked (%s), the budget left pays for none (a round: %s)", need, w, duration(round).Round(time.Millisecond))
			break
		}
		done, err := r.outerRounds(cp, measured, fit, round)
		rounds += done
		if stopErr = err; err != nil {
			break
		}
		if done < need {
			why = fmt.Sprintf("%d of %d round(s) asked, as many as the budget paid for (%s)", done, need, w)
			break
		}
	}
	if rounds > 0 {
		var recs []bench.Record
		for _, c := range measured {
			rec := *r.ledger.last(c)
			rec.Stop += fmt.Sprintf("; %d replicate(s) at the outer level (%s) for %s", len(rec.Replicates), r.outer.Level(), cp.id)
			recs = append(recs, r.ledger.keep(c, rec)...)
		}
		if err := r.out.AppendAll(recs); err != nil {
			return errors.Join(stopErr, err)
		}
	}
	if rounds > 0 || stopErr == nil && why != "" {
		level := experiments.LevelWithin
		if rounds > 0 {
			level = experiments.LevelOuter
		}
		r.out.AddNotes(fmt.Sprintf("%s%s: %d round(s) of its %d cell(s) in %s; decided by %s: %s", outerPrefix, cp.id, rounds, len(measured), levelWords(r.outer.Level()), level, why))
	}
	return stopErr
}

// outerPrefix starts the note the outer level leaves per claim.
const outerPrefix = experiments.OuterNotePrefix

// levelWords names an outer level.
func levelWords(level string) string {
	if level == bench.LevelProcess {
		return "fresh processes"
	}
	return "fresh allocations"
}

// outerRounds measures rounds rounds of cells at the outer level, each
// round every cell once (A B A B), adds each replicate to its cell's
// record in the ledger, and returns the rounds done. A replicate that
// failed its check, or a round the sampler could not finish, ends them:
// the replicates before it stay. A round the budget left no longer pays
// for is not started.
func (r *run) outerRounds(cp *claimPlan, cells []*cell, rounds int, roundMS float64) (int, error) {
	var oc []OuterCell
	for _, c := range cells {
		oc = append(oc, r.outerCell(c))
	}
	for k := range rounds {
		if err := r.interrupted(); err != nil {
			return k, err
		}
		if k > 0 {
			roundMS = 0
			for _, c := range cells {
				roundMS += r.price.replicate(c, r.outer.Level(), r.outerCell(c).Protocol)
			}
		}
		if r.budget.spent() || roundMS > r.budget.left() {
			return k, nil
		}
		r.meter.cell(passName(passOuter, true), cells[0], 0, len(cells), r.eta(roundMS*float64(rounds-k), r.remaining(nil)), r.plan.atPaper())
		got, err := r.outer.Sample(r.ctx, oc)
		for i, o := range got {
			r.meter.ran()
			if o.Status != bench.StatusOK {
				err = errors.Join(err, fmt.Errorf("%s: %s at the outer level", cells[i].key, o.Status))
				continue
			}
			rec := r.ledger.last(cells[i])
			rec.Replicates = append(slices.Clone(rec.Replicates), bench.Replicate{Level: r.outer.Level(), Phases: o.Phases, WallMS: o.WallMS})
			r.price.wall.observeReplicate(cells[i], r.outer.Level(), o)
		}
		if err != nil {
			if ierr := r.interrupted(); ierr != nil {
				return k, ierr
			}
			if r.ctx.Err() == nil {
				r.out.AddNotes(fmt.Sprintf("%s%s: a round stopped: %v", outerPrefix, cp.id, err))
			}
			return k, nil
		}
	}
	return rounds, nil
}
