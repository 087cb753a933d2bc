package stats

import (
	"math"
	"testing"
)

func TestLogSDAndGeoMean(t *testing.T) {
	// e^-1, 1, e^1: logs -1, 0, 1, standard deviation 1, geometric mean 1.
	xs := []float64{math.Exp(-1), 1, math.E}
	if sd := LogSD(xs); math.Abs(sd-1) > 1e-12 {
		t.Errorf("LogSD = %v, want 1", sd)
	}
	if g := GeoMean(xs); math.Abs(g-1) > 1e-12 {
		t.Errorf("GeoMean = %v, want 1", g)
	}
	for _, bad := range [][]float64{nil, {2}, {1, 0}, {1, -3}} {
		if sd := LogSD(bad); sd != 0 {
			t.Errorf("LogSD(%v) = %v, want 0", bad, sd)
		}
	}
}
