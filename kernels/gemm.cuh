// gemm.cuh: the one register-tiled semiring GEMM of semibench's kernels,
// templated over the semiring (semiring.cuh) and the tile shape, as cuASR
// templates CUTLASS's GEMM over its operators. kernels/apsp.cu (cuda/fast's
// panel and trailing products) and kernels/kleene.cu (cuda/fast's batched
// triangular products) instantiate it.
//
// Matrices are row-major with their own leading dimensions.
#ifndef SEMIBENCH_GEMM_CUH
#define SEMIBENCH_GEMM_CUH

#include "semiring.cuh"

namespace sr {

// Vec4 is four consecutive elements, loaded and stored as one access
// (16 bytes for 4-byte elements, two for float64).
template <class T>
struct __align__(4 * sizeof(T)) Vec4 {
  T x, y, z, w;
};

// GemmUpdate says what gemm_tile does with C.
enum GemmUpdate {
  kGemmStore = 0,       // C = A ⊗ B
  kGemmAccumulate = 1,  // C = C ⊕ (A ⊗ B)
  kGemmUpdateArg = 2,   // as the accumulate argument says, at run time
};

// gemm_stage_c starts copying, without waiting, group q (of TM*TN/4) of
// the values of the BM x BN tile of C at (i0, j0) that gemm_tile's
// accumulate reads in its last step into stage (the block's TM*TN/4 x 256
// groups of four in shared memory, slot q*256 + thread), so that the read
// overlaps the product instead of following it. On sm_80 and later the
// copy is cp.async (no registers held); before, a plain load and store.
// gemm_tile issues every group once its first loads of A and B are under
// way, and waits for them (gemm_stage_wait) before it reads the stage.
template <class T, int BM, int BN, int TM, int TN>
__device__ __forceinline__ void gemm_stage_c(const T* __restrict__ C, i64 ldc, int i0, int j0, Vec4<T>* stage, int q) {
  const int GN = TN / 4, SM = BM / (TM / 4), SN = BN / GN, TX = BN / TN;
  const int tid = threadIdx.x, tx = tid % TX, ty = tid / TX;
  const int g = q / (4 * GN), r = q / GN % 4, h = q % GN;
  const T* p = C + (i64)(i0 + ty * 4 + g * SM + r) * ldc + j0 + tx * 4 + h * SN;
  Vec4<T>* d = stage + q * 256 + tid;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned sa = (unsigned)__cvta_generic_to_shared(d);
#pragma unroll
  for (int b = 0; b < (int)sizeof(Vec4<T>); b += 16)  // 16 bytes a copy
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa + b), "l"((const char*)p + b) : "memory");
#else
  *d = *(const Vec4<T>*)p;
#endif
}

