package experiments

import (
	"math"
	"slices"
	"testing"
)

// TestPathSteps: narrow intervals keep the four steps to the corners;
// wide ones take enough that no band of a factor 1.1 fits between two
// steps of a figure's way (up to maxPathSteps), a figure reading at most
// figureCells cells.
func TestPathSteps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spans []span
		want  int // steps
	}{
		{"narrow", []span{{lo: 0.95, hi: 1.05}, {lo: 0.9, hi: 1.1}}, 4},
		{"one wide sample", []span{{lo: 0.2, hi: 5}, {lo: 0.9, hi: 1.1}}, 32},
		{"middling", []span{{lo: 0.7, hi: 1.4}}, 4},
		{"wide", []span{{lo: 0.5, hi: 2}}, 8},
		// Twenty narrow cells: a figure reads four of them at most.
		{"many cells", slices.Repeat([]span{{lo: 0.95, hi: 1.05}}, 20), 4},
	} {
		steps := pathSteps(tc.spans)
		if len(steps) != tc.want {
			t.Errorf("%s: %d steps %v, want %d", tc.name, len(steps), steps, tc.want)
		}
		if steps[0] != 1 {
			t.Errorf("%s: first step %g, want the corners (1)", tc.name, steps[0])
		}
		sorted := slices.Sorted(slices.Values(append([]float64{0}, steps...)))
		var reaches []float64
		for _, sp := range tc.spans {
			reaches = append(reaches, max(-math.Log(sp.lo), math.Log(sp.hi)))
		}
		slices.Sort(reaches)
		reach := 0.0
		for _, r := range reaches[max(0, len(reaches)-figureCells):] {
			reach += r
		}
		for i := 1; i < len(sorted); i++ {
			if gap := (sorted[i] - sorted[i-1]) * reach; gap > maxPathStep+1e-12 && len(steps) < maxPathSteps-1 {
				t.Errorf("%s: steps %v leave %.3g of log time between %g and %g", tc.name, steps, gap, sorted[i-1], sorted[i])
			}
		}
	}
}
