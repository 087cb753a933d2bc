package bench

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func events(c ClockEvents) *ClockEvents { return &c }
func u64(v uint64) *uint64              { return &v }

func TestClockEventNames(t *testing.T) {
	for _, c := range []struct {
		in   ClockEvents
		want []string
	}{
		{0, nil},
		{ClockEventIdle, []string{"idle"}},
		{ClockEventSWPowerCap | ClockEventHWThermalSlowdown, []string{"SW power cap", "HW thermal slowdown"}},
		{ClockEventIdle | ClockEventHWSlowdown | ClockEventHWPowerBrake, []string{"idle", "HW slowdown", "HW power brake"}},
		{ClockEventAppClocksSetting | ClockEventSyncBoost | ClockEventSWThermalSlowdown, []string{"applications clocks setting", "sync boost", "SW thermal slowdown"}},
		{ClockEventDisplayClock | ClockEventBoardLimit | ClockEventReliability, []string{"display clock setting", "board limit", "reliability limit"}},
		{1<<12 | ClockEventSWPowerCap, []string{"SW power cap", "bit 12"}},
	} {
		got := c.in.Names()
		if !slices.Equal(got, c.want) {
			t.Errorf("%#x: Names() = %q, want %q", uint64(c.in), got, c.want)
		}
		back, err := ParseClockEvents(got)
		if err != nil || back != c.in {
			t.Errorf("%#x: ParseClockEvents(%q) = %#x, %v", uint64(c.in), got, uint64(back), err)
		}
	}
	if s := ClockEvents(0).String(); s != "none" {
		t.Errorf("String of no reason = %q", s)
	}
	if got := (ClockEventIdle | ClockEventSWPowerCap).Throttling(); got != ClockEventSWPowerCap {
		t.Errorf("Throttling keeps every reason but idle: %v", got)
	}
	if _, err := ParseClockEvents([]string{"too hot"}); err == nil {
		t.Error("an unknown name must be an error")
	}
}

func TestGPUStateThrottled(t *testing.T) {
	for _, c := range []struct {
		name string
		s    GPUState
		want []string
	}{
		{"nothing read", GPUState{}, nil},
		{"no reason", GPUState{ClockEvents: events(0), SMClockMHz: 1980, MaxSMClockMHz: 1980}, nil},
		{"idle at a low clock", GPUState{ClockEvents: events(ClockEventIdle), SMClockMHz: 345, MaxSMClockMHz: 1980}, nil},
		{"power cap", GPUState{ClockEvents: events(ClockEventSWPowerCap), SMClockMHz: 1755, MaxSMClockMHz: 1980}, []string{"SW power cap"}},
		{"idle and thermal", GPUState{ClockEvents: events(ClockEventIdle | ClockEventHWThermalSlowdown)}, []string{"HW thermal slowdown"}},
		{"busy at a low clock", GPUState{ClockEvents: events(0), SMClockMHz: 900, MaxSMClockMHz: 1980}, []string{"SM clock at 45% of its maximum"}},
		{"unknown reasons, low clock", GPUState{SMClockMHz: 900, MaxSMClockMHz: 1980}, []string{"SM clock at 45% of its maximum"}},
		{"at 75% exactly", GPUState{ClockEvents: events(0), SMClockMHz: 1500, MaxSMClockMHz: 2000}, nil},
	} {
		got := c.s.ThrottleReasons()
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: ThrottleReasons() = %q, want %q", c.name, got, c.want)
		}
		if c.s.Throttled() != (len(c.want) > 0) {
			t.Errorf("%s: Throttled() = %v", c.name, c.s.Throttled())
		}
	}
	if sc := (GPUState{SMClockMHz: 990, MaxSMClockMHz: 1980}).ClockScale(); sc != 0.5 {
		t.Errorf("ClockScale = %v, want 0.5", sc)
	}
	if !math.IsNaN((GPUState{SMClockMHz: 990}).ClockScale()) {
		t.Error("ClockScale without a maximum must be NaN")
	}
}

