package cudalap

import (
	"errors"
	"strings"
	"testing"

	"github.com/semibench/semibench/problems/lap"
)

// TestIntResult: a float64 answer of an integer problem is taken back to
// int64 and certified exactly; duals that are not integers, or that do not
// certify, are errors.
func TestIntResult(t *testing.T) {
	big := int64(1) << 40 // beyond int32, exact in float64
	m := &lap.Matrix{Rows: 2, Cols: 2, C: []int64{big, 1, 2, big}}
	good := &lap.FloatResult{Assignment: []int{1, 0}, Cost: 3, U: []float64{1, 2}, V: []float64{0, 0}}
	res, err := intResult(m, good)
	if err != nil || res.Cost != 3 || res.U[1] != 2 {
		t.Fatalf("good answer: %+v, %v", res, err)
	}
	half := &lap.FloatResult{Assignment: []int{1, 0}, U: []float64{1, 2.5}, V: []float64{0, 0}}
	if _, err := intResult(m, half); err == nil || !strings.Contains(err.Error(), "not an integer") {
		t.Fatalf("half dual: %v", err)
	}
	wrong := &lap.FloatResult{Assignment: []int{0, 1}, U: []float64{1, 2}, V: []float64{0, 0}}
	if _, err := intResult(m, wrong); err == nil || !strings.Contains(err.Error(), "exact certificate") {
		t.Fatalf("a non-optimal assignment: %v", err)
	}
}

func TestCheckExactFloat(t *testing.T) {
	lim := ExactFloatLimit(3)
	where := func(k int) string { return "cell " + string(rune('a'+k)) }
	if err := checkExactFloat("x", []int64{lim, -lim, 0}, 3, "why", where); err != nil {
		t.Fatal(err)
	}
	err := checkExactFloat("x", []int64{0, -lim - 1, 0}, 3, "cost 5 is beyond int32", where)
	if !errors.Is(err, lap.ErrRange) || !strings.Contains(err.Error(), "cost 5 is beyond int32") || !strings.Contains(err.Error(), "cell b") {
		t.Fatalf("err = %v", err)
	}
}
