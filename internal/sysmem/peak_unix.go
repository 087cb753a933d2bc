//go:build unix

package sysmem

import (
	"runtime"
	"syscall"
)

// PeakRSS returns this process's peak resident memory in bytes, or 0.
func PeakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss <= 0 {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss) // bytes there
	}
	return uint64(ru.Maxrss) * 1024 // kilobytes on Linux and the BSDs
}
