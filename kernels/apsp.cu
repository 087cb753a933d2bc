// apsp.cu: the algebraic path problem D = A* on the GPU (Rote, "A systolic
// array algorithm for the algebraic path problem", Computing 34, 1985), for
// semibench: cuda/fast, Gauss-Jordan elimination over 128 x 128 blocks
// (Remark 2.2), and cuda/systolic, the array GJE0 simulated step by step
// with one thread per processor.
//
// CUDA C++ with the shared headers semiring.cuh and gemm.cuh: NVRTC
// compiles it at run time for the exact device, and kernels/ptx/apsp.ptx is
// its compute_70 fallback. The kernels are templated over the semiring
// (semiring.cuh); the extern "C" entry points instantiate min-plus float32,
// Boolean (0/1 in 32-bit words) and the real semiring in float64
// (cuda/fast), and real and min-plus float64 and Boolean (cuda/systolic).
//
// Matrices are row-major: M[i*ld + j] is the weight of the arc i -> j.

#include "gemm.cuh"
#include "semiring.cuh"

namespace ap {

typedef long long i64;

// ---------------------------------------------------------------------------
// cuda/fast

// pad copies the n x n input X into the np x np work matrix P (np >= n):
// the padding is isolated vertices (zero everywhere), which change nothing.
template <class T>
__device__ void pad(const T* __restrict__ X, int n, T* __restrict__ P, int np, T zero) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= np) return;
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < np; i += gridDim.y * blockDim.y)
    P[(i64)i * np + j] = (i < n && j < n) ? X[(i64)i * n + j] : zero;
}

// unpad copies the leading n x n part of P back into X.
template <class T>
__device__ void unpad(const T* __restrict__ P, int np, T* __restrict__ X, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < n; i += gridDim.y * blockDim.y)
    X[(i64)i * n + j] = P[(i64)i * np + j];
}

// close_diag replaces the B x B diagonal block of P at (k0, k0) by its
// closure D, in dynamic shared memory, with the k-outer Gauss-Jordan
// elimination of cpu/fast's closeBlock, element for element the same
// operations: for each k the star s of d_kk, the column d_ik := d_ik ⊗ s,
// the rest d_ij := d_ij ⊕ d_ik ⊗ d_kj (new column, old row), the row
// d_kj := s ⊗ d_kj, d_kk := s. Each k takes two barriers: the new column
// and the old row are set aside first, then every element is updated in
// place. D also goes to Dout (B x B). An undefined star sets *bad to the
// smallest such pivot (0-based) by atomicMin.
template <class S, int B, int NT>
__device__ void close_diag(typename S::T* P, int np, int k0, typename S::T* Dout, int* bad) {
  typedef typename S::T T;
  extern __shared__ __align__(16) unsigned char smem[];
  T* d = (T*)smem;
  const int L = B + 1;
  T* colv = d + B * L;  // the new column k
  T* rowv = colv + B;   // the old row k
  const int nt = NT;
  T* blk = P + (i64)k0 * np + k0;
  for (int t = threadIdx.x; t < B * B; t += nt) d[(t / B) * L + t % B] = blk[(i64)(t / B) * np + t % B];
  __syncthreads();
  // Thread (g, j) owns column j of rows g, g+G, ...: B/G of them.
  const int G = NT / B;
  const int j = threadIdx.x % B, g = threadIdx.x / B;
  for (int k = 0; k < B; ++k) {
    bool undefined;
    const T s = S::star(d[k * L + k], &undefined);
    if (threadIdx.x < B) {
      colv[threadIdx.x] = S::times(d[threadIdx.x * L + k], s);
    } else if (threadIdx.x < 2 * B) {
      rowv[threadIdx.x - B] = d[k * L + threadIdx.x - B];
    }
    if (undefined && threadIdx.x == 0) atomicMin(bad, k0 + k);
    __syncthreads();
    if (j == k) {
#pragma unroll
      for (int x = 0; x < B / G; ++x) {
        const int i = g + x * G;
        d[i * L + j] = i == k ? s : colv[i];
      }
    } else {
      const T r = rowv[j];
#pragma unroll
      for (int x = 0; x < B / G; ++x) {
        T* p = d + (g + x * G) * L + j;
        *p = S::mac_exact(*p, colv[g + x * G], r);
      }
      // Row k (updated above with the others, which nobody reads now):
      // d_kj := s ⊗ d_kj, from the old row.
      if (g == k % G) d[k * L + j] = S::times(s, r);
    }
    __syncthreads();
  }
  for (int t = threadIdx.x; t < B * B; t += nt) {
    T x = d[(t / B) * L + t % B];
    blk[(i64)(t / B) * np + t % B] = x;
    Dout[t] = x;
  }
}

