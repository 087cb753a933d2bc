package cuda

import (
	"bytes"
	"testing"
)

// TestStreamCopy holds streamCopy to copy at every length up to 300 bytes
// and at lengths around 64 KiB, from and to every alignment up to 16, with
// the bytes around the destination untouched.
func TestStreamCopy(t *testing.T) {
	src := make([]byte, 1<<16+400)
	for i := range src {
		src[i] = byte(i*7 + i>>8)
	}
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1<<16-1, 1<<16, 1<<16+63, 1<<16+64)
	dst := make([]byte, 1<<16+448)
	for _, n := range lengths {
		for so := 0; so < 16; so += 5 {
			for do := 0; do < 16; do += 3 {
				for i := range dst {
					dst[i] = 0xa5
				}
				streamCopy(dst[16+do:16+do+n], src[so:so+n])
				if !bytes.Equal(dst[16+do:16+do+n], src[so:so+n]) {
					t.Fatalf("n=%d src+%d dst+%d: copy differs", n, so, do)
				}
				for _, i := range []int{15 + do, 16 + do + n} {
					if dst[i] != 0xa5 {
						t.Fatalf("n=%d src+%d dst+%d: byte %d outside the copy written", n, so, do, i)
					}
				}
			}
		}
	}
}
