package driver

import (
	"fmt"
	"unsafe"
)

// DriverVersion returns the CUDA version the driver supports, as
// 1000*major + 10*minor (13000 for CUDA 13.0).
func DriverVersion() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	var v int32
	if err := call("cuDriverGetVersion", uintptr(unsafe.Pointer(&v))); err != nil {
		return 0, err
	}
	return int(v), nil
}

// VersionString formats a driver or runtime version number (13000) as
// "13.0".
func VersionString(v int) string {
	return fmt.Sprintf("%d.%d", v/1000, (v%1000)/10)
}

// DeviceCount returns the number of CUDA devices. No device is reported as
// an error matching ErrUnavailable.
func DeviceCount() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	var n int32
	if err := call("cuDeviceGetCount", uintptr(unsafe.Pointer(&n))); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, &Error{Call: "cuDeviceGetCount", Code: ErrorNoDevice, Detail: "no CUDA device", Unavailable: true}
	}
	return int(n), nil
}

// Device is a CUdevice handle.
type Device int32

// GetDevice returns the device of the given ordinal (0-based).
func GetDevice(ordinal int) (Device, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	var d int32
	if err := call("cuDeviceGet", uintptr(unsafe.Pointer(&d)), uintptr(ordinal)); err != nil {
		return 0, err
	}
	return Device(d), nil
}

// Name returns the device's marketing name.
func (d Device) Name() (string, error) {
	buf := make([]byte, 256)
	if err := call("cuDeviceGetName", uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(d)); err != nil {
		return "", err
	}
	return cBytesString(buf), nil
}

// PCIBusID returns the device's PCI address as "domain:bus:device.function"
// in hex ("0000:3B:00.0", cuDeviceGetPCIBusId): the key that names the same
// GPU to NVML and nvidia-smi, whose indices follow PCI order while CUDA's
// ordinals follow CUDA_DEVICE_ORDER and CUDA_VISIBLE_DEVICES.
func (d Device) PCIBusID() (string, error) {
	buf := make([]byte, 32)
	if err := call("cuDeviceGetPCIBusId", uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(d)); err != nil {
		return "", err
	}
	return cBytesString(buf), nil
}

// Attribute is a CUdevice_attribute.
type Attribute int32

// Device attributes used by this module.
const (
	AttrMaxThreadsPerBlock        Attribute = 1
	AttrClockRate                 Attribute = 13 // kHz
	AttrMultiprocessorCount       Attribute = 16
	AttrPCIBusID                  Attribute = 33
	AttrMemoryClockRate           Attribute = 36 // kHz
	AttrGlobalMemoryBusWidth      Attribute = 37 // bits
	AttrL2CacheSize               Attribute = 38 // bytes
	AttrComputeCapabilityMajor    Attribute = 75
	AttrComputeCapabilityMinor    Attribute = 76
	AttrMaxSharedMemoryPerSM      Attribute = 81
	AttrCooperativeLaunch         Attribute = 95
	AttrMaxSharedMemoryBlockOptin Attribute = 97
)

// Attribute returns one device attribute.
func (d Device) Attribute(a Attribute) (int, error) {
	var v int32
	if err := call("cuDeviceGetAttribute", uintptr(unsafe.Pointer(&v)), uintptr(a), uintptr(d)); err != nil {
		return 0, fmt.Errorf("attribute %d: %w", a, err)
	}
	return int(v), nil
}

// TotalMem returns the device's global memory in bytes.
func (d Device) TotalMem() (uint64, error) {
	var b uint64
	if err := call("cuDeviceTotalMem_v2", uintptr(unsafe.Pointer(&b)), uintptr(d)); err != nil {
		return 0, err
	}
	return b, nil
}

// Props are the properties of a device that benchmarks report.
type Props struct {
	Ordinal        int
	Name           string
	Major, Minor   int // compute capability
	SMs            int
	MemoryBytes    uint64
	ClockKHz       int // 0 when the driver no longer reports it
	MemoryClockKHz int // 0 when the driver no longer reports it
	MemoryBusBits  int
	L2Bytes        int
	MaxSharedOptin int // the most shared memory a block may opt in to
	Cooperative    bool
}

// ComputeCapability returns e.g. "9.0".
func (p Props) ComputeCapability() string { return fmt.Sprintf("%d.%d", p.Major, p.Minor) }

// DeviceProps queries the properties of the device with the given ordinal.
// Attributes a newer driver dropped (clock rates) are left zero.
func DeviceProps(ordinal int) (Props, error) {
	d, err := GetDevice(ordinal)
	if err != nil {
		return Props{}, err
	}
	p := Props{Ordinal: ordinal}
	if p.Name, err = d.Name(); err != nil {
		return p, err
	}
	if p.MemoryBytes, err = d.TotalMem(); err != nil {
		return p, err
	}
	required := []struct {
		a   Attribute
		dst *int
	}{
		{AttrComputeCapabilityMajor, &p.Major},
		{AttrComputeCapabilityMinor, &p.Minor},
		{AttrMultiprocessorCount, &p.SMs},
	}
	for _, r := range required {
		if *r.dst, err = d.Attribute(r.a); err != nil {
			return p, err
		}
	}
	optional := []struct {
		a   Attribute
		dst *int
	}{
		{AttrClockRate, &p.ClockKHz},
		{AttrMemoryClockRate, &p.MemoryClockKHz},
		{AttrGlobalMemoryBusWidth, &p.MemoryBusBits},
		{AttrL2CacheSize, &p.L2Bytes},
		{AttrMaxSharedMemoryBlockOptin, &p.MaxSharedOptin},
	}
	for _, o := range optional {
		if v, err := d.Attribute(o.a); err == nil {
			*o.dst = v
		}
	}
	if v, err := d.Attribute(AttrCooperativeLaunch); err == nil {
		p.Cooperative = v != 0
	}
	return p, nil
}
