package bench

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestStatistics(t *testing.T) {
	cases := []struct {
		xs          []float64
		median, mid float64
	}{
		{nil, 0, 0},
		{[]float64{3}, 3, 3},
		{[]float64{4, 1}, 2.5, 2.5},
		{[]float64{5, 1, 100, 2, 3}, 3, (2 + 3 + 5) / 3.0},
		{[]float64{9, 1, 2, 8}, 5, (2 + 8 + 9) / 3.0},
	}
	for _, c := range cases {
		if got := Median(c.xs); got != c.median {
			t.Errorf("Median(%v) = %v, want %v", c.xs, got, c.median)
		}
		if got := MeanMiddle3(c.xs); got != c.mid {
			t.Errorf("MeanMiddle3(%v) = %v, want %v", c.xs, got, c.mid)
		}
	}
}

func TestMeasureKeepsEverySample(t *testing.T) {
	calls := 0
	phases, err := Measure(context.Background(), Protocol{Warmup: 2, Reps: 3, Statistic: StatMid3},
		func(_ context.Context, rec *Recorder) error {
			calls++
			time.Sleep(8 * time.Millisecond) // the wall time holds the phases added below
			rec.Add("b", time.Duration(calls)*time.Millisecond)
			rec.Start("a")()
			rec.Add("b", time.Millisecond)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 5 {
		t.Fatalf("fn called %d times, want 5", calls)
	}
	var names []string
	for _, p := range phases {
		names = append(names, p.Name)
	}
	if want := []string{"b", "a", OtherPhase, TotalPhase, EndToEndPhase}; !slices.Equal(names, want) {
		t.Fatalf("phases %v, want %v", names, want)
	}
	want := []float64{4, 5, 6} // warm-ups 1 and 2 dropped; 1 ms added twice
	for i, s := range phases[0].SamplesMS {
		if s != want[i] {
			t.Errorf("sample %d = %v, want %v", i, s, want[i])
		}
	}
	if phases[0].StatMS != 5 || phases[0].MedianMS != 5 {
		t.Errorf("stat %v median %v, want 5", phases[0].StatMS, phases[0].MedianMS)
	}
}

func TestMeasureStopsOnError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Measure(context.Background(), DefaultProtocol, func(context.Context, *Recorder) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Measure(ctx, DefaultProtocol, func(context.Context, *Recorder) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if _, err := Measure(context.Background(), Protocol{Reps: 0}, nil); err == nil {
		t.Fatal("Reps 0 accepted")
	}
}

func TestNilRecorder(t *testing.T) {
	var r *Recorder
	r.Add("x", time.Second)
	r.Start("y")()
	if n, d := r.Durations(); n != nil || d != nil {
		t.Fatal("nil recorder kept phases")
	}
}

// sleepy is a fake implementation: an upload, a solve of three phases with
// unrecorded host work between them, and a download.
func sleepy(window bool) func(context.Context, *Recorder) error {
	return func(_ context.Context, rec *Recorder) error {
		stop := rec.Start("upload")
		time.Sleep(3 * time.Millisecond)
		stop()
		if window {
			rec.BeginTotal()
		}
		for _, name := range []string{"step1", "step2", "step3"} {
			stop := rec.Start(name)
			time.Sleep(2 * time.Millisecond)
			stop()
			time.Sleep(4 * time.Millisecond) // between phases: only other covers it
		}
		rec.Add("device", time.Millisecond) // as a GPU phase timed by events
		rec.AddSummary("steps", 6*time.Millisecond)
		if window {
			rec.EndTotal()
		}
		stop = rec.Start("download")
		time.Sleep(3 * time.Millisecond)
		stop()
		return nil
	}
}

// TestBreakdownAddsUp: in every sample the phases inside total plus other
// add up to total within 1%, other is recorded for the time between phases,
// and the phases outside the window are end_to_end's.
func TestBreakdownAddsUp(t *testing.T) {
	for _, window := range []bool{true, false} {
		phases, err := Measure(context.Background(), Protocol{Warmup: 1, Reps: 4}, sleepy(window))
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]Phase{}
		for _, p := range phases {
			byName[p.Name] = p
		}
		total, e2e, other := byName[TotalPhase], byName[EndToEndPhase], byName[OtherPhase]
		if total.Scope != ScopeHeadline || e2e.Scope != ScopeHeadline || other.Scope != ScopeTotal {
			t.Fatalf("window %v: scopes total %q end_to_end %q other %q", window, total.Scope, e2e.Scope, other.Scope)
		}
		wantOut := ScopeEndToEnd
		if !window {
			wantOut = ScopeTotal // no window: the whole call is the solve
		}
		if byName["steps"].Scope != ScopeSummary {
			t.Errorf("summary phase has scope %q", byName["steps"].Scope)
		}
		if byName["upload"].Scope != wantOut || byName["download"].Scope != wantOut || byName["step2"].Scope != ScopeTotal {
			t.Fatalf("window %v: upload %q download %q step2 %q", window, byName["upload"].Scope, byName["download"].Scope, byName["step2"].Scope)
		}
		for i := range total.SamplesMS {
			sum := 0.0
			for _, p := range phases {
				if p.Scope == ScopeTotal {
					sum += p.SamplesMS[i]
				}
			}
			if d := math.Abs(sum - total.SamplesMS[i]); d > 0.01*total.SamplesMS[i] {
				t.Errorf("window %v sample %d: breakdown %.3f ms, total %.3f ms", window, i, sum, total.SamplesMS[i])
			}
			if other.SamplesMS[i] < 10 { // three 4 ms gaps between phases
				t.Errorf("window %v sample %d: other %.3f ms, want at least 10 (the gaps between phases)", window, i, other.SamplesMS[i])
			}
			if window && e2e.SamplesMS[i] < total.SamplesMS[i]+6 {
				t.Errorf("sample %d: end_to_end %.3f ms does not hold total %.3f ms and 6 ms of transfers", i, e2e.SamplesMS[i], total.SamplesMS[i])
			}
			if !window && total.SamplesMS[i] != e2e.SamplesMS[i] {
				t.Errorf("sample %d: no window, but total %.3f != end_to_end %.3f", i, total.SamplesMS[i], e2e.SamplesMS[i])
			}
		}
	}
}

func TestRecorderMisuse(t *testing.T) {
	cases := map[string]func(*Recorder){
		"twice":       func(r *Recorder) { r.BeginTotal(); r.EndTotal(); r.BeginTotal(); r.EndTotal() },
		"no end":      func(r *Recorder) { r.BeginTotal() },
		"end only":    func(r *Recorder) { r.EndTotal() },
		"total phase": func(r *Recorder) { r.Add(TotalPhase, time.Millisecond) },
		"other phase": func(r *Recorder) { r.Add(OtherPhase, time.Millisecond) },
		"overlapping": func(r *Recorder) { r.BeginTotal(); r.Add("gpu", time.Second); r.EndTotal() },
		"end_to_end":  func(r *Recorder) { r.Start(EndToEndPhase)() },
	}
	for name, f := range cases {
		_, err := Measure(context.Background(), Protocol{Reps: 1}, func(_ context.Context, r *Recorder) error { f(r); return nil })
		if err == nil || !strings.Contains(err.Error(), "recorder") {
			t.Errorf("%s: err = %v, want a recorder error", name, err)
		}
	}
}

func TestSpread(t *testing.T) {
	steady := Phase{SamplesMS: []float64{10, 11, 9, 10.5}, MedianMS: 10.25}
	if steady.Unsteady() {
		t.Errorf("spread %.2f flagged", steady.Spread())
	}
	bimodal := Phase{SamplesMS: []float64{11, 12, 25, 11.5, 28}, MedianMS: 12}
	if !bimodal.Unsteady() || math.Abs(bimodal.Spread()-16.0/12) > 1e-9 {
		t.Errorf("bimodal spread %.3f, want %.3f and flagged", bimodal.Spread(), 16.0/12)
	}
}

// TestUntimed: the harness's preparation of an input is left out of
// end_to_end (and of total, without a window).
func TestUntimed(t *testing.T) {
	phases, err := Measure(context.Background(), Protocol{Reps: 3}, func(_ context.Context, r *Recorder) error {
		r.Untimed(func() { time.Sleep(30 * time.Millisecond) })
		stop := r.Start("solve")
		time.Sleep(2 * time.Millisecond)
		stop()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range phases {
		if (p.Name == TotalPhase || p.Name == EndToEndPhase) && p.MedianMS > 25 {
			t.Errorf("%s = %.1f ms holds the 30 ms of untimed preparation", p.Name, p.MedianMS)
		}
	}
}
