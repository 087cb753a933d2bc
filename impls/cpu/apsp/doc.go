// Package apsp solves the algebraic path problem on the CPU in any semiring
// of package semiring: given the n×n weight matrix A of a graph (a_ij the
// weight of the arc i -> j, the semiring's zero where there is no arc), it
// computes D = A* = I ⊕ A ⊕ A² ⊕ …, following Rote, "A systolic array
// algorithm for the algebraic path problem" (Computing 34, 1985).
//
// Implementations:
//
//   - cpu/sgje (SGJE): the sequential Gauß-Jordan elimination of the paper's
//     section 3, the three-phase listing loop for loop, counting its n
//     stars, n³-n multiplications and n(n-1)² additions.
//   - Inverse: the paper's direct variant of section 4 (operations A, B_I,
//     B_O and C”) for real matrices, giving A⁻¹ (Gauß-Jordan elimination
//     without pivoting).
//   - cpu/fast (Fast): Gauß-Jordan elimination over b×b blocks (the
//     decomposability of Remark 2.2) with the block updates spread over
//     goroutines, and the hot loops written per semiring and element type
//     (an AVX2 tile kernel in Go assembly for min-plus float32).
//
// Independent references for the checks: Gauß-Jordan with partial pivoting
// (InvertPivot), Bellman-Ford from every source (BellmanFord, with -∞ where
// a negative cycle reaches) and breadth-first search from every vertex
// (BFSClosure).
//
// Solve is the `semibench solve apsp` command: Matrix Market in, D = A* (or
// A⁻¹) Matrix Market out.
package apsp