// mm is the semiring product C = A ⊗ B (or C ⊕= A ⊗ B when acc is true)
// over M x N with inner size K, all multiples of the tile sizes, by
// sr::gemm_tile: the block computes tile (ti, tj). Tiles whose rows or
// columns fall in [skip, skip+skipLen) are left alone (the pivot block's
// rows and columns).
template <class S, int BM, int BN, int BK, int TM, int TN, bool acc>
__device__ void mm(const typename S::T* __restrict__ A, i64 lda, const typename S::T* __restrict__ Bm, i64 ldb,
                   typename S::T* __restrict__ C, i64 ldc, int K, int skip, int skipLen, int ti, int tj) {
  const int i0 = ti * BM, j0 = tj * BN;
  if (skipLen > 0 && ((i0 >= skip && i0 < skip + skipLen) || (j0 >= skip && j0 < skip + skipLen))) return;
  sr::gemm_tile<S, BM, BN, BK, TM, TN, acc ? sr::kGemmAccumulate : sr::kGemmStore, false>(
      A, lda, Bm, ldb, C, ldc, i0 + BM, j0 + BN, i0, j0, 0, K, acc);
}

// rest is the bulk update of a pivot step, C ⊕= A ⊗ B over the tiles
// outside the pivot rows and columns [skip, skip+skipLen), with C's tile
// read into dynamic shared memory while the product runs (gemm_stage_c).
// With FUSE and next >= 0, the block of blockIdx (0, 0) takes the tile
// (next, next) (and the one of that tile takes (0, 0)): the diagonal block
// of the next pivot step, the first tile scheduled; once it is updated the
// block closes it in place (close_diag with the block's 256 threads, into D
// and *bad), while the other blocks go on with the update. Nothing else of
// this launch reads or writes that tile, so the pivot block of the next
// step costs no launch of its own.
template <class S, int BM, int BN, int BK, int TM, int TN, bool FUSE>
__device__ void rest(const typename S::T* __restrict__ A, i64 lda, const typename S::T* __restrict__ Bm, i64 ldb,
                     typename S::T* __restrict__ C, i64 ldc, int K, int skip, int skipLen, int next,
                     typename S::T* D, int* bad) {
  typedef typename S::T T;
  extern __shared__ __align__(16) unsigned char smem[];
  int ti = blockIdx.y, tj = blockIdx.x;
  const int nt = next * 128 / BM;  // the next pivot's tile (BM = BN = 128 with FUSE)
  const bool diag = FUSE && next >= 0 && ti == 0 && tj == 0;
  if (FUSE && next >= 0) {
    if (diag) {
      ti = nt;
      tj = nt;
    } else if (ti == nt && tj == nt) {
      ti = 0;
      tj = 0;
    }
  }
  const int i0 = ti * BM, j0 = tj * BN;
  if (skipLen > 0 && ((i0 >= skip && i0 < skip + skipLen) || (j0 >= skip && j0 < skip + skipLen))) return;
  sr::gemm_tile<S, BM, BN, BK, TM, TN, sr::kGemmAccumulate, false>(A, lda, Bm, ldb, C, ldc, i0 + BM, j0 + BN, i0, j0,
                                                                     0, K, true, (sr::Vec4<T>*)smem);
  if (FUSE && diag) {
    __syncthreads();  // the tile's stores are visible to the block; the stage is free
    close_diag<S, 128, 256>(C, (int)ldc, next * 128, D, bad);
  }
}

// writeback puts the two panels in place: the column panel Pc (np x B,
// rows outside the pivot block) into columns k0.. of P, and the row panel Pr
// (B x np, columns outside the pivot block) into rows k0.. of P.
template <class T, int B>
__device__ void writeback(T* __restrict__ P, int np, int k0, const T* __restrict__ Pc, const T* __restrict__ Pr) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // 0 .. np*B
  if (x >= np * B) return;
  int i = x / B, c = x % B;  // column panel element (i, k0+c)
  if (i < k0 || i >= k0 + B) P[(i64)i * np + k0 + c] = Pc[x];
  int r = x / np, j = x % np;  // row panel element (k0+r, j)
  if (j < k0 || j >= k0 + B) P[(i64)(k0 + r) * np + j] = Pr[x];
}

// ---------------------------------------------------------------------------
// cuda/systolic: GJE0, one thread per processor P(p, q), one launch per
// step; the geometry and rules are package systolic's (systolic/doc.go),
// which this follows line for line.

