package stats

import (
	"math"
	"strings"
	"testing"
)

func TestMannWhitneyP(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6}
	b := []float64{7, 8, 9, 10, 11, 12}
	// Fully separated, 6 and 6: 2 of the C(12,6) = 924 orderings are as
	// extreme.
	if p := MannWhitneyP(a, b); math.Abs(p-2.0/924) > 1e-12 {
		t.Errorf("separated: p = %g, want %g", p, 2.0/924)
	}
	if p := MannWhitneyP(a, a); p != 1 {
		t.Errorf("identical: p = %g, want 1", p)
	}
	interleaved := []float64{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}
	if p := MannWhitneyP(a, interleaved); p < 0.5 {
		t.Errorf("interleaved: p = %g, want large", p)
	}
}

func TestCompareSamples(t *testing.T) {
	fast := []float64{10, 11, 10, 12, 11, 10}
	slow := []float64{20, 21, 22, 20, 21, 23}
	if got, _ := CompareSamples(fast, slow); got != -1 {
		t.Errorf("fast vs slow: %d, want -1", got)
	}
	if got, _ := CompareSamples(slow, fast); got != 1 {
		t.Errorf("slow vs fast: %d, want 1", got)
	}
	noisy := []float64{10, 12, 11, 10.5, 11.5, 12.5}
	if got, note := CompareSamples(fast, noisy); got != 0 || !strings.Contains(note, "within the noise") {
		t.Errorf("within the noise: %d (%s), want 0", got, note)
	}
	// One sample each: only a difference beyond 25% counts.
	if got, _ := CompareSamples([]float64{100}, []float64{110}); got != 0 {
		t.Errorf("one sample, 10%% apart: %d, want 0", got)
	}
	if got, _ := CompareSamples([]float64{100}, []float64{200}); got != -1 {
		t.Errorf("one sample, 2x apart: %d, want -1", got)
	}
}
