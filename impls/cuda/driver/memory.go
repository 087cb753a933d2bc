package driver

import (
	"fmt"
	"runtime"
	"unsafe"
)

// DevicePtr is a device memory address (CUdeviceptr).
type DevicePtr uint64

// Add returns p advanced by n bytes.
func (p DevicePtr) Add(n int64) DevicePtr { return DevicePtr(int64(p) + n) }

// MemAlloc allocates bytes of device memory (cuMemAlloc_v2).
func (t *Thread) MemAlloc(bytes int64) (DevicePtr, error) {
	if bytes <= 0 {
		return 0, fmt.Errorf("cuMemAlloc_v2: invalid size %d bytes", bytes)
	}
	var p DevicePtr
	if err := call("cuMemAlloc_v2", uintptr(unsafe.Pointer(&p)), uintptr(bytes)); err != nil {
		return 0, fmt.Errorf("allocating %d bytes on CUDA device %d: %w", bytes, t.ctx.ordinal, err)
	}
	return p, nil
}

// MemFree frees device memory (cuMemFree_v2). Freeing 0 does nothing.
func (t *Thread) MemFree(p DevicePtr) error {
	if p == 0 {
		return nil
	}
	return call("cuMemFree_v2", uintptr(p))
}

// MemsetD32 sets n 32-bit words at p to v (cuMemsetD32_v2, synchronous).
func (t *Thread) MemsetD32(p DevicePtr, v uint32, n int64) error {
	return call("cuMemsetD32_v2", uintptr(p), uintptr(v), uintptr(n))
}

// MemsetD32Async sets n 32-bit words at p to v on stream s.
func (t *Thread) MemsetD32Async(p DevicePtr, v uint32, n int64, s Stream) error {
	return call("cuMemsetD32Async", uintptr(p), uintptr(v), uintptr(n), uintptr(s))
}

// sliceBytes returns the address and byte size of a slice's elements.
func sliceBytes[T any](s []T) (unsafe.Pointer, int64) {
	if len(s) == 0 {
		return nil, 0
	}
	var z T
	return unsafe.Pointer(unsafe.SliceData(s)), int64(len(s)) * int64(unsafe.Sizeof(z))
}

// CopyToDevice copies a Go slice to device memory at dst (cuMemcpyHtoD_v2,
// synchronous). The slice is pinned for the call. The driver stages pageable
// memory itself; for speed, copy through a HostBuffer.
func CopyToDevice[T any](t *Thread, dst DevicePtr, src []T) error {
	p, n := sliceBytes(src)
	if n == 0 {
		return nil
	}
	var pin runtime.Pinner
	pin.Pin(p)
	defer pin.Unpin()
	return call("cuMemcpyHtoD_v2", uintptr(dst), uintptr(p), uintptr(n))
}

// CopyFromDevice copies device memory at src into a Go slice
// (cuMemcpyDtoH_v2, synchronous).
func CopyFromDevice[T any](t *Thread, dst []T, src DevicePtr) error {
	p, n := sliceBytes(dst)
	if n == 0 {
		return nil
	}
	var pin runtime.Pinner
	pin.Pin(p)
	defer pin.Unpin()
	return call("cuMemcpyDtoH_v2", uintptr(p), uintptr(src), uintptr(n))
}

// HostBuffer is page-locked host memory (cuMemHostAlloc), which the GPU's
// copy engines read and write directly, and which asynchronous copies
// require. It lives until FreeHost or the context's destruction.
type HostBuffer struct {
	ptr  unsafe.Pointer
	size int64
}

// Host allocation flags (CU_MEMHOSTALLOC_*).
const (
	HostAllocPortable      = 0x1
	HostAllocDeviceMap     = 0x2
	HostAllocWriteCombined = 0x4
)

// HostAlloc allocates bytes of page-locked host memory.
func (t *Thread) HostAlloc(bytes int64, flags uint32) (*HostBuffer, error) {
	if bytes <= 0 {
		return nil, fmt.Errorf("cuMemHostAlloc: invalid size %d bytes", bytes)
	}
	var p unsafe.Pointer
	if err := call("cuMemHostAlloc", uintptr(unsafe.Pointer(&p)), uintptr(bytes), uintptr(flags)); err != nil {
		return nil, fmt.Errorf("allocating %d bytes of page-locked host memory: %w", bytes, err)
	}
	return &HostBuffer{ptr: p, size: bytes}, nil
}

// FreeHost frees a page-locked buffer (cuMemFreeHost). A nil or already
// freed buffer is ignored.
func (t *Thread) FreeHost(b *HostBuffer) error {
	if b == nil || b.ptr == nil {
		return nil
	}
	err := call("cuMemFreeHost", uintptr(b.ptr))
	b.ptr, b.size = nil, 0
	return err
}

// Size returns the buffer's size in bytes.
func (b *HostBuffer) Size() int64 { return b.size }

// Bytes returns the buffer as a byte slice.
func (b *HostBuffer) Bytes() []byte {
	if b == nil || b.ptr == nil {
		return nil
	}
	return unsafe.Slice((*byte)(b.ptr), b.size)
}

// Float32s returns the buffer as a float32 slice.
func (b *HostBuffer) Float32s() []float32 {
	if b == nil || b.ptr == nil {
		return nil
	}
	return unsafe.Slice((*float32)(b.ptr), b.size/4)
}

