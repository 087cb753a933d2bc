package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"
)

// GPUState is one reading of a GPU's clocks, temperature, power and clock
// event ("throttle") reasons, taken around a GPU cell. A value that could
// not be read is left at its zero value (omitted in JSON) and Error says
// which read failed; a value the GPU does not report (an unsupported query)
// is simply absent.
type GPUState struct {
	Device   int       `json:"device"`               // the CUDA ordinal
	PCIBusID string    `json:"pci_bus_id,omitempty"` // how the reading found the device ("0000:3B:00.0")
	Source   string    `json:"source,omitempty"`     // "nvml" or "nvidia-smi"
	At       time.Time `json:"at,omitzero"`

	SMClockMHz    int `json:"sm_clock_mhz,omitempty"`
	MaxSMClockMHz int `json:"max_sm_clock_mhz,omitempty"`
	MemClockMHz   int `json:"mem_clock_mhz,omitempty"`
	TemperatureC  int `json:"temperature_c,omitempty"`
	// PowerW is the board's power draw at the reading; PowerLimitW the
	// enforced limit.
	PowerW      float64 `json:"power_w,omitempty"`
	PowerLimitW float64 `json:"power_limit_w,omitempty"`
	PState      string  `json:"pstate,omitempty"` // "P0" (fastest) .. "P15"

	// ClockEvents are the reasons the clocks are below their maximum at the
	// reading; nil when they could not be read, empty when there are none.
	ClockEvents *ClockEvents `json:"clock_events,omitempty"`
	// Counters are NVML's running totals since the driver loaded; the
	// difference of two readings is what happened between them.
	Counters *GPUCounters `json:"counters,omitempty"`

	Error string `json:"error,omitempty"` // the reads that failed, if any
}

// GPUCounters are cumulative device counters; a nil field is one the GPU
// does not report.
type GPUCounters struct {
	EnergyMJ *uint64 `json:"energy_mj,omitempty"` // energy consumed, millijoules
	// PowerLimitedNS and ThermalLimitedNS are the time the clocks were held
	// below the application clocks by the power limit and by temperature
	// (NVML's violation counters), nanoseconds.
	PowerLimitedNS   *uint64 `json:"power_limited_ns,omitempty"`
	ThermalLimitedNS *uint64 `json:"thermal_limited_ns,omitempty"`
}

// ClockEvents is NVML's bitmask of clock event reasons
// (nvmlDeviceGetCurrentClocksEventReasons; "throttle reasons" before
// R535). It is written in JSON as the list of reason names, so a file reads
// without the table, and every bit survives a round trip ("bit 12" for one
// this version does not name).
type ClockEvents uint64

// The clock event reasons, with NVML's values.
const (
	ClockEventIdle              ClockEvents = 0x1   // nothing runs: the clocks drop to idle
	ClockEventAppClocksSetting  ClockEvents = 0x2   // held at the applications clocks set by an administrator
	ClockEventSWPowerCap        ClockEvents = 0x4   // kept under the power limit by the driver
	ClockEventHWSlowdown        ClockEvents = 0x8   // hardware slowdown (temperature, power brake, fast power trigger)
	ClockEventSyncBoost         ClockEvents = 0x10  // held to the slowest GPU of a sync-boost group
	ClockEventSWThermalSlowdown ClockEvents = 0x20  // the driver keeps the GPU or memory under its temperature limit
	ClockEventHWThermalSlowdown ClockEvents = 0x40  // hardware thermal slowdown
	ClockEventHWPowerBrake      ClockEvents = 0x80  // hardware power brake (an external signal, such as the power supply)
	ClockEventDisplayClock      ClockEvents = 0x100 // held by the display clock setting
	ClockEventBoardLimit        ClockEvents = 0x200 // a board limit
	ClockEventReliability       ClockEvents = 0x400 // a reliability (voltage) limit
)

const (
	// clockEventBitPrefix names a bit this version has no name for.
	clockEventBitPrefix = "bit "
	// throttleClockScale is NVBench's default threshold: a busy GPU whose
	// SM clock is below 75% of its maximum is throttled.
	throttleClockScale = 0.75
	// throttleFraction is the share of an interval a violation counter must
	// advance by to count, above the counters' granularity.
	throttleFraction = 0.01
)

// clockEventNames are the reasons' names, in bit order, as a note prints
// them.
var clockEventNames = [...]string{
	"idle", "applications clocks setting", "SW power cap", "HW slowdown", "sync boost",
	"SW thermal slowdown", "HW thermal slowdown", "HW power brake", "display clock setting",
	"board limit", "reliability limit",
}

