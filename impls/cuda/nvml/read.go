package nvml

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// NVML enumerations used here.
const (
	clockSM          = 1 // NVML_CLOCK_SM
	clockMem         = 2 // NVML_CLOCK_MEM
	temperatureGPU   = 0 // NVML_TEMPERATURE_GPU
	policyPower      = 0 // NVML_PERF_POLICY_POWER
	policyThermal    = 1 // NVML_PERF_POLICY_THERMAL
	pstateUnknown    = 32
	busIDBufferBytes = 32
)

// device is an NVML device handle (nvmlDevice_t) with the PCI address it
// was found by.
type device struct {
	h     uintptr
	busID string
	// maxSM is the device's maximum SM clock, read once: it does not
	// change, and the query took 1.4 ms on the H100 host, a fifth of a
	// reading (BenchmarkCalls: results/intel-xeon_nvidia-h100-80gb-hbm3/
	// test-gpu/20261128-b818666-nvml-bench.txt).
	maxSM uint32
}

var handles struct {
	mu   sync.Mutex
	byID map[int]device
}

// busID is the PCI address of CUDA device ordinal, or "" when the CUDA
// driver cannot say (then the NVML index is used).
func busID(ordinal int) string {
	if driver.Init() != nil {
		return ""
	}
	d, err := driver.GetDevice(ordinal)
	if err != nil {
		return ""
	}
	id, err := d.PCIBusID()
	if err != nil {
		return ""
	}
	return id
}

// lookup returns the NVML handle of CUDA device ordinal: found by its PCI
// address where the CUDA driver gives one, since NVML numbers devices in PCI
// order whatever CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER say; by index
// otherwise.
func lookup(ordinal int) (device, error) {
	handles.mu.Lock()
	defer handles.mu.Unlock()
	if d, ok := handles.byID[ordinal]; ok {
		return d, nil
	}
	var d device
	if id := busID(ordinal); id != "" {
		b := cString(id)
		err := call("nvmlDeviceGetHandleByPciBusId_v2", uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&d.h)))
		if err != nil {
			return device{}, fmt.Errorf("CUDA device %d (PCI %s): %w", ordinal, id, err)
		}
		d.busID = id
	} else if err := call("nvmlDeviceGetHandleByIndex_v2", uintptr(uint32(ordinal)), uintptr(unsafe.Pointer(&d.h))); err != nil {
		return device{}, fmt.Errorf("GPU %d: %w", ordinal, err)
	}
	if call("nvmlDeviceGetMaxClockInfo", d.h, clockSM, uintptr(unsafe.Pointer(&d.maxSM))) != nil {
		d.maxSM = 0 // unsupported or failed: each reading asks again
	}
	if handles.byID == nil {
		handles.byID = map[int]device{}
	}
	handles.byID[ordinal] = d
	return d, nil
}

// readNVML takes one reading of CUDA device ordinal through NVML. Queries
// the GPU does not support leave their fields empty; other failures are
// listed in the state's Error, and the error is returned only when nothing
// could be read.
func readNVML(ordinal int) (bench.GPUState, error) {
	s := bench.GPUState{Device: ordinal, Source: "nvml"}
	if err := load(); err != nil {
		return s, err
	}
	d, err := lookup(ordinal)
	if err != nil {
		return s, err
	}
	s.PCIBusID = d.busID
	s.At = time.Now()
	var failed []string
	read := func(err error) bool {
		if err == nil {
			return true
		}
		if !unsupported(err) {
			failed = append(failed, err.Error())
		}
		return false
	}
	var v uint32
	if read(call("nvmlDeviceGetClockInfo", d.h, clockSM, uintptr(unsafe.Pointer(&v)))) {
		s.SMClockMHz = int(v)
	}
	if d.maxSM > 0 {
		s.MaxSMClockMHz = int(d.maxSM)
	} else if read(call("nvmlDeviceGetMaxClockInfo", d.h, clockSM, uintptr(unsafe.Pointer(&v)))) {
		s.MaxSMClockMHz = int(v)
	}
	if read(call("nvmlDeviceGetClockInfo", d.h, clockMem, uintptr(unsafe.Pointer(&v)))) {
		s.MemClockMHz = int(v)
	}
	if read(call("nvmlDeviceGetTemperature", d.h, temperatureGPU, uintptr(unsafe.Pointer(&v)))) {
		s.TemperatureC = int(v)
	}
	if read(call("nvmlDeviceGetPowerUsage", d.h, uintptr(unsafe.Pointer(&v)))) {
		s.PowerW = float64(v) / 1e3
	}
	if read(call("nvmlDeviceGetEnforcedPowerLimit", d.h, uintptr(unsafe.Pointer(&v)))) {
		s.PowerLimitW = float64(v) / 1e3
	}
	var ps int32
	if read(call("nvmlDeviceGetPerformanceState", d.h, uintptr(unsafe.Pointer(&ps)))) && ps >= 0 && ps != pstateUnknown {
		s.PState = fmt.Sprintf("P%d", ps)
	}
	if ev, err := clockEvents(d.h); read(err) {
		s.ClockEvents = &ev
	}
	var c bench.GPUCounters
	var energy uint64
	if read(call("nvmlDeviceGetTotalEnergyConsumption", d.h, uintptr(unsafe.Pointer(&energy)))) {
		c.EnergyMJ = &energy
	}
	c.PowerLimitedNS = violation(d.h, policyPower, read)
	c.ThermalLimitedNS = violation(d.h, policyThermal, read)
	if c != (bench.GPUCounters{}) {
		s.Counters = &c
	}
	if len(failed) > 0 {
		s.Error = strings.Join(failed, "; ")
	}
	if s.SMClockMHz == 0 && s.TemperatureC == 0 && s.PowerW == 0 && s.ClockEvents == nil && len(failed) > 0 {
		return s, fmt.Errorf("GPU %d: %s", ordinal, s.Error)
	}
	return s, nil
}

// clockEvents reads the clock event reasons: the R535+ entry point, else
// the older "throttle reasons" one (same bits).
func clockEvents(h uintptr) (bench.ClockEvents, error) {
	var m uint64
	err := call("nvmlDeviceGetCurrentClocksEventReasons", h, uintptr(unsafe.Pointer(&m)))
	if errors.Is(err, errNoSymbol) {
		err = call("nvmlDeviceGetCurrentClocksThrottleReasons", h, uintptr(unsafe.Pointer(&m)))
	}
	return bench.ClockEvents(m), err
}

// violationTime is nvmlViolationTime_t.
type violationTime struct {
	referenceTime uint64 // CPU timestamp, microseconds
	violationTime uint64 // nanoseconds
}

// violation reads one perf-policy violation counter (nanoseconds held below
// the applications clocks), nil where the GPU does not report it.
func violation(h uintptr, policy int, read func(error) bool) *uint64 {
	var vt violationTime
	if !read(call("nvmlDeviceGetViolationStatus", h, uintptr(policy), uintptr(unsafe.Pointer(&vt)))) {
		return nil
	}
	return &vt.violationTime
}
