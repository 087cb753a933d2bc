//go:build goexperiment.simd && amd64

package minplus

import "simd/archsimd"

// With GOEXPERIMENT=simd on amd64, the row kernel of cpu/fast and
// cpu/sparse uses AVX-512 (32 int16 lanes) or AVX2 (16 lanes) where the CPU
// has them; kernel_simd_amd64_test.go holds it to the plain-Go twin.
func init() {
	switch {
	case archsimd.X86.AVX512():
		rowKernel, kernelName = minAddRowAVX512, "avx512"
	case archsimd.X86.AVX2():
		rowKernel, kernelName = minAddRowAVX2, "avx2"
	}
}

// minAddRowAVX512 is minAddRowGo in 32-lane vectors, the tail in Go.
func minAddRowAVX512(dst, src []int16, v int16) {
	src = src[:len(dst)]
	vv := archsimd.BroadcastInt16x32(v)
	j := 0
	for ; j+32 <= len(dst); j += 32 {
		d := (*[32]int16)(dst[j : j+32])
		s := archsimd.LoadInt16x32((*[32]int16)(src[j : j+32]))
		archsimd.LoadInt16x32(d).Min(s.Add(vv)).Store(d)
	}
	minAddRowGo(dst[j:], src[j:], v)
}

// minAddRowAVX2 is minAddRowGo in 16-lane vectors, the tail in Go.
func minAddRowAVX2(dst, src []int16, v int16) {
	src = src[:len(dst)]
	vv := archsimd.BroadcastInt16x16(v)
	j := 0
	for ; j+16 <= len(dst); j += 16 {
		d := (*[16]int16)(dst[j : j+16])
		s := archsimd.LoadInt16x16((*[16]int16)(src[j : j+16]))
		archsimd.LoadInt16x16(d).Min(s.Add(vv)).Store(d)
	}
	minAddRowGo(dst[j:], src[j:], v)
}
