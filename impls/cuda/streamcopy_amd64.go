package cuda

import "unsafe"

// streamCopy64 copies blocks×64 bytes from src to dst (16-byte aligned)
// with non-temporal stores (streamcopy_amd64.s, SSE2).
//
//go:noescape
func streamCopy64(dst, src *byte, blocks int)

// streamCopy copies src into dst (at least as long) around the cache:
// the bulk with non-temporal stores, the unaligned head and the tail
// with copy.
func streamCopy(dst, src []byte) {
	n := len(src)
	head := min(n, int(-uintptr(unsafe.Pointer(unsafe.SliceData(dst)))&15))
	copy(dst[:head], src[:head])
	blocks := (n - head) / 64
	if blocks > 0 {
		streamCopy64(&dst[head], &src[head], blocks)
	}
	done := head + blocks*64
	copy(dst[done:n], src[done:])
}
