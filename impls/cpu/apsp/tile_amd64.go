//go:build amd64 && !purego

package apsp

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv0() (eax, edx uint32)

//go:noescape
func minPlusTile4x16(c *float32, ldc int, a *float32, lda int, b *float32, ldb int, k int)

// hasAVX2 reports whether the CPU and the OS support AVX2 (YMM state
// saved by the OS).
var hasAVX2 = func() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

// tileMinPlus32 runs the AVX2 tile kernel when the CPU has AVX2, and
// reports whether it did.
func tileMinPlus32(c []float32, ldc int, a []float32, lda int, b []float32, ldb int, k int) bool {
	if !hasAVX2 || k == 0 {
		return false
	}
	// Bounds: the kernel touches c[0 .. 3*ldc+16), a[0 .. 3*lda+k) and
	// b[0 .. (k-1)*ldb+16).
	_ = c[3*ldc+15]
	_ = a[3*lda+k-1]
	_ = b[(k-1)*ldb+15]
	minPlusTile4x16(&c[0], ldc, &a[0], lda, &b[0], ldb, k)
	return true
}
