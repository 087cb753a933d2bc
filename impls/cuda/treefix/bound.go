package cudatreefix

import (
	"math"

	"github.com/semibench/semibench/problems/treefix"
)

// Bound is the a-priori error bound of cuda/vectorial-compensated on
// float32 weights for one vertex with exact result exact, on a tree of n
// vertices whose weights' magnitudes sum to sumAbs:
//
//	|R̂_v - R_v| <= 2·U32·|R_v| + 8n·U64²·S
//
// Every double-double addition of the scan (and of the Leaffix read) errs
// by at most about 4·U64² of its operands' magnitudes, which are partial
// sums of at most the 2n terms ±w, so the 2n-1 additions of any one
// prefix's evaluation tree (the tile-local sums, the block scan and the
// look-back) contribute at most 4·(2n)·U64²·S; the Leaffix read subtracts
// two such prefixes (twice that). The final rounding to float32 is within
// U32 of the double-double value (one ulp of slack for a remainder at a
// tie: hence 2·U32). Far below U32·|R_v| unless the condition number
// exceeds about 10^20/n, so the result is the exact value rounded to
// float32, where cuda/vectorial loses lg(C) bits.
func Bound(op treefix.Op, n int, exact, sumAbs float64) float64 {
	return 2*treefix.U32*math.Abs(exact) + 8*float64(n)*treefix.U64*treefix.U64*sumAbs
}
