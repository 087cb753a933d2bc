package bench

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Recorder collects the phase durations of one repetition. Implementations
// report their paper's phases through it; a nil *Recorder discards them, so
// callers that do not time (the solve command, tests) may pass nil.
type Recorder struct {
	names []string
	durs  []time.Duration
}

// Add records a phase measured elsewhere (a GPU phase timed with events).
// A phase added twice in one repetition accumulates.
func (r *Recorder) Add(name string, d time.Duration) {
	if r == nil {
		return
	}
	for i, n := range r.names {
		if n == name {
			r.durs[i] += d
			return
		}
	}
	r.names = append(r.names, name)
	r.durs = append(r.durs, d)
}

// Start begins a host phase on the monotonic clock and returns the function
// that ends it.
func (r *Recorder) Start(name string) (stop func()) {
	if r == nil {
		return func() {}
	}
	t0 := time.Now()
	return func() { r.Add(name, time.Since(t0)) }
}

// Durations returns the recorded phases in the order they were first seen.
func (r *Recorder) Durations() (names []string, durs []time.Duration) {
	if r == nil {
		return nil, nil
	}
	return r.names, r.durs
}

// Protocol is the timing protocol: warm-up runs, then timed repetitions.
type Protocol struct {
	Warmup    int
	Reps      int
	Statistic string // StatMedian or StatMid3
}

// DefaultProtocol is one warm-up and five repetitions, summarised by median.
var DefaultProtocol = Protocol{Warmup: 1, Reps: 5, Statistic: StatMedian}

// TotalPhase is the phase every measurement carries: the wall time of the
// whole run unless the implementation reports its own "total".
const TotalPhase = "total"

// Measure runs fn Warmup+Reps times and returns every phase with all its
// timed samples. The phase order is that of the first timed repetition, with
// "total" last. It stops early when ctx is cancelled or fn fails.
func Measure(ctx context.Context, p Protocol, fn func(ctx context.Context, rec *Recorder) error) ([]Phase, error) {
	if p.Reps < 1 {
		return nil, fmt.Errorf("repetitions must be at least 1, got %d", p.Reps)
	}
	var order []string
	samples := map[string][]float64{}
	for i := 0; i < p.Warmup+p.Reps; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec := &Recorder{}
		t0 := time.Now()
		if err := fn(ctx, rec); err != nil {
			return nil, err
		}
		wall := time.Since(t0)
		if !slices.Contains(rec.names, TotalPhase) {
			rec.Add(TotalPhase, wall)
		}
		if i < p.Warmup {
			continue
		}
		for j, name := range rec.names {
			if _, seen := samples[name]; !seen && name != TotalPhase {
				order = append(order, name)
			}
			samples[name] = append(samples[name], ms(rec.durs[j]))
		}
	}
	order = append(order, TotalPhase)
	phases := make([]Phase, len(order))
	for i, name := range order {
		s := samples[name]
		phases[i] = Phase{Name: name, SamplesMS: s, MedianMS: Median(s), StatMS: Summarize(p.Statistic, s)}
	}
	return phases, nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// Median returns the median of xs (the mean of the two middle values for an
// even count), or 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

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
