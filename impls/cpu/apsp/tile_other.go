//go:build !amd64 || purego

package apsp

// hasAVX2 is false off amd64 (or with the purego tag): the plain-Go loops
// run.
const hasAVX2 = false

func tileMinPlus32(c []float32, ldc int, a []float32, lda int, b []float32, ldb int, k int) bool {
	return false
}
