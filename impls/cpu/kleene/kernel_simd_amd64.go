//go:build goexperiment.simd && amd64

package kleene

import (
	"simd/archsimd"

	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// With GOEXPERIMENT=simd on amd64, cpu/fast's chunk and prefix kernels use AVX-512 or
// AVX2 vectors where the CPU has them. kernel_simd_test.go holds both to the
// plain-Go chunkGo.
func init() {
	switch {
	case archsimd.X86.AVX512():
		chunkKernel, prefixKernel, kernelName = chunkAVX512, prefixAVX512, "avx512"
	case archsimd.X86.AVX2():
		chunkKernel, prefixKernel, kernelName = chunkAVX2, prefixAVX2, "avx2"
	}
}

// chunkAVX512 is chunkGo in two 16-lane vectors. VMAXPS returns its second
// operand on ties, which cannot change a bit here: W holds neither NaN nor
// -0.
func chunkAVX512(acc *[chunkWidth]float32, work []float32, n, col int, idx []int32, val []float32) {
	eps := archsimd.BroadcastFloat32x16(maxplus.Epsilon)
	a0, a1 := eps, eps
	val = val[:len(idx)]
	for k, b := range idx {
		y := archsimd.BroadcastFloat32x16(val[k])
		s := work[int(b)*n+col:]
		s = s[:chunkWidth]
		a0 = a0.Max(y.Add(archsimd.LoadFloat32x16((*[16]float32)(s[0:16]))))
		a1 = a1.Max(y.Add(archsimd.LoadFloat32x16((*[16]float32)(s[16:32]))))
	}
	a0.Store((*[16]float32)(acc[0:16]))
	a1.Store((*[16]float32)(acc[16:32]))
}

// chunkAVX2 is chunkGo in four 8-lane vectors.
func chunkAVX2(acc *[chunkWidth]float32, work []float32, n, col int, idx []int32, val []float32) {
	eps := archsimd.BroadcastFloat32x8(maxplus.Epsilon)
	a0, a1, a2, a3 := eps, eps, eps, eps
	val = val[:len(idx)]
	for k, b := range idx {
		y := archsimd.BroadcastFloat32x8(val[k])
		s := work[int(b)*n+col:]
		s = s[:chunkWidth]
		a0 = a0.Max(y.Add(archsimd.LoadFloat32x8((*[8]float32)(s[0:8]))))
		a1 = a1.Max(y.Add(archsimd.LoadFloat32x8((*[8]float32)(s[8:16]))))
		a2 = a2.Max(y.Add(archsimd.LoadFloat32x8((*[8]float32)(s[16:24]))))
		a3 = a3.Max(y.Add(archsimd.LoadFloat32x8((*[8]float32)(s[24:32]))))
	}
	a0.Store((*[8]float32)(acc[0:8]))
	a1.Store((*[8]float32)(acc[8:16]))
	a2.Store((*[8]float32)(acc[16:24]))
	a3.Store((*[8]float32)(acc[24:32]))
}

// prefixAVX512 is prefixGo in 16-lane vectors, the tail masked.
func prefixAVX512(dst, src []float32, y float32) {
	src = src[:len(dst)]
	yv := archsimd.BroadcastFloat32x16(y)
	c := 0
	for ; c+16 <= len(dst); c += 16 {
		d := archsimd.LoadFloat32x16((*[16]float32)(dst[c : c+16]))
		s := archsimd.LoadFloat32x16((*[16]float32)(src[c : c+16]))
		d.Max(yv.Add(s)).Store((*[16]float32)(dst[c : c+16]))
	}
	if c < len(dst) {
		d := archsimd.LoadFloat32x16SlicePart(dst[c:])
		s := archsimd.LoadFloat32x16SlicePart(src[c:])
		d.Max(yv.Add(s)).StoreSlicePart(dst[c:])
	}
}

// prefixAVX2 is prefixGo in 8-lane vectors, the tail scalar.
func prefixAVX2(dst, src []float32, y float32) {
	src = src[:len(dst)]
	yv := archsimd.BroadcastFloat32x8(y)
	c := 0
	for ; c+8 <= len(dst); c += 8 {
		d := archsimd.LoadFloat32x8((*[8]float32)(dst[c : c+8]))
		s := archsimd.LoadFloat32x8((*[8]float32)(src[c : c+8]))
		d.Max(yv.Add(s)).Store((*[8]float32)(dst[c : c+8]))
	}
	prefixGo(dst[c:], src[c:], y)
}
