package treefix

import (
	"fmt"
	"math/big"
)

// accumulate computes op on t in the carrier S as the definitions read,
// over s, which holds each vertex's own weight on entry: Rootfix adds,
// top-down in breadth-first order, each parent's sum into its children's
// (s[v] = add(s[v], s[parent])); Leaffix, bottom-up, each vertex's sum into
// its parent's (s[p] = add(s[p], s[v])). add may update and return its
// first argument. It returns the breadth-first order.
func accumulate[S any](t *Tree, op Op, s []S, add func(a, b S) S) []int32 {
	order := t.BFS()
	if op == Rootfix {
		for _, v := range order {
			if p := t.Parent[v]; p >= 0 {
				s[v] = add(s[v], s[p])
			}
		}
		return order
	}
	for i := len(order) - 1; i > 0; i-- {
		v := order[i]
		p := t.Parent[v]
		s[p] = add(s[p], s[v])
	}
	return order
}

// Reference computes op of the weights w into out (both of t's length) by
// the definitions, in T: one addition per vertex along the parent array,
// top-down for Rootfix, bottom-up for Leaffix. On integer weights whose
// sums fit T it is exact, the reference every implementation must equal.
func Reference[T Number](t *Tree, op Op, w, out []T) error {
	if len(w) != t.N() || len(out) != t.N() {
		return fmt.Errorf("treefix reference: %d weights and %d outputs for %d vertices", len(w), len(out), t.N())
	}
	copy(out, w)
	accumulate(t, op, out, func(a, b T) T { return a + b })
	return nil
}

// exactPrec holds any sum of up to 2^31 float64 values exactly: their
// exponents span 2098 bits (2^-1074 to 2^1024), plus 31 bits of carries.
const exactPrec = 2200

// Exact computes op of the weights w on t exactly (math/big) and returns
// each vertex's sum rounded once to float64.
// The weights must be finite.
func Exact(t *Tree, op Op, w []float64) ([]float64, error) {
	if len(w) != t.N() {
		return nil, fmt.Errorf("treefix exact: %d weights for %d vertices", len(w), t.N())
	}
	s := make([]*big.Float, len(w))
	for v, x := range w {
		s[v] = new(big.Float).SetPrec(exactPrec).SetFloat64(x)
	}
	accumulate(t, op, s, func(a, b *big.Float) *big.Float { return a.Add(a, b) })
	out := make([]float64, len(w))
	for v := range s {
		out[v], _ = s[v].Float64()
	}
	return out, nil
}
