package driver

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// Module is a loaded CUmodule.
type Module uintptr

// Function is a kernel entry point (CUfunction).
type Function uintptr

// JIT options (CUjit_option) passed by ModuleLoadData.
const (
	jitInfoLogBuffer       = 3
	jitInfoLogBufferSize   = 4
	jitErrorLogBuffer      = 5
	jitErrorLogBufferSize  = 6
	jitLogVerbose          = 12
	moduleLoadLogBufferLen = 1 << 16
)

// ModuleLoadData loads a module from a cubin, fatbin or NUL-terminated PTX
// image (cuModuleLoadDataEx). PTX is compiled by the driver's JIT for the
// context's device; on failure the error carries the JIT's error log. The
// info log is returned on success (it may be empty).
func (t *Thread) ModuleLoadData(image []byte) (Module, string, error) {
	if len(image) == 0 {
		return 0, "", fmt.Errorf("cuModuleLoadDataEx: empty module image")
	}
	infoLog := make([]byte, moduleLoadLogBufferLen)
	errLog := make([]byte, moduleLoadLogBufferLen)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&image[0])
	pin.Pin(&infoLog[0])
	pin.Pin(&errLog[0])
	opts := []int32{jitInfoLogBuffer, jitInfoLogBufferSize, jitErrorLogBuffer, jitErrorLogBufferSize}
	vals := []uintptr{
		uintptr(unsafe.Pointer(&infoLog[0])), uintptr(len(infoLog)),
		uintptr(unsafe.Pointer(&errLog[0])), uintptr(len(errLog)),
	}
	var m Module
	err := call("cuModuleLoadDataEx", uintptr(unsafe.Pointer(&m)), uintptr(unsafe.Pointer(&image[0])),
		uintptr(len(opts)), uintptr(unsafe.Pointer(&opts[0])), uintptr(unsafe.Pointer(&vals[0])))
	runtime.KeepAlive(image)
	if err != nil {
		if de, ok := err.(*Error); ok {
			de.Detail = cBytesString(errLog)
		}
		return 0, cBytesString(infoLog), err
	}
	return m, cBytesString(infoLog), nil
}

// ModuleUnload unloads a module (cuModuleUnload).
func (t *Thread) ModuleUnload(m Module) error {
	if m == 0 {
		return nil
	}
	return call("cuModuleUnload", uintptr(m))
}

// Function returns the kernel of the given (extern "C") name.
func (t *Thread) Function(m Module, name string) (Function, error) {
	var f Function
	cname := cString(name)
	if err := call("cuModuleGetFunction", uintptr(unsafe.Pointer(&f)), uintptr(m), uintptr(unsafe.Pointer(&cname[0]))); err != nil {
		return 0, fmt.Errorf("kernel %s: %w", name, err)
	}
	return f, nil
}

// FuncAttribute is a CUfunction_attribute.
type FuncAttribute int32

// Function attributes used by this module.
const (
	FuncMaxThreadsPerBlock      FuncAttribute = 0
	FuncSharedSizeBytes         FuncAttribute = 1
	FuncNumRegs                 FuncAttribute = 4
	FuncLocalSizeBytes          FuncAttribute = 3
	FuncMaxDynamicSharedSize    FuncAttribute = 8
	FuncPreferredSharedCarveout FuncAttribute = 9
)

// FuncGetAttribute reads a kernel attribute (cuFuncGetAttribute).
func (t *Thread) FuncGetAttribute(f Function, a FuncAttribute) (int, error) {
	var v int32
	if err := call("cuFuncGetAttribute", uintptr(unsafe.Pointer(&v)), uintptr(a), uintptr(f)); err != nil {
		return 0, err
	}
	return int(v), nil
}

// FuncSetAttribute sets a kernel attribute (cuFuncSetAttribute), e.g. the
// dynamic shared memory a launch may use beyond 48 KiB.
func (t *Thread) FuncSetAttribute(f Function, a FuncAttribute, v int) error {
	return call("cuFuncSetAttribute", uintptr(f), uintptr(a), uintptr(v))
}

// Dim3 is a grid or block shape.
type Dim3 struct{ X, Y, Z uint32 }

