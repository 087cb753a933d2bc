package driver

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Dlopen opens a shared library as purego.Dlopen does, but with the calling
// goroutine locked to its OS thread from dlopen to dlerror. dlerror's text is
// per thread: read on another thread (a goroutine may move between the two
// calls) it is empty or another call's, which is how "libcuda.so.1 (; ..."
// came to be printed. The error names the library and carries dlerror's text.
func Dlopen(name string, mode int) (uintptr, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	h, err := purego.Dlopen(name, mode)
	if err == nil {
		return h, nil
	}
	msg := strings.TrimSpace(err.Error())
	switch {
	case msg == "":
		msg = name + ": dlopen failed and dlerror gave no reason"
	case !strings.Contains(msg, name):
		msg = name + ": " + msg
	}
	return 0, &LoadError{Name: name, Reason: msg}
}

// LoadError is a library that dlopen could not open.
type LoadError struct {
	Name   string // the name or path passed to dlopen
	Reason string // dlerror's text, which names the library
}

// Error returns dlerror's text, e.g. "libcuda.so.1: cannot open shared
// object file: No such file or directory".
func (e *LoadError) Error() string { return e.Reason }

// OpenFirst opens the first of names that dlopen accepts, returning its
// handle and name. When none loads, the error lists each name's reason,
// separated by "; ".
func OpenFirst(mode int, names ...string) (uintptr, string, error) {
	var reasons []string
	for _, name := range names {
		h, err := Dlopen(name, mode)
		if err == nil {
			return h, name, nil
		}
		reasons = append(reasons, err.Error())
	}
	if len(reasons) == 0 {
		return 0, "", errors.New("no library name to open")
	}
	return 0, "", errors.New(strings.Join(reasons, "; "))
}

// Symbols caches the entry points of one opened library by name: dlsym
// runs once per name, an absent one included. The zero Symbols holds no
// library; Open sets the handle.
type Symbols struct {
	mu     sync.Mutex
	handle uintptr
	addr   map[string]uintptr
}

// Open makes s look its names up in the library of handle h.
func (s *Symbols) Open(h uintptr) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handle, s.addr = h, map[string]uintptr{}
}

// Loaded reports whether Open has given s a library.
func (s *Symbols) Loaded() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handle != 0
}

// Lookup returns name's address, or 0 when the library does not export it
// (or none is open).
func (s *Symbols) Lookup(name string) uintptr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle == 0 {
		return 0
	}
	if p, ok := s.addr[name]; ok {
		return p
	}
	p, err := purego.Dlsym(s.handle, name)
	if err != nil {
		p = 0
	}
	s.addr[name] = p
	return p
}

// GoString copies the NUL-terminated C string at p ("" for nil).
func GoString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
