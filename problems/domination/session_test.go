package domination

import "testing"

// TestTouchPages: every 4 KiB page of the slice gets a zero at its start
// (the last, partial page too), and nothing else is written.
func TestTouchPages(t *testing.T) {
	for _, n := range []int{0, 1, 2047, 2048, 2049, 100_000, 1 << 20} {
		d := make([]int16, n)
		for i := range d {
			d[i] = 1
		}
		touchPages(d)
		for i, v := range d {
			if want := int16(min(1, i%2048)); v != want {
				t.Fatalf("n=%d: d[%d] = %d, want %d", n, i, v, want)
			}
		}
	}
}