// Reg is one register: value, element id (-1: empty) and flag.
template <class T>
struct Reg {
  T v;
  int id;
  int cnt;
};

enum { kA = 0, kBI, kBO, kC, kDI, kDO, kE };

__device__ __forceinline__ int kind_at(int n, int p, int q) {
  if (p == n && q == n) return kC;
  if (p == 0 && q == n) return kE;
  if (p == n) return kDO;
  if (q == n) return kBO;
  if (q == 0) return kDI;
  if (p == 0) return kBI;
  return kA;
}

// Conflict codes, reported to the host with the step and processor.
enum {
  cTwoUp = 1,       // two data for one upward register
  cNoC,             // a and b meet without a c of the matching flag
  cBINoA,           // b at the bottom-left edge without a diagonal element
  cDownLeftOut,     // a datum leaves the array down-left
  cBONoB,           // c reflected at the top-left edge without b
  cTwoDR,           // two data for one down-right register
  cTwoDL,           // two data for one down-left register
  cDownRightOut,    // a datum leaves the array down-right
  cCornerFlag,      // an element reaches the top corner with flag 1
  cLeftCorner,      // unexpected data at the left corner
  cTwoInputs,       // two inputs for one line
};

// SysState are the device arrays of a simulation.
template <class T>
struct SysState {
  const Reg<T>* cur;  // registers written at the previous step: up, dr, dl (3 x P)
  Reg<T>* next;
  const T* mats;  // the input matrices, nm x n x n
  const int* in;  // In[m]: the step c_11 of matrix m is put on its line
  int* outStep;   // nm x n x n
  T* result;
  int* active;    // per step
  int* counters;  // [0] elements not yet out, [1] conflicts
  // keys[0]: the first conflict, step << 32 | processor << 4 | code;
  // keys[1]: the first undefined star, step << 32 | element id.
  unsigned long long* keys;
};

template <class S>
__device__ void sys_step(SysState<typename S::T> st, int n, int nm, int t) {
  typedef typename S::T T;
  typedef Reg<T> R;
  const int s = n + 1, P = s * s, nn = n * n;
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= P) return;
  const int p = idx / s, q = idx % s;
  const int kind = kind_at(n, p, q);
  const R* upC = st.cur;
  const R* drC = st.cur + P;
  const R* dlC = st.cur + 2 * P;
  R upN = {S::zero(), -1, 0}, drN = upN, dlN = upN;
  const R empty = upN;
  int* cnt = st.counters;
  int active = 0;
  auto conflict = [&](int code) {
    atomicAdd(cnt + 1, 1);
    atomicMin(st.keys, ((unsigned long long)t << 32) | ((unsigned long long)idx << 4) | (unsigned long long)code);
  };
  auto sendUp = [&](R c) {
    if (upN.id >= 0) {
      conflict(cTwoUp);
      return;
    }
    upN = c;
  };
  auto output = [&](R c) {
    st.outStep[c.id] = t;
    st.result[c.id] = c.v;
    atomicSub(cnt, 1);
  };
  R below = empty;
  if (p > 0 && q > 0) below = upC[idx - s - 1];
  R input = empty;
  if (p == 0 || q == 0) {
    int d = p - q;  // the line j - i
    int e = d < 0 ? -d : d;
    for (int m = 0; m < nm; ++m) {
      int rel = t - 1 - st.in[m] + 3 - 2 * e;  // 3 x the index along the line
      if (rel < 3 || rel % 3 != 0) continue;
      int x = rel / 3;  // 1-based: i for d >= 0, j for d < 0
      if (x > n - e) continue;
      int i = d >= 0 ? x : x + e, j = d >= 0 ? x + e : x;
      int id = m * nn + (i - 1) * n + (j - 1);
      if (input.id >= 0) conflict(cTwoInputs);
      input.v = st.mats[id];
      input.id = id;
      input.cnt = 0;
    }
  }
  R a = empty, b = empty;
  if (q < n) a = drC[idx + 1];
  if (p < n) b = dlC[idx + s];
  switch (kind) {
    case kA:
      if (a.id >= 0 && b.id >= 0) {
        if (below.id >= 0 && below.cnt == a.cnt + b.cnt - 2) {
          below.v = S::plus(below.v, S::times(a.v, b.v));
          active++;
        } else {
          conflict(cNoC);
        }
      }
      if (below.id >= 0) sendUp(below);
      drN = a;
      dlN = b;
      break;
    case kBI:
      if (b.id >= 0) {
        if (a.id < 0) {
          conflict(cBINoA);
        } else {
          b.v = S::times(a.v, b.v);
          active++;
        }
        sendUp(b);
      }
      if (input.id >= 0) sendUp(input);
      drN = a;
      break;
    case kDI:
      if (a.id >= 0) sendUp(a);
      if (input.id >= 0) sendUp(input);
      if (b.id >= 0) {
        if (p == 0) conflict(cDownLeftOut);
        else dlN = b;
      }
      break;
    case kBO:
      if (below.id >= 0) {
        R c = below;
        if (c.cnt == 2) {
          output(c);
        } else {
          if (b.id < 0) {
            conflict(cBONoB);
          } else {
            c.v = S::times(c.v, b.v);
            active++;
          }
          c.cnt++;
          drN = c;
        }
      }
      dlN = b;
      break;
    case kDO: {
      R c = below;
      if (q == 0 && input.id >= 0) c = input;
      if (c.id >= 0) {
        if (c.cnt == 2) {
          output(c);
        } else {
          c.cnt++;
          dlN = c;
        }
      }
      if (a.id >= 0) {
        if (q == 0) conflict(cDownRightOut);
        else drN = a;
      }
      break;
    }
    case kC:
      if (below.id >= 0) {
        R c = below;
        if (c.cnt == 2) {
          output(c);
        } else if (c.cnt == 0) {
          bool undefined;
          c.v = S::star(c.v, &undefined);
          if (undefined) atomicMin(st.keys + 1, ((unsigned long long)t << 32) | (unsigned long long)c.id);
          c.cnt = 1;
          active++;
          dlN = c;
        } else {
          conflict(cCornerFlag);
        }
      }
      break;
    case kE:
      if (b.id >= 0) {
        b.cnt++;
        drN = b;
      }
      if (input.id >= 0 || a.id >= 0) conflict(cLeftCorner);
      break;
  }
  st.next[idx] = upN;
  st.next[P + idx] = drN;
  st.next[2 * P + idx] = dlN;
  if (active) atomicAdd(st.active + t, active);
}

