package nvml

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/semibench/semibench/impls/cuda/driver"
)

// libNames are tried in order by dlopen.
var libNames = []string{"libnvidia-ml.so.1", "libnvidia-ml.so"}

// NVML return codes the package interprets (nvmlReturn_t).
const (
	success          = 0
	errNotSupported  = 3
	errNoPermission  = 4
	errFunctionGone  = 13 // NVML_ERROR_FUNCTION_NOT_FOUND
	errDriverMissing = 9  // NVML_ERROR_DRIVER_NOT_LOADED
)

// Error is a failed NVML call.
type Error struct {
	Call string // e.g. "nvmlDeviceGetPowerUsage"
	Code int    // nvmlReturn_t
	Text string // nvmlErrorString's text
}

// Error formats the failure as "call: text (code)".
func (e *Error) Error() string { return fmt.Sprintf("%s: %s (%d)", e.Call, e.Text, e.Code) }

// unsupported reports whether err says the GPU or driver does not offer a
// query (not supported, not permitted, or an entry point this driver lacks):
// the value is then absent, not failed.
func unsupported(err error) bool {
	var e *Error
	if errors.As(err, &e) {
		return e.Code == errNotSupported || e.Code == errNoPermission || e.Code == errFunctionGone
	}
	return errors.Is(err, errNoSymbol)
}

// errNoSymbol is matched by a call to an entry point the library lacks.
var errNoSymbol = errors.New("not exported by this NVML")

var lib struct {
	once sync.Once
	err  error
	syms driver.Symbols
}

// load opens libnvidia-ml and calls nvmlInit_v2 once per process; later
// calls return the first outcome. NVML is never shut down: the process
// reads it until it exits.
func load() error {
	lib.once.Do(func() {
		h, name, err := driver.OpenFirst(purego.RTLD_NOW|purego.RTLD_LOCAL, libNames...)
		if err != nil {
			lib.err = fmt.Errorf("cannot load NVML: %w", err)
			return
		}
		lib.syms.Open(h)
		init := "nvmlInit_v2"
		if _, err := symbol(init); err != nil {
			init = "nvmlInit"
		}
		if err := call(init); err != nil {
			lib.err = fmt.Errorf("NVML (%s) did not initialise: %w", name, err)
		}
	})
	return lib.err
}

// symbol resolves an NVML entry point, caching the address.
func symbol(name string) (uintptr, error) {
	p := lib.syms.Lookup(name)
	if p == 0 {
		return 0, fmt.Errorf("%s: %w", name, errNoSymbol)
	}
	return p, nil
}

// call invokes an NVML function and turns a non-zero nvmlReturn_t into an
// *Error. Pointers converted to uintptr in the caller's argument list stay
// alive for the call (go:uintptrescapes).
//
//go:uintptrescapes
func call(name string, args ...uintptr) error {
	fn, err := symbol(name)
	if err != nil {
		return err
	}
	rc, _, _ := purego.SyscallN(fn, args...)
	if code := int(int32(uint32(rc))); code != success {
		return &Error{Call: name, Code: code, Text: errorString(code)}
	}
	return nil
}

// errorString asks nvmlErrorString for a code's text.
func errorString(code int) string {
	fn, err := symbol("nvmlErrorString")
	if err != nil {
		return "NVML error"
	}
	r, _, _ := purego.SyscallN(fn, uintptr(code))
	if r == 0 {
		return "NVML error"
	}
	// r is the address of a static C string; read it without a
	// uintptr-to-pointer conversion.
	return driver.GoString(*(**byte)(unsafe.Pointer(&r)))
}

// cString returns a NUL-terminated copy of s.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}
