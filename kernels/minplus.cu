// minplus.cu: (min,+) matrix products over int16 with a saturating infinity
// (paper 002_cefe811b9d125289: the powers of A(D_m) of Algorithm 2), for
// semibench.
//
// CUDA C++ with the shared header semiring.cuh (its DPX guard and
// addmin_s16x2): NVRTC compiles it at run time for the exact device, and
// kernels/ptx/minplus.ptx is its compute_70 fallback.
//
// Conventions (the host side, package impls/cuda/minplus, keeps them):
//   - Matrices are n x n, row-major, int16, stored with a leading dimension
//     ld, a multiple of 8 (16 bytes) with ld >= n; the padding columns
//     [n, ld) of every row hold inf.
//   - Every stored entry lies in [0, inf]; inf (9999 as in the paper, at
//     most 16383) stands for infinity. minplus_prepare establishes this from
//     the caller's data (entries at or above inf become inf; negative ones
//     are reported). A sum of two entries is then at most 2 inf <= 32766 and
//     never overflows int16, and every product starts its minimum at inf, so
//     C[i][j] = min(inf, min_k A[i][k] + B[k][j]) lies in [0, inf] again:
//     infinity saturates (inf + x >= inf) without any clamping in the loops,
//     and the padding columns of C are inf because those of B are.

#include "semiring.cuh"

namespace mp {

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned int u32;

// dup16 returns v in both halves of a 32-bit word.
__device__ __forceinline__ u32 dup16(int v) { return ((u32)v & 0xffffu) * 0x10001u; }

// addmin2 returns, per 16-bit half, min(a + b, c): sr::addmin_s16x2, one
// DPX instruction on Hopper with CUDA 12+ (the halves are in [0, 16383], as
// its portable form needs).
__device__ __forceinline__ u32 addmin2(u32 a, u32 b, u32 c) { return sr::addmin_s16x2(a, b, c); }

// ---------------------------------------------------------------------------
// Layout and statistics.

// prepare copies the caller's n x n matrix (leading dimension n) into the
// padded layout, mapping entries at or above inf to inf and the padding
// columns to inf. A negative entry sets *bad to the smallest row-major
// index of one (the host sets it to ~0 first).
__device__ void prepare(const short* __restrict__ raw, int n, short* __restrict__ dst, i64 ld, int inf,
                        u64* bad) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= ld) return;
  for (i64 i = blockIdx.y; i < n; i += gridDim.y) {
    int v = inf;
    if (j < n) {
      v = raw[i * n + j];
      if (v < 0) {
        atomicMin(bad, (u64)(i * n + j));
        v = inf;
      } else if (v > inf) {
        v = inf;
      }
    }
    dst[i * ld + j] = (short)v;
  }
}

// unpad copies the padded matrix back to leading dimension n.
__device__ void unpad(const short* __restrict__ src, i64 ld, int n, short* __restrict__ raw) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (i64 i = blockIdx.y; i < n; i += gridDim.y) raw[i * n + j] = src[i * ld + j];
}

// fill sets count int16 values to v.
__device__ void fill(short* dst, i64 count, int v) {
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < count; t += (i64)gridDim.x * blockDim.x)
    dst[t] = (short)v;
}

// scatter writes the columns [col0, col0 + w) of the CSR matrix (ptr, idx,
// val) into a padded dense slab of w columns (column col0 + c at c), filled
// with inf beforehand; one thread per row, so duplicates keep their minimum
// without races. The whole matrix is col0 = 0, w = n.
__device__ void scatter(const int* __restrict__ ptr, const int* __restrict__ idx, const short* __restrict__ val,
                        int n, short* __restrict__ dst, i64 ld, int col0, int w) {
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
    for (int p = ptr[i]; p < ptr[i + 1]; ++p) {
      int c = idx[p] - col0;
      if (c < 0 || c >= w) continue;
      short* q = dst + i * ld + c;
      short v = val[p];
      if (v < *q) *q = v;
    }
  }
}

