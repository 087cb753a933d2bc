//go:build goexperiment.simd && amd64

package minplus

import "simd/archsimd"

// With GOEXPERIMENT=simd on amd64, the row kernel of cpu/fast and
// cpu/sparse uses AVX-512 (32 int16 lanes) or AVX2 (16 lanes) where the CPU
// has them; kernel_simd_amd64_test.go holds it to the plain-Go twin.
func init() {
	switch {
	case archsimd.X86.AVX512():
		rowKernel, gatherKernel, kernelName = minAddRowAVX512, gatherAVX512, "avx512"
	case archsimd.X86.AVX2():
		rowKernel, gatherKernel, kernelName = minAddRowAVX2, gatherAVX2, "avx2"
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

// gatherAVX512 is gatherGo with a full 256-wide segment of B held in eight
// 32-lane registers across the rows; narrower segments go row by row.
func gatherAVX512(tile []int16, w int, bseg []int16, rows []int32, vals []int16) {
	if w != sparseCols || sparseCols != 256 {
		vals = vals[:len(rows)]
		for q, r := range rows {
			o := int(r) * sparseCols
			minAddRowAVX512(tile[o:o+w], bseg, vals[q])
		}
		return
	}
	bseg = bseg[:256]
	ld := func(i int) archsimd.Int16x32 { return archsimd.LoadInt16x32((*[32]int16)(bseg[i : i+32])) }
	b0, b1, b2, b3, b4, b5, b6, b7 := ld(0), ld(32), ld(64), ld(96), ld(128), ld(160), ld(192), ld(224)
	vals = vals[:len(rows)]
	for q, r := range rows {
		v := archsimd.BroadcastInt16x32(vals[q])
		o := int(r) * sparseCols
		c := tile[o : o+256]
		upd := func(i int, b archsimd.Int16x32) {
			p := (*[32]int16)(c[i : i+32])
			archsimd.LoadInt16x32(p).Min(b.Add(v)).Store(p)
		}
		upd(0, b0)
		upd(32, b1)
		upd(64, b2)
		upd(96, b3)
		upd(128, b4)
		upd(160, b5)
		upd(192, b6)
		upd(224, b7)
	}
}

// gatherAVX2 is gatherGo row by row in 16-lane vectors.
func gatherAVX2(tile []int16, w int, bseg []int16, rows []int32, vals []int16) {
	vals = vals[:len(rows)]
	for q, r := range rows {
		o := int(r) * sparseCols
		minAddRowAVX2(tile[o:o+w], bseg, vals[q])
	}
}
