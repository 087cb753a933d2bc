package sysmem

import (
	"runtime"
	"sync"
	"unsafe"
)

// Touch writes a zero into the first element of every 4 KiB page of s, on
// several goroutines, so that the host provides that memory now: a machine
// that hands out its memory as it is used (MemTotal growing) provides it
// at a few GB/s, which a caller can overlap with other work.
func Touch[T any](s []T) {
	var zero T
	step := max(1, 4096/int(unsafe.Sizeof(zero)))
	threads := max(1, min(16, runtime.GOMAXPROCS(0)/2))
	band := (len(s)/threads + step) / step * step
	var wg sync.WaitGroup
	for lo := 0; lo < len(s); lo += band {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < min(len(s), lo+band); i += step {
				s[i] = zero
			}
		}()
	}
	wg.Wait()
}
