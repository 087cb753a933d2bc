package impls

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// The semirings' infinities: no arc in min-plus, and a negative (min-plus)
// or positive (max-plus) cycle.
var (
	posInf = math.Inf(1)
	negInf = math.Inf(-1)
)

// apspCases are matrices A with their closure A* = I ⊕ A ⊕ A² ⊕ … in a
// semiring of Rote's paper, row-major (Boolean: 0 and 1), or the error the
// elimination must give. The systolic simulations compute the same A*
// (one matrix on one track of GJE0) and refuse an empty matrix.
var apspCases = []struct {
	name     string
	semiring string // "min-plus", "max-plus", "real" or "boolean"
	n        int
	a, want  []float64
	err      error
}{
	{name: "empty", semiring: "min-plus", n: 0, a: []float64{}, want: []float64{}},
	{name: "1x1 no arc", semiring: "min-plus", n: 1, a: []float64{posInf}, want: []float64{0}},
	{name: "1x1 positive loop", semiring: "min-plus", n: 1, a: []float64{3}, want: []float64{0}},
	{name: "1x1 negative loop", semiring: "min-plus", n: 1, a: []float64{-1}, want: []float64{negInf}},
	{name: "one arc", semiring: "min-plus", n: 2, a: []float64{posInf, 2, posInf, posInf}, want: []float64{0, 2, posInf, 0}},
	// 1 -> 2 -> 3 (1 + 1) beats the arc 1 -> 3 (5).
	{name: "detour shorter", semiring: "min-plus", n: 3,
		a:    []float64{posInf, 1, 5, posInf, posInf, 1, posInf, posInf, posInf},
		want: []float64{0, 1, 2, posInf, 0, 1, posInf, posInf, 0}},
	// Two shortest paths 1 -> 4 of length 2.
	{name: "ties", semiring: "min-plus", n: 4,
		a: []float64{
			posInf, 1, 1, posInf,
			posInf, posInf, posInf, 1,
			posInf, posInf, posInf, 1,
			posInf, posInf, posInf, posInf},
		want: []float64{
			0, 1, 1, 2,
			posInf, 0, posInf, 1,
			posInf, posInf, 0, 1,
			posInf, posInf, posInf, 0}},
	// A cycle of weight 4 - 2 = 2: negative arcs, no negative cycle.
	{name: "negative arc", semiring: "min-plus", n: 2, a: []float64{posInf, 4, -2, posInf}, want: []float64{0, 4, -2, 0}},
	// A cycle of weight 1 - 2 = -1: every distance on it is -∞, and so is
	// every distance through it.
	{name: "negative cycle", semiring: "min-plus", n: 3,
		a:    []float64{posInf, 1, posInf, -2, posInf, 3, posInf, posInf, posInf},
		want: []float64{negInf, negInf, negInf, negInf, negInf, negInf, posInf, posInf, 0}},
	{name: "heaviest paths", semiring: "max-plus", n: 3,
		a:    []float64{negInf, 1, 2, negInf, negInf, 2, negInf, negInf, negInf},
		want: []float64{0, 1, 3, negInf, 0, 2, negInf, negInf, 0}},
	{name: "positive cycle", semiring: "max-plus", n: 1, a: []float64{1}, want: []float64{posInf}},
	{name: "reachability", semiring: "boolean", n: 3,
		a:    []float64{0, 1, 0, 0, 0, 1, 0, 0, 0},
		want: []float64{1, 1, 1, 0, 1, 1, 0, 0, 1}},
	{name: "boolean cycle", semiring: "boolean", n: 3,
		a:    []float64{0, 1, 0, 1, 0, 0, 0, 1, 0},
		want: []float64{1, 1, 0, 1, 1, 0, 1, 1, 1}},
	// (I - A)⁻¹: 1/(1 - 1/2) = 2.
	{name: "real 1x1", semiring: "real", n: 1, a: []float64{0.5}, want: []float64{2}},
	{name: "real nilpotent", semiring: "real", n: 2, a: []float64{0, 2, 0, 0}, want: []float64{1, 2, 0, 1}},
	{name: "real star of 1", semiring: "real", n: 1, a: []float64{1}, err: semiring.ErrNoStar},
}

// TestAPSPCases runs apspCases against every implementation in
// impls.APSP: the eliminations (and, in min-plus, their float32 closure
// where they have one) and the systolic simulations.
func TestAPSPCases(t *testing.T) {
	for _, im := range APSP.All() {
		t.Run(im.Name, func(t *testing.T) {
			skipWithoutDevice(t, im.Name)
			for _, tc := range apspCases {
				systolic := im.SystolicFloat != nil
				got, err := apspClosure(t.Context(), im, tc.semiring, tc.n, tc.a)
				switch {
				case errors.Is(err, errors.ErrUnsupported):
					t.Logf("%s: %v", tc.name, err) // a semiring this implementation does not offer
				case systolic && tc.n == 0:
					if err == nil {
						t.Errorf("%s: an empty matrix accepted", tc.name)
					}
				case tc.err != nil:
					if !errors.Is(err, tc.err) {
						t.Errorf("%s: got %v, want %v", tc.name, err, tc.err)
					}
				case err != nil:
					t.Errorf("%s: %v", tc.name, err)
				case !slices.Equal(got, tc.want):
					t.Errorf("%s: A* = %v, want %v", tc.name, got, tc.want)
				}
				if tc.semiring != "min-plus" || im.MinPlus32 == nil {
					continue
				}
				a32 := apsp.NewMatrix(tc.n, float32(0))
				for i, v := range tc.a {
					a32.Data[i] = float32(v)
				}
				if _, err := im.MinPlus32(t.Context(), a32, apsp.Options{}); err != nil {
					t.Errorf("%s float32: %v", tc.name, err)
				} else if !slices.Equal(widen(a32.Data), tc.want) {
					t.Errorf("%s float32: A* = %v, want %v", tc.name, a32.Data, tc.want)
				}
			}
		})
	}
}

// apspClosure computes A* of the n×n matrix a with im: by its elimination
// or by its systolic simulation.
func apspClosure(ctx context.Context, im apsp.Impl, sr string, n int, a []float64) ([]float64, error) {
	cfg := systolic.Config{Design: systolic.GJE0, Tracks: 1}
	if sr == "boolean" {
		b := make([]bool, len(a))
		for i, v := range a {
			b[i] = v != 0
		}
		var out []bool
		if im.Bool != nil {
			m := &apsp.Matrix[bool]{N: n, Data: b}
			if _, err := im.Bool(ctx, m, apsp.Options{}); err != nil {
				return nil, err
			}
			out = m.Data
		} else {
			run, err := im.SystolicBool(ctx, n, [][]bool{b}, cfg, apsp.Options{})
			if err != nil {
				return nil, err
			}
			out = run.Result[0]
		}
		f := make([]float64, len(out))
		for i, v := range out {
			if v {
				f[i] = 1
			}
		}
		return f, nil
	}
	if im.Float != nil {
		m := &apsp.Matrix[float64]{N: n, Data: slices.Clone(a)}
		_, err := im.Float(ctx, sr, m, apsp.Options{})
		return m.Data, err
	}
	run, err := im.SystolicFloat(ctx, sr, n, [][]float64{slices.Clone(a)}, cfg, apsp.Options{})
	if err != nil {
		return nil, err
	}
	return run.Result[0], nil
}

// widen converts float32 values to float64.
func widen(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}
