//go:build goexperiment.simd && amd64

package kleene

import (
	"math/rand/v2"
	"testing"

	"simd/archsimd"

	"github.com/semibench/semibench/internal/kerneltest"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// TestKernelFallback checks that a CPU without AVX-512 gets the AVX2
// kernels (or plain Go without AVX2 either), and one with neither the
// plain-Go ones: the choice is the CPU's, at start-up.
func TestKernelFallback(t *testing.T) {
	kerneltest.Fallback(t, KernelName, archsimd.X86.AVX2())
}

// TestSIMDKernels holds each SIMD chunk kernel the CPU supports to the
// plain-Go chunkGo, bit for bit, on random rows with ε entries, ties and
// lists of every length up to 40.
func TestSIMDKernels(t *testing.T) {
	kernels := map[string]chunkFunc{}
	if archsimd.X86.AVX2() {
		kernels["avx2"] = chunkAVX2
	}
	if archsimd.X86.AVX512() {
		kernels["avx512"] = chunkAVX512
	}
	if len(kernels) == 0 {
		t.Skip("no AVX2 on this CPU")
	}
	rng := rand.New(rand.NewPCG(2, 2))
	n := 97
	work := make([]float32, n*n)
	for k := range work {
		switch rng.IntN(5) {
		case 0:
			work[k] = maxplus.Epsilon
		case 1:
			work[k] = float32(rng.IntN(3)) // ties
		default:
			work[k] = float32(rng.NormFloat64() * 100)
		}
	}
	for name, kern := range kernels {
		for m := 0; m <= 40; m++ {
			for trial := 0; trial < 20; trial++ {
				idx := make([]int32, m)
				val := make([]float32, m)
				for i := range idx {
					idx[i] = int32(rng.IntN(n))
					val[i] = float32(rng.IntN(5) - 2)
					if rng.IntN(2) == 0 {
						val[i] = float32(rng.NormFloat64())
					}
				}
				col := rng.IntN(n - chunkWidth + 1)
				var got, want [chunkWidth]float32
				kern(&got, work, n, col, idx, val)
				chunkGo(&want, work, n, col, idx, val)
				if got != want {
					t.Fatalf("%s, %d arcs: got %v, want %v", name, m, got, want)
				}
			}
		}
	}
}

// TestSIMDPrefixKernels holds the SIMD prefix kernels to prefixGo at every
// length up to 70.
func TestSIMDPrefixKernels(t *testing.T) {
	kernels := map[string]prefixFunc{}
	if archsimd.X86.AVX2() {
		kernels["avx2"] = prefixAVX2
	}
	if archsimd.X86.AVX512() {
		kernels["avx512"] = prefixAVX512
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for name, kern := range kernels {
		for m := 0; m <= 70; m++ {
			src := make([]float32, m+5)
			dst := make([]float32, m+5)
			for k := range src {
				src[k] = float32(rng.NormFloat64())
				dst[k] = float32(rng.NormFloat64())
				if rng.IntN(4) == 0 {
					src[k] = maxplus.Epsilon
				}
			}
			want := append([]float32(nil), dst...)
			y := float32(rng.NormFloat64())
			kern(dst[:m], src[:m], y)
			prefixGo(want[:m], src[:m], y)
			for k := range dst {
				if dst[k] != want[k] {
					t.Fatalf("%s, length %d: element %d is %v, want %v", name, m, k, dst[k], want[k])
				}
			}
		}
	}
}

func BenchmarkChunkKernels(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	n := 2048
	work := make([]float32, n*n)
	for k := range work {
		work[k] = float32(rng.NormFloat64())
	}
	idx := make([]int32, 1000)
	val := make([]float32, len(idx))
	for i := range idx {
		idx[i] = int32(rng.IntN(n))
		val[i] = float32(rng.NormFloat64())
	}
	var acc [chunkWidth]float32
	for name, k := range map[string]chunkFunc{"go": chunkGo, "avx2": chunkAVX2, "avx512": chunkAVX512} {
		if name == "avx512" && !archsimd.X86.AVX512() || name == "avx2" && !archsimd.X86.AVX2() {
			continue
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				k(&acc, work, n, 64, idx, val)
			}
		})
	}
}
