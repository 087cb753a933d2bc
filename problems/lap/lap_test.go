package lap

import (
	"context"
	"testing"
)

// TestCertifyRejects makes sure the checker catches wrong answers.
func TestCertifyRejects(t *testing.T) {
	m := &Matrix{Rows: 2, Cols: 3, C: []int64{1, 2, 3, 4, 1, 6}}
	good, err := SolveJV(context.Background(), m, nil)
	if err != nil || Certify(m, good) != nil {
		t.Fatalf("jv: %v %v", err, Certify(m, good))
	}
	bad := []*Result{
		{Assignment: []int{0, 0}, Cost: 5},
		{Assignment: []int{0, 1}, Cost: 3},
		{Assignment: []int{2, 1}, Cost: 4, U: good.U, V: good.V},
		{Assignment: good.Assignment, Cost: good.Cost, U: []int64{10, 10}, V: good.V},
		{Assignment: good.Assignment, Cost: good.Cost, U: good.U, V: []int64{good.V[0], good.V[1], good.V[2] - 100}},
		{Assignment: []int{0}, Cost: 1},
	}
	for i, r := range bad {
		if Certify(m, r) == nil {
			t.Errorf("bad result %d certified", i)
		}
	}
}
