package bench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/semibench/semibench/internal/stats"
)

// The headline phases every measured record carries, both read from the
// host's monotonic clock around one whole solve.
const (
	// TotalPhase is the wall time of the solve with the input where the
	// paper puts it (for the GPU papers: already in device memory, the
	// answer left there; for CPU implementations: in memory), every
	// allocation, launch, synchronisation and host step of the solve inside.
	// An implementation marks that window with Recorder.BeginTotal and
	// EndTotal; one that marks none has total = end_to_end.
	TotalPhase = "total"
	// EndToEndPhase is the wall time from the input in host memory to the
	// answer in host memory: the whole call of the implementation.
	EndToEndPhase = "end_to_end"
	// OtherPhase is the part of total that no phase of the breakdown covers,
	// so that in every sample the breakdown adds up to total.
	OtherPhase = "other"
)

// Phase scopes: what a phase is a part of.
const (
	ScopeHeadline  = "headline"   // total and end_to_end themselves
	ScopeTotal     = "total"      // a part of total (the breakdown, other included)
	ScopeEndToEnd  = "end_to_end" // outside total but inside end_to_end (transfers, conversions)
	ScopeSummary   = "summary"    // a sum of other phases (the paper's "computation time"), not part of the breakdown
	breakdownSlack = 0.01         // the breakdown may exceed total by 1% (clock granularity) before it is an error
)

// window states of a Recorder.
const (
	beforeTotal = iota
	inTotal
	afterTotal
)

// Recorder collects the phase durations of one repetition. Implementations
// report their paper's phases through it and mark, with BeginTotal and
// EndTotal, the window of the headline time; a nil *Recorder discards
// everything, so callers that do not time (the solve command, tests) may pass
// nil.
//
// A phase belongs to total when it was started (Start) or added (Add) inside
// the window, and to end_to_end otherwise: an upload before BeginTotal, a
// download after EndTotal.
type Recorder struct {
	names   []string
	durs    []time.Duration
	scopes  []string
	state   int
	t0, t1  time.Time
	untimed time.Duration
	err     error
}

func (r *Recorder) scope() string {
	if r.state == inTotal {
		return ScopeTotal
	}
	return ScopeEndToEnd
}

// Add records a phase measured elsewhere (a GPU phase timed with events).
// A phase added twice in one repetition accumulates; its scope is that of
// its first addition.
func (r *Recorder) Add(name string, d time.Duration) {
	if r == nil {
		return
	}
	r.add(name, d, r.scope())
}

func (r *Recorder) add(name string, d time.Duration, scope string) {
	for i, n := range r.names {
		if n == name {
			r.durs[i] += d
			return
		}
	}
	r.names = append(r.names, name)
	r.durs = append(r.durs, d)
	r.scopes = append(r.scopes, scope)
}

// Start begins a host phase on the monotonic clock and returns the function
// that ends it. The phase's scope is the window's state at Start.
func (r *Recorder) Start(name string) (stop func()) {
	if r == nil {
		return func() {}
	}
	t0, scope := time.Now(), r.scope()
	return func() { r.add(name, time.Since(t0), scope) }
}

// StartSummary begins a host phase that sums other phases recorded inside
// it (the paper's own aggregate, such as treefix's computation time over
// write, scan and read). It is kept with every sample but is not part of the
// breakdown, so nothing is counted twice.
func (r *Recorder) StartSummary(name string) (stop func()) {
	if r == nil {
		return func() {}
	}
	t0 := time.Now()
	return func() { r.add(name, time.Since(t0), ScopeSummary) }
}

// AddSummary records a summary phase measured elsewhere; see StartSummary.
func (r *Recorder) AddSummary(name string, d time.Duration) {
	if r == nil {
		return
	}
	r.add(name, d, ScopeSummary)
}

// Untimed runs f, the harness's own preparation of a repetition's input
// (copying the instance into the buffer an in-place implementation
// overwrites), and leaves its time out of end_to_end: it is neither the
// implementation's work nor a transfer. It must come before BeginTotal.
func (r *Recorder) Untimed(f func()) {
	if r == nil {
		f()
		return
	}
	if r.state != beforeTotal {
		r.fail("Untimed called inside or after the window of total")
		f()
		return
	}
	t0 := time.Now()
	f()
	r.untimed += time.Since(t0)
}

