// Package nvrtc binds NVIDIA's run-time compiler (libnvrtc) with purego, so
// CUDA C++ kernels can be compiled for the exact device at run time without
// a toolkit at build time. The library is searched for lazily (see
// Candidates) and opened once per process.
package nvrtc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/semibench/semibench/impls/cuda/driver"
)

// ErrNotFound is matched (errors.Is) when no NVRTC library could be loaded.
var ErrNotFound = errors.New("NVRTC not found")

// Error is a failed NVRTC call.
type Error struct {
	Call string // e.g. "nvrtcCompileProgram"
	Code int    // nvrtcResult
	Name string // nvrtcGetErrorString's text, e.g. "NVRTC_ERROR_COMPILATION"
	Log  string // the compiler's log, for compilation failures
}

// Error formats the failure as "call: NVRTC_ERROR_NAME (code)", then the
// compiler's log on the following lines.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s (%d)", e.Call, e.Name, e.Code)
	if e.Log != "" {
		s += "\n" + e.Log
	}
	return s
}

var lib struct {
	once    sync.Once
	path    string
	err     error
	major   int
	minor   int
	syms    driver.Symbols
	tried   []string
	reasons []string // dlerror's text for candidates that exist but did not load
	version string
}

// Candidates lists, in search order, the names and paths tried for libnvrtc:
// the sonames of CUDA 13, 12 and 11.2+ (found through the loader's path),
// then $CUDA_HOME/lib64 and $CUDA_PATH/lib64, /usr/local/cuda/lib64, and the
// NVIDIA wheels in Python's site-packages (nvidia/cu13/lib and
// nvidia/cuda_nvrtc/lib).
func Candidates() []string {
	names := []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"}
	var out []string
	out = append(out, names...)
	var dirs []string
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if v := os.Getenv(env); v != "" {
			dirs = append(dirs, filepath.Join(v, "lib64"), filepath.Join(v, "lib"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/lib64")
	for _, sp := range sitePackages() {
		dirs = append(dirs, filepath.Join(sp, "nvidia", "cu13", "lib"), filepath.Join(sp, "nvidia", "cuda_nvrtc", "lib"))
	}
	for _, d := range dirs {
		for _, n := range names {
			out = append(out, filepath.Join(d, n))
		}
	}
	return out
}

// sitePackages guesses Python site-packages folders without running Python:
// the usual system, user and virtual-environment locations.
func sitePackages() []string {
	var pats []string
	if v := os.Getenv("VIRTUAL_ENV"); v != "" {
		pats = append(pats, filepath.Join(v, "lib", "python3*", "site-packages"))
	}
	if h, err := os.UserHomeDir(); err == nil {
		pats = append(pats, filepath.Join(h, ".local", "lib", "python3*", "site-packages"))
	}
	pats = append(pats,
		"/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
		"/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages",
		"/opt/*/.venv/lib/python3*/site-packages", "/opt/conda/lib/python3*/site-packages")
	var out []string
	for _, p := range pats {
		m, _ := filepath.Glob(p)
		sort.Sort(sort.Reverse(sort.StringSlice(m)))
		out = append(out, m...)
	}
	return out
}

// pythonSitePackages asks python3 for its site-packages folders; used only
// when no other candidate loads.
func pythonSitePackages() []string {
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil
	}
	out, err := exec.Command(py, "-c", "import site,sys; print('\\n'.join(site.getsitepackages()+[site.getusersitepackages()]))").Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

// open dlopens one candidate, reading dlerror on the same OS thread
// (driver.Dlopen).
func open(path string) (uintptr, error) {
	return driver.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
}

// notFound is the error when no candidate loads: the names tried, then, for
// each candidate that failed for another reason than being absent (a file
// that exists but does not load: a wrong architecture, a missing
// dependency), dlerror's text, which names the file.
func notFound(tried, reasons []string) error {
	s := "tried " + strings.Join(tried, ", ")
	if len(reasons) > 0 {
		s += "; " + strings.Join(reasons, "; ")
	}
	return fmt.Errorf("%w: %s", ErrNotFound, s)
}

// absent reports whether a dlerror text says only that the file is not there.
func absent(reason string) bool {
	return strings.Contains(reason, "cannot open shared object file: No such file or directory")
}

func load() error {
	lib.once.Do(func() {
		try := func(cands []string) bool {
			for _, c := range cands {
				if slices.Contains(lib.tried, c) {
					continue
				}
				if strings.Contains(c, "/") {
					if _, err := os.Stat(c); err != nil {
						continue
					}
				}
				lib.tried = append(lib.tried, c)
				h, err := open(c)
				if err == nil {
					lib.syms.Open(h)
					lib.path = c
					return true
				}
				if !absent(err.Error()) {
					lib.reasons = append(lib.reasons, err.Error())
				}
			}
			return false
		}
		if !try(Candidates()) {
			var more []string
			for _, sp := range pythonSitePackages() {
				for _, n := range []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"} {
					more = append(more, filepath.Join(sp, "nvidia", "cu13", "lib", n), filepath.Join(sp, "nvidia", "cuda_nvrtc", "lib", n))
				}
			}
			if !try(more) {
				lib.err = notFound(lib.tried, lib.reasons)
				return
			}
		}
		var major, minor int32
		if err := call("nvrtcVersion", uintptr(unsafe.Pointer(&major)), uintptr(unsafe.Pointer(&minor))); err != nil {
			lib.err = fmt.Errorf("%s: %w", lib.path, err)
			return
		}
		lib.major, lib.minor = int(major), int(minor)
		lib.version = fmt.Sprintf("%d.%d", major, minor)
	})
	return lib.err
}

// Load finds and opens libnvrtc once; it returns an error matching
// ErrNotFound when there is none.
func Load() error { return load() }

// Version returns NVRTC's version, e.g. "12.8".
func Version() (string, error) {
	if err := load(); err != nil {
		return "", err
	}
	return lib.version, nil
}

// VersionNumbers returns NVRTC's major and minor version.
func VersionNumbers() (major, minor int, err error) {
	if err := load(); err != nil {
		return 0, 0, err
	}
	return lib.major, lib.minor, nil
}

// Path returns the library that was loaded.
func Path() string { return lib.path }

func symbol(name string) (uintptr, error) {
	p := lib.syms.Lookup(name)
	if p == 0 {
		return 0, fmt.Errorf("%s does not export %s", lib.path, name)
	}
	return p, nil
}

//go:uintptrescapes
func call(name string, args ...uintptr) error {
	fn, err := symbol(name)
	if err != nil {
		return err
	}
	rc, _, _ := purego.SyscallN(fn, args...)
	if code := int(int32(uint32(rc))); code != 0 {
		return &Error{Call: name, Code: code, Name: errorString(code)}
	}
	return nil
}

func errorString(code int) string {
	fn, err := symbol("nvrtcGetErrorString")
	if err != nil {
		return "NVRTC_ERROR"
	}
	r, _, _ := purego.SyscallN(fn, uintptr(code))
	if r == 0 {
		return "NVRTC_ERROR"
	}
	// r is the address of a static C string; reinterpret it without a
	// uintptr-to-pointer conversion.
	return driver.GoString(*(**byte)(unsafe.Pointer(&r)))
}

// SupportedArchs returns the SM architectures this NVRTC can target (e.g.
// 70, 75, 80, 86, 89, 90), or nil when it cannot say (before 11.2).
func SupportedArchs() ([]int, error) {
	if err := load(); err != nil {
		return nil, err
	}
	if _, err := symbol("nvrtcGetNumSupportedArchs"); err != nil {
		return nil, nil
	}
	var n int32
	if err := call("nvrtcGetNumSupportedArchs", uintptr(unsafe.Pointer(&n))); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	archs := make([]int32, n)
	if err := call("nvrtcGetSupportedArchs", uintptr(unsafe.Pointer(&archs[0]))); err != nil {
		return nil, err
	}
	out := make([]int, n)
	for i, a := range archs {
		out[i] = int(a)
	}
	return out, nil
}

// Output is the result of a compilation.
type Output struct {
	// Code is a cubin (when the target was a real sm_XX architecture and
	// this NVRTC can emit cubins) or NUL-terminated PTX.
	Code  []byte
	Cubin bool
	Log   string // the compiler's log (warnings), possibly empty
}

// Header is a header handed to NVRTC with a program: an `#include "Name"`
// in the program (or in another header) resolves to Code.
type Header struct {
	Name string // as written in the #include, e.g. "semiring.cuh"
	Code string
}

// Compile compiles CUDA C++ source named name with the given headers and
// options (e.g. "--gpu-architecture=sm_90a", "-std=c++17"). With a real
// architecture (sm_XX) it returns a cubin where NVRTC supports it (11.1+),
// else PTX. A compilation error is an *Error whose Log holds the compiler's
// messages.
func Compile(src, name string, headers []Header, opts []string) (*Output, error) {
	if err := load(); err != nil {
		return nil, err
	}
	// The header and option arrays hold pointers to Go memory: pin every
	// string they point to.
	var pin runtime.Pinner
	defer pin.Unpin()
	csrc, cname := cstr(src), cstr(name)
	hcode := make([]uintptr, max(len(headers), 1))
	hname := make([]uintptr, max(len(headers), 1))
	hkeep := make([][]byte, 0, 2*len(headers))
	for i, h := range headers {
		c, n := cstr(h.Code), cstr(h.Name)
		hkeep = append(hkeep, c, n)
		pin.Pin(&c[0])
		pin.Pin(&n[0])
		hcode[i] = uintptr(unsafe.Pointer(&c[0]))
		hname[i] = uintptr(unsafe.Pointer(&n[0]))
	}
	var hcodeP, hnameP *uintptr // NULL when there are no headers
	if len(headers) > 0 {
		hcodeP, hnameP = &hcode[0], &hname[0]
	}
	var prog uintptr
	err := call("nvrtcCreateProgram", uintptr(unsafe.Pointer(&prog)), uintptr(unsafe.Pointer(&csrc[0])),
		uintptr(unsafe.Pointer(&cname[0])), uintptr(len(headers)), uintptr(unsafe.Pointer(hcodeP)),
		uintptr(unsafe.Pointer(hnameP)))
	runtime.KeepAlive(hkeep)
	if err != nil {
		return nil, err
	}
	defer func() { _ = call("nvrtcDestroyProgram", uintptr(unsafe.Pointer(&prog))) }()

	copts := make([]uintptr, max(len(opts), 1))
	keep := make([][]byte, len(opts))
	for i, o := range opts {
		keep[i] = cstr(o)
		pin.Pin(&keep[i][0])
		copts[i] = uintptr(unsafe.Pointer(&keep[i][0]))
	}
	cerr := call("nvrtcCompileProgram", prog, uintptr(len(opts)), uintptr(unsafe.Pointer(&copts[0])))
	runtime.KeepAlive(keep)
	log := programLog(prog)
	if cerr != nil {
		var e *Error
		if errors.As(cerr, &e) {
			e.Log = log
		}
		return nil, cerr
	}
	out := &Output{Log: log}
	wantCubin := false
	for _, o := range opts {
		if a, ok := strings.CutPrefix(o, "--gpu-architecture="); ok && strings.HasPrefix(a, "sm_") {
			wantCubin = true
		}
		if a, ok := strings.CutPrefix(o, "-arch="); ok && strings.HasPrefix(a, "sm_") {
			wantCubin = true
		}
	}
	if _, err := symbol("nvrtcGetCUBINSize"); wantCubin && err == nil {
		var n uintptr
		if err := call("nvrtcGetCUBINSize", prog, uintptr(unsafe.Pointer(&n))); err != nil {
			return nil, err
		}
		if n > 0 {
			out.Code = make([]byte, n)
			if err := call("nvrtcGetCUBIN", prog, uintptr(unsafe.Pointer(&out.Code[0]))); err != nil {
				return nil, err
			}
			out.Cubin = true
			return out, nil
		}
	}
	var n uintptr
	if err := call("nvrtcGetPTXSize", prog, uintptr(unsafe.Pointer(&n))); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("nvrtcGetPTXSize: NVRTC produced no PTX for %s", name)
	}
	out.Code = make([]byte, n)
	if err := call("nvrtcGetPTX", prog, uintptr(unsafe.Pointer(&out.Code[0]))); err != nil {
		return nil, err
	}
	return out, nil
}

func programLog(prog uintptr) string {
	var n uintptr
	if err := call("nvrtcGetProgramLogSize", prog, uintptr(unsafe.Pointer(&n))); err != nil || n <= 1 {
		return ""
	}
	b := make([]byte, n)
	if err := call("nvrtcGetProgramLog", prog, uintptr(unsafe.Pointer(&b[0]))); err != nil {
		return ""
	}
	return strings.TrimRight(string(b), "\x00\n ")
}

func cstr(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}
