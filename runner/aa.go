package runner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/stats"
)

// aaPairs is the run's A/A measurement: a few cheap cells of the claims,
// measured again apart in time, whose spread is the machine's noise, the
// noise the settle rule reads.
type aaPairs struct {
	cells []*cell
	pairs [][2][]float64
	names []string
	due   time.Time // when the first pairs are measured, at the latest
	busy  bool      // the pairs are being measured
	// noise is the machine's noise (log-sd): experiments.DefaultNoise
	// until the pairs measure it.
	noise float64
}

func newAAPairs() *aaPairs { return &aaPairs{noise: experiments.DefaultNoise} }

// pending reports whether c is an A/A cell not yet measured: it takes
// --reps, whatever claims read it.
func (a *aaPairs) pending(c *cell) bool { return !c.done && slices.Contains(a.cells, c) }

// aaPerBackend is how many cells per backend (CPU, GPU) the A/A pairs use.
const aaPerBackend = 2

// choose picks the A/A cells: per backend the cheapest claim cells of
// distinct experiments estimated at 20 ms to 1 s a run (shorter cells'
// spread is the timer's and the launch's more than the machine's), none
// of a case whose work the run's store may share (Case.ReadsShared: its
// second measurement may read what the first computed; 2-domination's
// cuda/sparse at m = 8 gave a noise of 41% on the H100 that way).
func (a *aaPairs) choose(p *plan, price *pricer) {
	byBackend := map[bool][]*cell{}
	for c := range p.readers {
		if c.unavailable != nil || c.done || c.cs.ReadsShared != nil {
			continue
		}
		if ms := price.perRun(c); ms >= 20 && ms <= 1000 {
			gpu := strings.HasPrefix(c.impl, "cuda/")
			byBackend[gpu] = append(byBackend[gpu], c)
		}
	}
	for _, gpu := range []bool{false, true} {
		cs := byBackend[gpu]
		slices.SortStableFunc(cs, func(x, y *cell) int {
			if d := cmpFloat(price.cell(x), price.cell(y)); d != 0 {
				return d
			}
			return x.order - y.order
		})
		var exps []string
		for _, c := range cs {
			if len(exps) == aaPerBackend || slices.Contains(exps, c.exp.Name) {
				continue
			}
			exps = append(exps, c.exp.Name)
			a.cells = append(a.cells, c)
		}
	}
}

// aaFirstPairs is the least time between the A/A cells' first
// measurement and their pairs: the pairs come at the end of the cheaper
// level's pass, or at a sixth of the budget and a minute at least if that
// pass lasts longer (a 3-minute run on two cores spent its whole budget
// in it, on Rote's sweep, and measured no noise).
const aaFirstPairs = time.Minute

// aaWhenDue measures the first A/A pairs once their time has come, during
// pass p (not while the A/A cells themselves are measured).
func (r *run) aaWhenDue(p pass) error {
	if !r.budget.on() || p == passAA || r.aa.busy || len(r.aa.pairs) > 0 || r.aa.due.IsZero() || time.Now().Before(r.aa.due) {
		return nil
	}
	r.aa.busy = true
	defer func() { r.aa.busy = false }()
	return r.runAA(true, p)
}

// runAA measures the A/A cells (their records are the run's like any
// other's) when they have none yet; with pair, it measures each again,
// sampled as pass p samples: a pair per cell, its two sides minutes
// apart. The noise becomes what the pairs measured so far say, written as
// a note of the result file. (A pair measured at once, at the run's
// start, is not apart in time: on the 2-core Xeon cpu/jv's repeat there
// took 41.6 ms against 55.4 ms first and 54.9 ms minutes later, and the
// H100's runs read a noise of 14% from such pairs.)
func (r *run) runAA(pair bool, p pass) error {
	for _, c := range r.aa.cells {
		if !c.done {
			if err := r.runCell(c, nil, passAA); err != nil { // an A/A cell takes --reps: its spread is part of the noise
				return err
			}
		}
	}
	if !pair {
		return nil
	}
	for _, c := range r.aa.cells {
		first := r.ledger.last(c)
		if first == nil || first.Status != bench.StatusOK {
			continue
		}
		r.meter.cell(passName(passAA, true), c, r.price.protocol(c).Warmup, r.cfg.Reps, r.eta(0, r.remaining(c)), r.plan.atPaper())
		again, err := r.measureMore(c, bench.Record{}, r.cfg.Reps, p)
		if err != nil {
			return err
		}
		if again.Status != bench.StatusOK || again.ReusedFrom != "" || first.ReusedFrom != "" {
			continue
		}
		a, b := experiments.SamplesOf(first, bench.TotalPhase), experiments.SamplesOf(&again, bench.TotalPhase)
		r.aa.pairs = append(r.aa.pairs, [2][]float64{a, b})
		r.aa.names = append(r.aa.names, fmt.Sprintf("%s %s %.4g then %.4g ms", c.impl, c.cs.Params.String(), stats.Median(a), stats.Median(b)))
	}
	if len(r.aa.pairs) == 0 {
		return nil
	}
	// The settle rule reads the noise as the spread of one sample about
	// its cell's typical time: the larger of the drift between the pairs'
	// medians and the spread of the A/A cells' own samples (the median
	// cell's).
	sigma, n := stats.NoiseFromPairs(r.aa.pairs)
	var spreads []float64
	for _, p := range r.aa.pairs {
		for _, s := range p {
			if sd := stats.LogSD(s); sd > 0 {
				spreads = append(spreads, sd)
			}
		}
	}
	if len(spreads) > 0 {
		sigma = max(sigma, stats.Median(spreads))
	}
	if sigma > 0 {
		r.aa.noise = sigma
		r.out.AddNotes(experiments.NoiseNote(sigma, n, strings.Join(r.aa.names, "; ")))
	}
	return nil
}
