package domination

import (
	"testing"

	"github.com/semibench/semibench/problems/domination"
)

// TestDominationArcs holds the arcs table of the work declarations to
// Algorithm 1's count (domination.Build) for m = 2..9, and m = 10 and 11
// too without -short (1.5 s on two cores; m = 12's, 6 s and 1 GB, was
// counted so when the table was written).
func TestDominationArcs(t *testing.T) {
	top := 11
	if testing.Short() {
		top = 9
	}
	for m := 2; m <= top; m++ {
		d, err := domination.BuildThreads(m, 2)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.A.NNZ(); got != dominationArcs[m] {
			t.Errorf("m=%d: %d arcs, the table says %d", m, got, dominationArcs[m])
		}
		if d.N() != dominationRows(m) {
			t.Errorf("m=%d: %d rows, domination.Rows %d", m, d.N(), dominationRows(m))
		}
	}
}
