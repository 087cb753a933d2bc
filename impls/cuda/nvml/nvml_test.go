package nvml

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// TestSample reads GPU 0. Without NVML and nvidia-smi (a CPU machine) the
// error matches ErrUnavailable, not driver.ErrUnavailable, names what was
// tried, and nothing panics; with a GPU the reading is checked for
// plausible values and logged.
func TestSample(t *testing.T) {
	s, err := Sample(0)
	if err != nil {
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Sample(0): %v does not match ErrUnavailable", err)
		}
		if errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("a missing NVML must not read as CUDA unavailable: %v", err)
		}
		// NVML's library is named whether it is missing or loaded without a
		// driver (a CUDA toolkit on a machine with no GPU).
		for _, want := range []string{"libnvidia-ml.so", "nvidia-smi"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q does not name %s", err, want)
			}
		}
		states := States(2)
		if len(states) != 2 || states[1].Device != 1 || !strings.Contains(states[1].Error, ErrUnavailable.Error()) {
			t.Errorf("States must return one state per device with the error: %+v", states)
		}
		if _, err := Source(); !errors.Is(err, ErrUnavailable) {
			t.Errorf("Source: %v", err)
		}
		t.Logf("no GPU state here: %v", err)
		return
	}
	b, _ := json.Marshal(s)
	t.Logf("GPU 0: %s", b)
	if s.Source != "nvml" && s.Source != "nvidia-smi" {
		t.Errorf("source %q", s.Source)
	}
	if s.SMClockMHz <= 0 || s.MaxSMClockMHz < s.SMClockMHz || s.TemperatureC <= 0 || s.TemperatureC > 120 ||
		s.PowerW <= 0 || s.PowerLimitW < 10 || s.ClockEvents == nil || s.PState == "" {
		t.Errorf("implausible reading: %+v", s)
	}
	if s.Error != "" {
		t.Errorf("some reads failed: %s", s.Error)
	}
	if s.Source == "nvml" && (s.Counters == nil || s.Counters.EnergyMJ == nil) {
		t.Logf("NVML gave no energy counter (a GPU before Volta?)")
	}
	if n, err := driver.DeviceCount(); err == nil {
		for _, st := range States(n) {
			if st.Error != "" || st.SMClockMHz == 0 {
				t.Errorf("GPU %d: %+v", st.Device, st)
			}
		}
	}
}

// BenchmarkSample times one reading of GPU 0, the cost a cell pays at its
// start and end, and logs a reading every 250 ms with its throttle
// reasons, then the throttling and average power over the whole run: run
// it beside a GPU workload (-benchtime=30s watches for half a minute) to
// see the states a cell records. Without NVML and nvidia-smi it skips.
func BenchmarkSample(b *testing.B) {
	first, err := Sample(0)
	if err != nil {
		b.Skip(err)
	}
	last, shown := first, time.Time{}
	for b.Loop() {
		t0 := time.Now()
		s, err := Sample(0)
		if err != nil {
			b.Fatal(err)
		}
		if last = s; t0.Sub(shown) >= 250*time.Millisecond {
			b.StopTimer()
			b.Logf("%s SM %4d/%4d MHz mem %4d MHz %3d °C %6.1f/%5.0f W %s events [%v] throttled %q (read in %s)",
				s.At.Format("15:04:05.000"), s.SMClockMHz, s.MaxSMClockMHz, s.MemClockMHz, s.TemperatureC, s.PowerW, s.PowerLimitW,
				s.PState, s.ClockEvents, s.ThrottleReasons(), time.Since(t0).Round(time.Microsecond))
			shown = t0
			b.StartTimer()
		}
	}
	c := &bench.GPUCellState{Start: []bench.GPUState{first}, End: []bench.GPUState{last}}
	b.Logf("over the run: throttled %q, average power %.1f W", c.ThrottleReasons(), bench.AveragePowerW(first, last))
}

func TestParseSMI(t *testing.T) {
	s, err := parseSMI("00000000:3B:00.0, 1755, 1980, 2619, 61, 612.35, 700.00, P0, 0x0000000000000004\n")
	if err != nil {
		t.Fatal(err)
	}
	if s.PCIBusID != "00000000:3B:00.0" || s.SMClockMHz != 1755 || s.MaxSMClockMHz != 1980 || s.MemClockMHz != 2619 ||
		s.TemperatureC != 61 || s.PowerW != 612.35 || s.PowerLimitW != 700 || s.PState != "P0" || s.Source != "nvidia-smi" ||
		s.ClockEvents == nil || *s.ClockEvents != bench.ClockEventSWPowerCap || s.Error != "" {
		t.Errorf("parsed %+v", s)
	}
	if got := s.ThrottleReasons(); len(got) != 1 || got[0] != "SW power cap" {
		t.Errorf("ThrottleReasons = %q", got)
	}
	s, err = parseSMI("00000000:3B:00.0, 345, 1980, 405, 33, [N/A], [Not Supported], P8, 0x0000000000000001")
	if err != nil || s.PowerW != 0 || s.PowerLimitW != 0 || s.Throttled() || s.Error != "" {
		t.Errorf("N/A fields must be empty, idle not throttled: %+v, %v", s, err)
	}
	s, err = parseSMI("00000000:3B:00.0, fast, 1980, 405, 33, 80, 700, P0, 0xzz")
	if err != nil || !strings.Contains(s.Error, "clocks.sm") || !strings.Contains(s.Error, "clocks_event_reasons") || s.ClockEvents != nil {
		t.Errorf("unreadable fields must be named: %+v, %v", s, err)
	}
	if _, err := parseSMI("1980, 1980"); err == nil {
		t.Error("a short line must be an error")
	}
}

