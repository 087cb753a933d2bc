package cudaapsp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	cpuapsp "github.com/semibench/semibench/impls/cpu/apsp"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
)

// TestProductArguments: mismatched orders are refused with or without a
// GPU.
func TestProductArguments(t *testing.T) {
	_, err := ProductMinPlus32(context.Background(), apsp.NewMatrix(3, float32(0)), apsp.NewMatrix(4, float32(0)), Options{})
	if err == nil {
		t.Error("orders 3 and 4 accepted")
	}
}

// TestGPUProductMinPlus32 holds the product against a plain triple loop
// (integer weights, +Inf entries, -Inf entries so that -Inf + Inf occurs)
// at orders around the block size, and certifies a closure by it: the
// closure of A satisfies D = I ⊕ A ⊗ D, and a closure with one entry
// changed does not.
func TestGPUProductMinPlus32(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	inf := float32(math.Inf(1))
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 7, 128, 129, 300} {
		a, b := minPlusInt(r, n, 0.3, 50, 0.1), minPlusInt(r, n, 0.3, 50, 0.1)
		if n > 1 {
			a.Set(0, 1, float32(math.Inf(-1)))
			b.Set(1, 0, inf)
		}
		got, err := ProductMinPlus32(ctx, a, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := inf
				for k := 0; k < n; k++ {
					x, y := a.At(i, k), b.At(k, j)
					if x != inf && y != inf && x+y < want {
						want = x + y
					}
				}
				if g := got.At(i, j); g != want {
					t.Fatalf("n=%d: (A⊗B)(%d,%d) = %v, want %v", n, i+1, j+1, g, want)
				}
			}
		}
	}
	n := 200
	a := minPlusInt(r, n, 0.05, 100, 0)
	d := a.Clone()
	if _, err := cpuapsp.SGJE(ctx, semiring.MinPlus[float32]{}, d); err != nil {
		t.Fatal(err)
	}
	certified := func(d *apsp.Matrix[float32]) bool {
		x, err := ProductMinPlus32(ctx, a, d, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := x.At(i, j)
				if i == j {
					v = min(v, 0)
				}
				if v != d.At(i, j) {
					return false
				}
			}
		}
		return true
	}
	if !certified(d) {
		t.Error("the closure fails D = I ⊕ A ⊗ D")
	}
	d.Set(5, 9, d.At(5, 9)+1)
	if certified(d) {
		t.Error("a wrong closure passes D = I ⊕ A ⊗ D")
	}
}

// TestGPUPeakMinPlus32: the measured limit is positive and finite, and at
// most the device's FP32 lanes (128 per SM) at 3 GHz halved (two
// instructions per update).
func TestGPUPeakMinPlus32(t *testing.T) {
	needGPU(t)
	p, err := PeakMinPlus32(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	dev, err := cuda.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	g := dev.Props
	bound := float64(g.SMs) * 128 * 3e9 / 2
	if !(p > 0 && p < bound) {
		t.Fatalf("peak %.3g updates/s, want in (0, %.3g)", p, bound)
	}
	t.Logf("min-plus float32 update limit on %s: %.2f T updates/s", g.Name, p/1e12)
}
