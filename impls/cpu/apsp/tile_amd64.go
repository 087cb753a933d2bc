//go:build amd64 && !purego

package apsp

import "golang.org/x/sys/cpu"

//go:noescape
func minPlusTile4x16(c *float32, ldc int, a *float32, lda int, b *float32, ldb int, k int)

// useAVX2 decides whether the AVX2 tile kernel can run: the CPU reports
// AVX and AVX2, and the OS saves the YMM state (golang.org/x/sys/cpu
// reports either only where the OS enables OSXSAVE and XCR0's SSE and AVX
// bits).
func useAVX2(hasAVX, hasAVX2 bool) bool { return hasAVX && hasAVX2 }

// hasAVX2 reports whether the CPU and the OS support AVX2.
var hasAVX2 = useAVX2(cpu.X86.HasAVX, cpu.X86.HasAVX2)

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
