// Package minplus computes (min,+) matrix products C = A ⊗ B,
// (A ⊗ B)_ij = min_k (a_ik + b_kj), over int16, on the CPU: the products of
// the 2-domination paper (002), whose Algorithm 2 computes the powers
// A^i = A ⊗ A^(i-1) of the matrix A(D_m).
//
// The matrices, the infinity Inf and the Impl type are problems/minplus's;
// Impls lists this package's products in display order.
//
// # Implementations
//
//   - cpu/paper (Paper): the paper's triple loop on one thread, i, j, k,
//     C[i][j] = min over k of A[i][k] + B[k][j].
//   - cpu/fast (Fast): the same product blocked for the cache and split over
//     goroutines by blocks of rows and columns of C; the inner kernel keeps a
//     strip of C in registers-sized local arrays and is written for the Go
//     compiler's bounds-check elimination. With GOEXPERIMENT=simd on amd64 a
//     vector kernel (simd/archsimd, AVX-512 or AVX2) replaces it; the tests
//     hold both to the same bits.
//   - cpu/sparse (Sparse): A in compressed sparse rows, C = A ⊗ B costing
//     nnz(A)·N instead of N³: row i of C is the minimum over the arcs
//     (i, k) of a_ik + row k of B.
//
// All three give the same matrix, bit for bit.
package minplus
