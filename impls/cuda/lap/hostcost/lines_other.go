//go:build !amd64 || purego

package hostcost

// hasAVX512 is false off amd64: fusedPart runs in Go alone.
var hasAVX512 = false

// fuseLines does nothing off amd64 (lines_amd64.go has the assembly).
func fuseLines[T int16 | int32](d []T, src []int64, lo int64, span uint64) (int, Scan) {
	return 0, Empty()
}
