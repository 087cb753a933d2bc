package report

import (
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
)

func ev(c bench.ClockEvents) *bench.ClockEvents { return &c }
func n64(v uint64) *uint64                      { return &v }

func TestGPUNote(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	hot := bench.Record{Impl: "cuda/fast", Params: bench.Params{{Name: "n", Value: "4096"}}, GPU: &bench.GPUCellState{
		Start: []bench.GPUState{{At: t0, SMClockMHz: 1980, MaxSMClockMHz: 1980, TemperatureC: 41, ClockEvents: ev(bench.ClockEventIdle)}},
		End:   []bench.GPUState{{At: t0.Add(time.Second), SMClockMHz: 1980, MaxSMClockMHz: 1980, TemperatureC: 62, PowerW: 310, ClockEvents: ev(bench.ClockEventSWPowerCap)}},
	}}
	if got, want := GPUNote(&hot), "SM 1980 MHz, 62 °C, 310 W; throttled: SW power cap at end"; got != want {
		t.Errorf("GPUNote = %q\n      want %q", got, want)
	}

	counted := bench.Record{Impl: "cuda/paper", GPU: &bench.GPUCellState{
		Start: []bench.GPUState{{At: t0, SMClockMHz: 1980, TemperatureC: 40, ClockEvents: ev(0), Counters: &bench.GPUCounters{EnergyMJ: n64(0)}}},
		End:   []bench.GPUState{{At: t0.Add(2 * time.Second), SMClockMHz: 1980, TemperatureC: 55, PowerW: 90, ClockEvents: ev(bench.ClockEventIdle), Counters: &bench.GPUCounters{EnergyMJ: n64(800_000)}}},
		Reps:  []bench.GPURep{{SMClockMHz: 1755}, {SMClockMHz: 1980}},
	}}
	if got, want := GPUNote(&counted), "SM 1755-1980 MHz, 55 °C, 400 W mean"; got != want {
		t.Errorf("GPUNote = %q\n      want %q", got, want)
	}

	two := bench.Record{Impl: "cuda/sparse", GPU: &bench.GPUCellState{End: []bench.GPUState{
		{Device: 0, SMClockMHz: 1980, TemperatureC: 50},
		{Device: 1, Error: "GPU state unavailable: no NVML"},
	}}}
	if got, want := GPUNote(&two), "GPU 0: SM 1980 MHz, 50 °C; GPU 1: state not read (GPU state unavailable: no NVML)"; got != want {
		t.Errorf("GPUNote = %q\n      want %q", got, want)
	}
	if GPUNote(&bench.Record{Impl: "cpu/paper"}) != "" || GPUNote(nil) != "" {
		t.Error("no GPU state, no note")
	}

	note := ThrottledNote(bench.Record{Impl: "cpu/paper"}, counted, hot)
	for _, want := range []string{"held below its maximum clocks by its power limit", "cuda/fast at n=4096 (SW power cap at end)", "what the card sustains under load"} {
		if !strings.Contains(note, want) {
			t.Errorf("ThrottledNote = %q lacks %q", note, want)
		}
	}
	if strings.Contains(note, "cuda/paper") {
		t.Errorf("an unthrottled cell is not named: %q", note)
	}
	if ThrottledNote(counted, bench.Record{Impl: "cpu/paper"}) != "" || ThrottledNote() != "" {
		t.Error("no throttled record, no note")
	}
	if strings.Contains(note, "temperature") {
		t.Errorf("a power-limited cell is not called hot: %q", note)
	}
	cooked := bench.Record{Impl: "cuda/paper", Params: bench.Params{{Name: "n", Value: "8192"}}, GPU: &bench.GPUCellState{
		End: []bench.GPUState{{SMClockMHz: 900, MaxSMClockMHz: 1980, TemperatureC: 91, ClockEvents: ev(bench.ClockEventHWThermalSlowdown)}}}}
	both := ThrottledNote(hot, cooked)
	for _, want := range []string{"slowed by temperature or a hardware limit: cuda/paper at n=8192 (HW thermal slowdown at end, SM clock at 45% of its maximum at end)",
		"slower than the card can do", "power limit or a clock setting: cuda/fast at n=4096"} {
		if !strings.Contains(both, want) {
			t.Errorf("ThrottledNote = %q lacks %q", both, want)
		}
	}
	many := ThrottledNote(hot, hot, hot, hot, hot)
	if !strings.Contains(many, "and 2 more") || strings.Count(many, "cuda/fast") != 3 {
		t.Errorf("five throttled cells: %q", many)
	}
}
