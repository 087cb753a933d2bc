package kleene

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// ErrRange is wrapped by CheckRange's errors: a path weight of X* that
// float32 cannot hold.
var ErrRange = errors.New("beyond the float32 range")

// CheckRange checks that the closure w of x holds every heaviest path
// weight as float32 can: no entry is NaN or +Inf (a path heavier than
// FLT_MAX), and no path lighter than -FLT_MAX was rounded to ε, where it
// would read as "no path". The second needs the float64 Reference, which is
// run only when x has weights negative enough for a path of n-1 arcs to
// reach -FLT_MAX/2. Entries are named 1-based, as Matrix Market numbers
// them.
func CheckRange(ctx context.Context, x, w *maxplus.Matrix) error {
	n := w.N
	for k, v := range w.Val {
		if v != v || v > math.MaxFloat32 {
			//lint:ignore ST1005 X* is the paper's name for the closure
			return fmt.Errorf("X*[%d,%d], the heaviest path from node %d to node %d, is %v: %w (above FLT_MAX)", k/n+1, k%n+1, k%n+1, k/n+1, v, ErrRange)
		}
	}
	if !mayUnderflow(x) {
		return nil
	}
	ref, err := Reference(ctx, x, 0)
	if err != nil {
		return err
	}
	for k, r := range ref {
		if !math.IsInf(r, -1) && w.Val[k] <= maxplus.Epsilon {
			//lint:ignore ST1005 X* is the paper's name for the closure
			return fmt.Errorf("X*[%d,%d], the heaviest path from node %d to node %d, weighs %.8g: %w (below -FLT_MAX, which float32 would write as ε, no path)",
				k/n+1, k%n+1, k%n+1, k/n+1, r, ErrRange)
		}
	}
	return nil
}

// mayUnderflow reports whether a path of x of at most n-1 arcs could weigh
// -FLT_MAX/2 or less (the half leaves room for float32's rounding).
func mayUnderflow(x *maxplus.Matrix) bool {
	least := 0.0
	for _, v := range x.Val {
		if v > maxplus.Epsilon {
			least = min(least, float64(v))
		}
	}
	return float64(max(x.N-1, 0))*least <= -math.MaxFloat32/2
}
