package apsp

// tileMinPlus32Go is the plain-Go twin of the AVX2 tile kernel: rows r of
// c (stride ldc), 16 columns, pivots m in order.
func tileMinPlus32Go(c []float32, ldc int, a []float32, lda int, b []float32, ldb int, k int) {
	for r := 0; r < 4; r++ {
		cr := c[r*ldc : r*ldc+16]
		for m := 0; m < k; m++ {
			am := a[r*lda+m]
			bm := b[m*ldb : m*ldb+16]
			for j, x := range bm {
				if s := am + x; s < cr[j] {
					cr[j] = s
				}
			}
		}
	}
}
