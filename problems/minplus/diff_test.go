package minplus

import (
	"math/rand/v2"
	"testing"
)

// TestDifferenceConstant checks the difference matrix and its scan:
// infinite pairs skipped, one infinite entry or one entry off the
// constant found wherever it is, on one and on several threads; and the
// summary decides as the scan at every step.
func TestDifferenceConstant(t *testing.T) {
	const n = 70
	x, y := NewDense(n), NewDense(n)
	for i := range x.Data {
		y.Data[i] = int16(i % 50)
		x.Data[i] = y.Data[i] + 7
	}
	x.Data[5], y.Data[5] = Inf, Inf+3 // both infinite: skipped
	d := make([]int16, n*n)
	check := func(threads int, what string, want bool) {
		t.Helper()
		Difference(d, x, y, threads)
		c, ok := Constant(d)
		if ok != want || ok && c != 7 {
			t.Errorf("threads=%d, %s: Constant = %d, %v; want 7, %v", threads, what, c, ok, want)
		}
		if sc, sok := SummarizeDiff(d).Constant(); sc != c || sok != ok {
			t.Errorf("threads=%d, %s: the summary says %d, %v; the scan %d, %v", threads, what, sc, sok, c, ok)
		}
	}
	for _, threads := range []int{1, 4} {
		check(threads, "constant 7", true)
		for _, at := range []int{0, n*n/2 + 3, n*n - 1} {
			old := x.Data[at]
			x.Data[at] = old + 1
			check(threads, "one entry off the constant", false)
			x.Data[at] = Inf
			check(threads, "one entry infinite on one side", false)
			x.Data[at] = old
		}
	}
	for i := range x.Data {
		x.Data[i], y.Data[i] = Inf, Inf
	}
	check(2, "two infinite matrices (no finite entry)", false)
}

// TestDiffEntry pins the encoding: the markers, and a finite difference
// strictly between them, for Inf and the values above it that also mean ∞.
func TestDiffEntry(t *testing.T) {
	for _, c := range []struct {
		x, y, want int16
	}{
		{5, 3, 2}, {3, 5, -2}, {0, Inf - 1, 1 - Inf}, {Inf - 1, 0, Inf - 1},
		{Inf, Inf, DiffBothInf}, {12000, 32767, DiffBothInf}, {Inf, 0, DiffOneInf}, {0, 32767, DiffOneInf}, {Inf - 1, Inf, DiffOneInf},
	} {
		if got := DiffEntry(c.x, c.y); got != c.want {
			t.Errorf("DiffEntry(%d, %d) = %d, want %d", c.x, c.y, got, c.want)
		}
	}
}

// TestSummaryAgreesWithScan: on random pairs with infinite entries, shifted
// copies (constant), and copies with one entry changed, the summary's
// verdict is the scan's.
func TestSummaryAgreesWithScan(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	constants := 0
	for trial := range 300 {
		n := 1 + r.IntN(40)
		y := &Dense{N: n, Data: Random(r, n, []float64{0, 0.3, 0.9, 1}[trial%4])}
		x := y.Clone()
		shift := int16(r.IntN(21) - 10)
		for i, v := range x.Data {
			if v < Inf {
				x.Data[i] = v + shift
			}
		}
		switch trial % 3 {
		case 1: // one entry changed
			at := r.IntN(n * n)
			x.Data[at] = []int16{Inf, 0, x.Data[at] + 1}[r.IntN(3)]
		case 2: // unrelated
			x.Data = Random(r, n, 0.3)
		}
		d := make([]int16, n*n)
		Difference(d, x, y, 1+trial%3)
		c, ok := Constant(d)
		s := SummarizeDiff(d)
		if sc, sok := s.Constant(); sc != c || sok != ok {
			t.Fatalf("trial %d (n=%d): summary %+v says %d, %v; the scan %d, %v", trial, n, s, sc, sok, c, ok)
		}
		if ok {
			constants++
		}
	}
	if constants == 0 {
		t.Error("no pair was constant: the test checks only one verdict")
	}
}
