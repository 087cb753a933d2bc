// kleene.cu: Kleene star X* of a DAG's max-plus adjacency matrix
// (paper 000_c78fb6cc642483eb: sections 2 and 4), for semibench.
//
// CUDA C++ with the shared headers semiring.cuh and gemm.cuh: NVRTC
// compiles it at run time for the exact device, and kernels/ptx/kleene.ptx
// is its compute_70 fallback. The kernels are templated over the semiring
// (semiring.cuh), as CUTLASS and cuASR template their GEMMs over the
// operators; the extern "C" entry points instantiate the max-plus semiring
// over float32 (ε = -FLT_MAX, e = 0).
//
// Matrices are row-major: M[i*ld + j] is the weight of the arc j -> i, so
// row i of the closure W holds the best paths into i and is contiguous.

#include "gemm.cuh"
#include "semiring.cuh"

namespace sb {

typedef long long i64;

// ---------------------------------------------------------------------------
// The paper's design (cuda/paper).

// init_w sets the n x n work matrix to e: one on the diagonal, ε elsewhere.
template <class S>
__device__ void init_w(typename S::T* W, int n, i64 ld) {
  i64 total = (i64)n * n;
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (i64)gridDim.x * blockDim.x) {
    int i = (int)(t / n), j = (int)(t % n);
    W[i * ld + j] = (i == j) ? S::one() : S::zero();
  }
}

// paper_update is the update of W for one source node l (the paper's Fig. 2
// and 3): W[i,:] ⊕= X[i,l] ⊗ W[l,:] for the s successors i of l, stored at
// val[begin..begin+s) and idx[begin..begin+s) of X's CCS. Threads x run over
// the columns j of W (coalesced), threads y over the successors. X's values
// and row l of W come through the read-only data path (the texture memory
// of the paper's Fermi card). No update is made where W[l,j] = ε.
template <class S>
__device__ void paper_update(typename S::T* __restrict__ W, const typename S::T* __restrict__ wl,
                             const typename S::T* __restrict__ val, const int* __restrict__ idx,
                             int begin, int s, int n, i64 ld) {
  typedef typename S::T T;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int k = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= n || k >= s) return;
  T w = __ldg(wl + j);
  if (S::is_zero(w)) return;
  int i = __ldg(idx + begin + k);
  T c = S::times(__ldg(val + begin + k), w);
  T* p = W + (i64)i * ld + j;
  if (c > *p) *p = c;
}

// ---------------------------------------------------------------------------
// The fast design (cuda/fast): permute X to topological order, where X and
// X* are lower triangular, and close it recursively,
//   [A 0; C D]* = [A* 0; D* C A*  D*],
// bottom-up: 64 x 64 diagonal blocks first, then at each level every pair of
// neighbouring closed blocks is joined by two batched max-plus products
// (T = C A*, then D* T), skipping the all-ε halves of the triangular
// operands.

// pred_bits sets bit j of row i (words of 32 bits, `words` per row) when the
// arc j -> i exists, X[i,j] > ε: the predecessor sets, for the host's
// topological sort. One warp writes one word with a ballot. It also checks
// the input: bad[1] becomes the smallest row-major index of a NaN or +Inf
// (the host sets it to INT_MAX first; n*n < 2^31).
template <class S>
__device__ void pred_bits(const typename S::T* __restrict__ X, int n, i64 ldx, unsigned* __restrict__ bits, int words,
                          int* bad) {
  int lane = threadIdx.x & 31;
  i64 warp = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  i64 nwarps = ((i64)gridDim.x * blockDim.x) >> 5;
  i64 total = (i64)n * words;
  for (i64 w = warp; w < total; w += nwarps) {
    int i = (int)(w / words), c = (int)(w % words) * 32 + lane;
    typename S::T v = c < n ? X[(i64)i * ldx + c] : S::zero();
    if (!S::is_valid(v)) atomicMin(bad + 1, i * n + c);
    unsigned b = __ballot_sync(0xffffffffu, c < n && !S::is_zero(v));
    if (lane == 0) bits[w] = b;
  }
}

