//go:build !unix

package sysmem

import "time"

// PeakRSS returns 0: this system gives no peak resident memory here.
func PeakRSS() uint64 { return 0 }

// CPUTime returns 0: this system gives no process CPU time here.
func CPUTime() time.Duration { return 0 }
