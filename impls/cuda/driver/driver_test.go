package driver

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"unsafe"
)

func TestErrorFormat(t *testing.T) {
	e := &Error{Call: "cuMemAlloc_v2", Code: ErrorOutOfMemory}
	if got, want := e.Error(), "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	wrapped := fmt.Errorf("allocating W: %w", e)
	if errors.Is(wrapped, ErrUnavailable) {
		t.Error("out of memory must not match ErrUnavailable")
	}
	var de *Error
	if !errors.As(wrapped, &de) || de.Code != ErrorOutOfMemory {
		t.Error("errors.As lost the driver error")
	}
	if !errors.Is(&Error{Call: "cuInit", Code: ErrorNoDevice}, ErrUnavailable) {
		t.Error("CUDA_ERROR_NO_DEVICE must match ErrUnavailable")
	}
	if !errors.Is(&Error{Call: "cuInit", Code: ErrorUnknown, Unavailable: true}, ErrUnavailable) {
		t.Error("an error marked Unavailable must match ErrUnavailable")
	}
	if got := Result(123456).Name(); got != "CUDA_ERROR_UNRECOGNIZED" {
		t.Errorf("unknown code name = %q", got)
	}
}

func TestPackArgs(t *testing.T) {
	a, err := packArgs([]any{DevicePtr(0xdeadbeef00), 7, int32(-2), uint32(3), int64(-5), uint64(9), float32(1.5), float64(-2.25), true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.release()
	if len(a.ptrs) != 9 {
		t.Fatalf("%d parameter pointers, want 9", len(a.ptrs))
	}
	for i := range a.ptrs {
		if a.ptrs[i] != unsafe.Pointer(&a.slots[i]) {
			t.Errorf("parameter %d does not point at its slot", i)
		}
	}
	if *(*uint64)(a.ptrs[0]) != 0xdeadbeef00 {
		t.Error("device pointer")
	}
	if *(*int32)(a.ptrs[1]) != 7 || *(*int32)(a.ptrs[2]) != -2 || *(*uint32)(a.ptrs[3]) != 3 {
		t.Error("32-bit integers")
	}
	if *(*int64)(a.ptrs[4]) != -5 || *(*uint64)(a.ptrs[5]) != 9 {
		t.Error("64-bit integers")
	}
	if *(*float32)(a.ptrs[6]) != 1.5 || *(*float64)(a.ptrs[7]) != -2.25 {
		t.Error("floats")
	}
	if *(*int32)(a.ptrs[8]) != 1 {
		t.Error("bool")
	}
	if _, err := packArgs([]any{"x"}); err == nil {
		t.Error("a string argument must be refused")
	}
	if _, err := packArgs([]any{math.MaxInt32 + 1}); err == nil {
		t.Error("an int beyond 32 bits must be refused")
	}
	if a, err := packArgs(nil); err != nil || len(a.ptrs) != 1 {
		t.Errorf("no arguments: %v", err)
	} else {
		a.release()
	}
}

func TestVersionString(t *testing.T) {
	for v, want := range map[int]string{13000: "13.0", 12080: "12.8", 11020: "11.2"} {
		if got := VersionString(v); got != want {
			t.Errorf("VersionString(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestUnavailableHere checks that a machine without a GPU gets errors that
// match ErrUnavailable, never a panic; on a machine with a GPU it checks the
// device properties instead.
func TestInitOrUnavailable(t *testing.T) {
	n, err := DeviceCount()
	if err != nil {
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("DeviceCount error does not match ErrUnavailable: %v", err)
		}
		if _, err := NewContext(0, CtxSchedAuto); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("NewContext without a device: %v", err)
		}
		t.Logf("CUDA unavailable here: %v", err)
		return
	}
	for i := range n {
		p, err := DeviceProps(i)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name == "" || p.Major == 0 || p.SMs == 0 || p.MemoryBytes == 0 {
			t.Errorf("device %d: incomplete properties %+v", i, p)
		}
		t.Logf("device %d: %+v", i, p)
	}
}

func TestSticky(t *testing.T) {
	if !Sticky(fmt.Errorf("update_w: %w", &Error{Call: "cuEventSynchronize", Code: 700})) {
		t.Error("an illegal address is sticky")
	}
	if Sticky(&Error{Call: "cuMemAlloc_v2", Code: ErrorOutOfMemory}) || Sticky(errors.New("x")) || Sticky(nil) {
		t.Error("out of memory, other errors and nil are not sticky")
	}
}