// Int32s returns the buffer as an int32 slice.
func (b *HostBuffer) Int32s() []int32 {
	if b == nil || b.ptr == nil {
		return nil
	}
	return unsafe.Slice((*int32)(b.ptr), b.size/4)
}

// Int16s returns the buffer as an int16 slice.
func (b *HostBuffer) Int16s() []int16 {
	if b == nil || b.ptr == nil {
		return nil
	}
	return unsafe.Slice((*int16)(b.ptr), b.size/2)
}

// Uint64s returns the buffer as a uint64 slice.
func (b *HostBuffer) Uint64s() []uint64 {
	if b == nil || b.ptr == nil {
		return nil
	}
	return unsafe.Slice((*uint64)(b.ptr), b.size/8)
}

func (b *HostBuffer) check(off, n int64) error {
	if b == nil || b.ptr == nil {
		return fmt.Errorf("host buffer is freed")
	}
	if off < 0 || n < 0 || off+n > b.size {
		return fmt.Errorf("host buffer range [%d, %d) outside its %d bytes", off, off+n, b.size)
	}
	return nil
}

// CopyToDeviceAsync enqueues a copy of n bytes from the page-locked buffer at
// byte offset off to dst on stream s (cuMemcpyHtoDAsync_v2).
func (t *Thread) CopyToDeviceAsync(dst DevicePtr, src *HostBuffer, off, n int64, s Stream) error {
	if err := src.check(off, n); err != nil {
		return err
	}
	return call("cuMemcpyHtoDAsync_v2", uintptr(dst), uintptr(src.ptr)+uintptr(off), uintptr(n), uintptr(s))
}

// CopyFromDeviceAsync enqueues a copy of n bytes from src into the
// page-locked buffer at byte offset off on stream s (cuMemcpyDtoHAsync_v2).
func (t *Thread) CopyFromDeviceAsync(dst *HostBuffer, off int64, src DevicePtr, n int64, s Stream) error {
	if err := dst.check(off, n); err != nil {
		return err
	}
	return call("cuMemcpyDtoHAsync_v2", uintptr(dst.ptr)+uintptr(off), uintptr(src), uintptr(n), uintptr(s))
}

// CopyDeviceAsync enqueues a device-to-device copy of n bytes on stream s.
func (t *Thread) CopyDeviceAsync(dst, src DevicePtr, n int64, s Stream) error {
	return call("cuMemcpyDtoDAsync_v2", uintptr(dst), uintptr(src), uintptr(n), uintptr(s))
}

// Registered is Go memory page-locked in place (cuMemHostRegister_v2), so
// the copy engines read and write it directly, without a staging copy. It
// stays pinned for the garbage collector (runtime.Pinner) until Unregister.
type Registered struct {
	ptr  unsafe.Pointer
	size int64
	pin  runtime.Pinner
}

// Host registration flags (CU_MEMHOSTREGISTER_*).
const (
	HostRegisterPortable = 0x1
	HostRegisterReadOnly = 0x8
)

// Register page-locks the elements of a Go slice in place. Unregister must
// be called before the slice is dropped.
func Register[T any](t *Thread, s []T, flags uint32) (*Registered, error) {
	p, n := sliceBytes(s)
	if n == 0 {
		return nil, fmt.Errorf("cuMemHostRegister_v2: empty slice")
	}
	r := &Registered{ptr: p, size: n}
	r.pin.Pin(p)
	if err := call("cuMemHostRegister_v2", uintptr(p), uintptr(n), uintptr(flags)); err != nil {
		r.pin.Unpin()
		return nil, fmt.Errorf("page-locking %d bytes of host memory: %w", n, err)
	}
	return r, nil
}

// Unregister undoes Register (cuMemHostUnregister). A nil or already
// unregistered region is ignored.
func (t *Thread) Unregister(r *Registered) error {
	if r == nil || r.ptr == nil {
		return nil
	}
	err := call("cuMemHostUnregister", uintptr(r.ptr))
	r.pin.Unpin()
	r.ptr, r.size = nil, 0
	return err
}

func (r *Registered) check(off, n int64) error {
	if r == nil || r.ptr == nil {
		return fmt.Errorf("host region is not registered")
	}
	if off < 0 || n < 0 || off+n > r.size {
		return fmt.Errorf("host region range [%d, %d) outside its %d bytes", off, off+n, r.size)
	}
	return nil
}

// CopyRegisteredToDeviceAsync enqueues a copy of n bytes at byte offset off
// of a registered region to dst on stream s.
func (t *Thread) CopyRegisteredToDeviceAsync(dst DevicePtr, src *Registered, off, n int64, s Stream) error {
	if err := src.check(off, n); err != nil {
		return err
	}
	return call("cuMemcpyHtoDAsync_v2", uintptr(dst), uintptr(src.ptr)+uintptr(off), uintptr(n), uintptr(s))
}

// CopyDeviceToRegisteredAsync enqueues a copy of n bytes from src into a
// registered region at byte offset off on stream s.
func (t *Thread) CopyDeviceToRegisteredAsync(dst *Registered, off int64, src DevicePtr, n int64, s Stream) error {
	if err := dst.check(off, n); err != nil {
		return err
	}
	return call("cuMemcpyDtoHAsync_v2", uintptr(dst.ptr)+uintptr(off), uintptr(src), uintptr(n), uintptr(s))
}
