package minplus

import (
	"context"
)

// Tile sizes of Fast: a tile of C is tileRows rows by tileCols columns,
// accumulated over all k in a local array that stays in the L1 cache while
// the tileCols-wide strip of B streams through L2.
const (
	tileRows = 8
	tileCols = 256
)

// kernelName names the inner kernel Fast uses ("go", or a vector kernel
// when built with GOEXPERIMENT=simd on a CPU that has it).
var kernelName = "go"

// tileKernel computes acc[r][j] = min over k of a[r][k] + b[k][j0+j] for one
// tile; it is replaced by a vector kernel where one is built.
var tileKernel = tileGo

// Kernel names the inner kernel of cpu/fast on this binary and CPU.
func Kernel() string { return kernelName }

// Fast sets c = a ⊗ b, blocked in tiles of C, the tiles shared among
// threads goroutines (0: all CPUs). It gives the same bits as Paper.
func Fast(ctx context.Context, c, a, b *Dense, threads int) error {
	n := a.N
	if err := checkShapes(c, n, b); err != nil {
		return err
	}
	colTiles := (n + tileCols - 1) / tileCols
	rowTiles := (n + tileRows - 1) / tileRows
	// Work items are (row tile, column tile) pairs, column tile outermost so
	// that concurrent goroutines share a strip of B in the cache.
	return parallelRows(ctx, rowTiles*colTiles, 1, threads, func(t0, t1 int) {
		var acc [tileRows * tileCols]int16
		for t := t0; t < t1; t++ {
			ct, rt := t/rowTiles, t%rowTiles
			i0, j0 := rt*tileRows, ct*tileCols
			rows, cols := min(tileRows, n-i0), min(tileCols, n-j0)
			tileKernel(&acc, a.Data[i0*n:], b.Data, n, rows, cols, j0)
			for r := 0; r < rows; r++ {
				copy(c.Data[(i0+r)*n+j0:(i0+r)*n+j0+cols], acc[r*tileCols:r*tileCols+cols])
			}
		}
	})
}

// tileGo is the plain-Go tile kernel. a holds the tile's rows of A from
// their start (row r at a[r*n:]), b all of B.
func tileGo(acc *[tileRows * tileCols]int16, a, b []int16, n, rows, cols, j0 int) {
	for r := 0; r < rows; r++ {
		row := acc[r*tileCols : r*tileCols+cols]
		for j := range row {
			row[j] = Inf
		}
	}
	for k := 0; k < n; k++ {
		bs := b[k*n+j0 : k*n+j0+cols]
		for r := 0; r < rows; r++ {
			v := a[r*n+k]
			if v >= Inf {
				continue // ∞ + x = ∞ never lowers a minimum
			}
			row := acc[r*tileCols : r*tileCols+cols]
			bs := bs[:len(row)]
			for j, s := range bs {
				if t := s + v; t < row[j] {
					row[j] = t
				}
			}
		}
	}
}