// permute writes P = X in topological order, P[a,b] = X[perm[a], perm[b]],
// over np x np (np >= n; the padding is isolated nodes), with e on the
// diagonal. Any arc on or above the diagonal (a self-loop, or an order that
// is not topological because X has a cycle) sets *bad.
template <class S>
__device__ void permute(const typename S::T* __restrict__ X, int n, i64 ldx, const int* __restrict__ perm,
                        typename S::T* __restrict__ P, int np, i64 ldp, int* bad) {
  typedef typename S::T T;
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= np) return;
  int pb = b < n ? __ldg(perm + b) : 0;
  for (int a = blockIdx.y * blockDim.y + threadIdx.y; a < np; a += gridDim.y * blockDim.y) {
    T v = S::zero();
    if (a < n && b < n) {
      v = X[(i64)__ldg(perm + a) * ldx + pb];
      if (S::is_zero(v)) v = S::zero();  // -Inf is no arc either: store ε
      else if (b >= a) atomicOr(bad, 1);
    }
    P[(i64)a * ldp + b] = (a == b) ? S::one() : (b < a ? v : S::zero());
  }
}

// unpermute writes W[i,j] = P[pos[i], pos[j]] for i, j < n: the closure back
// in the input's node order. Entries above P's diagonal are ε and not read.
template <class S>
__device__ void unpermute(const typename S::T* __restrict__ P, i64 ldp, const int* __restrict__ pos, int n,
                          typename S::T* __restrict__ W, i64 ldw) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  int pj = __ldg(pos + j);
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < n; i += gridDim.y * blockDim.y) {
    int pi = __ldg(pos + i);
    W[(i64)i * ldw + j] = pj <= pi ? P[(i64)pi * ldp + pj] : S::zero();
  }
}

// diag_closure closes the 64 x 64 diagonal blocks of P that start at rows
// first, first+64, ... (one thread block each), in shared memory, row by
// row: Y[i,j] = ⊕_{j<=k<i} X[i,k] ⊗ Y[k,j], with Y[k,k] = e. Four threads
// share a column and split the k range.
template <class S>
__device__ void diag_closure(typename S::T* P, i64 ldp, int first) {
  typedef typename S::T T;
  const int B = 64;
  __shared__ T y[B][B + 1];
  i64 lo = first + (i64)blockIdx.x * B;
  T* blk = P + lo * ldp + lo;
  for (int t = threadIdx.x; t < B * B; t += blockDim.x) y[t / B][t % B] = blk[(i64)(t / B) * ldp + (t % B)];
  __syncthreads();
  int j = threadIdx.x >> 2, q = threadIdx.x & 3;
  for (int i = 1; i < B; ++i) {
    T acc = S::zero();
    if (j < i) {
      for (int k = j + q; k < i; k += 4) acc = S::mac(acc, y[i][k], y[k][j]);
    }
    acc = S::plus(acc, __shfl_xor_sync(0xffffffffu, acc, 1));
    acc = S::plus(acc, __shfl_xor_sync(0xffffffffu, acc, 2));
    __syncthreads();
    if (q == 0 && j < i) y[i][j] = acc;
    __syncthreads();
  }
  for (int t = threadIdx.x; t < B * B; t += blockDim.x) blk[(i64)(t / B) * ldp + (t % B)] = y[t / B][t % B];
}

// GemmDesc is one max-plus product of a batch: C = A ⊗ B over M x N with
// inner size K, each operand at its own address and leading dimension.
// The host writes the same 64-byte layout.
struct GemmDesc {
  const void* A;
  const void* B;
  void* C;
  i64 lda, ldb, ldc;
  int M, N, K, flags;
};

enum {
  kTriA = 1,        // A is lower triangular: A[i,k] = ε for k > i
  kTriB = 2,        // B is lower triangular: B[k,j] = ε for k < j
  kAccumulate = 4,  // C ⊕= A ⊗ B instead of C = A ⊗ B
};

