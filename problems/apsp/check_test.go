package apsp_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/semibench/semibench/problems/apsp"
)

// TestClosureCheck: every semiring's closure (and the inverse) by the CPU
// implementations passes its certificate, negative cycles included, and a
// closure with one entry changed fails it, naming the entry.
func TestClosureCheck(t *testing.T) {
	ctx := context.Background()
	neg := "%%MatrixMarket matrix coordinate real general\n4 4 5\n1 2 3\n2 3 -1\n3 2 -1\n3 4 0.25\n4 1 2\n"
	pos := "%%MatrixMarket matrix coordinate real general\n4 4 5\n1 2 0.1\n2 3 0.2\n3 1 0.3\n3 4 0.25\n4 1 0.5\n"
	diag := "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 2\n2 2 4\n3 3 1\n1 3 1\n"
	for _, tc := range []struct {
		name, in, sr string
		inverse      bool
	}{
		{"min-plus, a negative cycle", neg, "min-plus", false},
		{"min-plus", pos, "min-plus", false},
		{"max-plus", pos, "max-plus", false},
		{"real", pos, "real", false},
		{"boolean", neg, "boolean", false},
		{"inverse", diag, "real", true},
	} {
		for _, impl := range apsp.Solvers(cpu) {
			im, err := apsp.Resolve(tc.sr, impl, tc.inverse, cpu)
			if err != nil {
				continue // not every implementation covers every case
			}
			in, err := apsp.ReadInstance(strings.NewReader(tc.in), "in.mtx", tc.sr, tc.inverse)
			if err != nil {
				t.Fatal(err)
			}
			d, err := in.Solve(ctx, im)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.name, impl, err)
			}
			if err := d.Check(); err != nil {
				t.Errorf("%s %s: a right answer fails its check: %v", tc.name, impl, err)
			}
			// One entry off: the check must name it.
			if d.B != nil {
				d.B.Set(3, 0, !d.B.At(3, 0))
			} else {
				k := 0 // the first finite entry, moved by 0.5 (an infinite one stays put)
				for k < len(d.F.Data)-1 && math.IsInf(d.F.Data[k], 0) {
					k++
				}
				if math.IsInf(d.F.Data[k], 0) {
					d.F.Data[k] = 0
				} else {
					d.F.Data[k] += 0.5
				}
			}
			if err := d.Check(); err == nil || !strings.Contains(err.Error(), "[") {
				t.Errorf("%s %s: a wrong answer passes its check (%v)", tc.name, impl, err)
			}
		}
	}
}

// TestClosureCheckOverflow (issue 56, item 1): weights whose path sums
// overflow float64 are refused on reading, naming the line and the bound,
// and the check alone fails the answers such sums gave (1→2→3 read as no
// path, or as a negative cycle), and an overflowed real closure.
func TestClosureCheckOverflow(t *testing.T) {
	for _, sr := range []string{"min-plus", "max-plus"} {
		for _, w := range []string{"1e308", "-1e308"} {
			in := "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 " + w + "\n2 3 " + w + "\n"
			_, err := apsp.ReadInstance(strings.NewReader(in), "huge.mtx", sr, false)
			if err == nil || !strings.Contains(err.Error(), "huge.mtx:3:") || !strings.Contains(err.Error(), "the bound for 3 vertices") {
				t.Errorf("%s, weights %s: %v; want a refusal naming line 3 and the bound", sr, w, err)
			}
		}
	}
	inf := math.Inf(1)
	a := &apsp.Matrix[float64]{N: 3, Data: []float64{inf, 1e308, inf, inf, inf, 1e308, inf, inf, inf}}
	for _, d := range [][]float64{
		{0, 1e308, inf, inf, 0, 1e308, inf, inf, 0},          // (1,3) as no path
		{0, 1e308, math.Inf(-1), inf, 0, 1e308, inf, inf, 0}, // (1,3) as a negative cycle
		{0, 1e308, math.NaN(), inf, 0, 1e308, inf, inf, 0},   // a NaN
	} {
		c := &apsp.Closure{In: &apsp.Instance{Name: "huge.mtx", Semiring: "min-plus", F: a}, F: &apsp.Matrix[float64]{N: 3, Data: d}}
		if err := c.Check(); err == nil || !strings.Contains(err.Error(), "overflow") {
			t.Errorf("an overflowed closure %v passes its check (%v)", d, err)
		}
	}
	ra := &apsp.Matrix[float64]{N: 3, Data: []float64{0, 1e200, 0, 0, 0, 1e200, 0, 0, 0}}
	rd := &apsp.Matrix[float64]{N: 3, Data: []float64{1, 1e200, inf, 0, 1, 1e200, 0, 0, 1}}
	c := &apsp.Closure{In: &apsp.Instance{Name: "huge.mtx", Semiring: "real", F: ra}, F: rd}
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("an overflowed real closure passes its check (%v)", err)
	}
	// The bound itself: within it the worst sum of two paths of n arcs
	// stays finite.
	for _, n := range []int{1, 2, 3, 1000, 1 << 20} {
		w := apsp.PathSumBound(n, math.MaxFloat64)
		if s := 2 * float64(n) * w; math.IsInf(s, 0) || s > math.MaxFloat64/1.5 {
			t.Errorf("n=%d: bound %g lets a sum reach %g", n, w, s)
		}
	}
}