// gemm_stage_wait waits until the thread's own copies of gemm_stage_c have
// landed (each thread reads back only what it copied: no barrier).
__device__ __forceinline__ void gemm_stage_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// gemm_tile computes the BM x BN tile of C at (i0, j0) of the product
// A ⊗ B over the inner range [kBeg, kEnd): each of the block's 256 threads
// computes TM x TN values, in groups of four that lie BM/(TM/4) rows and
// BN/(TN/4) columns apart, so the shared-memory reads of a warp do not
// collide. BK-deep slices of A (transposed, rows padded by 4) and of B are
// staged in shared memory, double-buffered through registers.
//
// UPDATE (a GemmUpdate) chooses C = A ⊗ B or C ⊕= A ⊗ B (old ⊕ new); with
// kGemmUpdateArg the accumulate argument decides, and an empty k range then
// leaves C alone when accumulating (and writes zeros otherwise).
//
// EDGES = false: the tile lies inside M x N and kBeg, kEnd are multiples
// of BK, so no load or store is checked. stage, when not null (accumulate,
// EDGES = false, kBeg < kEnd), is shared memory of TM*TN/4 x 256 groups of
// four: gemm_tile copies C's tile there (gemm_stage_c) while the product
// runs, and the accumulate reads it there.
// EDGES = true: rows >= M and columns >= N are neither read nor written,
// and A's and B's elements at k >= kEnd are read as zero; then kBeg must be
// a multiple of BK and M, N, kEnd multiples of 4.
template <class S, int BM, int BN, int BK, int TM, int TN, int UPDATE, bool EDGES>
__device__ __forceinline__ void gemm_tile(const typename S::T* __restrict__ A, i64 lda,
                                          const typename S::T* __restrict__ B, i64 ldb, typename S::T* __restrict__ C,
                                          i64 ldc, int M, int N, int i0, int j0, int kBeg, int kEnd,
                                          bool accumulate, Vec4<typename S::T>* stage = nullptr) {
  typedef typename S::T T;
  typedef Vec4<T> V;
  const int NT = 256;
  static_assert((BM / TM) * (BN / TN) == NT, "256 threads");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "groups of four");
  static_assert(BM * BK % (4 * NT) == 0 && BN * BK % (4 * NT) == 0, "every thread loads whole groups");
  const int GM = TM / 4, GN = TN / 4;
  const int SM = BM / GM, SN = BN / GN;  // distance between a thread's groups
  const int TX = BN / TN;                // threads along a row of the tile
  const int PAD = 4;
  __shared__ __align__(16) T As[2][BK][BM + PAD];
  __shared__ __align__(16) T Bs[2][BK][BN];
  const bool acc = UPDATE == kGemmAccumulate || (UPDATE == kGemmUpdateArg && accumulate);

  const int tid = threadIdx.x;
  const int tx = tid % TX, ty = tid / TX;

  T c[TM][TN];
#pragma unroll
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int q = 0; q < TN; ++q) c[r][q] = S::zero();

  // Loads: LA groups of four of the BM x BK slice of A (k fastest) and LB
  // of the BK x BN slice of B (j fastest) per thread, from pointers that
  // advance by BK along k.
  const int LA = BM * BK / 4 / NT, LB = BN * BK / 4 / NT;
  const T* pa[LA];
  const T* pb[LB];
  bool va[LA], vb[LB];
  int ka[LA], kb[LB];
#pragma unroll
  for (int l = 0; l < LA; ++l) {
    const int e = (tid + l * NT) * 4;
    const int row = e / BK;
    ka[l] = e % BK;
    va[l] = !EDGES || i0 + row < M;
    pa[l] = A + (i64)(i0 + (va[l] ? row : 0)) * lda + kBeg + ka[l];
  }
#pragma unroll
  for (int l = 0; l < LB; ++l) {
    const int e = (tid + l * NT) * 4;
    const int col = e % BN;
    kb[l] = e / BN;
    vb[l] = !EDGES || j0 + col < N;
    pb[l] = B + (i64)(kBeg + (vb[l] ? kb[l] : 0)) * ldb + j0 + (vb[l] ? col : 0);
  }
  const i64 bStep = (i64)BK * ldb;
  V ra[LA], rb[LB];
  auto load = [&](int k0) {
#pragma unroll
    for (int l = 0; l < LA; ++l) {
      if (!EDGES || (va[l] && k0 + ka[l] < kEnd)) {
        ra[l] = *(const V*)pa[l];
      } else {
        const T z = S::zero();
        ra[l].x = z; ra[l].y = z; ra[l].z = z; ra[l].w = z;
      }
      pa[l] += BK;
    }
#pragma unroll
    for (int l = 0; l < LB; ++l) {
      if (!EDGES || (vb[l] && k0 + kb[l] < kEnd)) {
        rb[l] = *(const V*)pb[l];
      } else {
        const T z = S::zero();
        rb[l].x = z; rb[l].y = z; rb[l].z = z; rb[l].w = z;
      }
      pb[l] += bStep;
    }
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int l = 0; l < LA; ++l) {
      const int e = (tid + l * NT) * 4;
      const int row = e / BK, kk = e % BK;
      As[buf][kk + 0][row] = ra[l].x;
      As[buf][kk + 1][row] = ra[l].y;
      As[buf][kk + 2][row] = ra[l].z;
      As[buf][kk + 3][row] = ra[l].w;
    }