// D1 returns the one-dimensional shape x.
func D1(x int) Dim3 { return Dim3{uint32(x), 1, 1} }

// D2 returns the two-dimensional shape x by y.
func D2(x, y int) Dim3 { return Dim3{uint32(x), uint32(y), 1} }

// D3 returns the shape x by y by z.
func D3(x, y, z int) Dim3 { return Dim3{uint32(x), uint32(y), uint32(z)} }

func (d Dim3) valid() bool { return d.X > 0 && d.Y > 0 && d.Z > 0 }

// Args are marshalled kernel parameters: each value lives in an 8-byte slot
// of one pinned Go array, and the parameter array handed to the driver
// points at the slots.
type Args struct {
	slots []uint64
	ptrs  []unsafe.Pointer
	pin   runtime.Pinner
}

// packArgs stores the kernel arguments. Supported types: DevicePtr, int,
// int32, uint32, int64, uint64, float32, float64, bool (as a 4-byte int).
// Each value is stored in the low bytes of its slot (little-endian), as the
// kernel's parameter of that size reads it.
func packArgs(args []any) (*Args, error) {
	a := &Args{slots: make([]uint64, max(len(args), 1))}
	for i, v := range args {
		var s uint64
		switch x := v.(type) {
		case DevicePtr:
			s = uint64(x)
		case int:
			if x < math.MinInt32 || x > math.MaxInt32 {
				return nil, fmt.Errorf("kernel argument %d: int %d does not fit a 32-bit int parameter (pass int64)", i, x)
			}
			s = uint64(uint32(int32(x)))
		case int32:
			s = uint64(uint32(x))
		case uint32:
			s = uint64(x)
		case int64:
			s = uint64(x)
		case uint64:
			s = x
		case float32:
			s = uint64(math.Float32bits(x))
		case float64:
			s = math.Float64bits(x)
		case bool:
			if x {
				s = 1
			}
		default:
			return nil, fmt.Errorf("kernel argument %d: unsupported type %T", i, v)
		}
		a.slots[i] = s
	}
	a.pin.Pin(&a.slots[0])
	a.ptrs = make([]unsafe.Pointer, max(len(args), 1))
	for i := range args {
		a.ptrs[i] = unsafe.Pointer(&a.slots[i])
	}
	a.pin.Pin(&a.ptrs[0])
	return a, nil
}

func (a *Args) release() { a.pin.Unpin() }

// Launch enqueues a kernel on stream s (cuLaunchKernel) with the given grid,
// block, dynamic shared memory and arguments (see packArgs for the types).
func (t *Thread) Launch(f Function, grid, block Dim3, shared int, s Stream, args ...any) error {
	return t.launch("cuLaunchKernel", f, grid, block, shared, s, args)
}

// LaunchCooperative enqueues a cooperative kernel, whose blocks may
// synchronise grid-wide (cuLaunchCooperativeKernel). The grid must fit the
// device at once.
func (t *Thread) LaunchCooperative(f Function, grid, block Dim3, shared int, s Stream, args ...any) error {
	return t.launch("cuLaunchCooperativeKernel", f, grid, block, shared, s, args)
}

func (t *Thread) launch(name string, f Function, grid, block Dim3, shared int, s Stream, args []any) error {
	if f == 0 {
		return fmt.Errorf("%s: nil kernel", name)
	}
	if !grid.valid() || !block.valid() {
		return fmt.Errorf("%s: empty grid %v or block %v", name, grid, block)
	}
	a, err := packArgs(args)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer a.release()
	params := uintptr(unsafe.Pointer(&a.ptrs[0]))
	if name == "cuLaunchCooperativeKernel" {
		err = call(name, uintptr(f), uintptr(grid.X), uintptr(grid.Y), uintptr(grid.Z),
			uintptr(block.X), uintptr(block.Y), uintptr(block.Z), uintptr(shared), uintptr(s), params)
	} else {
		err = call(name, uintptr(f), uintptr(grid.X), uintptr(grid.Y), uintptr(grid.Z),
			uintptr(block.X), uintptr(block.Y), uintptr(block.Z), uintptr(shared), uintptr(s), params, 0)
	}
	runtime.KeepAlive(a)
	return err
}
