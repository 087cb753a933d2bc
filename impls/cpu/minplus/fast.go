package minplus

import (
	"context"

	"github.com/semibench/semibench/problems/minplus"
)

// Tile sizes of Fast: a tile of C, tileRows x tileCols, is accumulated in a
// local array that stays in the L1 cache, k running in blocks of kBlock so
// that the kBlock x tileCols block of B stays in L2 while every row of the
// tile streams through it.
const (
	tileRows = 32
	tileCols = 512
	kBlock   = 512
)

// kernelName names the inner kernels ("go", or a vector kernel when built
// with GOEXPERIMENT=simd on a CPU that has it).
var kernelName = "go"

// rowKernel sets dst[j] = min(dst[j], v + src[j]) (cpu/sparse's inner
// loop); vector builds replace it.
var rowKernel = minAddRowGo

// Kernel names the inner kernels of cpu/fast and cpu/sparse on this binary
// and CPU: "go", "avx2" or "avx512".
func Kernel() string { return kernelName }

// Fast sets c = a ⊗ b, blocked in tiles of C, the tiles shared among
// threads goroutines (0: all CPUs). It gives the same bits as Paper. An
// infinite a_ik is skipped, as it cannot lower any minimum; on the sparse
// A(D_m) most are.
func Fast(ctx context.Context, c, a, b *minplus.Dense, threads int) error {
	n := a.N
	if err := checkShapes(c, n, b); err != nil {
		return err
	}
	colTiles := (n + tileCols - 1) / tileCols
	rowTiles := (n + tileRows - 1) / tileRows
	// Work items are (row tile, column tile) pairs, column tile outermost so
	// that concurrent goroutines share a strip of B in the cache.
	return parallelRows(ctx, rowTiles*colTiles, 1, threads, func(t0, t1 int) {
		acc := new([tileRows * tileCols]int16)
		for t := t0; t < t1; t++ {
			ct, rt := t/rowTiles, t%rowTiles
			i0, j0 := rt*tileRows, ct*tileCols
			rows, cols := min(tileRows, n-i0), min(tileCols, n-j0)
			for i := range acc {
				acc[i] = minplus.Inf
			}
			tile(acc, a.Data[i0*n:], b.Data, n, rows, cols, j0)
			for r := 0; r < rows; r++ {
				copy(c.Data[(i0+r)*n+j0:(i0+r)*n+j0+cols], acc[r*tileCols:r*tileCols+cols])
			}
		}
	})
}

// tile accumulates one tile of C: acc[r*tileCols+j] = min over k of
// a[r*n+k] + b[k*n+j0+j] for r < rows, j < cols, where a starts at the
// tile's first row of A and acc starts at minplus.Inf. The row updates go through
// rowKernel (a vector kernel where one is built).
func tile(acc *[tileRows * tileCols]int16, a, b []int16, n, rows, cols, j0 int) {
	for k0 := 0; k0 < n; k0 += kBlock {
		k1 := min(n, k0+kBlock)
		for r := 0; r < rows; r++ {
			row := acc[r*tileCols : r*tileCols+cols]
			ar := a[r*n+k0 : r*n+k1]
			for dk, v := range ar {
				if v >= minplus.Inf {
					continue // ∞ + x never lowers a minimum
				}
				k := k0 + dk
				rowKernel(row, b[k*n+j0:k*n+j0+cols], v)
			}
		}
	}
}

// minAddRowGo sets dst[j] = min(dst[j], v + src[j]). Entries in [0, minplus.Inf]
// stay there: a sum is at most 2·minplus.Inf and never replaces a smaller dst.
func minAddRowGo(dst, src []int16, v int16) {
	src = src[:len(dst)]
	for j, s := range src {
		if t := s + v; t < dst[j] {
			dst[j] = t
		}
	}
}
