// Package cuda is semibench's GPU backend, host side: it probes the machine
// (Probe), opens devices once per process and keeps their contexts, kernel
// modules, streams and buffers (Open), loads the kernels of package kernels
// (compiled by NVRTC for the exact device and cached on disk, or the
// embedded fallback PTX), moves data through page-locked staging buffers,
// and plans device memory and multi-GPU splits with pure functions that are
// tested without a GPU.
//
// The driver binding itself is package driver (purego, no cgo): a binary
// that links this package runs everywhere, and where there is no driver or
// no device every entry point returns an error matching
// driver.ErrUnavailable.
package cuda
