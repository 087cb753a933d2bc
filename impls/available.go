package impls

import (
	"fmt"
	"strings"
	"sync"

	"github.com/semibench/semibench/impls/cuda/driver"
)

// ErrUnavailable is matched (errors.Is) by the error of a CUDA
// implementation, or of Available, on a machine without a CUDA driver or
// device: the driver's own sentinel, so that code above impls need not
// import the driver.
var ErrUnavailable = driver.ErrUnavailable

// devices counts the CUDA devices once per process.
var devices = sync.OnceValues(driver.DeviceCount)

// Devices is the number of CUDA devices on this machine, counted once per
// process; the error matches ErrUnavailable when there is no driver.
func Devices() (int, error) { return devices() }

// Available reports whether the implementation named impl can run on this
// machine: a CUDA one ("cuda/...") needs a driver and a device, and the
// error then names impl and matches ErrUnavailable ("cuda/fast: CUDA
// unavailable: cannot load the CUDA driver library: ..."). Every other
// implementation runs everywhere.
func Available(impl string) error {
	if !strings.HasPrefix(impl, "cuda/") {
		return nil
	}
	n, err := devices()
	if err != nil {
		return fmt.Errorf("%s: %w", impl, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w: no CUDA device", impl, ErrUnavailable)
	}
	return nil
}
