package driver

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// ErrUnavailable is matched (errors.Is) by every error that means CUDA
// cannot be used on this machine: no libcuda.so.1, a driver that fails to
// initialise, or no device.
var ErrUnavailable = errors.New("CUDA unavailable")

// Result is a CUresult, the status code of a driver call.
type Result int32

// A few CUresult codes the package interprets.
const (
	Success             Result = 0
	ErrorInvalidValue   Result = 1
	ErrorOutOfMemory    Result = 2
	ErrorNotInitialized Result = 3
	ErrorDeinitialized  Result = 4
	ErrorStubLibrary    Result = 34
	ErrorInsufficient   Result = 35 // CUDA_ERROR_INSUFFICIENT_DRIVER
	ErrorDeviceUnavail  Result = 46 // CUDA_ERROR_DEVICE_UNAVAILABLE
	ErrorNoDevice       Result = 100
	ErrorInvalidDevice  Result = 101
	ErrorNotReady       Result = 600
	ErrorSystemNotReady Result = 802
	ErrorSystemMismatch Result = 803 // CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
	ErrorCompatNotSupp  Result = 804 // CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE
	ErrorUnknown        Result = 999
)

// knownNames covers the codes cuGetErrorName cannot be asked about (the
// library is missing) and is the fallback when it does not answer.
var knownNames = map[Result]string{
	0: "CUDA_SUCCESS", 1: "CUDA_ERROR_INVALID_VALUE", 2: "CUDA_ERROR_OUT_OF_MEMORY",
	3: "CUDA_ERROR_NOT_INITIALIZED", 4: "CUDA_ERROR_DEINITIALIZED", 34: "CUDA_ERROR_STUB_LIBRARY",
	35: "CUDA_ERROR_INSUFFICIENT_DRIVER", 46: "CUDA_ERROR_DEVICE_UNAVAILABLE",
	100: "CUDA_ERROR_NO_DEVICE", 101: "CUDA_ERROR_INVALID_DEVICE", 200: "CUDA_ERROR_INVALID_IMAGE",
	201: "CUDA_ERROR_INVALID_CONTEXT", 209: "CUDA_ERROR_NO_BINARY_FOR_GPU", 218: "CUDA_ERROR_INVALID_PTX",
	222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", 400: "CUDA_ERROR_INVALID_HANDLE", 500: "CUDA_ERROR_NOT_FOUND",
	600: "CUDA_ERROR_NOT_READY", 700: "CUDA_ERROR_ILLEGAL_ADDRESS", 701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
	702: "CUDA_ERROR_LAUNCH_TIMEOUT", 719: "CUDA_ERROR_LAUNCH_FAILED", 720: "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
	802: "CUDA_ERROR_SYSTEM_NOT_READY", 803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
	804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", 999: "CUDA_ERROR_UNKNOWN",
}

// Name returns the CUresult's symbolic name, asking the driver when it is
// loaded (cuGetErrorName), else from a built-in table.
func (r Result) Name() string {
	if fn := lookupLoaded("cuGetErrorName"); fn != 0 {
		var p *byte
		if rc, _, _ := purego.SyscallN(fn, uintptr(r), uintptr(unsafe.Pointer(&p))); rc == 0 && p != nil {
			return GoString(p)
		}
	}
	if s, ok := knownNames[r]; ok {
		return s
	}
	return "CUDA_ERROR_UNRECOGNIZED"
}

// unavailable reports whether a code means "no usable driver or device".
func (r Result) unavailable() bool {
	switch r {
	case ErrorNoDevice, ErrorInsufficient, ErrorStubLibrary, ErrorDeviceUnavail, ErrorSystemNotReady,
		ErrorSystemMismatch, ErrorCompatNotSupp, ErrorNotInitialized, ErrorDeinitialized:
		return true
	}
	return false
}

// Sticky reports whether a failure leaves its context unusable: every later
// call in that context fails too (an illegal address or instruction in a
// kernel, a launch failure or timeout), so the context must be destroyed.
func Sticky(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
	case 700, 702, 714, 715, 716, 717, 718, 719:
		return true
	}
	return false
}

// Error is a failed driver call.
type Error struct {
	Call string // the driver entry point, e.g. "cuMemAlloc_v2"
	Code Result
	// Detail is extra context, such as the JIT compiler's log.
	Detail string
	// Unavailable marks failures that mean CUDA cannot be used at all
	// (cuInit failing, no device); such errors match ErrUnavailable.
	Unavailable bool
}

// Error formats the failure as "call: CUDA_ERROR_NAME (code)", then the
// detail if any.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s (%d)", e.Call, e.Code.Name(), int32(e.Code))
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Is makes errors.Is(err, ErrUnavailable) true for failures that mean no
// usable driver or device.
func (e *Error) Is(target error) bool {
	return target == ErrUnavailable && (e.Unavailable || e.Code.unavailable())
}

// libNames are tried in order by dlopen.
var libNames = []string{"libcuda.so.1", "libcuda.so"}

var lib struct {
	once sync.Once
	err  error
	syms Symbols
}

// load opens libcuda and initialises the driver once; later calls return
// the first outcome.
func load() error {
	lib.once.Do(func() {
		h, _, err := OpenFirst(purego.RTLD_NOW|purego.RTLD_GLOBAL, libNames...)
		if err != nil {
			lib.err = loadFailure(err)
			return
		}
		lib.syms.Open(h)
		if err := call("cuInit", 0); err != nil {
			var de *Error
			if errors.As(err, &de) {
				de.Unavailable = true
			}
			lib.err = fmt.Errorf("%w: the CUDA driver did not initialise: %w", ErrUnavailable, err)
		}
	})
	return lib.err
}

// loadFailure is the error of a driver library that did not open: the
// sentinel once, then dlerror's text for each name tried (each names its
// library).
func loadFailure(err error) error {
	return fmt.Errorf("%w: cannot load the CUDA driver library: %w", ErrUnavailable, err)
}

// Init opens the driver library and calls cuInit once per process. It
// returns an error matching ErrUnavailable when CUDA cannot be used.
func Init() error { return load() }

// symbol resolves a driver entry point, caching the address.
func symbol(name string) (uintptr, error) {
	if !lib.syms.Loaded() {
		if err := load(); err != nil {
			return 0, err
		}
		if !lib.syms.Loaded() {
			return 0, fmt.Errorf("%w: CUDA driver library not loaded", ErrUnavailable)
		}
	}
	p := lib.syms.Lookup(name)
	if p == 0 {
		return 0, fmt.Errorf("the CUDA driver does not export %s", name)
	}
	return p, nil
}

// hasSymbol reports whether the loaded driver exports name.
func hasSymbol(name string) bool {
	_, err := symbol(name)
	return err == nil
}

// lookupLoaded returns a symbol only if the library is already open,
// without triggering a load.
func lookupLoaded(name string) uintptr {
	return lib.syms.Lookup(name)
}

// call invokes the named driver function and turns a non-zero CUresult into
// an *Error. Pointer arguments converted to uintptr in the caller's argument
// list are kept alive for the call (go:uintptrescapes).
//
//go:uintptrescapes
func call(name string, args ...uintptr) error {
	fn, err := symbol(name)
	if err != nil {
		return err
	}
	rc, _, _ := purego.SyscallN(fn, args...)
	if r := Result(int32(uint32(rc))); r != Success {
		return &Error{Call: name, Code: r}
	}
	return nil
}

// cString returns a NUL-terminated copy of s.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// cBytesString returns the text of a NUL-padded buffer.
func cBytesString(b []byte) string {
	if i := indexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
