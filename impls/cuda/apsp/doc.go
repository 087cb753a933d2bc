// Package cudaapsp solves the algebraic path problem D = A* on an NVIDIA GPU
// (Rote, "A systolic array algorithm for the algebraic path problem",
// Computing 34, 1985), with the data types of package problems/apsp, so
// that the experiments run it beside the CPU implementations (Impls):
//
//   - cuda/fast (Fast): Gauß-Jordan elimination over Block×Block blocks, the
//     decomposability of the paper's Remark 2.2 and the algorithm of
//     cpu/fast: for each diagonal block K the pivot block is closed in
//     shared memory, its column and row panels are multiplied by it, and the
//     rest of the matrix is updated by a register-tiled semiring product
//     (the bulk of the n³ work). Min-plus float32, Boolean (32-bit words)
//     and the real semiring in float64; Inverse inverts a well-conditioned
//     real matrix as the closure of I - A.
//   - cuda/systolic (Systolic): the array GJE0 simulated on the GPU, one
//     thread per processor and one launch per step, with package systolic's
//     geometry; it returns the same outputs and step counts as
//     systolic.Simulate.
//
// The kernels are kernels/apsp.cu. Where CUDA cannot be used, every entry
// point returns an error matching driver.ErrUnavailable.
package cudaapsp
