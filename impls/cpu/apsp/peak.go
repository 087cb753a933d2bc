package apsp

import (
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// PeakMinPlus32 measures the in-cache limit of cpu/fast's min-plus float32
// update, in updates (c := min(c, a+b)) per second over threads goroutines:
// each runs the block-update loop (the AVX2 tile kernel where there is one)
// on a 64×256 block that stays in the L1/L2 caches, for about d. It is the
// ceiling cpu/fast's rate is compared with.
func PeakMinPlus32(threads int, d time.Duration) float64 {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	const rows, cols, k = 64, 256, 64
	kn := kernelsFor[float32](semiring.MinPlus[float32]{})
	var wg sync.WaitGroup
	counts := make([]float64, threads)
	start := time.Now()
	for t := 0; t < threads; t++ {
		wg.Go(func() {
			c := make([]float32, rows*cols)
			a := make([]float32, rows*k)
			b := make([]float32, k*cols)
			for i := range c {
				c[i] = float32(math.Inf(1))
			}
			for i := range a {
				a[i] = float32(i % 7)
			}
			for i := range b {
				b[i] = float32(i % 13)
			}
			for time.Since(start) < d {
				mulAcc(kn, c, cols, rows, cols, a, k, b, cols, k)
				counts[t] += rows * cols * k
			}
		})
	}
	wg.Wait()
	total := 0.0
	for _, c := range counts {
		total += c
	}
	return total / time.Since(start).Seconds()
}