// mix is SplitMix64's finalizer: the fingerprints' position weights.
__device__ __forceinline__ u64 mix(u64 z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// stats reduces the n x n matrix (padding excluded) to, for position
// p = i n + j, w(p) = mix(2p), u(p) = mix(2p+1) and entry v:
//   sums[0] += w(p) v over finite entries (v < inf), sums[1] += w(p) over
//   them, sums[2] += u(p) over infinite ones, sums[3] += 1 over finite ones;
//   mins[0] = min of all entries, mins[1] = min of the diagonal, and in the
//   64-bit word at mins + 2, (diagonal min << 32 | its first row), the
//   smallest such pair: where the diagonal reaches its minimum.
// The host seeds sums with 0, mins[0..1] with inf and the pair with ~0. Since the weighted sum is
// linear, the fingerprint of M - min(M) follows on the host (sums[0] -
// min sums[1]), so successive powers are compared up to a constant.
// M may be a slab of w columns, the columns [col0, col0 + w) of the n x n
// matrix: positions and the diagonal are those of the whole matrix, so the
// slabs' sums add up and their minima combine to the whole matrix's (the
// whole matrix is col0 = 0, w = n).
__device__ void stats(const short* __restrict__ M, int n, int w, i64 ld, int col0, int inf, u64* sums, int* mins) {
  u64 s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int mn = inf, dg = inf;
  int jl = blockIdx.x * blockDim.x + threadIdx.x;
  int j = col0 + jl;
  if (jl < w) {
    for (i64 i = blockIdx.y; i < n; i += gridDim.y) {
      int v = M[i * ld + jl];
      u64 p = (u64)(i * n + j);
      if (v < inf) {
        u64 wp = mix(2 * p);
        s0 += wp * (u64)v;
        s1 += wp;
        s3++;
      } else {
        s2 += mix(2 * p + 1);
      }
      mn = min(mn, v);
      if (i == j) dg = min(dg, v);
    }
  }
  // Each thread holds at most one diagonal entry, (j, j): pack it with its
  // row before the reductions below mix the threads' minima.
  u64 arg = dg < inf ? ((u64)dg << 32 | (u64)j) : ~0ull;
  for (int o = 16; o > 0; o >>= 1) {
    arg = min(arg, (u64)__shfl_xor_sync(0xffffffffu, arg, o));
    s0 += __shfl_xor_sync(0xffffffffu, s0, o);
    s1 += __shfl_xor_sync(0xffffffffu, s1, o);
    s2 += __shfl_xor_sync(0xffffffffu, s2, o);
    s3 += __shfl_xor_sync(0xffffffffu, s3, o);
    mn = min(mn, __shfl_xor_sync(0xffffffffu, mn, o));
    dg = min(dg, __shfl_xor_sync(0xffffffffu, dg, o));
  }
  __shared__ u64 ws[5][32];
  __shared__ int wm[2][32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  if (lane == 0) {
    ws[0][warp] = s0; ws[1][warp] = s1; ws[2][warp] = s2; ws[3][warp] = s3; ws[4][warp] = arg;
    wm[0][warp] = mn; wm[1][warp] = dg;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < nw; ++w) {
      s0 += ws[0][w]; s1 += ws[1][w]; s2 += ws[2][w]; s3 += ws[3][w];
      mn = min(mn, wm[0][w]); dg = min(dg, wm[1][w]); arg = min(arg, ws[4][w]);
    }
    if (arg != ~0ull) atomicMin((unsigned long long*)(mins + 2), (unsigned long long)arg);
    if (s0) atomicAdd(sums + 0, s0);
    if (s1) atomicAdd(sums + 1, s1);
    if (s2) atomicAdd(sums + 2, s2);
    if (s3) atomicAdd(sums + 3, s3);
    if (mn < inf) atomicMin(mins + 0, mn);
    if (dg < inf) atomicMin(mins + 1, dg);
  }
}

// ---------------------------------------------------------------------------
// cuda/paper: the MatrixMul routine of the CUDA samples (CUDA C Programming
// Guide, chapter 3) turned into a (min,+) product, as the paper did: 32 x 32
// thread blocks, one output per thread, 32 x 32 int16 tiles of A and B in
// shared memory, infinity 9999. Bounds checks replace the sample's
// assumption that n is a multiple of 32.
__device__ void paper(const short* __restrict__ A, const short* __restrict__ B, short* __restrict__ C, int n, i64 ld,
                      int inf) {
  const int T = 32;
  __shared__ short As[T][T];
  __shared__ short Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  i64 row = (i64)blockIdx.y * T + ty;
  int col = blockIdx.x * T + tx;
  int c = inf;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[ty][tx] = (row < n && k0 + tx < n) ? A[row * ld + k0 + tx] : (short)inf;
    Bs[ty][tx] = (k0 + ty < n && col < n) ? B[(i64)(k0 + ty) * ld + col] : (short)inf;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) c = min(c, As[ty][k] + Bs[k][tx]);
    __syncthreads();
  }
  if (row < n && col < ld) C[row * ld + col] = (short)c;
}

