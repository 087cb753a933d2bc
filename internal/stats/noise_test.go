package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// aaPairs draws n A/A pairs of one sample a side from log-normal times of
// standard deviation sigma in log time.
func aaPairs(r *rand.Rand, n int, sigma float64) [][2][]float64 {
	pairs := make([][2][]float64, n)
	for i := range pairs {
		pairs[i] = [2][]float64{{math.Exp(sigma * r.NormFloat64())}, {math.Exp(sigma * r.NormFloat64())}}
	}
	return pairs
}

func TestNoiseFromPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 34))
	for _, sigma := range []float64{0.02, 0.05, 0.2} {
		got, n := NoiseFromPairs(aaPairs(r, 4000, sigma))
		if n != 4000 || math.Abs(got-sigma) > 0.05*sigma {
			t.Errorf("sigma %v: NoiseFromPairs = %v from %d pairs, want within 5%%", sigma, got, n)
		}
	}
	// A hiccup in one pair of seven moves the estimate little.
	pairs := aaPairs(r, 7, 0.05)
	base, _ := NoiseFromPairs(pairs)
	pairs[3][1][0] *= 10
	if hit, _ := NoiseFromPairs(pairs); hit > 2*base {
		t.Errorf("one hiccup moves the noise from %v to %v", base, hit)
	}
	// Quiet pairs give the floor; empty or broken pairs are left out.
	quiet := aaPairs(r, 5, 0.001)
	quiet = append(quiet, [2][]float64{nil, {1}}, [2][]float64{{0}, {1}}, [2][]float64{{1}, {math.Inf(1)}})
	if got, n := NoiseFromPairs(quiet); got != NoiseFloor || n != 5 {
		t.Errorf("quiet pairs: %v from %d pairs, want the floor %v from 5", got, n, NoiseFloor)
	}
	if got, n := NoiseFromPairs(nil); got != NoiseFloor || n != 0 {
		t.Errorf("no pairs: %v from %d, want the floor from 0", got, n)
	}
	// Each side's median stands for the side.
	if got, n := NoiseFromPairs([][2][]float64{{{1, 1, 100}, {1.5, 1.5, 0.01}}}); n != 1 || math.Abs(got-math.Log(1.5)/(normalQuantile(0.75)*math.Sqrt2)) > 1e-12 {
		t.Errorf("medians of sides: %v from %d", got, n)
	}
}

func TestNoiseString(t *testing.T) {
	for _, c := range []struct {
		sigma float64
		n     int
		want  string
	}{
		{0.023, 6, "2.3% (6 A/A pairs)"},
		{0.05, 1, "5.0% (1 A/A pair)"},
		{NoiseFloor, 4, "1.0% (the floor; 4 A/A pairs measured less)"},
		{NoiseFloor, 0, "1.0% (the floor: no A/A pairs)"},
	} {
		if got := NoiseString(c.sigma, c.n); got != c.want {
			t.Errorf("NoiseString(%v, %d) = %q, want %q", c.sigma, c.n, got, c.want)
		}
	}
}