#pragma unroll
    for (int l = 0; l < LB; ++l) {
      const int e = (tid + l * NT) * 4;
      *(V*)&Bs[buf][e / BN][e % BN] = rb[l];
    }
  };

  if (kBeg < kEnd) {
    load(kBeg);
    // C's tile behind the first slices of A and B (the order matters by a
    // few percent: docs/gpu-notes.md)
    if (stage)
#pragma unroll
      for (int q = 0; q < TM * TN / 4; ++q) gemm_stage_c<T, BM, BN, TM, TN>(C, ldc, i0, j0, stage, q);
    store(0);
    __syncthreads();
    int buf = 0;
    for (int k0 = kBeg; k0 < kEnd; k0 += BK) {
      const bool more = k0 + BK < kEnd;
      if (more) load(k0 + BK);
      // STEP steps of k at a time: two where the semiring folds two
      // products at once (S::mac2), else one.
      constexpr int STEP = HasMac2<S>::value ? 2 : 1;
      static_assert(BK % STEP == 0, "whole steps");
#pragma unroll
      for (int kk = 0; kk < BK; kk += STEP) {
        T a[STEP][TM], b[STEP][TN];
#pragma unroll
        for (int s = 0; s < STEP; ++s) {
#pragma unroll
          for (int g = 0; g < GM; ++g) {
            const V v = *(const V*)&As[buf][kk + s][ty * 4 + g * SM];
            a[s][g * 4 + 0] = v.x; a[s][g * 4 + 1] = v.y; a[s][g * 4 + 2] = v.z; a[s][g * 4 + 3] = v.w;
          }
#pragma unroll
          for (int g = 0; g < GN; ++g) {
            const V v = *(const V*)&Bs[buf][kk + s][tx * 4 + g * SN];
            b[s][g * 4 + 0] = v.x; b[s][g * 4 + 1] = v.y; b[s][g * 4 + 2] = v.z; b[s][g * 4 + 3] = v.w;
          }
        }
#pragma unroll
        for (int r = 0; r < TM; ++r)
#pragma unroll
          for (int q = 0; q < TN; ++q) {
            if constexpr (STEP == 2) {
              c[r][q] = S::mac2(c[r][q], a[0][r], b[0][q], a[1][r], b[1][q]);
            } else {
              c[r][q] = S::mac(c[r][q], a[0][r], b[0][q]);
            }
          }
      }
      if (more) {
        store(buf ^ 1);
        __syncthreads();
        buf ^= 1;
      }
    }
  } else if (acc) {
    return;  // nothing to add
  }
  if (stage) gemm_stage_wait();
#pragma unroll
  for (int g = 0; g < GM; ++g)
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int gi = i0 + ty * 4 + g * SM + r;
      if (EDGES && gi >= M) continue;
#pragma unroll
      for (int h = 0; h < GN; ++h) {
        const int gj = j0 + tx * 4 + h * SN;
        if (EDGES && gj >= N) continue;
        T* p = C + (i64)gi * ldc + gj;
        V v;
        v.x = c[g * 4 + r][h * 4 + 0];
        v.y = c[g * 4 + r][h * 4 + 1];
        v.z = c[g * 4 + r][h * 4 + 2];
        v.w = c[g * 4 + r][h * 4 + 3];
        if (acc) {
          const V o = stage ? stage[((g * 4 + r) * GN + h) * 256 + tid] : *(const V*)p;
          v.x = S::plus(o.x, v.x);
          v.y = S::plus(o.y, v.y);
          v.z = S::plus(o.z, v.z);
          v.w = S::plus(o.w, v.w);
        }
        *(V*)p = v;
      }
    }
}

}  // namespace sr

#endif  // SEMIBENCH_GEMM_CUH
