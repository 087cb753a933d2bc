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

// updateMinPlus32 is updateRows for min-plus float32: groups of four
// consecutive rows outside K run the 4×16 tile kernel over the columns
// [a, e) in steps of 16; the rest falls back to axpy. It reports false
// (doing nothing) when the tile kernel is unavailable.
func updateMinPlus32(data []float32, n, lo, hi, k0, k1, a, e int) bool {
	if !hasAVX2 {
		return false
	}
	bs := k1 - k0
	w16 := (e - a) &^ 15
	for _, run := range [2][2]int{{lo, min(hi, k0)}, {max(lo, k1), hi}} {
		i := run[0]
		for ; i+4 <= run[1]; i += 4 {
			for j := a; j < a+w16; j += 16 {
				tileMinPlus32(data[i*n+j:], n, data[i*n+k0:], n, data[k0*n+j:], n, bs)
			}
			if a+w16 < e {
				for r := i; r < i+4; r++ {
					for m := k0; m < k1; m++ {
						axpyMinPlus(data[r*n+a+w16:r*n+e], data[r*n+m], data[m*n+a+w16:m*n+e])
					}
				}
			}
		}
		for ; i < run[1]; i++ {
			for m := k0; m < k1; m++ {
				axpyMinPlus(data[i*n+a:i*n+e], data[i*n+m], data[m*n+a:m*n+e])
			}
		}
	}
	return true
}
