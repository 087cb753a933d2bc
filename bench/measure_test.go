package bench

import (
	"context"
	"errors"
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
	if len(phases) != 3 || phases[0].Name != "b" || phases[1].Name != "a" || phases[2].Name != TotalPhase {
		t.Fatalf("phases %+v, want b, a, total", phases)
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