// ---------------------------------------------------------------------------
// cuda/fast: register-tiled, two int16 columns per 32-bit lane. A block of
// 256 threads (16 x 16) computes a BM x 256 tile of C; each thread owns
// TMG groups of 4 rows (64 apart) by 2 groups of 4 words (8 columns, 128
// apart): TMG*4 x 16 outputs in TMG*32 registers. BK-deep slices of A
// (transposed, each value duplicated into both halves of a word) and B
// (row-major, so a word already holds two neighbouring columns) are staged
// in shared memory, double-buffered through registers; the inner step is
// acc[r][c] = min(acc[r][c], a[r] + b[c]) per half, one DPX instruction.
template <int TMG, int BK>
// A has leading dimension lda; B and C (n rows, ldb columns counting their
// padding) ldb: a column slab of the power is multiplied as B = P[:, slab].
__device__ void fast(const short* __restrict__ A, const short* __restrict__ B, short* __restrict__ C, int n, i64 lda,
                     i64 ldb, int inf) {
  const int BM = 64 * TMG;
  const int BNW = 128;  // words of 2 columns: 256 columns
  const int LA = BM * BK / 8 / 256;
  const int LB = BK * BNW * 2 / 8 / 256;
  static_assert(LA >= 1 && LB >= 1, "tile loads");
  __shared__ __align__(16) u32 As[2][BK][BM];
  __shared__ __align__(16) u32 Bs[2][BK][BNW];

  const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
  const i64 i0 = (i64)blockIdx.y * BM;
  const int j0 = blockIdx.x * 256;

  u32 acc[TMG * 4][8];
  const u32 pinf = dup16(inf);
#pragma unroll
  for (int r = 0; r < TMG * 4; ++r)
#pragma unroll
    for (int c = 0; c < 8; ++c) acc[r][c] = pinf;

  // A: chunk c of 8 k-values of row c % BM at k offset (c / BM) * 8.
  // B: chunk c of 8 columns of row c / 32 at column offset (c % 32) * 8.
  const short* pa[LA];
  bool va[LA];
  int ka[LA];
#pragma unroll
  for (int l = 0; l < LA; ++l) {
    int c = tid + l * 256;
    int row = c % BM;
    ka[l] = (c / BM) * 8;
    va[l] = i0 + row < n;
    pa[l] = A + (i0 + (va[l] ? row : 0)) * lda + ka[l];
  }
  const short* pb[LB];
  bool vb[LB];
  int kb[LB];
#pragma unroll
  for (int l = 0; l < LB; ++l) {
    int c = tid + l * 256;
    kb[l] = c / 32;
    int col = j0 + (c % 32) * 8;
    vb[l] = col < ldb;
    pb[l] = B + (i64)kb[l] * ldb + (vb[l] ? col : 0);
  }
  const i64 bStep = (i64)BK * ldb;
  uint4 ra[LA], rb[LB];
  const uint4 vinf = make_uint4(pinf, pinf, pinf, pinf);

  auto load = [&](int k0) {
#pragma unroll
    for (int l = 0; l < LA; ++l) {
      ra[l] = (va[l] && k0 + ka[l] < lda) ? __ldg((const uint4*)pa[l]) : vinf;
      pa[l] += BK;
    }
#pragma unroll
    for (int l = 0; l < LB; ++l) {
      rb[l] = (vb[l] && k0 + kb[l] < n) ? __ldg((const uint4*)pb[l]) : vinf;
      pb[l] += bStep;
    }
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int l = 0; l < LA; ++l) {
      int c = tid + l * 256;
      int row = c % BM, k = (c / BM) * 8;
      u32 w[4] = {ra[l].x, ra[l].y, ra[l].z, ra[l].w};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        As[buf][k + 2 * e][row] = (w[e] & 0xffffu) * 0x10001u;
        As[buf][k + 2 * e + 1][row] = (w[e] >> 16) * 0x10001u;
      }
    }
