package cudalap

import "testing"

// TestForestShape: the forest kernel's blocks own a power of two of rows,
// 32 to 1024, enough that every row has a block and no more blocks than
// multiprocessors (a cooperative launch needs them all resident).
func TestForestShape(t *testing.T) {
	for _, c := range []struct{ n, sms, per, blocks int }{
		{1, 132, 32, 1},
		{1000, 132, 32, 32},
		{8192, 132, 64, 128},
		{8193, 132, 64, 129},
		{16384, 132, 128, 128},
		{46340, 132, 512, 91},
		{4096, 1, 0, 0},
	} {
		per, blocks, err := forestShape(c.n, c.sms)
		if c.per == 0 {
			if err == nil {
				t.Errorf("forestShape(%d, %d) = %d, %d; want an error", c.n, c.sms, per, blocks)
			}
			continue
		}
		if err != nil || per != c.per || blocks != c.blocks {
			t.Errorf("forestShape(%d, %d) = %d, %d, %v; want %d, %d", c.n, c.sms, per, blocks, err, c.per, c.blocks)
		}
		if blocks > c.sms || per*blocks < c.n {
			t.Errorf("forestShape(%d, %d): %d blocks of %d rows", c.n, c.sms, blocks, per)
		}
	}
}
