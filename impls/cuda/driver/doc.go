// Package driver binds the CUDA driver API (libcuda.so.1) at run time with
// purego: no cgo and no CUDA toolkit are needed to build it, and a binary
// that links it runs on machines without a GPU.
//
// The library is opened lazily, by the first call that needs it (never at
// package initialisation). Every function that cannot reach a working driver
// or device returns an error that matches ErrUnavailable under errors.Is;
// every failing driver call returns an *Error naming the call and its
// CUresult, e.g. "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2)".
//
// The versioned entry points (cuCtxCreate_v2, cuMemAlloc_v2, ...) are called
// by name, as the CUDA headers would map them, so the binding works with
// every driver since CUDA 4, CUDA 13 included.
//
// A CUDA context is current per OS thread. A Context therefore owns one
// goroutine locked to its OS thread; Context.Do runs a closure on it, handing
// it a *Thread whose methods call the driver directly. Callers on any
// goroutine may share a Context. Go memory handed to the driver is pinned
// (runtime.Pinner) for the duration of the call.
package driver