#pragma unroll
    for (int l = 0; l < LB; ++l) {
      int c = tid + l * 256;
      *(uint4*)&Bs[buf][c / 32][(c % 32) * 4] = rb[l];
    }
  };

  load(0);
  store(0);
  __syncthreads();
  int buf = 0;
  for (int k0 = 0; k0 < n; k0 += BK) {
    const bool more = k0 + BK < n;
    if (more) load(k0 + BK);
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      u32 a[TMG * 4], b[8];
#pragma unroll
      for (int g = 0; g < TMG; ++g) {
        uint4 v = *(const uint4*)&As[buf][kk][g * 64 + ty * 4];
        a[g * 4 + 0] = v.x; a[g * 4 + 1] = v.y; a[g * 4 + 2] = v.z; a[g * 4 + 3] = v.w;
      }
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint4 v = *(const uint4*)&Bs[buf][kk][h * 64 + tx * 4];
        b[h * 4 + 0] = v.x; b[h * 4 + 1] = v.y; b[h * 4 + 2] = v.z; b[h * 4 + 3] = v.w;
      }
#pragma unroll
      for (int r = 0; r < TMG * 4; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) acc[r][c] = addmin2(a[r], b[c], acc[r][c]);
    }
    if (more) {
      store(buf ^ 1);
      __syncthreads();
      buf ^= 1;
    }
  }

#pragma unroll
  for (int g = 0; g < TMG; ++g)
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      i64 gi = i0 + g * 64 + ty * 4 + r;
      if (gi >= n) continue;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int gj = j0 + (h * 64 + tx * 4) * 2;
        if (gj >= ldb) continue;
        *(uint4*)(C + gi * ldb + gj) =
            make_uint4(acc[g * 4 + r][h * 4 + 0], acc[g * 4 + r][h * 4 + 1], acc[g * 4 + r][h * 4 + 2],
                       acc[g * 4 + r][h * 4 + 3]);
      }
    }
}

