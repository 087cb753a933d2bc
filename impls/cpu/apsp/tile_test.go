package apsp

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// The AVX2 tile kernel computes bit for bit what its plain-Go twin
// computes, infinities and the -inf + inf convention included.
func TestTileKernelMatchesGo(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 tile kernel on this CPU or build")
	}
	r := rand.New(rand.NewPCG(6, 20))
	special := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1))}
	draw := func() float32 {
		if r.IntN(5) == 0 {
			return special[r.IntN(len(special))]
		}
		return float32(r.NormFloat64() * 10)
	}
	for _, k := range []int{1, 2, 7, 64} {
		ld := k + 19
		c := make([]float32, 4*ld)
		a := make([]float32, 4*ld)
		b := make([]float32, k*ld)
		for i := range c {
			c[i], a[i] = draw(), draw()
		}
		for i := range b {
			b[i] = draw()
		}
		want := append([]float32(nil), c...)
		tileMinPlus32Go(want, ld, a, ld, b, ld, k)
		if !tileMinPlus32(c, ld, a, ld, b, ld, k) {
			t.Fatal("kernel did not run")
		}
		for i := range c {
			if math.Float32bits(c[i]) != math.Float32bits(want[i]) {
				t.Fatalf("k=%d: c[%d] = %v, Go twin %v", k, i, c[i], want[i])
			}
		}
	}
}

func TestPeakMinPlus32(t *testing.T) {
	if r := PeakMinPlus32(1, 20*time.Millisecond); r <= 0 {
		t.Errorf("peak rate %v", r)
	}
}

// cpu/fast's min-plus float32 loops carry the tile kernel exactly where it
// can run.
func TestTileKernelChoice(t *testing.T) {
	kn := kernelsFor[float32](semiring.MinPlus[float32]{})
	if (kn.tile != nil) != hasAVX2 {
		t.Errorf("tile kernel set: %v; AVX2 usable: %v", kn.tile != nil, hasAVX2)
	}
	if kernelsFor[float64](semiring.MinPlus[float64]{}).tile != nil {
		t.Error("a float32 tile kernel for float64")
	}
}
