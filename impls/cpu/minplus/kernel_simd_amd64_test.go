//go:build goexperiment.simd && amd64

package minplus

import (
	"slices"
	"testing"

	"simd/archsimd"

	"github.com/semibench/semibench/internal/kerneltest"
	"github.com/semibench/semibench/problems/minplus"
)

// TestKernelFallback checks that a CPU without AVX-512 gets the AVX2
// kernels (or plain Go without AVX2 either), and one with neither the
// plain-Go ones: the choice is the CPU's, at start-up.
func TestKernelFallback(t *testing.T) {
	kerneltest.Fallback(t, Kernel, archsimd.X86.AVX2())
}

// TestVectorKernelsMatchGo holds every vector kernel the CPU supports to
// its plain-Go twin, bit for bit, with and without infinities.
func TestVectorKernelsMatchGo(t *testing.T) {
	for _, kk := range []struct {
		name   string
		row    func([]int16, []int16, int16)
		gather func([]int16, int, []int16, []int32, []int16)
		ok     bool
	}{
		{"avx512", minAddRowAVX512, gatherAVX512, archsimd.X86.AVX512()},
		{"avx2", minAddRowAVX2, gatherAVX2, archsimd.X86.AVX2()},
	} {
		if !kk.ok {
			t.Logf("%s: not on this CPU", kk.name)
			continue
		}
		for _, tc := range []struct {
			n    int
			pInf float64
			maxv int
		}{{300, 0, 100}, {300, 0.95, 50}, {257, 0.5, 9999}} {
			a, b := randomDense(tc.n, tc.pInf, tc.maxv, 3), randomDense(tc.n, tc.pInf/2, tc.maxv, 4)
			for _, w := range []int{sparseCols, 100} {
				rows, vals := []int32{0, 3, 7, 63}, []int16{0, 5, minplus.Inf, 9000}
				want, got := append([]int16(nil), b.Data[:sparseBand*sparseCols]...), append([]int16(nil), b.Data[:sparseBand*sparseCols]...)
				gatherGo(want, w, a.Data[:w], rows, vals)
				kk.gather(got, w, a.Data[:w], rows, vals)
				if !slices.Equal(want, got) {
					t.Fatalf("%s gather n=%d w=%d: differs from gatherGo", kk.name, tc.n, w)
				}
			}
			for _, l := range []int{0, 5, 31, 32, 33, 100} {
				want, got := append([]int16(nil), b.Data[:l]...), append([]int16(nil), b.Data[:l]...)
				minAddRowGo(want, a.Data[:l], 17)
				kk.row(got, a.Data[:l], 17)
				for j := range want {
					if want[j] != got[j] {
						t.Fatalf("%s row len %d: [%d] = %d, want %d", kk.name, l, j, got[j], want[j])
					}
				}
			}
		}
	}
}