// ---------------------------------------------------------------------------
// cuda/sparse: C = A ⊗ P with A in CSR (ptr, idx, val; values in [0, inf])
// and P dense (padded): C[i][j] = min over the entries (i, k, v) of row i of
// v + P[k][j], costing nnz(A) n updates. Block x is row i; each thread
// covers 8 columns (one 16-byte load of P's row k per entry).
__device__ void sparse(const int* __restrict__ ptr, const int* __restrict__ idx, const short* __restrict__ val,
                       const short* __restrict__ P, short* __restrict__ C, int n, i64 ld, int inf) {
  i64 i = blockIdx.x;
  int col = (blockIdx.y * blockDim.x + threadIdx.x) * 8;
  if (col >= ld) return;
  const u32 pinf = dup16(inf);
  uint4 acc = make_uint4(pinf, pinf, pinf, pinf);
  int p0 = __ldg(ptr + i), p1 = __ldg(ptr + i + 1);
  const short* base = P + col;
#pragma unroll 4
  for (int p = p0; p < p1; ++p) {
    u32 a = dup16(__ldg(val + p));
    uint4 v = __ldg((const uint4*)(base + (i64)__ldg(idx + p) * ld));
    acc.x = addmin2(a, v.x, acc.x);
    acc.y = addmin2(a, v.y, acc.y);
    acc.z = addmin2(a, v.z, acc.z);
    acc.w = addmin2(a, v.w, acc.w);
  }
  *(uint4*)(C + i * ld + col) = acc;
}

// ---------------------------------------------------------------------------
// The difference matrix of the 2-domination paper's Algorithms 3 and 4
// (Table 5's version 3 computes it on the GPU): D = X - Y entry by entry for
// two n x n matrices uploaded as they are (leading dimension n, entries at
// or above inf infinite), in the host's encoding (problems/minplus
// DiffEntry): both infinite -32768 (skipped), one infinite 32767 (never
// constant), else x - y. diff_summary then reduces D to what decides
// "D is one constant": whether an entry is 32767, how many are finite, and
// the least and largest finite one.

// difference writes D over count entries, a grid-stride loop.
__device__ void difference(const short* __restrict__ X, const short* __restrict__ Y, short* __restrict__ D, i64 count,
                           int inf) {
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < count; t += (i64)gridDim.x * blockDim.x) {
    int x = X[t], y = Y[t];
    bool xi = x >= inf, yi = y >= inf;
    D[t] = (short)(xi && yi ? -32768 : (xi || yi ? 32767 : x - y));
  }
}

// diff_summary reduces D (count entries) into *finite (the finite entries'
// count, seeded 0 by the host) and out[0] (min of the finite entries,
// seeded INT_MAX), out[1] (their max, seeded INT_MIN), out[2] (1 when an
// entry is 32767, seeded 0): warp shuffles, one atomic per block and word.
__device__ void diff_summary(const short* __restrict__ D, i64 count, u64* finite, int* out) {
  u64 cnt = 0;
  int mn = 0x7fffffff, mx = -0x7fffffff - 1, one = 0;
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < count; t += (i64)gridDim.x * blockDim.x) {
    int v = D[t];
    if (v == 32767) {
      one = 1;
    } else if (v != -32768) {
      cnt++;
      mn = min(mn, v);
      mx = max(mx, v);
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    cnt += __shfl_xor_sync(0xffffffffu, cnt, o);
    mn = min(mn, __shfl_xor_sync(0xffffffffu, mn, o));
    mx = max(mx, __shfl_xor_sync(0xffffffffu, mx, o));
    one |= __shfl_xor_sync(0xffffffffu, one, o);
  }
  __shared__ u64 wc[32];
  __shared__ int wm[3][32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  if (lane == 0) {
    wc[warp] = cnt;
    wm[0][warp] = mn; wm[1][warp] = mx; wm[2][warp] = one;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < nw; ++w) {
      cnt += wc[w];
      mn = min(mn, wm[0][w]); mx = max(mx, wm[1][w]); one |= wm[2][w];
    }
    if (cnt) {
      atomicAdd(finite, cnt);
      atomicMin(out + 0, mn);
      atomicMax(out + 1, mx);
    }
    if (one) atomicOr(out + 2, 1);
  }
}

}  // namespace mp

// ---------------------------------------------------------------------------
// Entry points.