// sys_clear empties the registers.
template <class T>
__device__ void sys_clear(Reg<T>* r, int count, T zero) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < count) {
    Reg<T> e = {zero, -1, 0};
    r[x] = e;
  }
}

}  // namespace ap

// ---------------------------------------------------------------------------
// Entry points.

// AP_PRODUCTS: the panels and the bulk update of one semiring; AP_FAST:
// those and the element kernels (pad, unpad, pivot block, write-back).
#define AP_PRODUCTS(NAME, S, T, BM, BN, BK, TM, TN, MINB, FUSE)                                                           \
  extern "C" __global__ void __launch_bounds__(256, MINB)                                                             \
      apsp_panels_##NAME(const T* colK, const T* rowK, long long ld, const T* D, T* Pc, T* Pr) {                     \
    if (blockIdx.y == 0)                                                                                              \
      ap::mm<S, BM, BN, BK, TM, TN, false>(colK, ld, D, 128, Pc, 128, 128, 0, 0, blockIdx.x / (128 / BN),           \
                                           blockIdx.x % (128 / BN));                                                  \
    else                                                                                                              \
      ap::mm<S, BM, BN, BK, TM, TN, false>(D, 128, rowK, ld, Pr, ld, 128, 0, 0, blockIdx.x % (128 / BM),            \
                                           blockIdx.x / (128 / BM));                                                  \
  }                                                                                                                   \
  extern "C" __global__ void __launch_bounds__(256, MINB)                                                             \
      apsp_mmacc_##NAME(const T* A, long long lda, const T* B, long long ldb, T* C, long long ldc, int K, int skip,   \
                        int skipLen, int next, T* D, int* bad) {                                                      \
    ap::rest<S, BM, BN, BK, TM, TN, FUSE>(A, lda, B, ldb, C, ldc, K, skip, skipLen, next, D, bad);                   \
  }

#define AP_FAST(NAME, S, T, BM, BN, BK, TM, TN, MINB, FUSE)                                                               \
  extern "C" __global__ void apsp_pad_##NAME(const T* X, int n, T* P, int np) { ap::pad<T>(X, n, P, np, S::zero()); } \
  extern "C" __global__ void apsp_unpad_##NAME(const T* P, int np, T* X, int n) { ap::unpad<T>(P, np, X, n); }         \
  extern "C" __global__ void __launch_bounds__(1024) apsp_diag_##NAME(T* P, int np, int k0, T* D, int* bad) {         \
    ap::close_diag<S, 128, 1024>(P, np, k0, D, bad);                                                                        \
  }                                                                                                                   \
  extern "C" __global__ void apsp_writeback_##NAME(T* P, int np, int k0, const T* Pc, const T* Pr) {                  \
    ap::writeback<T, 128>(P, np, k0, Pc, Pr);                                                                         \
  }                                                                                                                   \
  AP_PRODUCTS(NAME, S, T, BM, BN, BK, TM, TN, MINB, FUSE)