// Names lists the reasons set, in bit order: "SW power cap", "HW slowdown",
// ..., and "bit N" for a bit this version does not name.
func (c ClockEvents) Names() []string {
	var out []string
	for m := uint64(c); m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		if b < len(clockEventNames) {
			out = append(out, clockEventNames[b])
		} else {
			out = append(out, clockEventBitPrefix+strconv.Itoa(b))
		}
	}
	return out
}

// String joins Names with ", "; "none" when no reason is set.
func (c ClockEvents) String() string {
	if c == 0 {
		return "none"
	}
	return strings.Join(c.Names(), ", ")
}

// Throttling is the part of c that slows a busy GPU: every reason but idle.
func (c ClockEvents) Throttling() ClockEvents { return c &^ ClockEventIdle }

// ParseClockEvents turns reason names (as Names writes them) back into the
// bitmask.
func ParseClockEvents(names []string) (ClockEvents, error) {
	var c ClockEvents
	for _, n := range names {
		if i := slices.Index(clockEventNames[:], n); i >= 0 {
			c |= 1 << i
			continue
		}
		if rest, ok := strings.CutPrefix(n, clockEventBitPrefix); ok {
			if b, err := strconv.Atoi(rest); err == nil && b >= 0 && b < 64 {
				c |= 1 << b
				continue
			}
		}
		return 0, fmt.Errorf("unknown clock event reason %q", n)
	}
	return c, nil
}

// MarshalJSON writes the reasons as a list of names ([] for none).
func (c ClockEvents) MarshalJSON() ([]byte, error) {
	names := c.Names()
	if names == nil {
		names = []string{}
	}
	return json.Marshal(names)
}

// UnmarshalJSON reads a list of names, or a number (the raw bitmask).
func (c *ClockEvents) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		var n uint64
		if nerr := json.Unmarshal(b, &n); nerr != nil {
			return fmt.Errorf("clock_events: %w", err)
		}
		*c = ClockEvents(n)
		return nil
	}
	v, err := ParseClockEvents(names)
	if err != nil {
		return fmt.Errorf("clock_events: %w", err)
	}
	*c = v
	return nil
}

// ClockScale is the SM clock as a fraction of its maximum, NaN when either
// is unknown. NVBench sets a sample apart when its clock is below 75% of the
// maximum; ThrottleReasons does the same for a busy GPU.
func (s GPUState) ClockScale() float64 {
	if s.SMClockMHz <= 0 || s.MaxSMClockMHz <= 0 {
		return math.NaN()
	}
	return float64(s.SMClockMHz) / float64(s.MaxSMClockMHz)
}

// idle reports whether the reading says the GPU had nothing to run.
func (s GPUState) idle() bool {
	return s.ClockEvents != nil && *s.ClockEvents&ClockEventIdle != 0
}

// ThrottleReasons says why the reading's clocks are held down for another
// reason than idleness: the clock event reasons but idle, and, as NVBench
// does, an SM clock below 75% of its maximum on a GPU that is not idle.
// Empty when the reading is not throttled (or says nothing either way).
func (s GPUState) ThrottleReasons() []string {
	var out []string
	if s.ClockEvents != nil {
		out = s.ClockEvents.Throttling().Names()
	}
	if sc := s.ClockScale(); !s.idle() && sc < throttleClockScale {
		out = append(out, fmt.Sprintf("SM clock at %.0f%% of its maximum", 100*sc))
	}
	return out
}

// Throttled reports whether the reading shows the GPU slowed for a reason
// other than idleness (ThrottleReasons is not empty).
func (s GPUState) Throttled() bool { return len(s.ThrottleReasons()) > 0 }

// GPURep is what the readings around one timed repetition say: its SM clock
// at its start (the lowest over the devices) and the throttle reasons seen
// during it (the violation counters) or at its end.
type GPURep struct {
	SMClockMHz int      `json:"sm_clock_mhz,omitempty"`
	Throttled  []string `json:"throttled,omitempty"`
}

// GPUCellState is the GPU state around one cell: one reading per device
// before the warm-up and after the last repetition, and, where the readings
// are cheap (NVML), one per timed repetition, so that throttled samples can
// be told apart from the others as NVBench does.
type GPUCellState struct {
	Start []GPUState `json:"start,omitempty"`
	End   []GPUState `json:"end,omitempty"`
	Reps  []GPURep   `json:"reps,omitempty"`
}

