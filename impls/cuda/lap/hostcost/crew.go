package hostcost

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// grain is the fewest items a parallel loop gives a goroutine of its own:
// 32K costs, 256 KiB of int64, about 50 us of one core's scan. At 2^18
// the whole matrix of n = 512 was scanned on one core and n = 1024 on
// four: on the H200's 16-core host that scan was nearly all of cuda/fast's
// h2d there (0.30-0.75 ms at n = 512, for 2 MB of costs).
const grain = 1 << 15

// ParallelFor runs f over [0, n) in a few goroutines (one per grain items
// at most, GOMAXPROCS at most): f gets disjoint ranges [a, b) covering
// [0, n), and ParallelFor returns once every call has. The goroutines take
// parts of about an eighth of an even share from a shared counter, so a
// core that reads slower (another NUMA node's memory, a virtual CPU the
// host lends elsewhere) holds back one part, not a whole share.
func ParallelFor(n int, f func(a, b int)) {
	w := min(runtime.GOMAXPROCS(0), (n+grain-1)/grain)
	if w <= 1 {
		f(0, n)
		return
	}
	l := newLoop(n, w, f)
	var wg sync.WaitGroup
	for range w - 1 {
		wg.Go(l.take)
	}
	l.take()
	wg.Wait()
}

// A loop is one parallel loop's shared state: the next item to take and
// the items done.
type loop struct {
	n, part int
	f       func(a, b int)
	next    atomic.Int64
	done    atomic.Int64
}

// newLoop is the loop of f over [0, n) for w goroutines.
func newLoop(n, w int, f func(a, b int)) *loop {
	return &loop{n: n, part: max(grain, (n+8*w-1)/(8*w)), f: f}
}

// take runs f on parts taken from the loop until none is left.
func (l *loop) take() {
	for {
		b := int(l.next.Add(int64(l.part)))
		a := b - l.part
		if a >= l.n {
			return
		}
		b = min(l.n, b)
		l.f(a, b)
		l.done.Add(int64(b - a))
	}
}

// A Crew is GOMAXPROCS-1 goroutines kept awake for a run of parallel loops
// close together, such as the chunks of one upload: the goroutines of
// ParallelFor find the other cores asleep at every call, and on the
// H200's 16-core host a chunk of 2^20 costs took 148-149 us after idle
// cores against 100-108 us with a crew (BenchmarkFuseChunkIdle,
// results/intel-xeon_nvidia-h200/bench/20261201-f2fd438-fusechunk-idle.txt).
// Between loops
// its goroutines poll for the next, yielding their processor at every
// poll, so that the caller's goroutine, back from a cgo call, finds one
// at once. One goroutine at a time calls For; Stop ends the crew.
type Crew struct {
	work atomic.Pointer[loop] // the loop running, nil between loops
	stop atomic.Bool
	size int
	wg   sync.WaitGroup
}

// StartCrew starts a crew of GOMAXPROCS-1 goroutines (none on one
// processor: its loops then run in the caller).
func StartCrew() *Crew {
	c := &Crew{size: runtime.GOMAXPROCS(0) - 1}
	for range c.size {
		c.wg.Go(c.serve)
	}
	return c
}

// serve is a crew goroutine: it takes parts of each new loop until Stop.
func (c *Crew) serve() {
	var last *loop
	for !c.stop.Load() {
		if l := c.work.Load(); l != nil && l != last {
			last = l
			l.take()
			continue
		}
		runtime.Gosched()
	}
}

// For is ParallelFor on the crew: f over [0, n) in disjoint ranges, the
// caller taking parts too; it returns once every call of f has. A nil
// crew runs ParallelFor.
func (c *Crew) For(n int, f func(a, b int)) {
	if c == nil {
		ParallelFor(n, f)
		return
	}
	w := min(c.size+1, (n+grain-1)/grain)
	if w <= 1 {
		f(0, n)
		return
	}
	l := newLoop(n, w, f)
	c.work.Store(l)
	l.take()
	for l.done.Load() < int64(n) {
		runtime.Gosched()
	}
	c.work.Store(nil)
}

// Stop ends the crew's goroutines and waits for them.
func (c *Crew) Stop() {
	c.stop.Store(true)
	c.wg.Wait()
}
