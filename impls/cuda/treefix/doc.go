// Package cudatreefix computes +Rootfix and +Leaffix on an NVIDIA GPU, after
// the treefix paper (004_89a0ec3b389b4640.txt), on the trees and with the
// operations of package problems/treefix, as package impls/cpu/treefix does
// on the CPU, so that the experiments run both side by side (Impls). The
// kernels are kernels/treefix.cu.
//
//   - cuda/parallel: the paper's Algorithm 1, level-synchronous BFS over the
//     CSR children lists with its load balancing (a block-wide prefix sum
//     over the frontier's child counts packs the children to gather; on
//     wide levels the blocks' sums are scanned as well, so one vertex's
//     children are shared by the whole grid), in one cooperative launch
//     with a grid barrier between levels; levels of at most one block of
//     frontier and kNarrow children run on one block alone, which is where
//     it departs from the paper's launch per level (a 2^24-level
//     caterpillar would otherwise take minutes). Leaffix runs the levels
//     bottom-up, a warp-segmented reduction by parent with one atomic add
//     per segment (so float Leaffix sums in a run-dependent order).
//   - cuda/vectorial: Algorithm 2 on the vector tree representation of
//     Fig. 2 (Euler tour, "(V" and "V)"), which is built on the GPU from
//     the CSR lists (phase euler_tour: the tour as a linked list ranked by
//     a sparse ruling set): write, an inclusive +scan over the 2n entries,
//     read. In float32 the scan takes two passes (each tile's local
//     prefixes and total, then the totals' prefixes, which the read adds);
//     the other element types scan in a single pass with decoupled
//     look-back.
//   - cuda/vectorial-compensated: the same with a double-double carrier in
//     the scan (TwoSum-based), so every prefix is the exact one within
//     about u64² relative to the prefix sums of |w|; Rootfix stores each
//     prefix rounded once to the element type (the traffic of
//     cuda/vectorial), Leaffix keeps the 2n prefixes as double-doubles and
//     rounds once after the subtraction. Bound states its error.
//
// Every run uploads what it reads (phase h2d: the CSR lists, the parent
// array where used, and the weights), then opens the window of total (the
// headline, bench.Recorder.BeginTotal) with the input on the device: the
// allocation of the work buffers, the GPU Euler tour (phase euler_tour,
// cuda/vectorial*), the computation and the final synchronisation; it
// closes the window and downloads the results (phase d2h). The paper's
// computation time is phase compute (CUDA events): the BFS launch of
// cuda/parallel, and the summary write + scan + read of the vectorial ones.
//
// Elements are float32, float64 or int64; on integer weights every
// implementation equals the CPU ones exactly. Where CUDA cannot be used,
// every run returns an error matching driver.ErrUnavailable.
package cudatreefix