// ThrottleReasons says why the cell's GPUs were slowed, each reason once with
// where it was seen: "SW power cap at end", "HW thermal slowdown during 12%
// of the cell", "SW power cap in 2 of 6 repetitions". Empty when nothing
// says the cell was throttled. A violation counter counts when it advanced
// by at least 1% of the cell's time, a stated tolerance for the counters'
// granularity.
func (c *GPUCellState) ThrottleReasons() []string {
	if c == nil {
		return nil
	}
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	multi := len(c.Start) > 1 || len(c.End) > 1
	dev := func(s GPUState) string {
		if multi {
			return fmt.Sprintf(" (GPU %d)", s.Device)
		}
		return ""
	}
	for _, s := range c.Start {
		for _, r := range s.ThrottleReasons() {
			add(r + " at start" + dev(s))
		}
	}
	for _, e := range c.End {
		for _, r := range e.ThrottleReasons() {
			add(r + " at end" + dev(e))
		}
		i := slices.IndexFunc(c.Start, func(s GPUState) bool { return s.Device == e.Device })
		if i < 0 {
			continue
		}
		for _, v := range violations(c.Start[i], e) {
			add(v + dev(e))
		}
	}
	if n := c.ThrottledReps(); n > 0 {
		var reasons []string
		for _, r := range c.Reps {
			for _, x := range r.Throttled {
				if !slices.Contains(reasons, x) {
					reasons = append(reasons, x)
				}
			}
		}
		add(fmt.Sprintf("%s in %d of %d repetitions", strings.Join(reasons, ", "), n, len(c.Reps)))
	}
	return out
}

// Throttled reports whether anything says the cell's GPUs were slowed for
// a reason other than idleness.
func (c *GPUCellState) Throttled() bool { return len(c.ThrottleReasons()) > 0 }

// hardReasons are the throttle reasons that mean temperature or a hardware
// limit slowed the GPU, as opposed to the power limit (where a busy card
// sits under sustained load: an H200 running bf16 GEMMs holds its 700 W
// cap at about 73% of its maximum SM clock, SW power cap set the whole
// time) or a clock setting.
var hardReasons = []string{"HW slowdown", "SW thermal slowdown", "HW thermal slowdown", "HW power brake",
	"board limit", "reliability limit", "thermal limit"}

// HardwareThrottled reports whether temperature or a hardware limit slowed
// the cell's GPUs: a reason beyond the power limit and the clock settings.
// Such a cell's times are slower than the card can do; a power-limited
// cell's are what the card sustains.
func (c *GPUCellState) HardwareThrottled() bool {
	for _, r := range c.ThrottleReasons() {
		for _, h := range hardReasons {
			if strings.Contains(r, h) {
				return true
			}
		}
	}
	return false
}

// ThrottledReps counts the timed repetitions during which a GPU was
// throttled.
func (c *GPUCellState) ThrottledReps() int {
	if c == nil {
		return 0
	}
	n := 0
	for _, r := range c.Reps {
		if len(r.Throttled) > 0 {
			n++
		}
	}
	return n
}

// violations reads the violation counters between two readings of one
// device: "SW power cap during 12% of the cell" when a counter advanced by
// at least 1% of the time between them.
func violations(a, b GPUState) []string {
	if a.Counters == nil || b.Counters == nil || a.At.IsZero() || !b.At.After(a.At) {
		return nil
	}
	wall := float64(b.At.Sub(a.At).Nanoseconds())
	var out []string
	for _, v := range []struct {
		name string
		x, y *uint64
	}{
		{"power limit", a.Counters.PowerLimitedNS, b.Counters.PowerLimitedNS},
		{"thermal limit", a.Counters.ThermalLimitedNS, b.Counters.ThermalLimitedNS},
	} {
		if v.x == nil || v.y == nil || *v.y < *v.x {
			continue
		}
		if f := float64(*v.y-*v.x) / wall; f >= throttleFraction {
			out = append(out, fmt.Sprintf("%s during %.0f%% of the cell", v.name, 100*math.Min(f, 1)))
		}
	}
	return out
}

// AveragePowerW is a device's mean power between two readings, from the
// energy counter; NaN when the counter or the times are missing.
func AveragePowerW(a, b GPUState) float64 {
	if a.Counters == nil || b.Counters == nil || a.Counters.EnergyMJ == nil || b.Counters.EnergyMJ == nil ||
		a.At.IsZero() || !b.At.After(a.At) || *b.Counters.EnergyMJ < *a.Counters.EnergyMJ {
		return math.NaN()
	}
	j := float64(*b.Counters.EnergyMJ-*a.Counters.EnergyMJ) / 1e3
	return j / b.At.Sub(a.At).Seconds()
}

// GPUSampler reads the state of CUDA devices 0..n-1, one GPUState each; a
// device it cannot read has Error set. impls/cuda/nvml.States is one.
type GPUSampler func(n int) []GPUState