// BeginTotal starts the headline window: the input is now where the paper
// puts it (for a GPU implementation, in device memory: call it after the
// upload has completed). Calling it twice in a repetition is an error that
// Measure reports.
func (r *Recorder) BeginTotal() {
	if r == nil {
		return
	}
	if r.state != beforeTotal {
		r.fail("BeginTotal called twice in one repetition")
		return
	}
	r.state, r.t0 = inTotal, time.Now()
}

// EndTotal ends the headline window: the answer is where the paper leaves it
// (for a GPU implementation, in device memory: call it after synchronising
// the device). Calling it without BeginTotal, or twice, is an error that
// Measure reports.
func (r *Recorder) EndTotal() {
	if r == nil {
		return
	}
	if r.state != inTotal {
		r.fail("EndTotal called without BeginTotal, or twice")
		return
	}
	r.state, r.t1 = afterTotal, time.Now()
}

func (r *Recorder) fail(msg string) {
	if r.err == nil {
		r.err = fmt.Errorf("recorder: %s", msg)
	}
}

// Durations returns the recorded phases in the order they were first seen.
func (r *Recorder) Durations() (names []string, durs []time.Duration) {
	if r == nil {
		return nil, nil
	}
	return r.names, r.durs
}

// sample is one repetition's phases after Measure has derived the headline.
type sample struct {
	names  []string
	scopes []string
	ms     []float64
}

// finish turns one repetition into its sample: total from the window (or
// the whole call), end_to_end from the whole call, other as the part of
// total no phase covers. A breakdown that exceeds total (phases that
// overlap, or a phase outside the window marked inside) is an error.
func (r *Recorder) finish(wall time.Duration) (sample, error) {
	if r.err != nil {
		return sample{}, r.err
	}
	for _, n := range r.names {
		switch n {
		case TotalPhase, EndToEndPhase, OtherPhase:
			return sample{}, fmt.Errorf("recorder: phase %q is derived by the protocol and may not be recorded", n)
		}
	}
	wall -= r.untimed
	total := wall
	switch r.state {
	case inTotal:
		return sample{}, fmt.Errorf("recorder: BeginTotal without EndTotal")
	case afterTotal:
		total = r.t1.Sub(r.t0)
	case beforeTotal:
		// No window: the whole call is the solve, and every phase is part of it.
		for i := range r.scopes {
			if r.scopes[i] == ScopeEndToEnd {
				r.scopes[i] = ScopeTotal
			}
		}
	}
	var s sample
	var covered float64
	for i, n := range r.names {
		v := ms(r.durs[i])
		s.names, s.scopes, s.ms = append(s.names, n), append(s.scopes, r.scopes[i]), append(s.ms, v)
		if r.scopes[i] == ScopeTotal {
			covered += v
		}
	}
	t := ms(total)
	other := t - covered
	if other < -breakdownSlack*t-0.005 {
		return sample{}, fmt.Errorf("recorder: the phases inside total sum to %.3f ms, more than total %.3f ms (overlapping phases?)", covered, t)
	}
	other = math.Max(0, other)
	s.names = append(s.names, OtherPhase, TotalPhase, EndToEndPhase)
	s.scopes = append(s.scopes, ScopeTotal, ScopeHeadline, ScopeHeadline)
	s.ms = append(s.ms, other, t, ms(wall))
	return s, nil
}

// Protocol is the timing protocol: warm-up runs, then timed repetitions.
type Protocol struct {
	Warmup    int
	Reps      int
	Statistic string // StatMedian or StatMid3
	// Enough, when set, is asked after each timed repetition but the last
	// whether the samples so far suffice (the phases as Measure would
	// return them); true stops the repetitions there. nil: always Reps.
	Enough func(phases []Phase) bool
	// WarmupMS, when set, receives the total time of each warm-up run, so
	// that what a warm-up changes can be measured later.
	WarmupMS *[]float64
}

// DefaultProtocol is one warm-up and five repetitions, summarised by median.
var DefaultProtocol = Protocol{Warmup: 1, Reps: 5, Statistic: StatMedian}

