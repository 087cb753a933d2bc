// Package apsp solves the algebraic path problem D = A* (package
// problems/apsp) on the CPU in any semiring of package semiring, following
// Rote, "A systolic array algorithm for the algebraic path problem"
// (Computing 34, 1985).
//
// Implementations (Impls):
//
//   - cpu/sgje (SGJE): the sequential Gauß-Jordan elimination of the paper's
//     section 3, the three-phase listing loop for loop, counting its n
//     stars, n³-n multiplications and n(n-1)² additions; its --inverse is
//     the paper's direct variant of section 4 (Inverse: operations A, B_I,
//     B_O and C”) for real matrices, giving A⁻¹ (Gauß-Jordan elimination
//     without pivoting).
//   - cpu/fast (Fast): Gauß-Jordan elimination over b×b blocks (the
//     decomposability of Remark 2.2) with the block updates spread over
//     goroutines, and the hot loops written per semiring and element type
//     (an AVX2 tile kernel in Go assembly for min-plus float32).
//   - cpu/systolic: the arrays GJE0 and GJE1 simulated by package systolic.
package apsp
