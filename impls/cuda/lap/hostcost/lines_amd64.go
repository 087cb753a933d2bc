//go:build !purego

package hostcost

import (
	"math"

	"golang.org/x/sys/cpu"
)

// fuseLines16 and fuseLines32 (lines_amd64.s, AVX-512F) are fusedPart's
// loop over whole lines: each line of 32 costs at src is checked against
// [lo, lo+span], folded into acc (8 least, then 8 largest) and written to
// dst (64-byte aligned) with non-temporal stores, so that the copy engine
// later reads it from memory rather than from a core's cache. They stop
// before the first line with a cost outside and return the lines done.
//
//go:noescape
func fuseLines16(dst *int16, src *int64, lines int, lo int64, span uint64, acc *[16]int64) int

//go:noescape
func fuseLines32(dst *int32, src *int64, lines int, lo int64, span uint64, acc *[16]int64) int

// hasAVX512 says whether fuseLines can run: the CPU has AVX-512F and the
// OS saves its state (golang.org/x/sys/cpu checks both). Tests turn it
// off to run the pure-Go path.
var hasAVX512 = cpu.X86.HasAVX512F

// fuseLines runs the assembly over the whole lines of src, d being at
// least as long, 64-byte aligned: it returns how many costs it checked
// and wrote (a multiple of lineCosts, 0 without AVX-512) and their scan.
func fuseLines[T int16 | int32](d []T, src []int64, lo int64, span uint64) (int, Scan) {
	lines := len(src) / lineCosts
	if !hasAVX512 || lines == 0 {
		return 0, Empty()
	}
	acc := [16]int64{}
	for i := range 8 {
		acc[i], acc[8+i] = math.MaxInt64, math.MinInt64
	}
	var done int
	switch d := any(d[:len(src)]).(type) {
	case []int16:
		done = fuseLines16(&d[0], &src[0], lines, lo, span, &acc)
	case []int32:
		done = fuseLines32(&d[0], &src[0], lines, lo, span, &acc)
	}
	s := Empty()
	for i := range 8 {
		s.Lo, s.Hi = min(s.Lo, acc[i]), max(s.Hi, acc[8+i])
	}
	return done * lineCosts, s
}
