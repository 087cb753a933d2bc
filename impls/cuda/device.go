package cuda

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"
	"weak"

	"github.com/semibench/semibench/impls/cuda/driver"
)

// Device is an opened CUDA device: its context (kept for the life of the
// process, so module loads and context creation stay out of timed runs), a
// stream, kernel modules, reusable device buffers and page-locked staging
// buffers. One run holds a device at a time (Run).
type Device struct {
	Ordinal int
	Props   driver.Props
	Ctx     *driver.Context

	run     sync.Mutex // held by Run for one run at a time
	mu      sync.Mutex // guards modules (for Probe) and broken
	broken  bool       // a sticky error hit the context; it is closed on release
	stream  driver.Stream
	modules map[string]*Module
	bufs    map[string]devBuf
	stage   Staging
	timing  [2]driver.Event
}

type devBuf struct {
	ptr   driver.DevicePtr
	bytes uint64
}

var devices struct {
	mu   sync.Mutex
	open map[int]*Device
}

// DeviceCount returns the number of CUDA devices, or an error matching
// driver.ErrUnavailable.
func DeviceCount() (int, error) { return driver.DeviceCount() }

// Open returns the device of the given ordinal, opening it on first use: a
// context on its own locked OS thread, and a stream (a blocking one, which
// orders with the legacy default stream, so the synchronous copies of
// package driver order with it too). It returns an error matching
// driver.ErrUnavailable where CUDA cannot be used.
func Open(ordinal int) (*Device, error) {
	devices.mu.Lock()
	defer devices.mu.Unlock()
	if d, ok := devices.open[ordinal]; ok {
		return d, nil
	}
	n, err := driver.DeviceCount()
	if err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= n {
		return nil, fmt.Errorf("CUDA device %d requested, but this machine has %d", ordinal, n)
	}
	props, err := driver.DeviceProps(ordinal)
	if err != nil {
		return nil, fmt.Errorf("CUDA device %d: %w", ordinal, err)
	}
	ctx, err := driver.NewContext(ordinal, driver.CtxSchedAuto)
	if err != nil {
		return nil, err
	}
	d := &Device{Ordinal: ordinal, Props: props, Ctx: ctx, modules: map[string]*Module{}, bufs: map[string]devBuf{}}
	err = ctx.Do(func(t *driver.Thread) error {
		var err error
		if d.stream, err = t.StreamCreate(driver.StreamDefault); err != nil {
			return err
		}
		for i := range d.timing {
			if d.timing[i], err = t.EventCreate(driver.EventDefault); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		ctx.Close()
		return nil, fmt.Errorf("CUDA device %d: %w", ordinal, err)
	}
	if devices.open == nil {
		devices.open = map[int]*Device{}
	}
	devices.open[ordinal] = d
	return d, nil
}

// Opened returns the devices opened so far.
func Opened() []*Device {
	devices.mu.Lock()
	defer devices.mu.Unlock()
	var out []*Device
	for _, d := range devices.open {
		out = append(out, d)
	}
	return out
}

// Run holds the device for one run and executes f on its context thread.
// A cancelled ctx is reported before f starts; f should check ctx itself
// between long steps.
func (d *Device) Run(ctx context.Context, f func(t *driver.Thread) error) error {
	release := d.Acquire()
	defer release()
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.Do(f)
}

// Acquire holds the device for a run made of several Do calls (so that the
// host can work between them, or drive several devices in stages) and
// returns the function that releases it. Devices held together must be
// acquired in increasing ordinal order.
func (d *Device) Acquire() (release func()) {
	d.run.Lock()
	return func() {
		d.mu.Lock()
		broken := d.broken
		d.mu.Unlock()
		if broken {
			_ = d.Ctx.Close() // its memory and modules go with it
		}
		d.run.Unlock()
	}
}

// Do executes f on the device's context thread; the caller holds the device
// (Acquire). An error that leaves the context unusable (driver.Sticky)
// retires the device: the next Open of its ordinal creates a new context,
// so later runs are not failed by this one.
func (d *Device) Do(f func(t *driver.Thread) error) error {
	err := d.Ctx.Do(f)
	if err != nil && driver.Sticky(err) {
		d.mu.Lock()
		d.broken = true
		d.mu.Unlock()
		devices.mu.Lock()
		if devices.open[d.Ordinal] == d {
			delete(devices.open, d.Ordinal)
		}
		devices.mu.Unlock()
	}
	return err
}

// Stream returns the device's stream; all of a run's work goes on it.
func (d *Device) Stream() driver.Stream { return d.stream }

// Module returns the named kernel module (kernels/NAME.cu), loading it on
// first use.
func (d *Device) Module(t *driver.Thread, name string) (*Module, error) {
	d.mu.Lock()
	m, ok := d.modules[name]
	d.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := LoadModule(t, d.Props, name)
	if err != nil {
		return nil, fmt.Errorf("CUDA device %d: %w", d.Ordinal, err)
	}
	d.mu.Lock()
	d.modules[name] = m
	d.mu.Unlock()
	return m, nil
}

// Function returns kernel fn of module name.
func (d *Device) Function(t *driver.Thread, module, fn string) (driver.Function, error) {
	m, err := d.Module(t, module)
	if err != nil {
		return 0, err
	}
	return m.Function(t, fn)
}

// KernelPath returns the path by which module name was loaded, or "" if it
// was not loaded yet.
func (d *Device) KernelPath(name string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if m, ok := d.modules[name]; ok {
		return m.Path
	}
	return ""
}

// Held returns the bytes of the named buffers the device keeps, for Fits.
func (d *Device) Held() map[string]uint64 {
	out := make(map[string]uint64, len(d.bufs))
	for k, b := range d.bufs {
		out[k] = b.bytes
	}
	return out
}

// Check refuses a plan that does not fit the device's free memory (see
// Fits), before anything is allocated. When it does not fit only because of
// buffers held for other plans, those are freed first.
//
// A plan whose every buffer the device holds already, large enough (a
// solve of the size before), allocates nothing and passes without asking
// the driver: cuMemGetInfo is a round trip to it, paid by every solve
// inside the phase that precedes the timed window.
func (d *Device) Check(t *driver.Thread, p Plan) error {
	if AllHeld(p, d.Held()) {
		return nil
	}
	free, _, err := t.MemGetInfo()
	if err != nil {
		return fmt.Errorf("CUDA device %d: %w", d.Ordinal, err)
	}
	err = Fits(p, free, d.Held())
	if err == nil {
		return nil
	}
	mine := map[string]bool{}
	for _, b := range p.Buffers {
		mine[b.Name] = true
	}
	freed := false
	for name, b := range d.bufs {
		if !mine[name] {
			if ferr := t.MemFree(b.ptr); ferr != nil {
				return fmt.Errorf("CUDA device %d: freeing buffer %s: %w", d.Ordinal, name, ferr)
			}
			delete(d.bufs, name)
			freed = true
		}
	}
	if freed {
		if free, _, err = t.MemGetInfo(); err != nil {
			return fmt.Errorf("CUDA device %d: %w", d.Ordinal, err)
		}
		err = Fits(p, free, d.Held())
	}
	if err != nil {
		return fmt.Errorf("CUDA device %d (%s): %w", d.Ordinal, d.Props.Name, err)
	}
	return nil
}

// Buffer returns a device buffer of at least bytes under the given name,
// reusing the one held from an earlier run when it is large enough.
func (d *Device) Buffer(t *driver.Thread, name string, bytes uint64) (driver.DevicePtr, error) {
	if bytes == 0 {
		bytes = 4
	}
	if b, ok := d.bufs[name]; ok {
		if b.bytes >= bytes {
			return b.ptr, nil
		}
		delete(d.bufs, name)
		if err := t.MemFree(b.ptr); err != nil {
			return 0, fmt.Errorf("freeing buffer %s: %w", name, err)
		}
	}
	p, err := t.MemAlloc(int64(bytes))
	if err != nil {
		return 0, fmt.Errorf("buffer %s: %w", name, err)
	}
	d.bufs[name] = devBuf{p, bytes}
	return p, nil
}

// Allocate binds plan p to dst (see Bind: a struct pointer whose
// driver.DevicePtr fields are tagged with the plan's buffer names), which
// fails before anything is allocated when they do not match; then checks p
// against the device's free memory (Check) and stores a buffer for each of
// its entries (Buffer, reused by name across runs) in the field that names
// it. Optional fields whose buffer p lacks are set to 0.
func (d *Device) Allocate(t *driver.Thread, p Plan, dst any) error {
	if err := Bind(p, dst); err != nil {
		return err
	}
	if err := d.Check(t, p); err != nil {
		return err
	}
	return BindWith(p, dst, func(b Buffer) (driver.DevicePtr, error) { return d.Buffer(t, b.Name, b.Bytes) })
}

// FreeBuffers frees every held device buffer.
func (d *Device) FreeBuffers(t *driver.Thread) error {
	var first error
	for k, b := range d.bufs {
		if err := t.MemFree(b.ptr); err != nil && first == nil {
			first = err
		}
		delete(d.bufs, k)
	}
	return first
}

// StartTimer records the start event on the stream; StopTimer records the
// end event, waits for it, and returns the time between them. GPU phases are
// timed this way.
func (d *Device) StartTimer(t *driver.Thread) error { return t.EventRecord(d.timing[0], d.stream) }

// StopTimer ends a GPU phase started by StartTimer; see StartTimer.
func (d *Device) StopTimer(t *driver.Thread) (time.Duration, error) {
	if err := t.EventRecord(d.timing[1], d.stream); err != nil {
		return 0, err
	}
	if err := t.EventSynchronize(d.timing[1]); err != nil {
		return 0, err
	}
	return t.EventElapsed(d.timing[0], d.timing[1])
}

// Staging: a ring of page-locked chunks through which host data moves, so
// that host copies overlap the DMA of other chunks. The ring grows to the
// largest transfer seen, up to stageMax; transfers up to that size never
// wait for a chunk to be reused.
const (
	stageChunk = 8 << 20
	stageMax   = 256 << 20
)

// Staging is a ring of page-locked host chunks of one size, each with an
// event recorded after the copy that last used it, so that a transfer fills
// (or empties) chunk k+1 while the copy engine moves chunk k.
type Staging struct {
	Chunk  int    // bytes per chunk
	Flags  uint32 // cuMemHostAlloc flags
	Bufs   []*driver.HostBuffer
	Events []driver.Event
}

// Grow adds chunks until the ring holds want of them.
func (s *Staging) Grow(t *driver.Thread, want int) error {
	for len(s.Bufs) < want {
		b, err := t.HostAlloc(int64(s.Chunk), s.Flags)
		if err != nil {
			return err
		}
		e, err := t.EventCreate(driver.EventDisableTiming)
		if err != nil {
			_ = t.FreeHost(b)
			return err
		}
		s.Bufs, s.Events = append(s.Bufs, b), append(s.Events, e)
	}
	return nil
}

// ensureStaging grows the ring to cover bytes (within stageMax).
func (d *Device) ensureStaging(t *driver.Thread, bytes int) error {
	d.stage.Chunk, d.stage.Flags = stageChunk, driver.HostAllocPortable
	return d.stage.Grow(t, min(max(1, (bytes+stageChunk-1)/stageChunk), stageMax/stageChunk))
}

// copyGrain is the fewest bytes parallelCopy gives a goroutine of its own
// (a variable for BenchmarkRoundTrips; 2 MiB pieces, which memmove writes
// around the cache, did not move the staged transfers on the H200:
// results/intel-xeon_nvidia-h200/bench/20261128-batch-float-roundtrips.txt).
var copyGrain = 256 << 10

// parallelCopy copies src into dst with several goroutines.
func parallelCopy(dst, src []byte) {
	parallelCopyWith(func(dst, src []byte) { copy(dst, src) }, dst, src)
}

// parallelStreamCopy is parallelCopy around the cache (streamCopy), for
// the page-locked chunks the copy engine reads next: it reads lines the
// cores have just written at about a third of its rate from lines they
// have not (BenchmarkRoundTrips, CopyThenDMA4MiB against its two stages).
func parallelStreamCopy(dst, src []byte) { parallelCopyWith(streamCopy, dst, src) }

// parallelCopyWith copies src into dst by cp in several goroutines, in
// pieces of copyGrain bytes at least, each a multiple of 64 bytes but the
// last.
func parallelCopyWith(cp func(dst, src []byte), dst, src []byte) {
	grain := copyGrain
	workers := min(runtime.GOMAXPROCS(0), (len(src)+grain-1)/grain)
	if workers <= 1 {
		cp(dst, src)
		return
	}
	var wg sync.WaitGroup
	step := (len(src) + workers - 1) / workers
	step = (step + 63) &^ 63
	for lo := 0; lo < len(src); lo += step {
		hi := min(lo+step, len(src))
		wg.Add(1)
		go func() {
			defer wg.Done()
			cp(dst[lo:hi], src[lo:hi])
		}()
	}
	wg.Wait()
}

func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

// Upload copies a Go slice to device memory at dst through the staging
// ring, pipelined: the host copies chunk k+1 (with several goroutines) while
// the copy engine moves chunk k. It returns when the data is on the device.
func Upload[T any](t *driver.Thread, d *Device, dst driver.DevicePtr, src []T) error {
	b := asBytes(src)
	if len(b) == 0 {
		return nil
	}
	if err := d.ensureStaging(t, len(b)); err != nil {
		return err
	}
	var pin runtime.Pinner
	pin.Pin(&b[0])
	defer pin.Unpin()
	slots := len(d.stage.Bufs)
	for c, off := 0, 0; off < len(b); c, off = c+1, off+stageChunk {
		slot := c % slots
		if c >= slots {
			if err := t.EventSynchronize(d.stage.Events[slot]); err != nil {
				return fmt.Errorf("upload: %w", err)
			}
		}
		n := min(stageChunk, len(b)-off)
		parallelStreamCopy(d.stage.Bufs[slot].Bytes()[:n], b[off:off+n])
		if err := t.CopyToDeviceAsync(dst.Add(int64(off)), d.stage.Bufs[slot], 0, int64(n), d.stream); err != nil {
			return fmt.Errorf("upload: %w", err)
		}
		if err := t.EventRecord(d.stage.Events[slot], d.stream); err != nil {
			return fmt.Errorf("upload: %w", err)
		}
	}
	if err := t.StreamSynchronize(d.stream); err != nil {
		return fmt.Errorf("upload: %w", err)
	}
	return nil
}

// Download copies device memory at src into a Go slice through the staging
// ring, pipelined: all chunks that fit the ring are queued on the copy
// engine at once, and the host copies each out (with several goroutines) as
// soon as it lands. Work queued earlier on the stream completes first.
func Download[T any](t *driver.Thread, d *Device, dst []T, src driver.DevicePtr) error {
	b := asBytes(dst)
	if len(b) == 0 {
		return nil
	}
	if err := d.ensureStaging(t, len(b)); err != nil {
		return err
	}
	var pin runtime.Pinner
	pin.Pin(&b[0])
	defer pin.Unpin()
	slots := len(d.stage.Bufs)
	chunks := (len(b) + stageChunk - 1) / stageChunk
	enqueue := func(c int) error {
		slot, off := c%slots, c*stageChunk
		n := min(stageChunk, len(b)-off)
		if err := t.CopyFromDeviceAsync(d.stage.Bufs[slot], 0, src.Add(int64(off)), int64(n), d.stream); err != nil {
			return err
		}
		return t.EventRecord(d.stage.Events[slot], d.stream)
	}
	for c := 0; c < min(slots, chunks); c++ {
		if err := enqueue(c); err != nil {
			return fmt.Errorf("download: %w", err)
		}
	}
	for c := 0; c < chunks; c++ {
		slot, off := c%slots, c*stageChunk
		n := min(stageChunk, len(b)-off)
		if err := t.EventSynchronize(d.stage.Events[slot]); err != nil {
			return fmt.Errorf("download: %w", err)
		}
		parallelCopy(b[off:off+n], d.stage.Bufs[slot].Bytes()[:n])
		if c+slots < chunks {
			if err := enqueue(c + slots); err != nil {
				return fmt.Errorf("download: %w", err)
			}
		}
	}
	return nil
}

// Prefault writes one zero per page of b from several goroutines, so that
// the kernel maps a fresh allocation's pages in parallel (and ahead of a
// copy into it) rather than one fault at a time.
func Prefault(b []byte) { prefault(b, runtime.GOMAXPROCS(0)) }

func prefault(b []byte, workers int) {
	const page = 4096
	workers = max(1, min(workers, len(b)/(1<<20)))
	var wg sync.WaitGroup
	step := (len(b)/workers + page - 1) / page * page
	for lo := 0; lo < len(b); lo += step {
		hi := min(lo+step, len(b))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i += page {
				b[i] = 0
			}
		}()
	}
	wg.Wait()
}

// Bytes views a slice's elements as bytes.
func Bytes[T any](s []T) []byte { return asBytes(s) }

// Output allocates a slice of n elements on another goroutine, touching
// every page, so that the cost of a large allocation (zeroing or faulting
// in its pages) overlaps the device work; Wait returns it. Two goroutines
// fault the pages in: on the machines measured, page faults barely scale
// with threads, and the other cores stay free for the run's own copies.
func Output[T any](n int) *Pending[T] {
	p := &Pending[T]{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.val = make([]T, n)
		prefault(asBytes(p.val), 2)
	}()
	return p
}

// Pending is a slice being allocated by Output.
type Pending[T any] struct {
	done chan struct{}
	val  []T
}

// Wait returns the allocated slice.
func (p *Pending[T]) Wait() []T {
	<-p.done
	return p.val
}

// Recycler hands out result slices and takes back those their users are
// done with, so that a solve writes its answer into memory that is already
// mapped (a fresh multi-megabyte Go slice costs page faults or zeroing, and
// on some repetitions much more: kleene/table3's download of W into fresh
// slices jumped from 4.5 ms to 13-22 ms). The GPU itself never touches these
// slices: it writes into the page-locked staging ring (Download), and the
// host copies from there into the slice.
//
// Ownership: a slice from Take belongs to the caller, who may keep it for
// ever; nothing is reused unless the caller gives it back with Give, after
// which the caller must not read or write it (the next Take may hand it to
// another solve). Give accepts only a slice that Take handed out and that
// was not given back since, so a slice given back twice, or a foreign one,
// is ignored and can never be handed to two solves at once. The recycler
// keeps at most Keep slices (default 2); the outstanding ones are tracked by
// weak pointers, so a slice never given back is garbage collected as usual.
// The zero value is ready to use; it is safe for concurrent use.
type Recycler[T any] struct {
	// Keep is the most slices kept for reuse (0: 2).
	Keep int

	mu   sync.Mutex
	free [][]T
	out  map[weak.Pointer[T]]struct{}
}

// Take returns a slice of n elements: a given-back one of sufficient
// capacity (its contents are stale: the solve overwrites all of it), or a
// fresh one allocated and faulted in on another goroutine (Output), so that
// the allocation overlaps the solve. Call Wait on the result.
func (r *Recycler[T]) Take(n int) *Pending[T] {
	if n <= 0 {
		return &Pending[T]{done: closed, val: []T{}}
	}
	r.mu.Lock()
	best := -1
	for i, s := range r.free {
		if cap(s) >= n && (best < 0 || cap(s) < cap(r.free[best])) {
			best = i
		}
	}
	if best >= 0 {
		s := r.free[best][:n]
		r.free = append(r.free[:best], r.free[best+1:]...)
		r.track(s)
		r.mu.Unlock()
		return &Pending[T]{done: closed, val: s}
	}
	r.mu.Unlock()
	p := Output[T](n)
	q := &Pending[T]{done: make(chan struct{})}
	go func() {
		s := p.Wait()
		r.mu.Lock()
		r.track(s)
		r.mu.Unlock()
		q.val = s
		close(q.done)
	}()
	return q
}

// track records s as handed out (r.mu held), dropping the entries of slices
// that were collected.
func (r *Recycler[T]) track(s []T) {
	if r.out == nil {
		r.out = map[weak.Pointer[T]]struct{}{}
	}
	for w := range r.out {
		if w.Value() == nil {
			delete(r.out, w)
		}
	}
	r.out[weak.Make(&s[:1][0])] = struct{}{}
}

// Give takes back a slice from Take that the caller will no longer use, and
// reports whether it was taken (false for a slice not handed out by Take or
// given back already). When Keep slices are kept already, the smallest is
// dropped.
func (r *Recycler[T]) Give(s []T) bool {
	if cap(s) == 0 {
		return false
	}
	w := weak.Make(&s[:1][0])
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.out[w]; !ok {
		return false
	}
	delete(r.out, w)
	r.free = append(r.free, s[:cap(s)])
	keep := r.Keep
	if keep <= 0 {
		keep = 2
	}
	for len(r.free) > keep {
		small := 0
		for i, f := range r.free {
			if cap(f) < cap(r.free[small]) {
				small = i
			}
		}
		r.free = append(r.free[:small], r.free[small+1:]...)
	}
	return true
}

// Kept returns the number of slices kept for reuse (for tests).
func (r *Recycler[T]) Kept() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.free)
}

// closed is a closed channel, for a Pending that is ready at once.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