// GPUWatch records the GPU state around one cell: NewGPUWatch before
// Measure, Wrap around the measured function, Finish after. All three
// accept a nil *GPUWatch and then do nothing, so a caller may write
//
//	w := bench.NewGPUWatch(sampler, gpus, proto) // nil sampler: nil watch
//	phases, err := bench.Measure(ctx, proto, w.Wrap(fn))
//	rec.GPU = w.Finish()
//
// Readings are taken before each call of the function, as Recorder.Untimed
// work (outside total and end_to_end), and once after the last; the
// readings before a timed repetition and after it decide whether that
// sample was throttled. Only the first and last are taken when the first
// reading is not NVML's (nvidia-smi takes tens of milliseconds and has no
// violation counters), or when the first call took less than PerRepFactor
// readings: an NVML reading took 7.4 ms on the H100 host (BenchmarkSample,
// results/intel-xeon_nvidia-h100-80gb-hbm3/test-gpu/20261128-b818666-nvml-bench.txt), and most GPU
// cells run for well under a millisecond, so readings around each of
// their repetitions cost the run far more than the repetitions, and the
// readings around the cell cover them.
type GPUWatch struct {
	sample   GPUSampler
	n        int
	warmup   int
	perRep   bool
	nvml     bool          // the first reading is NVML's
	readCost time.Duration // what the first reading took
	readings [][]GPUState  // before each call, in call order
}

// PerRepFactor is how many times a reading's own time the first call of
// the function must take for the watch to read before every call.
const PerRepFactor = 20

// NewGPUWatch returns a watch over devices 0..devices-1 (at least one), or
// nil when sample is nil.
func NewGPUWatch(sample GPUSampler, devices int, p Protocol) *GPUWatch {
	if sample == nil {
		return nil
	}
	return &GPUWatch{sample: sample, n: max(1, devices), warmup: p.Warmup}
}

// Wrap returns fn with a reading before each call.
func (w *GPUWatch) Wrap(fn func(ctx context.Context, rec *Recorder) error) func(ctx context.Context, rec *Recorder) error {
	if w == nil {
		return fn
	}
	return func(ctx context.Context, rec *Recorder) error {
		first := len(w.readings) == 0
		if first || w.perRep {
			rec.Untimed(func() {
				t0 := time.Now()
				s := w.sample(w.n)
				if first {
					w.nvml, w.readCost = len(s) > 0 && s[0].Source == "nvml" && s[0].Error == "", time.Since(t0)
				}
				w.readings = append(w.readings, s)
			})
		}
		t0 := time.Now()
		err := fn(ctx, rec)
		if first {
			w.perRep = w.nvml && time.Since(t0) >= PerRepFactor*w.readCost
		}
		return err
	}
}

// Finish takes the last reading and returns the cell's state; nil for a nil
// watch or one whose function was never called.
func (w *GPUWatch) Finish() *GPUCellState {
	if w == nil || len(w.readings) == 0 {
		return nil
	}
	end := w.sample(w.n)
	c := &GPUCellState{Start: w.readings[0], End: end}
	if w.perRep {
		all := append(slices.Clone(w.readings), end)
		for i := w.warmup; i+1 < len(all); i++ {
			c.Reps = append(c.Reps, repState(all[i], all[i+1]))
		}
	}
	return c
}

// repState is one repetition's entry from the readings before and after it.
func repState(before, after []GPUState) GPURep {
	var r GPURep
	for _, a := range before {
		if a.SMClockMHz > 0 && (r.SMClockMHz == 0 || a.SMClockMHz < r.SMClockMHz) {
			r.SMClockMHz = a.SMClockMHz
		}
	}
	for _, b := range after {
		if b.ClockEvents != nil {
			for _, n := range b.ClockEvents.Throttling().Names() {
				if !slices.Contains(r.Throttled, n) {
					r.Throttled = append(r.Throttled, n)
				}
			}
		}
		i := slices.IndexFunc(before, func(a GPUState) bool { return a.Device == b.Device })
		if i < 0 {
			continue
		}
		for _, v := range violationNames(before[i], b) {
			if !slices.Contains(r.Throttled, v) {
				r.Throttled = append(r.Throttled, v)
			}
		}
	}
	return r
}

// violationNames names the violation counters that advanced by at least
// 1% of the time between two readings.
func violationNames(a, b GPUState) []string {
	var out []string
	for _, v := range violations(a, b) {
		name, _, _ := strings.Cut(v, " during ")
		out = append(out, name)
	}
	return out
}