// TestSMIFallback, where NVML cannot be loaded, puts a fake nvidia-smi in
// place: it refuses the R535 field name as an older driver does, so the
// reading must retry with clocks_throttle_reasons.active.
func TestSMIFallback(t *testing.T) {
	if load() == nil {
		t.Skip("NVML loads here; the fallback is not used")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "nvidia-smi")
	log := filepath.Join(dir, "args")
	body := `#!/bin/sh
echo "$@" >> ` + log + `
case "$*" in
*clocks_event_reasons*) echo 'Field "clocks_event_reasons.active" is not a valid field to query.' >&2; exit 2;;
esac
echo '00000000:3B:00.0, 1410, 1410, 1593, 44, 250.5, 400.00, P0, 0x0000000000000020'
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	old := smiCommand
	smiCommand = script
	defer func() { smiCommand = old }()
	s, err := Sample(0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Source != "nvidia-smi" || s.SMClockMHz != 1410 || s.ClockEvents == nil || *s.ClockEvents != bench.ClockEventSWThermalSlowdown {
		t.Errorf("fallback reading %+v", s)
	}
	args, _ := os.ReadFile(log)
	if !strings.Contains(string(args), "clocks_throttle_reasons.active") || !strings.Contains(string(args), "-i 0") {
		t.Errorf("nvidia-smi was called with %q", args)
	}
}

func TestUnsupported(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&Error{Call: "nvmlDeviceGetPowerUsage", Code: errNotSupported}, true},
		{&Error{Call: "nvmlDeviceGetViolationStatus", Code: errNoPermission}, true},
		{&Error{Call: "x", Code: 999}, false},
		{errors.New("x"), false},
	} {
		if got := unsupported(c.err); got != c.want {
			t.Errorf("unsupported(%v) = %v", c.err, got)
		}
	}
	if e := (&Error{Call: "nvmlInit_v2", Code: errDriverMissing, Text: "Driver Not Loaded"}); e.Error() != "nvmlInit_v2: Driver Not Loaded (9)" {
		t.Errorf("Error() = %q", e.Error())
	}
}

// BenchmarkCalls times each NVML query a reading makes on GPU 0, to see
// which of them a reading's time goes to. Without NVML it skips.
func BenchmarkCalls(b *testing.B) {
	if err := load(); err != nil {
		b.Skip(err)
	}
	d, err := lookup(0)
	if err != nil {
		b.Skip(err)
	}
	var v uint32
	var ps int32
	var energy uint64
	var vt violationTime
	p := func(x any) uintptr {
		switch x := x.(type) {
		case *uint32:
			return uintptr(unsafe.Pointer(x))
		case *int32:
			return uintptr(unsafe.Pointer(x))
		case *uint64:
			return uintptr(unsafe.Pointer(x))
		case *violationTime:
			return uintptr(unsafe.Pointer(x))
		}
		panic("unknown")
	}
	for _, c := range []struct {
		name string
		args []uintptr
	}{
		{"nvmlDeviceGetClockInfo", []uintptr{d.h, clockSM, p(&v)}},
		{"nvmlDeviceGetMaxClockInfo", []uintptr{d.h, clockSM, p(&v)}},
		{"nvmlDeviceGetTemperature", []uintptr{d.h, temperatureGPU, p(&v)}},
		{"nvmlDeviceGetPowerUsage", []uintptr{d.h, p(&v)}},
		{"nvmlDeviceGetEnforcedPowerLimit", []uintptr{d.h, p(&v)}},
		{"nvmlDeviceGetPerformanceState", []uintptr{d.h, p(&ps)}},
		{"nvmlDeviceGetTotalEnergyConsumption", []uintptr{d.h, p(&energy)}},
		{"nvmlDeviceGetViolationStatus", []uintptr{d.h, policyPower, p(&vt)}},
	} {
		b.Run(strings.TrimPrefix(c.name, "nvmlDeviceGet"), func(b *testing.B) {
			for b.Loop() {
				if err := call(c.name, c.args...); err != nil && !unsupported(err) {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("ClockEvents", func(b *testing.B) {
		for b.Loop() {
			if _, err := clockEvents(d.h); err != nil && !unsupported(err) {
				b.Fatal(err)
			}
		}
	})
}
