package cuda

import (
	"fmt"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/nvrtc"
)

// Probe describes the machine's CUDA stack and GPUs for result files and
// `semibench info`. It never panics and never fails: when CUDA cannot be
// used, CUDAInfo.Error says why (no libcuda.so.1, a driver that does not
// initialise, no device) and no GPUs are returned. KernelPath is the path
// the kernels were loaded by when a device is already open, else the path
// they will take: "nvrtc" where NVRTC loads, "fallback-ptx" otherwise.
func Probe() (info *bench.CUDAInfo, gpus []bench.GPU) {
	defer func() {
		if r := recover(); r != nil {
			info, gpus = &bench.CUDAInfo{Error: fmt.Sprintf("probing CUDA failed: %v", r)}, nil
		}
	}()
	info = &bench.CUDAInfo{}
	if v, err := nvrtc.Version(); err == nil {
		info.NVRTC = v
	}
	v, err := driver.DriverVersion()
	if err != nil {
		info.Error = err.Error()
		return info, nil
	}
	info.Driver = driver.VersionString(v)
	n, err := driver.DeviceCount()
	if err != nil {
		info.Error = err.Error()
		return info, nil
	}
	for i := 0; i < n; i++ {
		p, err := driver.DeviceProps(i)
		if err != nil {
			info.Error = fmt.Sprintf("CUDA device %d: %v", i, err)
			return info, gpus
		}
		gpus = append(gpus, bench.GPU{
			Index: i, Name: p.Name, ComputeCapability: p.ComputeCapability(), SMs: p.SMs,
			MemoryBytes: p.MemoryBytes, ClockMHz: p.ClockKHz / 1000, MemoryClockMHz: p.MemoryClockKHz / 1000,
			MemoryBusBits: p.MemoryBusBits,
		})
	}
	info.KernelPath = PathFallbackPTX
	if info.NVRTC != "" {
		info.KernelPath = PathNVRTC
	}
	for _, d := range Opened() {
		if p := d.KernelPath("kleene"); p != "" {
			info.KernelPath = p
		}
	}
	return info, gpus
}
