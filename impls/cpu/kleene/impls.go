package kleene

import (
	"math"
	"sync/atomic"

	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// Impls returns the CPU implementations, in display order: cpu/paper
// (Paper) and cpu/fast (Fast).
func Impls() []kleene.Impl {
	return []kleene.Impl{{Name: "cpu/paper", Run: Paper}, {Name: "cpu/fast", Run: Fast}}
}

// inputInfo is what checkInput learns about X.
type inputInfo struct {
	maxWeight float32 // the largest arc weight (ε when there are no arcs)
	integral  bool    // every arc weight is an integer
}

// checkInput refuses what no implementation handles: a malformed matrix, a
// size beyond kleene.MaxN, NaN or +Inf entries. Entries at or below ε (-Inf
// included) are not arcs.
func checkInput(x *maxplus.Matrix) (inputInfo, error) {
	return checkInputParallel(x, 1)
}

// checkInputParallel is checkInput scanning row bands on threads goroutines.
func checkInputParallel(x *maxplus.Matrix, threads int) (inputInfo, error) {
	info := inputInfo{maxWeight: maxplus.Epsilon, integral: true}
	if err := kleene.CheckShape(x); err != nil {
		return info, err
	}
	n := x.N
	bands := max(1, min(threads, n/64))
	type scan struct {
		maxW float32
		bad  bool
		frac uint32
	}
	res := make([]scan, bands)
	var next atomic.Int64
	parallel(bands, func() {
		for {
			b := int(next.Add(1) - 1)
			if b >= bands {
				return
			}
			r := scan{maxW: maxplus.Epsilon}
			for _, v := range x.Val[b*n/bands*n : (b+1)*n/bands*n] {
				if v > r.maxW { // rarely true once the maximum is near
					r.maxW = v
				}
				if v != v {
					r.bad = true
				}
				// Branch-free integrality: every float32 with |v| >= 2^23
				// is an integer; below that, v must survive a round trip
				// through int32. (-0 counts as fractional here, which only
				// costs pruning.)
				bits := math.Float32bits(v)
				small := uint32((int64(bits&^(1<<31)) - 0x4b000000) >> 63) // all ones when |v| < 2^23
				r.frac |= small & (bits ^ math.Float32bits(float32(int32(v))))
			}
			res[b] = r
		}
	})
	bad, frac := false, uint32(0)
	for _, r := range res {
		info.maxWeight = max(info.maxWeight, r.maxW)
		bad = bad || r.bad
		frac |= r.frac
	}
	if bad || info.maxWeight > math.MaxFloat32 {
		return info, kleene.CheckWeights(x) // names the first bad entry
	}
	info.integral = frac == 0
	return info, nil
}
