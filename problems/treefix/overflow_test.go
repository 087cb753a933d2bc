package treefix

import (
	"math"
	"testing"
)

func TestInt64Safe(t *testing.T) {
	for _, tc := range []struct {
		w    []int64
		safe bool
	}{
		{[]int64{math.MaxInt64}, true},
		{[]int64{math.MaxInt64, 1}, false},
		{[]int64{math.MinInt64}, false}, // |MinInt64| = 2^63
		{[]int64{math.MinInt64 + 1, 0, 0}, true},
		{[]int64{-1 << 62, 1 << 62}, false},
		{[]int64{math.MaxInt64, math.MaxInt64, math.MaxInt64}, false}, // wraps uint64
	} {
		if got := int64Safe(tc.w); got != tc.safe {
			t.Errorf("int64Safe(%v) = %v, want %v", tc.w, got, tc.safe)
		}
	}
}
