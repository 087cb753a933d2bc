package sysmem

import "testing"

// TestTouch: every 4 KiB page of the slice gets a zero at its start (the
// last, partial page too), and nothing else is written, for elements of 2
// and 8 bytes.
func TestTouch(t *testing.T) {
	for _, n := range []int{0, 1, 2047, 2048, 2049, 100_000, 1 << 20} {
		d := make([]int16, n)
		for i := range d {
			d[i] = 1
		}
		Touch(d)
		for i, v := range d {
			if want := int16(min(1, i%2048)); v != want {
				t.Fatalf("int16, n=%d: d[%d] = %d, want %d", n, i, v, want)
			}
		}
		e := make([]float64, n)
		for i := range e {
			e[i] = 1
		}
		Touch(e)
		for i, v := range e {
			if want := float64(min(1, i%512)); v != want {
				t.Fatalf("float64, n=%d: e[%d] = %g, want %g", n, i, v, want)
			}
		}
	}
}