func TestGPUCellThrottleReasons(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	start := GPUState{At: t0, ClockEvents: events(ClockEventIdle), SMClockMHz: 345, MaxSMClockMHz: 1980,
		Counters: &GPUCounters{EnergyMJ: u64(1_000_000), PowerLimitedNS: u64(7e9), ThermalLimitedNS: u64(0)}}
	end := GPUState{At: t0.Add(10 * time.Second), ClockEvents: events(ClockEventSWPowerCap), SMClockMHz: 1755, MaxSMClockMHz: 1980,
		Counters: &GPUCounters{EnergyMJ: u64(4_000_000), PowerLimitedNS: u64(7e9 + 1.2e9), ThermalLimitedNS: u64(5e7)}}
	c := &GPUCellState{Start: []GPUState{start}, End: []GPUState{end}}
	want := []string{"SW power cap at end", "power limit during 12% of the cell"}
	if got := c.ThrottleReasons(); !slices.Equal(got, want) {
		t.Errorf("ThrottleReasons() = %q, want %q (the thermal counter's 0.5%% is below the 1%% tolerance)", got, want)
	}
	if p := AveragePowerW(start, end); math.Abs(p-300) > 1e-9 {
		t.Errorf("AveragePowerW = %v, want 300 (3000 J over 10 s)", p)
	}
	if c.HardwareThrottled() {
		t.Errorf("a power-limited cell is not hardware throttled: %q", c.ThrottleReasons())
	}
	hot := &GPUCellState{End: []GPUState{{ClockEvents: events(ClockEventSWPowerCap | ClockEventHWThermalSlowdown)}}}
	if !hot.HardwareThrottled() {
		t.Errorf("HW thermal slowdown is hardware throttling: %q", hot.ThrottleReasons())
	}
	cool := &GPUCellState{Start: []GPUState{start}, End: []GPUState{{At: end.At, ClockEvents: events(ClockEventIdle), Counters: start.Counters}}}
	if cool.Throttled() {
		t.Errorf("an idle end and still counters: not throttled, got %q", cool.ThrottleReasons())
	}
	var none *GPUCellState
	if none.Throttled() || none.ThrottledReps() != 0 {
		t.Error("a nil cell state is not throttled")
	}
	reps := &GPUCellState{Reps: []GPURep{{SMClockMHz: 1980}, {SMClockMHz: 1755, Throttled: []string{"SW power cap"}}, {SMClockMHz: 1980}}}
	if got := reps.ThrottleReasons(); !slices.Equal(got, []string{"SW power cap in 1 of 3 repetitions"}) {
		t.Errorf("per-repetition reasons: %q", got)
	}
}

// TestGPUStateJSON: a record with GPU state survives a round trip, the
// reasons are written by name, and a record without it has no "gpu" key.
func TestGPUStateJSON(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)
	r := Record{Experiment: "e", Impl: "cuda/fast", Status: StatusOK, GPU: &GPUCellState{
		Start: []GPUState{{Device: 0, PCIBusID: "0000:3B:00.0", Source: "nvml", At: at, SMClockMHz: 1980, MaxSMClockMHz: 1980,
			MemClockMHz: 2619, TemperatureC: 41, PowerW: 71.5, PowerLimitW: 700, PState: "P0", ClockEvents: events(ClockEventIdle),
			Counters: &GPUCounters{EnergyMJ: u64(123), PowerLimitedNS: u64(0)}}},
		End:  []GPUState{{Device: 0, Source: "nvml", At: at.Add(time.Second), ClockEvents: events(ClockEventSWPowerCap | 1<<40), Error: "nvmlDeviceGetTemperature: NVML_ERROR_UNKNOWN (999)"}},
		Reps: []GPURep{{SMClockMHz: 1980}, {SMClockMHz: 1755, Throttled: []string{"SW power cap"}}},
	}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"clock_events":["idle"]`, `"clock_events":["SW power cap","bit 40"]`, `"power_limited_ns":0`, `"pstate":"P0"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s: %s", want, b)
		}
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back.GPU, r.GPU)
	}
	plain, _ := json.Marshal(Record{Experiment: "e", Impl: "cpu/paper", Status: StatusOK})
	if strings.Contains(string(plain), `"gpu"`) {
		t.Errorf("a CPU record has no gpu key: %s", plain)
	}
	var n GPUState
	if err := json.Unmarshal([]byte(`{"device":1,"clock_events":4}`), &n); err != nil || n.ClockEvents == nil || *n.ClockEvents != ClockEventSWPowerCap {
		t.Errorf("a numeric bitmask must read: %+v, %v", n, err)
	}
	if err := json.Unmarshal([]byte(`{"clock_events":["warm"]}`), &n); err == nil {
		t.Error("an unknown reason name must not read")
	}
}