extern "C" __global__ void minplus_prepare(const short* __restrict__ raw, int n, short* __restrict__ dst,
                                           long long ld, int inf, unsigned long long* bad) {
  mp::prepare(raw, n, dst, ld, inf, bad);
}

extern "C" __global__ void minplus_unpad(const short* __restrict__ src, long long ld, int n, short* __restrict__ raw) {
  mp::unpad(src, ld, n, raw);
}

extern "C" __global__ void minplus_fill(short* dst, long long count, int v) { mp::fill(dst, count, v); }

extern "C" __global__ void minplus_scatter(const int* __restrict__ ptr, const int* __restrict__ idx,
                                           const short* __restrict__ val, int n, short* __restrict__ dst,
                                           long long ld, int col0, int w) {
  mp::scatter(ptr, idx, val, n, dst, ld, col0, w);
}

extern "C" __global__ void __launch_bounds__(256) minplus_stats(const short* __restrict__ M, int n, int w,
                                                                long long ld, int col0, int inf,
                                                                unsigned long long* sums, int* mins) {
  mp::stats(M, n, w, ld, col0, inf, sums, mins);
}

extern "C" __global__ void __launch_bounds__(1024) minplus_paper(const short* __restrict__ A,
                                                                 const short* __restrict__ B, short* __restrict__ C,
                                                                 int n, long long ld, int inf) {
  mp::paper(A, B, C, n, ld, inf);
}

extern "C" __global__ void __launch_bounds__(256, 2) minplus_fast128(const short* __restrict__ A,
                                                                     const short* __restrict__ B,
                                                                     short* __restrict__ C, int n, long long ld,
                                                                     int inf) {
  mp::fast<2, 16>(A, B, C, n, ld, ld, inf);
}

extern "C" __global__ void __launch_bounds__(256, 1) minplus_fast256(const short* __restrict__ A,
                                                                     const short* __restrict__ B,
                                                                     short* __restrict__ C, int n, long long ld,
                                                                     int inf) {
  mp::fast<4, 16>(A, B, C, n, ld, ld, inf);
}

// The slab forms of the two: C = A ⊗ B with A n x n (leading dimension lda)
// and B, C a column slab (n rows, leading dimension ldb).
extern "C" __global__ void __launch_bounds__(256, 2) minplus_fast128_slab(const short* __restrict__ A,
                                                                          const short* __restrict__ B,
                                                                          short* __restrict__ C, int n,
                                                                          long long lda, long long ldb, int inf) {
  mp::fast<2, 16>(A, B, C, n, lda, ldb, inf);
}

extern "C" __global__ void __launch_bounds__(256, 1) minplus_fast256_slab(const short* __restrict__ A,
                                                                          const short* __restrict__ B,
                                                                          short* __restrict__ C, int n,
                                                                          long long lda, long long ldb, int inf) {
  mp::fast<4, 16>(A, B, C, n, lda, ldb, inf);
}

extern "C" __global__ void __launch_bounds__(128) minplus_sparse(const int* __restrict__ ptr,
                                                                 const int* __restrict__ idx,
                                                                 const short* __restrict__ val,
                                                                 const short* __restrict__ P, short* __restrict__ C,
                                                                 int n, long long ld, int inf) {
  mp::sparse(ptr, idx, val, P, C, n, ld, inf);
}

// minplus_dpx writes 1 to *out when addmin2 compiled to the DPX instruction.
extern "C" __global__ void minplus_dpx(int* out) {
#if SR_DPX
  *out = 1;
#else
  *out = 0;
#endif
}

extern "C" __global__ void minplus_difference(const short* __restrict__ X, const short* __restrict__ Y,
                                              short* __restrict__ D, long long count, int inf) {
  mp::difference(X, Y, D, count, inf);
}

extern "C" __global__ void __launch_bounds__(256) minplus_diff_summary(const short* __restrict__ D, long long count,
                                                                       unsigned long long* finite, int* out) {
  mp::diff_summary(D, count, finite, out);
}
