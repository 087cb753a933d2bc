package driver

import (
	"fmt"
	"time"
	"unsafe"
)

// Stream is a CUstream. The zero Stream is the legacy default stream.
type Stream uintptr

// Stream creation flags.
const (
	StreamDefault     = 0x0
	StreamNonBlocking = 0x1
)

// StreamCreate creates a stream (cuStreamCreate).
func (t *Thread) StreamCreate(flags uint32) (Stream, error) {
	var s Stream
	if err := call("cuStreamCreate", uintptr(unsafe.Pointer(&s)), uintptr(flags)); err != nil {
		return 0, err
	}
	return s, nil
}

// StreamSynchronize waits for the stream's work (cuStreamSynchronize).
func (t *Thread) StreamSynchronize(s Stream) error {
	return call("cuStreamSynchronize", uintptr(s))
}

// StreamDestroy destroys a stream (cuStreamDestroy_v2).
func (t *Thread) StreamDestroy(s Stream) error {
	if s == 0 {
		return nil
	}
	return call("cuStreamDestroy_v2", uintptr(s))
}

// Event is a CUevent, used to time work on a stream.
type Event uintptr

// Event creation flags.
const (
	EventDefault       = 0x0
	EventBlockingSync  = 0x1
	EventDisableTiming = 0x2
)

// EventCreate creates an event (cuEventCreate).
func (t *Thread) EventCreate(flags uint32) (Event, error) {
	var e Event
	if err := call("cuEventCreate", uintptr(unsafe.Pointer(&e)), uintptr(flags)); err != nil {
		return 0, err
	}
	return e, nil
}

// EventRecord records e on stream s (cuEventRecord).
func (t *Thread) EventRecord(e Event, s Stream) error {
	return call("cuEventRecord", uintptr(e), uintptr(s))
}

// EventSynchronize waits until e has completed (cuEventSynchronize).
func (t *Thread) EventSynchronize(e Event) error {
	return call("cuEventSynchronize", uintptr(e))
}

// EventQuery reports whether e has completed (cuEventQuery).
func (t *Thread) EventQuery(e Event) (bool, error) {
	err := call("cuEventQuery", uintptr(e))
	if err == nil {
		return true, nil
	}
	if de, ok := err.(*Error); ok && de.Code == ErrorNotReady {
		return false, nil
	}
	return false, err
}

// EventElapsed returns the time between two completed events. It calls
// cuEventElapsedTime_v2 where the driver exports it (CUDA 12.8 and later),
// else cuEventElapsedTime.
func (t *Thread) EventElapsed(start, end Event) (time.Duration, error) {
	name := "cuEventElapsedTime_v2"
	if !hasSymbol(name) {
		name = "cuEventElapsedTime"
	}
	var ms float32
	if err := call(name, uintptr(unsafe.Pointer(&ms)), uintptr(start), uintptr(end)); err != nil {
		return 0, err
	}
	if ms < 0 {
		return 0, fmt.Errorf("%s: negative elapsed time %g ms", name, ms)
	}
	return time.Duration(float64(ms) * 1e6), nil
}

// EventDestroy destroys an event (cuEventDestroy_v2).
func (t *Thread) EventDestroy(e Event) error {
	if e == 0 {
		return nil
	}
	return call("cuEventDestroy_v2", uintptr(e))
}