// gemm computes one tile of a batch of max-plus products (descriptor
// blockIdx.z; blockIdx.x numbers the tiles) with sr::gemm_tile, each
// 256-thread block a BM x BN tile of its product, TM x TN values per thread.
// Triangular operands narrow each tile's k range; M, N, K and the k bounds
// are multiples of 4 (the host keeps them multiples of 64).
template <class S, int BM, int BN, int BK, int TM, int TN>
__device__ void gemm(const GemmDesc* __restrict__ descs) {
  typedef typename S::T T;
  const GemmDesc* dp = descs + blockIdx.z;
  const int M = dp->M, N = dp->N, flags = dp->flags;
  // Tiles in order of decreasing k range, so the longest start first:
  // column by column for a lower-triangular B (short k for late columns),
  // row by row from the bottom for a lower-triangular A.
  const int tm = (M + BM - 1) / BM, tn = (N + BN - 1) / BN;
  const int lin = blockIdx.x;
  if (lin >= tm * tn) return;
  int ti, tj;
  if (flags & kTriB) {
    tj = lin / tm;
    ti = lin % tm;
  } else if (flags & kTriA) {
    ti = tm - 1 - lin / tn;
    tj = lin % tn;
  } else {
    ti = lin / tn;
    tj = lin % tn;
  }
  const int i0 = ti * BM, j0 = tj * BN;
  int kBeg = 0, kEnd = dp->K;
  if (flags & kTriB) kBeg = (j0 / BK) * BK;
  if (flags & kTriA) kEnd = min(kEnd, i0 + BM);
  sr::gemm_tile<S, BM, BN, BK, TM, TN, sr::kGemmUpdateArg, true>((const T*)dp->A, dp->lda, (const T*)dp->B, dp->ldb,
                                                                 (T*)dp->C, dp->ldc, M, N, i0, j0, kBeg, kEnd,
                                                                 (flags & kAccumulate) != 0);
}

// copy2d copies a rows x cols block between matrices (for the multi-GPU
// triangular solves and for packing column slabs).
template <class S>
__device__ void copy2d(const typename S::T* __restrict__ src, i64 lds, typename S::T* __restrict__ dst, i64 ldd,
                       int rows, int cols) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < rows; i += gridDim.y * blockDim.y)
    dst[(i64)i * ldd + j] = src[(i64)i * lds + j];
}

}  // namespace sb

// ---------------------------------------------------------------------------
// Entry points: the max-plus semiring over float32.

typedef sr::MaxPlus<float> MPF;

extern "C" __global__ void kleene_init_w(float* W, int n, long long ld) { sb::init_w<MPF>(W, n, ld); }

extern "C" __global__ void __launch_bounds__(512) kleene_paper_update(float* __restrict__ W, const float* __restrict__ wl,
                                                                       const float* __restrict__ val,
                                                                       const int* __restrict__ idx, int begin, int s,
                                                                       int n, long long ld) {
  sb::paper_update<MPF>(W, wl, val, idx, begin, s, n, ld);
}

extern "C" __global__ void kleene_pred_bits(const float* __restrict__ X, int n, long long ldx, unsigned* bits,
                                            int words, int* bad) {
  sb::pred_bits<MPF>(X, n, ldx, bits, words, bad);
}

extern "C" __global__ void kleene_permute(const float* __restrict__ X, int n, long long ldx, const int* perm, float* P,
                                          int np, long long ldp, int* bad) {
  sb::permute<MPF>(X, n, ldx, perm, P, np, ldp, bad);
}

extern "C" __global__ void kleene_unpermute(const float* __restrict__ P, long long ldp, const int* pos, int n,
                                            float* __restrict__ W, long long ldw) {
  sb::unpermute<MPF>(P, ldp, pos, n, W, ldw);
}

extern "C" __global__ void __launch_bounds__(256) kleene_diag_closure(float* P, long long ldp, int first) {
  sb::diag_closure<MPF>(P, ldp, first);
}

extern "C" __global__ void __launch_bounds__(256, 2) kleene_gemm128(const sb::GemmDesc* descs) {
  sb::gemm<MPF, 128, 128, 8, 8, 8>(descs);
}

extern "C" __global__ void __launch_bounds__(256) kleene_gemm64(const sb::GemmDesc* descs) {
  sb::gemm<MPF, 64, 64, 16, 4, 4>(descs);
}

extern "C" __global__ void kleene_copy2d(const float* __restrict__ src, long long lds, float* __restrict__ dst,
                                         long long ldd, int rows, int cols) {
  sb::copy2d<MPF>(src, lds, dst, ldd, rows, cols);
}