// Measure runs fn Warmup+Reps times and returns every phase with all its
// timed samples: the breakdown of total in the order of the first timed
// repetition, then other, the phases outside total (end_to_end scope), and
// last total and end_to_end. It stops early when ctx is cancelled or fn
// fails, and after fewer than Reps repetitions when p.Enough says so.
func Measure(ctx context.Context, p Protocol, fn func(ctx context.Context, rec *Recorder) error) ([]Phase, error) {
	if p.Reps < 1 {
		return nil, fmt.Errorf("repetitions must be at least 1, got %d", p.Reps)
	}
	acc := phaseSet{scopes: map[string]string{}, samples: map[string][]float64{}, statistic: p.Statistic}
	for i := 0; i < p.Warmup+p.Reps; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec := &Recorder{}
		t0 := time.Now()
		if err := fn(ctx, rec); err != nil {
			return nil, err
		}
		s, err := rec.finish(time.Since(t0))
		if err != nil {
			return nil, err
		}
		if i < p.Warmup {
			if p.WarmupMS != nil {
				*p.WarmupMS = append(*p.WarmupMS, s.total())
			}
			continue
		}
		acc.add(s)
		if p.Enough != nil && i < p.Warmup+p.Reps-1 && p.Enough(acc.phases()) {
			break
		}
	}
	return acc.phases(), nil
}

// phaseSet gathers the timed repetitions' samples by phase.
type phaseSet struct {
	order     []string
	scopes    map[string]string
	samples   map[string][]float64
	reps      int
	statistic string
}

// add takes one repetition's phases. A phase that earlier repetitions
// skipped gets 0 there, so every phase has one sample per repetition and
// the breakdown adds up sample by sample.
func (a *phaseSet) add(s sample) {
	for j, name := range s.names {
		if _, seen := a.samples[name]; !seen {
			a.order = append(a.order, name)
			a.scopes[name] = s.scopes[j]
			a.samples[name] = make([]float64, a.reps)
		}
		a.samples[name] = append(a.samples[name], s.ms[j])
	}
	a.reps++
	for name, v := range a.samples {
		for len(v) < a.reps {
			v = append(v, 0)
		}
		a.samples[name] = v
	}
}

// phases returns the phases in Measure's order, each with a copy of its
// samples and their statistics.
func (a *phaseSet) phases() []Phase {
	rank := func(name string) int {
		switch {
		case name == TotalPhase:
			return 4
		case name == EndToEndPhase:
			return 5
		case name == OtherPhase:
			return 2
		case a.scopes[name] == ScopeEndToEnd, a.scopes[name] == ScopeSummary:
			return 3
		}
		return 1
	}
	order := slices.Clone(a.order)
	slices.SortStableFunc(order, func(x, y string) int { return rank(x) - rank(y) })
	phases := make([]Phase, len(order))
	for i, name := range order {
		s := slices.Clone(a.samples[name])
		phases[i] = Phase{Name: name, Scope: a.scopes[name], SamplesMS: s, MedianMS: Median(s), StatMS: Summarize(a.statistic, s)}
	}
	return phases
}

// total is a sample's total phase in ms (0 when it has none).
func (s sample) total() float64 {
	for j, n := range s.names {
		if n == TotalPhase {
			return s.ms[j]
		}
	}
	return 0
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// Median returns the median of xs (the mean of the two middle values for an
// even count), or 0 for none.
func Median(xs []float64) float64 { return stats.Median(xs) }

// MeanMiddle3 is the Kleene paper's statistic: sort the samples and average
// the middle three (of five). With fewer than three samples it is the median.
func MeanMiddle3(xs []float64) float64 {
	if len(xs) < 3 {
		return Median(xs)
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	return (s[m-1] + s[m] + s[m+1]) / 3
}

// Summarize applies the named statistic.
func Summarize(statistic string, xs []float64) float64 {
	if statistic == StatMid3 {
		return MeanMiddle3(xs)
	}
	return Median(xs)
}

// SpreadLimit is the spread (largest distance of a sample from the median,
// over the median) beyond which a cell is flagged as unsteady in its table.
const SpreadLimit = 0.25

// Spread is the largest distance of a sample from the median, as a fraction
// of the median (0 for fewer than two samples or a zero median).
func (p *Phase) Spread() float64 {
	if p == nil || len(p.SamplesMS) < 2 || p.MedianMS <= 0 {
		return 0
	}
	var d float64
	for _, s := range p.SamplesMS {
		d = math.Max(d, math.Abs(s-p.MedianMS))
	}
	return d / p.MedianMS
}

// Unsteady reports whether the phase's samples spread more than SpreadLimit
// around their median.
func (p *Phase) Unsteady() bool { return p.Spread() > SpreadLimit }
