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
