package cudalap

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/semibench/semibench/impls/cpu/lap"
)

// lapModule is the kernel source of cuda/hungarian-n3 and cuda/fast
// (kernels/lap.cu).
const lapModule = "lap"

// Phase names of cuda/hungarian-n3 and cuda/fast besides their own.
const (
	PhaseH2D = "h2d" // costs converted to int32 on the host and copied to the device
	PhaseD2H = "d2h" // the assignment (and duals) back
)

// costs32 validates m and returns its costs as int32, with the least and
// largest cost. Costs beyond int32 are refused with lap.ErrOverflow.
func costs32(impl string, m *lap.Matrix) (c []int32, lo, hi int64, err error) {
	if m == nil {
		return nil, 0, 0, fmt.Errorf("%s: nil matrix", impl)
	}
	if err := m.Validate(); err != nil {
		return nil, 0, 0, fmt.Errorf("%s: %w", impl, err)
	}
	c = make([]int32, len(m.C))
	workers := max(1, min(runtime.GOMAXPROCS(0), len(m.C)>>18))
	los, his := make([]int64, workers), make([]int64, workers)
	bad := make([]int, workers)
	var wg sync.WaitGroup
	step := (len(m.C) + workers - 1) / workers
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, b := min(w*step, len(m.C)), min((w+1)*step, len(m.C))
			l, h := int64(math.MaxInt64), int64(math.MinInt64)
			bad[w] = -1
			for k := a; k < b; k++ {
				x := m.C[k]
				if x < math.MinInt32 || x > math.MaxInt32 {
					bad[w] = k
					return
				}
				c[k] = int32(x)
				l, h = min(l, x), max(h, x)
			}
			los[w], his[w] = l, h
		}()
	}
	wg.Wait()
	lo, hi = math.MaxInt64, math.MinInt64
	for w := range workers {
		if k := bad[w]; k >= 0 {
			return nil, 0, 0, fmt.Errorf("%s: %w: cost %d at row %d, column %d is beyond int32, the device's cost type",
				impl, lap.ErrOverflow, m.C[k], k/m.Cols+1, k%m.Cols+1)
		}
		lo, hi = min(lo, los[w]), max(hi, his[w])
	}
	return c, lo, hi, nil
}
