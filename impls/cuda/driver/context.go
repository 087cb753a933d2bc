package driver

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"
)

// ErrClosed is returned by Context.Do after Close.
var ErrClosed = errors.New("CUDA context closed")

// Context is a CUDA context on one device, driven by one goroutine locked to
// its OS thread. Its methods may be called from any goroutine.
type Context struct {
	ordinal int
	dev     Device
	handle  uintptr
	jobs    chan func()
	quit    chan struct{}
	done    chan struct{}
	once    sync.Once
	thread  Thread
	destroy error
}

// Context creation flags (CUctx_flags).
const (
	CtxSchedAuto         = 0x0
	CtxSchedSpin         = 0x1
	CtxSchedYield        = 0x2
	CtxSchedBlockingSync = 0x4
)

// NewContext creates a context on the device of the given ordinal and starts
// the goroutine that owns it. flags are CUctx_flags (CtxSchedAuto is a good
// default). Close releases it.
func NewContext(ordinal int, flags uint32) (*Context, error) {
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= n {
		return nil, fmt.Errorf("CUDA device %d requested, but this machine has %d device(s)", ordinal, n)
	}
	dev, err := GetDevice(ordinal)
	if err != nil {
		return nil, err
	}
	c := &Context{ordinal: ordinal, dev: dev, jobs: make(chan func()), quit: make(chan struct{}), done: make(chan struct{})}
	c.thread.ctx = c
	started := make(chan error, 1)
	go c.loop(flags, started)
	if err := <-started; err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Context) loop(flags uint32, started chan<- error) {
	// The goroutine never unlocks: when it returns, its OS thread exits with
	// whatever CUDA state was current on it.
	runtime.LockOSThread()
	defer close(c.done)
	var h uintptr
	var err error
	if hasSymbol("cuCtxCreate_v2") {
		err = call("cuCtxCreate_v2", uintptr(unsafe.Pointer(&h)), uintptr(flags), uintptr(c.dev))
	} else {
		err = errors.New("the CUDA driver exports no cuCtxCreate_v2")
	}
	if err != nil {
		started <- fmt.Errorf("creating a context on CUDA device %d: %w", c.ordinal, err)
		return
	}
	c.handle = h
	started <- nil
	for {
		select {
		case job := <-c.jobs:
			job()
		case <-c.quit:
			c.destroy = call("cuCtxDestroy_v2", c.handle)
			return
		}
	}
}

// Ordinal returns the device ordinal the context was created on.
func (c *Context) Ordinal() int { return c.ordinal }

// Device returns the context's device.
func (c *Context) Device() Device { return c.dev }

// Do runs f on the context's OS thread, with the context current, and
// returns its error. A panic in f is returned as an error. Do must not be
// called from inside f (it would wait for itself).
func (c *Context) Do(f func(t *Thread) error) error {
	res := make(chan error, 1)
	job := func() {
		defer func() {
			if r := recover(); r != nil {
				res <- fmt.Errorf("panic on the CUDA thread of device %d: %v\n%s", c.ordinal, r, debug.Stack())
			}
		}()
		res <- f(&c.thread)
	}
	select {
	case c.jobs <- job:
	case <-c.quit:
		return ErrClosed
	}
	return <-res
}

// Close destroys the context (cuCtxDestroy_v2), freeing every allocation
// made in it, and stops its goroutine. Later Do calls return ErrClosed.
func (c *Context) Close() error {
	c.once.Do(func() { close(c.quit) })
	<-c.done
	if c.destroy != nil {
		return fmt.Errorf("destroying the context of CUDA device %d: %w", c.ordinal, c.destroy)
	}
	return nil
}

// Thread is the handle to a Context's OS thread, on which the context is
// current. It is valid only inside the function given to Context.Do.
type Thread struct {
	ctx *Context
}

// Context returns the context the thread drives.
func (t *Thread) Context() *Context { return t.ctx }

// Synchronize waits for all work in the context (cuCtxSynchronize).
func (t *Thread) Synchronize() error { return call("cuCtxSynchronize") }

// MemGetInfo returns the free and total device memory in bytes.
func (t *Thread) MemGetInfo() (free, total uint64, err error) {
	err = call("cuMemGetInfo_v2", uintptr(unsafe.Pointer(&free)), uintptr(unsafe.Pointer(&total)))
	return free, total, err
}

// CanAccessPeer reports whether device dev can access the memory of device
// peer directly (cuDeviceCanAccessPeer).
func CanAccessPeer(dev, peer Device) (bool, error) {
	var v int32
	if err := call("cuDeviceCanAccessPeer", uintptr(unsafe.Pointer(&v)), uintptr(dev), uintptr(peer)); err != nil {
		return false, err
	}
	return v != 0, nil
}

// errPeerAlreadyEnabled is CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED.
const errPeerAlreadyEnabled Result = 704

// EnablePeerAccess lets the thread's context access the memory of peer's
// context (cuCtxEnablePeerAccess). Access already enabled is not an error.
func (t *Thread) EnablePeerAccess(peer *Context) error {
	err := call("cuCtxEnablePeerAccess", peer.handle, 0)
	if de, ok := err.(*Error); ok && de.Code == errPeerAlreadyEnabled {
		return nil
	}
	return err
}

// CopyPeerAsync enqueues a copy of n bytes from src in srcCtx to dst in
// dstCtx on stream s of the thread's context (cuMemcpyPeerAsync). Over
// NVLink with peer access enabled the copy engines move it directly.
func (t *Thread) CopyPeerAsync(dst DevicePtr, dstCtx *Context, src DevicePtr, srcCtx *Context, n int64, s Stream) error {
	return call("cuMemcpyPeerAsync", uintptr(dst), dstCtx.handle, uintptr(src), srcCtx.handle, uintptr(n), uintptr(s))
}