AP_FAST(minplus32, sr::MinPlus<float>, float, 128, 128, 8, 8, 8, 2, true)
AP_FAST(bool32, sr::Bool32, unsigned, 128, 128, 8, 8, 8, 2, true)
AP_FAST(real64, sr::RealF64, double, 64, 64, 16, 4, 4, 2, false)
// min-plus float32 on non-negative values: the products alone, the element
// kernels are minplus32's
AP_PRODUCTS(minplus32nn, sr::MinPlusNonNeg, float, 128, 128, 8, 8, 8, 2, true)

// apsp_signs_f32 sets flag[1] to 0 when any of the 4 x count4 words at x
// is not +0, positive or +Inf as a float32 (its sign bit set, or a NaN):
// the test of cuda/fast's non-negative path (sr::MinPlusNonNeg). flag[2]
// gets SR_DPX, whether this build has the 3-way minimum in one instruction.
extern "C" __global__ void apsp_signs_f32(const uint4* x, long long count4, int* flag) {
  bool bad = false;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count4; i += (long long)gridDim.x * blockDim.x) {
    const uint4 v = x[i];
    bad |= v.x > 0x7f800000u || v.y > 0x7f800000u || v.z > 0x7f800000u || v.w > 0x7f800000u;
  }
  if (__syncthreads_or(bad) && threadIdx.x == 0) atomicMin(flag + 1, 0);
  if (blockIdx.x == 0 && threadIdx.x == 0) flag[2] = SR_DPX;
}

#define AP_SYS(NAME, S, T)                                                                                      \
  extern "C" __global__ void apsp_sys_step_##NAME(const ap::Reg<T>* cur, ap::Reg<T>* next, const T* mats,        \
                                                  const int* in, int* outStep, T* result, int* active,           \
                                                  int* counters, unsigned long long* keys, int n, int nm, int t) { \
    ap::SysState<T> st = {cur, next, mats, in, outStep, result, active, counters, keys};                       \
    ap::sys_step<S>(st, n, nm, t);                                                                              \
  }                                                                                                             \
  extern "C" __global__ void apsp_sys_clear_##NAME(ap::Reg<T>* r, int count) { ap::sys_clear<T>(r, count, S::zero()); }

AP_SYS(real64, sr::RealF64, double)
AP_SYS(minplus64, sr::MinPlus<double>, double)
AP_SYS(bool32, sr::Bool32, unsigned)

// ---------------------------------------------------------------------------
// The measured limit of the min-plus update on this GPU, for the updates
// per second of cuda/fast: every thread runs 16 independent chains
// c := fminf(c, c + e), one FADD and one FMNMX each, the very pair of the
// product kernel's inner loop (c := fminf(c, a + b)), with no memory
// traffic. The chains' values go to out so that nothing is optimized away.
// One launch does gridDim.x * blockDim.x * iters * 16 pairs.
extern "C" __global__ void __launch_bounds__(256) apsp_peak_minplus32(const float* d, float* out, int iters) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float c[16], e[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    c[i] = d[(tid + i) & 255];
    e[i] = d[(tid + 7 * i + 3) & 255];
  }
#pragma unroll 2
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 16; ++i) c[i] = fminf(c[i], c[i] + e[i]);
  }
  float s = c[0];
#pragma unroll
  for (int i = 1; i < 16; ++i) s = fminf(s, c[i]);
  out[tid] = s;
}

// The measured limit of the update of cuda/fast's non-negative path
// (sr::MinPlusNonNeg::mac2: two FADDs and one 3-way minimum per two
// updates), as apsp_peak_minplus32: 16 independent chains a thread, two
// updates a chain and iteration, c := min(c, c + e, c + f). One launch does
// gridDim.x * blockDim.x * iters * 32 updates.
extern "C" __global__ void __launch_bounds__(256) apsp_peak_minplus32nn(const float* d, float* out, int iters) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float c[16], e[16], f[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    c[i] = d[(tid + i) & 255];
    e[i] = d[(tid + 7 * i + 3) & 255];
    f[i] = d[(tid + 5 * i + 1) & 255];
  }
#pragma unroll 2
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 16; ++i) c[i] = sr::MinPlusNonNeg::mac2(c[i], c[i], e[i], c[i], f[i]);
  }
  float s = c[0];
#pragma unroll
  for (int i = 1; i < 16; ++i) s = fminf(s, c[i]);
  out[tid] = s;
}
