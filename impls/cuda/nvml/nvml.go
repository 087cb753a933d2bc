// Package nvml reads a GPU's state around a measurement: SM and memory
// clocks, temperature, power and its limit, P-state, the clock event
// ("throttle") reasons, and NVML's energy and violation counters. It loads
// NVML (libnvidia-ml.so.1) at run time with purego, as package driver loads
// libcuda: no cgo, and a binary that links it runs where there is no GPU.
// Where NVML cannot be loaded it asks nvidia-smi's query mode instead
// (fewer fields, no counters, tens of milliseconds a reading).
//
// Devices are named by their CUDA ordinal and found in NVML by PCI address,
// so a reading is of the GPU the CUDA cell ran on whatever
// CUDA_VISIBLE_DEVICES says.
//
// Without NVML and nvidia-smi every reading fails with an error matching
// ErrUnavailable. It deliberately does not match driver.ErrUnavailable: a
// machine whose state cannot be read may still run CUDA, and its cells must
// not be recorded unavailable for that.
package nvml

import (
	"errors"
	"fmt"

	"github.com/semibench/semibench/bench"
)

// ErrUnavailable is matched (errors.Is) when neither NVML nor nvidia-smi
// can read the GPU's state on this machine.
var ErrUnavailable = errors.New("GPU state unavailable")

// Sample reads the state of CUDA device ordinal: through NVML, or through
// nvidia-smi when NVML cannot be loaded. When neither works the error
// matches ErrUnavailable and names both reasons. A reading where some
// queries failed is returned without error, its Error field listing them.
func Sample(device int) (bench.GPUState, error) {
	s, err := readNVML(device)
	if err == nil {
		return s, nil
	}
	if lerr := load(); lerr == nil {
		// NVML works but not for this device: nvidia-smi would not do better.
		return s, err
	}
	s2, serr := readSMI(device, busID(device))
	if serr == nil {
		return s2, nil
	}
	return bench.GPUState{Device: device}, fmt.Errorf("%w: %v; %v", ErrUnavailable, err, serr)
}

// States reads CUDA devices 0..n-1 and never fails: a device that cannot
// be read has its error in the state's Error field. It is a
// bench.GPUSampler.
func States(n int) []bench.GPUState {
	out := make([]bench.GPUState, max(1, n))
	for d := range out {
		s, err := Sample(d)
		if err != nil {
			s.Device, s.Error = d, err.Error()
		}
		out[d] = s
	}
	return out
}

// Sampler is States as a bench.GPUSampler, for runner.Config.
var Sampler bench.GPUSampler = States

// Source says how readings are taken on this machine: "nvml",
// "nvidia-smi", or an error matching ErrUnavailable.
func Source() (string, error) {
	s, err := Sample(0)
	if err != nil {
		return "", err
	}
	return s.Source, nil
}
