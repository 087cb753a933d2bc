package cputreefix

import (
	"runtime"
	"sort"
	"sync"
)

// workers resolves a thread count (0: GOMAXPROCS).
func workers(threads int) int {
	if threads <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return threads
}

// parFor splits [0, n) into at most p contiguous parts of at least grain
// and runs f on each, part k on its own goroutine; small ranges run inline.
func parFor(p, n, grain int, f func(part, lo, hi int)) int {
	parts := min(p, (n+grain-1)/max(grain, 1))
	if parts <= 1 {
		f(0, 0, n)
		return 1
	}
	var wg sync.WaitGroup
	for k := 0; k < parts; k++ {
		lo, hi := n*k/parts, n*(k+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(k, lo, hi)
		}()
	}
	wg.Wait()
	return parts
}

// segStart returns the first segment k (0 <= k < m) whose range
// [off[k], off[k+1]) ends after pos: the segment holding pos, or the first
// empty segment at pos.
func segStart(off []int32, m int, pos int) int {
	return sort.Search(m, func(k int) bool { return int(off[k+1]) > pos || (int(off[k]) >= pos) })
}
