//go:build !unix

package sysmem

// PeakRSS returns 0: this system gives no peak resident memory here.
func PeakRSS() uint64 { return 0 }
