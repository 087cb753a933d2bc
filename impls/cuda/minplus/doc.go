// Package cudaminplus holds the CUDA (min,+) matrix products over int16 of
// the 2-domination paper (002_cefe811b9d125289), for its Algorithm 2 (K
// powers A^k = A ⊗ A^(k-1) of the matrix A(D_m)):
//
//   - cuda/paper: the paper's kernel, NVIDIA's MatrixMul routine
//     turned into a (min,+) product: 32 x 32 shared-memory tiles, one output
//     per thread, int16, infinity 9999.
//   - cuda/fast: register-tiled, two int16 columns packed per 32-bit
//     lane, one Hopper DPX instruction (__viaddmin_s16x2) per two updates
//     where the device and NVRTC have it (compute capability 9.0, NVRTC 12
//     or later), SIMD-in-a-word integer operations elsewhere.
//   - cuda/sparse: A in CSR times a dense matrix, nnz(A)·N updates
//     instead of N³.
//
// Impls offers each as a problems/minplus Impl: Mul runs one product,
// NewSession opens a Session.
//
// A Session keeps A and the current power on the device so that successive
// powers run without transfers, reporting per power the statistics the
// recurrence search needs (minimum, diagonal minimum, a fingerprint of the
// power minus its minimum) and downloading a whole power only on request.
// With SessionOptions.GPUs = N it splits the powers into N column slabs,
// one per device of the host (or all on one device with OneDevice, for
// tests), stepping in lockstep; SetPower resumes a checkpointed power.
//
// A Differ computes the difference matrices of Algorithms 3 and 4 on the
// device (Table 5's version 3): each pair of powers held in host memory is
// uploaded, its difference matrix and that matrix's summary
// (problems/minplus DiffSummary) computed there, and the summary read back.
//
// # Infinity and saturation
//
// Inf (9999, as in the paper) stands for ∞. Entries must be non-negative;
// an entry at or above Inf means ∞ and is stored as Inf. A sum of two stored
// entries is at most 2·Inf = 19998, which fits in int16, and every product
// starts its minimum at Inf, so
//
//	C[i][j] = min(Inf, min_k A[i][k] + B[k][j])
//
// lies in [0, Inf] again: ∞ + x = ∞ holds without any clamping in the inner
// loops, and no sum ever overflows. Finite results must stay below Inf to
// mean what they say (the powers of A(D_m) stay far below it).
//
// Where CUDA is unavailable every entry point returns an error matching
// driver.ErrUnavailable; argument errors are reported first, without a
// device.
package cudaminplus