// fakeSampler returns readings of one device from source, its power
// counter advancing by powerNS[i] before reading i (and a second per
// reading on the clock).
type fakeSampler struct {
	source  string
	powerNS []uint64
	calls   int
	t0      time.Time
}

func (f *fakeSampler) sample(n int) []GPUState {
	i := f.calls
	f.calls++
	var pl uint64
	for k := 0; k <= i && k < len(f.powerNS); k++ {
		pl += f.powerNS[k]
	}
	out := make([]GPUState, n)
	for d := range out {
		out[d] = GPUState{Device: d, Source: f.source, At: f.t0.Add(time.Duration(i) * time.Second),
			SMClockMHz: 1980 - 10*i, MaxSMClockMHz: 1980, ClockEvents: events(0),
			Counters: &GPUCounters{PowerLimitedNS: u64(pl)}}
	}
	return out
}

func TestGPUWatch(t *testing.T) {
	p := Protocol{Warmup: 1, Reps: 3, Statistic: StatMedian}
	calls := 0
	// A call of 20 ms: far longer than PerRepFactor readings of the fake.
	fn := func(ctx context.Context, rec *Recorder) error { calls++; time.Sleep(20 * time.Millisecond); return nil }

	// NVML: a reading before each of the 4 calls and one after. The power
	// counter advances by 0.2 s between readings 2 and 3: during the second
	// timed repetition (calls 0 warm-up, 1, 2, 3).
	f := &fakeSampler{source: "nvml", powerNS: []uint64{0, 0, 0, 2e8, 0}, t0: time.Unix(0, 0)}
	w := NewGPUWatch(f.sample, 2, p)
	if _, err := Measure(context.Background(), p, w.Wrap(fn)); err != nil {
		t.Fatal(err)
	}
	c := w.Finish()
	if f.calls != 5 || calls != 4 {
		t.Fatalf("%d readings for %d calls, want 5 for 4", f.calls, calls)
	}
	if len(c.Start) != 2 || len(c.End) != 2 || len(c.Reps) != 3 {
		t.Fatalf("start %d, end %d, reps %d: want 2 devices and 3 repetitions", len(c.Start), len(c.End), len(c.Reps))
	}
	if c.Reps[0].SMClockMHz != 1970 || c.ThrottledReps() != 1 || !slices.Equal(c.Reps[1].Throttled, []string{"power limit"}) {
		t.Errorf("reps %+v: want the second throttled by the power limit, the first at 1970 MHz", c.Reps)
	}

	// NVML readings of 2 ms around calls of nothing: the first and the
	// last reading only.
	slow := &fakeSampler{source: "nvml", t0: time.Unix(0, 0)}
	w = NewGPUWatch(func(n int) []GPUState { time.Sleep(2 * time.Millisecond); return slow.sample(n) }, 1, p)
	if _, err := Measure(context.Background(), p, w.Wrap(func(context.Context, *Recorder) error { return nil })); err != nil {
		t.Fatal(err)
	}
	if c := w.Finish(); slow.calls != 2 || len(c.Reps) != 0 {
		t.Errorf("short calls: %d readings, %d per-repetition entries; want 2 and none", slow.calls, len(c.Reps))
	}

	// nvidia-smi: the first and the last reading only.
	g := &fakeSampler{source: "nvidia-smi", t0: time.Unix(0, 0)}
	w = NewGPUWatch(g.sample, 1, p)
	if _, err := Measure(context.Background(), p, w.Wrap(fn)); err != nil {
		t.Fatal(err)
	}
	if c := w.Finish(); g.calls != 2 || len(c.Reps) != 0 || len(c.Start) != 1 {
		t.Errorf("nvidia-smi: %d readings, %+v; want 2 and no per-repetition entries", g.calls, c)
	}

	// No sampler: no watch, fn unchanged, no state.
	var nw *GPUWatch = NewGPUWatch(nil, 1, p)
	if nw != nil || nw.Finish() != nil {
		t.Error("a nil sampler gives a nil watch and no state")
	}
	if _, err := Measure(context.Background(), p, nw.Wrap(fn)); err != nil {
		t.Fatal(err)
	}
}
