package treefix

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// ErrOverflow is wrapped (beside ErrInput) by the error Solve returns
// when a vertex's sum does not fit the type it is computed in.
var ErrOverflow = errors.New("sum overflows")

// ErrIntermediate is wrapped by the error Compute returns when an
// implementation's own intermediate sums left the float type though every
// vertex's sum fits it: the input is sound, and an implementation that
// adds in another order may do the tree (the vectorial ones subtract
// prefix sums of the Euler tour, which may overflow where the sequential
// traversal's sums do not, and the other way round).
var ErrIntermediate = errors.New("an intermediate sum overflows")

// int64Safe reports whether no rootfix or leaffix sum of w can leave int64:
// every such sum is a sum of a subset of w, so Σ|w| <= MaxInt64 suffices.
// It is the cheap bound checked before every integer solve.
func int64Safe(w []int64) bool {
	var s uint64
	for _, k := range w {
		a := uint64(k)
		if k < 0 {
			a = -a // 2^63 for MinInt64, exactly
		}
		var c uint64
		if s, c = bits.Add64(s, a, 0); c != 0 {
			return false
		}
	}
	return s <= math.MaxInt64
}

// i128 is a two's complement 128-bit integer, wide enough for any sum of
// up to 2^64 int64 values.
type i128 struct {
	hi int64
	lo uint64
}

func (a i128) add(b i128) i128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	return i128{a.hi + b.hi + int64(c), lo}
}

func wide(k int64) i128 { return i128{k >> 63, uint64(k)} }

func (a i128) fitsInt64() bool {
	return (a.hi == 0 && a.lo <= math.MaxInt64) || (a.hi == -1 && a.lo > math.MaxInt64)
}

func (a i128) float() float64 { return float64(a.hi)*0x1p64 + float64(a.lo) }

// exactInt64 computes op's sums of w exactly (in 128 bits, sequentially)
// and returns the vertex where they first leave int64 (see overflowVertex)
// and its sum, or -1. Solve calls it only when int64Safe fails: the
// int64 implementations add modulo 2^64, so their answers are exact
// whenever every final sum fits, whatever their intermediate sums do.
func exactInt64(t *Tree, op Op, w []int64) (int, float64) {
	s := make([]i128, len(w))
	for v, k := range w {
		s[v] = wide(k)
	}
	order := accumulate(t, op, s, i128.add)
	v := overflowVertex(t, op, order, func(v int32) bool { return !s[v].fitsInt64() })
	if v < 0 {
		return -1, 0
	}
	return v, s[v].float()
}

// overflowVertex returns the vertex where op's sums first overflow, among
// those for which bad holds (-1 if none): for rootfix the one nearest the
// root (its parent's sum fits), for leaffix the deepest (its children's
// sums fit). order is the breadth-first order (parents first).
func overflowVertex(t *Tree, op Op, order []int32, bad func(v int32) bool) int {
	if order == nil {
		order = t.BFS()
	}
	if op == Rootfix {
		for _, v := range order {
			if bad(v) {
				return int(v)
			}
		}
		return -1
	}
	for i := len(order) - 1; i >= 0; i-- {
		if bad(order[i]) {
			return int(order[i])
		}
	}
	return -1
}

// finite reports whether every value of out is finite: one pass that the
// compiler keeps branch-free (x - x is 0 for a finite x, NaN otherwise).
func finite[T float32 | float64](out []T) bool {
	var acc T
	for _, x := range out {
		acc += x - x
	}
	return acc == 0
}

// checkFloat returns nil when op's sums in out (computed in T by impl)
// are all finite. Otherwise it tells the input's fault from the
// implementation's: where a vertex's own sum leaves T (trueSums), an
// error wrapping ErrInput and ErrOverflow that names the vertex, its line
// and its sum; where every vertex's sum fits T, an error wrapping
// ErrIntermediate that names the vertex where impl's answer became
// infinite or NaN and says that its sum fits.
func checkFloat[T float32 | float64](in *Input, name string, t *Tree, op Op, impl string, out []T) error {
	if finite(out) {
		return nil
	}
	typ, limit := "float64", math.MaxFloat64
	if _, ok := any(out).([]float32); ok {
		typ, limit = "float32", math.MaxFloat32
	}
	w := in.W
	if typ == "float32" {
		w = make([]float64, len(in.W)) // the weights as computed: rounded to float32
		for i, x := range in.W {
			w[i] = float64(float32(x))
		}
	}
	scaled, order := trueSums(t, op, w)
	if v := overflowVertex(t, op, order, func(v int32) bool { return math.Abs(scaled[v]) > math.Ldexp(limit, -sumScale) }); v >= 0 {
		return fmt.Errorf("%s:%d: %w: %w: vertex %d: its %s sum, about %s, leaves %s (|sum| <= %.4g)",
			name, in.Line[v], ErrInput, ErrOverflow, v, op, new(big.Float).SetMantExp(big.NewFloat(scaled[v]), sumScale).Text('g', 4), typ, limit)
	}
	v := overflowVertex(t, op, nil, func(v int32) bool {
		x := float64(out[v])
		return math.IsInf(x, 0) || math.IsNaN(x)
	})
	return fmt.Errorf("%s:%d: %w: vertex %d: %s's sums left %s on the way and gave %v, though its %s sum, %.6g, fits (every vertex's does): the input is sound, and an implementation that adds in another order may do the tree",
		name, in.Line[v], ErrIntermediate, v, impl, typ, out[v], op, math.Ldexp(scaled[v], sumScale))
}

// sumScale is the power of two trueSums scales the weights down by.
const sumScale = 128

// trueSums returns op's sums of w scaled by 2^-sumScale, computed as
// the reference adds them (one addition per vertex along the parent
// array), and the order it visited the vertices in. Scaled, no sum can
// leave float64 (n <= 2^31 weights of at most 2^1024 scaled to 2^896),
// so each is within a rounding of the exact sum, however far beyond any
// float's range that lies. The scaling is exact but for weights below
// 2^-894, whose lost bits cannot matter to an overflow.
func trueSums(t *Tree, op Op, w []float64) ([]float64, []int32) {
	s := make([]float64, len(w))
	for i, x := range w {
		s[i] = math.Ldexp(x, -sumScale)
	}
	order := accumulate(t, op, s, func(a, b float64) float64 { return a + b })
	return s, order
}

// checkInt64 returns an error naming the vertex whose op sum does not fit
// in int64, or nil when every sum fits (always, when Σ|w| does).
func checkInt64(in *Input, name string, t *Tree, op Op) error {
	if int64Safe(in.IntW) {
		return nil
	}
	v, sum := exactInt64(t, op, in.IntW)
	if v < 0 {
		return nil
	}
	return fmt.Errorf("%s:%d: %w: %w: vertex %d: its %s sum %.6g leaves int64 (%d..%d)",
		name, in.Line[v], ErrInput, ErrOverflow, v, op, sum, int64(math.MinInt64), int64(math.MaxInt64))
}
