// treefix.cu: +Rootfix and +Leaffix on the GPU (the treefix paper,
// 004_89a0ec3b389b4640.txt), for semibench's impls/cuda/treefix.
//
// Self-contained CUDA C++ (no includes): NVRTC compiles it at run time and
// kernels/ptx/treefix.ptx is its compute_70 fallback. Three groups of
// kernels:
//
//   - The vector tree representation of the paper's Fig. 2, built on the
//     GPU: the Euler tour is a linked list over 2n nodes ("(v" is node 2v,
//     "v)" node 2v+1, children toured in CSR order), ranked by a sparse
//     ruling set (rulers chosen by a hash, each walks its sublist, the
//     rulers' list is ranked by pointer jumping), so the build costs O(n)
//     work whatever the depth.
//   - The vectorial algorithm (Algorithm 2 and its Leaffix twin): write,
//     an inclusive +scan over the 2n entries, read. cuda/vectorial's
//     float32 scan runs in two passes: each tile scans itself and writes
//     its total, one block scans the totals, and the read adds a tile's
//     prefix to each entry it reads. Every other scan is single pass with
//     decoupled look-back (Merrill and Garland 2016): each tile publishes
//     its aggregate, then its inclusive prefix, and a warp looks back over
//     32 predecessors at a time. Its carrier is a template parameter: the
//     element itself (cuda/vectorial) or a double-double
//     (cuda/vectorial-compensated: a TwoSum-based pair, the "wider
//     accumulator" of issue 7).
//   - The paper's Algorithm 1 (cuda/parallel): level-synchronous BFS over
//     CSR, with the load balancing the paper describes (a block-wide prefix
//     sum over the frontier's child counts packs the children to gather),
//     made global for wide levels (the chunks' sums are scanned too, so a
//     star's root is shared by the whole grid), in one cooperative launch
//     whose levels are separated by a grid barrier; narrow levels (at most
//     one block of frontier and kNarrow children) run on block 0 alone with
//     __syncthreads, which keeps a 2^24-level caterpillar near a hundred
//     nanoseconds per level instead of a launch per level. Leaffix runs the
//     levels bottom-up, each child adding into its parent (a warp-segmented
//     reduction by parent, one atomic per segment).

namespace tf {

typedef long long i64;

// ---------------------------------------------------------------------------
// Carriers of the scan: the element types and a double-double.

struct DD {
  double hi, lo;
};

__device__ __forceinline__ float add(float a, float b) { return a + b; }
__device__ __forceinline__ double add(double a, double b) { return a + b; }
__device__ __forceinline__ i64 add(i64 a, i64 b) { return a + b; }
__device__ __forceinline__ int add(int a, int b) { return a + b; }

// add of two double-doubles: TwoSum of the high parts, the low parts and
// the rounding error accumulated, then renormalised (FastTwoSum). Its error
// is of order u64² relative to |a.hi| + |b.hi|.
__device__ __forceinline__ DD add(DD a, DD b) {
  double s = a.hi + b.hi;
  double bb = s - a.hi;
  double e = (a.hi - (s - bb)) + (b.hi - bb);
  e += a.lo + b.lo;
  DD r;
  r.hi = s + e;
  r.lo = e - (r.hi - s);
  return r;
}

template <class A> __device__ __forceinline__ A zero();
template <> __device__ __forceinline__ float zero<float>() { return 0.0f; }
template <> __device__ __forceinline__ double zero<double>() { return 0.0; }
template <> __device__ __forceinline__ i64 zero<i64>() { return 0; }
template <> __device__ __forceinline__ int zero<int>() { return 0; }
template <> __device__ __forceinline__ DD zero<DD>() {
  DD r;
  r.hi = 0.0;
  r.lo = 0.0;
  return r;
}

template <class A, class T> __device__ __forceinline__ A widen(T x) { return (A)x; }
template <> __device__ __forceinline__ DD widen<DD, float>(float x) {
  DD r;
  r.hi = (double)x;
  r.lo = 0.0;
  return r;
}
template <> __device__ __forceinline__ DD widen<DD, double>(double x) {
  DD r;
  r.hi = x;
  r.lo = 0.0;
  return r;
}

// narrow rounds a carrier to the element type: for a double-double to
// float, the nearest float to hi + lo (hi rounded, then moved one ulp when
// the remainder says the other neighbour is nearer).
template <class T, class A> __device__ __forceinline__ T narrow(A a) { return (T)a; }
template <> __device__ __forceinline__ float narrow<float, DD>(DD a) {
  float f = __double2float_rn(a.hi);
  double rem = (a.hi - (double)f) + a.lo;  // hi - f is exact
  if (rem != 0.0) {
    float g = nextafterf(f, rem > 0.0 ? __int_as_float(0x7f800000) : __int_as_float(0xff800000));
    if (fabs((double)g - (double)f) < 2.0 * fabs(rem)) f = g;
  }
  return f;
}
template <> __device__ __forceinline__ double narrow<double, DD>(DD a) { return a.hi; }

__device__ __forceinline__ float shfl_up(float v, int d) { return __shfl_up_sync(0xffffffffu, v, d); }
__device__ __forceinline__ double shfl_up(double v, int d) { return __shfl_up_sync(0xffffffffu, v, d); }
__device__ __forceinline__ i64 shfl_up(i64 v, int d) { return __shfl_up_sync(0xffffffffu, v, d); }
__device__ __forceinline__ int shfl_up(int v, int d) { return __shfl_up_sync(0xffffffffu, v, d); }
__device__ __forceinline__ DD shfl_up(DD v, int d) {
  v.hi = __shfl_up_sync(0xffffffffu, v.hi, d);
  v.lo = __shfl_up_sync(0xffffffffu, v.lo, d);
  return v;
}
__device__ __forceinline__ float shfl_down(float v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ __forceinline__ double shfl_down(double v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ __forceinline__ i64 shfl_down(i64 v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ __forceinline__ DD shfl_down(DD v, int d) {
  v.hi = __shfl_down_sync(0xffffffffu, v.hi, d);
  v.lo = __shfl_down_sync(0xffffffffu, v.lo, d);
  return v;
}

// Loads and stores of the look-back's tile values bypass L1 (other blocks
// write them).
__device__ __forceinline__ float ldcg(const float* p) { return __ldcg(p); }
__device__ __forceinline__ double ldcg(const double* p) { return __ldcg(p); }
__device__ __forceinline__ i64 ldcg(const i64* p) { return __ldcg(p); }
__device__ __forceinline__ int ldcg(const int* p) { return __ldcg(p); }
__device__ __forceinline__ DD ldcg(const DD* p) {
  DD r;
  r.hi = __ldcg(&p->hi);
  r.lo = __ldcg(&p->lo);
  return r;
}
__device__ __forceinline__ void stcg(float* p, float v) { __stcg(p, v); }
__device__ __forceinline__ void stcg(double* p, double v) { __stcg(p, v); }
__device__ __forceinline__ void stcg(i64* p, i64 v) { __stcg(p, v); }
__device__ __forceinline__ void stcg(DD* p, DD v) {
  __stcg(&p->hi, v.hi);
  __stcg(&p->lo, v.lo);
}

// ---------------------------------------------------------------------------
// Block-wide scan helpers.

// warp_incl is an inclusive scan across a warp.
template <class A> __device__ __forceinline__ A warp_incl(A v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    A o = shfl_up(v, d);
    if (lane >= d) v = add(o, v);
  }
  return v;
}

// block_excl returns the exclusive prefix of v over the block (threads in
// order) and the block's total in *total; warp_tot is shared scratch of
// blockDim.x/32 entries. All threads must call it.
template <class A> __device__ __forceinline__ A block_excl(A v, A* warp_tot, A* total) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  A inc = warp_incl(v, lane);
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  if (warp == 0) {
    A t = lane < nw ? warp_tot[lane] : zero<A>();
    t = warp_incl(t, lane);
    if (lane < nw) warp_tot[lane] = t;
  }
  __syncthreads();
  A base = warp > 0 ? warp_tot[warp - 1] : zero<A>();
  A tot = warp_tot[nw - 1];
  A ex = shfl_up(inc, 1);
  if (lane == 0) ex = zero<A>();
  *total = tot;
  __syncthreads();  // warp_tot may be reused at once
  return add(base, ex);
}

// ---------------------------------------------------------------------------
// The single-pass scan with decoupled look-back.

constexpr int kScanThreads = 256;

enum { kNotReady = 0, kAggregate = 1, kInclusive = 2 };

// tile_prefix publishes the tile's aggregate and returns, in lane 0 of
// warp 0 (its only caller), the exclusive prefix of the tiles before it:
// lane l inspects tile end-l, the window stops at the nearest tile with an
// inclusive prefix, and moves back 32 tiles while none has one.
template <class A>
__device__ A tile_prefix(int tile, A agg, volatile int* flags, A* aggs, A* incls) {
  int lane = threadIdx.x & 31;
  if (tile == 0) {
    if (lane == 0) {
      stcg(&incls[0], agg);
      __threadfence();
      flags[0] = kInclusive;
    }
    return zero<A>();
  }
  if (lane == 0) {
    stcg(&aggs[tile], agg);
    __threadfence();
    flags[tile] = kAggregate;
  }
  A excl = zero<A>();
  int end = tile - 1;
  for (;;) {
    int idx = end - lane;
    int f = kInclusive;
    if (idx >= 0) {
      do {
        f = flags[idx];
      } while (f == kNotReady);
    }
    __threadfence();
    A v = zero<A>();
    if (idx >= 0) v = f == kInclusive ? ldcg(&incls[idx]) : ldcg(&aggs[idx]);
    unsigned inc = __ballot_sync(0xffffffffu, f == kInclusive);
    int stop = inc ? __ffs(inc) - 1 : 31;
    if (lane > stop) v = zero<A>();
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v = add(v, shfl_down(v, d));
    excl = add(v, excl);
    if (inc) break;
    end -= 32;
  }
  return excl;
}

// publish_incl publishes the tile's inclusive prefix v (tile > 0).
template <class A>
__device__ __forceinline__ void publish_incl(int tile, A v, volatile int* flags, A* aggs, A* incls) {
  stcg(&incls[tile], v);
  __threadfence();
  flags[tile] = kInclusive;
}

// StoreElem writes each inclusive prefix rounded to the element type. The
// prefixes are recomputed sequentially from the exclusive prefix pre and
// the thread's inputs, read again from shared memory where scan left them
// (x is not used: no array of ITEMS inputs or carriers stays live across
// the look-back, so fewer registers and more blocks per SM); each prefix
// overwrites its own input.
template <class T> struct StoreElem {
  static constexpr int kSlot = sizeof(T);  // bytes of shared memory an entry
  T* out;
  template <class A, int ITEMS>
  __device__ void store(long long base, long long m, const T (&x)[ITEMS], A pre, unsigned char* smem) {
    T* s = (T*)smem;
    A run = pre;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
      int j = threadIdx.x * ITEMS + k;
      run = add(run, widen<A>(s[j + j / 32]));
      s[j + j / 32] = narrow<T>(run);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
      int j = k * kScanThreads + threadIdx.x;
      long long g = base + j;
      if (g < m) out[g] = s[j + j / 32];
    }
  }
};

// StoreWide writes each double-double prefix whole, as two double arrays.
struct StoreWide {
  static constexpr int kSlot = sizeof(double);  // bytes of shared memory an entry
  double *hi, *lo;
  template <class T, int ITEMS>
  __device__ void store(long long base, long long m, const T (&x)[ITEMS], DD pre, unsigned char* smem) {
    double* s = (double*)smem;
    DD v[ITEMS];
    DD run = pre;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
      run = add(run, widen<DD>(x[k]));
      v[k] = run;
    }
#pragma unroll
    for (int half = 0; half < 2; half++) {
      double* dst = half ? lo : hi;
#pragma unroll
      for (int k = 0; k < ITEMS; k++) {
        int j = threadIdx.x * ITEMS + k;
        s[j + j / 32] = half ? v[k].lo : v[k].hi;
      }
      __syncthreads();
#pragma unroll
      for (int k = 0; k < ITEMS; k++) {
        int j = k * kScanThreads + threadIdx.x;
        long long g = base + j;
        if (g < m) dst[g] = s[j + j / 32];
      }
      __syncthreads();
    }
  }
};

// load_blocked loads a thread's ITEMS consecutive inputs from p into x with
// 16-byte loads where the type allows (float), and says whether it did.
template <class T, int ITEMS> __device__ __forceinline__ bool load_blocked(const T* p, T (&x)[ITEMS]) { return false; }
template <int ITEMS> __device__ __forceinline__ bool load_blocked(const float* p, float (&x)[ITEMS]) {
  static_assert(ITEMS % 4 == 0, "whole float4s");
#pragma unroll
  for (int k = 0; k < ITEMS / 4; k++) {
    const float4 v = ((const float4*)p)[k];
    x[4 * k] = v.x;
    x[4 * k + 1] = v.y;
    x[4 * k + 2] = v.z;
    x[4 * k + 3] = v.w;
  }
  return true;
}

// load_tile loads the tile of kScanThreads*ITEMS entries of in at base
// (zeros past m) into x, a thread's ITEMS consecutive entries, and into
// the shared sx (a slot skipped every 32), and returns the sum of the
// thread's entries in carrier A: straight into registers with 16-byte
// loads where the tile is whole and the type allows, else coalesced
// through sx.
template <class T, class A, int ITEMS>
__device__ __forceinline__ A load_tile(const T* __restrict__ in, long long base, long long m, T* sx, T (&x)[ITEMS]) {
  constexpr int TILE = kScanThreads * ITEMS;
  A run = zero<A>();
  if (base + TILE <= m && load_blocked(in + base + threadIdx.x * ITEMS, x)) {
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
      int j = threadIdx.x * ITEMS + k;
      sx[j + j / 32] = x[k];
      run = add(run, widen<A>(x[k]));
    }
    return run;
  }
#pragma unroll
  for (int k = 0; k < ITEMS; k++) {
    int j = k * kScanThreads + threadIdx.x;
    long long g = base + j;
    sx[j + j / 32] = g < m ? in[g] : (T)0;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS; k++) {
    int j = threadIdx.x * ITEMS + k;
    x[k] = sx[j + j / 32];
    run = add(run, widen<A>(x[k]));
  }
  return run;
}

// scan is the inclusive +scan of in[0..m) with carrier A, one tile of
// kScanThreads*ITEMS entries per block, tiles taken in launch order from
// *counter (zeroed before the launch, with flags).
template <class T, class A, int ITEMS, class St>
__device__ void scan(const T* __restrict__ in, long long m, St st, int* counter, volatile int* flags, A* aggs, A* incls) {
  constexpr int TILE = kScanThreads * ITEMS;
  constexpr int SLOT = sizeof(T) > St::kSlot ? sizeof(T) : St::kSlot;
  __shared__ __align__(16) unsigned char smem[(TILE + TILE / 32) * SLOT];
  __shared__ A warp_tot[kScanThreads / 32];
  __shared__ int s_tile;
  __shared__ A s_excl;
  if (threadIdx.x == 0) s_tile = atomicAdd(counter, 1);
  __syncthreads();
  int tile = s_tile;
  long long base = (long long)tile * TILE;
  T* sx = (T*)smem;
  T x[ITEMS];
  A run = load_tile<T, A, ITEMS>(in, base, m, sx, x);
  A agg;
  A ex = block_excl(run, warp_tot, &agg);
  if (threadIdx.x < 32) {
    A p = tile_prefix(tile, agg, flags, aggs, incls);
    if (threadIdx.x == 0) {
      s_excl = p;
      if (tile > 0) publish_incl(tile, add(p, agg), flags, aggs, incls);
    }
  }
  __syncthreads();
  st.store(base, m, x, add(s_excl, ex), smem);
}

// scan_local is the first of the float scan's two passes: each block scans
// its own tile (blockIdx.x) without looking back, stores the tile's local
// inclusive prefixes and writes the tile's total to sums; scan_tiles turns
// the totals into exclusive prefixes, and the reads add a tile's prefix to
// each local one (read_root_tiled, read_leaf_tiled). No block waits on
// another, so the pass streams near the copy's rate where the single pass
// held its blocks at the look-back (on the H200, 2^25 floats in 0.076-0.078
// ms against 0.096-0.101, both passes counted: docs/gpu-notes.md).
template <class T, int ITEMS>
__device__ void scan_local(T* __restrict__ E, long long m, T* __restrict__ sums) {
  constexpr int TILE = kScanThreads * ITEMS;
  __shared__ __align__(16) unsigned char smem[(TILE + TILE / 32) * sizeof(T)];
  __shared__ T warp_tot[kScanThreads / 32];
  const int tile = blockIdx.x;
  const long long base = (long long)tile * TILE;
  T* sx = (T*)smem;
  T x[ITEMS];
  T run = load_tile<T, T, ITEMS>(E, base, m, sx, x);
  T agg;
  T ex = block_excl(run, warp_tot, &agg);
  if (threadIdx.x == 0) sums[tile] = agg;
  StoreElem<T> st;
  st.out = E;
  st.store(base, m, x, ex, smem);
}

// scan_tiles replaces sums[0..k) by their exclusive prefixes: one block of
// kTileThreads threads, ITEMS consecutive sums a thread, chunk after chunk
// with the running total carried.
constexpr int kTileThreads = 1024;
template <class T, int ITEMS>
__device__ void scan_tiles(T* sums, int k) {
  __shared__ T warp_tot[kTileThreads / 32];
  T carry = zero<T>();
  for (int base = 0; base < k; base += kTileThreads * ITEMS) {
    const int at = base + threadIdx.x * ITEMS;
    T x[ITEMS];
    T run = zero<T>();
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
      x[j] = at + j < k ? sums[at + j] : zero<T>();
      run = add(run, x[j]);
    }
    T tot;
    T ex = add(carry, block_excl(run, warp_tot, &tot));
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
      if (at + j < k) sums[at + j] = ex;
      ex = add(ex, x[j]);
    }
    carry = add(carry, tot);
  }
}

// ---------------------------------------------------------------------------
// Write and read steps of the vectorial algorithm (grid-stride loops).

#define TF_FOR(i, n) for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

// Four consecutive elements, loaded or stored as one access.
template <class T> struct __align__(4 * sizeof(T)) Four {
  T v[4];
};

// write: E[(v] = w_v, E[v)] = -w_v (Rootfix) or 0 (Leaffix), a vertex a
// thread (four a thread, as read_root takes them, scatter the stores of a
// warp over four times the span and ran 1.6-2.4x slower on the H100).
template <class T>
__device__ void write(const int* __restrict__ open, const int* __restrict__ close, const T* __restrict__ w, T* E, int n, int leaffix) {
  TF_FOR(i, n) {
    T x = w[i];
    E[open[i]] = x;
    E[close[i]] = leaffix ? (T)0 : -x;
  }
}

// read_root: R_v = E[(v], four consecutive vertices a thread (one 16-byte
// load of open and one store of out).
template <class T>
__device__ void read_root(const int* __restrict__ open, const T* __restrict__ E, T* out, int n) {
  const int q = n / 4;
  TF_FOR(i, q) {
    const int4 o = ((const int4*)open)[i];
    Four<T> r;
    r.v[0] = E[o.x];
    r.v[1] = E[o.y];
    r.v[2] = E[o.z];
    r.v[3] = E[o.w];
    ((Four<T>*)out)[i] = r;
  }
  TF_FOR(i, n - 4 * q) out[4 * q + i] = E[open[4 * q + i]];
}

// read_leaf: R_v = E[v)] - E[(v] + w_v.
template <class T>
__device__ void read_leaf(const int* __restrict__ open, const int* __restrict__ close, const T* __restrict__ E, const T* __restrict__ w, T* out, int n) {
  TF_FOR(i, n) out[i] = (E[close[i]] - E[open[i]]) + w[i];
}

// read_root_tiled: R_v = E[(v] + P[tile of (v], where the two-pass scan
// left E tile-local and P the tiles' exclusive prefixes (SHIFT: log2 of
// the tile), four consecutive vertices a thread as read_root.
template <class T, int SHIFT>
__device__ void read_root_tiled(const int* __restrict__ open, const T* __restrict__ E, const T* __restrict__ P, T* out, int n) {
  const int q = n / 4;
  TF_FOR(i, q) {
    const int4 o = ((const int4*)open)[i];
    Four<T> r;
    r.v[0] = E[o.x] + P[o.x >> SHIFT];
    r.v[1] = E[o.y] + P[o.y >> SHIFT];
    r.v[2] = E[o.z] + P[o.z >> SHIFT];
    r.v[3] = E[o.w] + P[o.w >> SHIFT];
    ((Four<T>*)out)[i] = r;
  }
  TF_FOR(i, n - 4 * q) {
    const int o = open[4 * q + i];
    out[4 * q + i] = E[o] + P[o >> SHIFT];
  }
}

// read_leaf_tiled: R_v = E[v)] - E[(v] + w_v on the two-pass scan's
// tile-local prefixes: the tiles' prefixes cancel where both entries lie
// in one tile, and are added to each otherwise.
template <class T, int SHIFT>
__device__ void read_leaf_tiled(const int* __restrict__ open, const int* __restrict__ close, const T* __restrict__ E, const T* __restrict__ P, const T* __restrict__ w, T* out, int n) {
  TF_FOR(i, n) {
    const int o = open[i], c = close[i];
    const T d = (o >> SHIFT) == (c >> SHIFT) ? E[c] - E[o] : (E[c] + P[c >> SHIFT]) - (E[o] + P[o >> SHIFT]);
    out[i] = d + w[i];
  }
}

// read_leaf_dd: the same on double-double prefixes, rounded once.
template <class T>
__device__ void read_leaf_dd(const int* __restrict__ open, const int* __restrict__ close, const double* __restrict__ hi, const double* __restrict__ lo, const T* __restrict__ w, T* out, int n) {
  TF_FOR(i, n) {
    int o = open[i], c = close[i];
    DD a, b;
    a.hi = hi[c];
    a.lo = lo[c];
    b.hi = -hi[o];
    b.lo = -lo[o];
    out[i] = narrow<T>(add(add(a, b), widen<DD>(w[i])));
  }
}

// ---------------------------------------------------------------------------
// The Euler tour on the GPU.

// is_ruler selects about one node in 32 by a multiplicative hash, and the
// head of the tour.
__device__ __forceinline__ bool is_ruler(int i, int head) {
  return i == head || ((unsigned)i * 2654435761u) >> 27 == 0;
}

// ---------------------------------------------------------------------------
// The paper's Algorithm 1: level-synchronous BFS over CSR, one cooperative
// launch.

constexpr int kBFSThreads = 512;
constexpr int kNarrow = 1024;  // most children of a level block 0 gathers alone

// grid_sync is a barrier over the (co-resident, cooperatively launched)
// grid: bar[0] counts arrivals, bar[1] is the generation.
__device__ void grid_sync(unsigned* bar) {
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile unsigned* gen = bar + 1;
    unsigned g = *gen;
    __threadfence();
    if (atomicAdd(bar, 1u) == gridDim.x - 1) {
      atomicExch(bar, 0u);
      __threadfence();
      atomicAdd(bar + 1, 1u);
    } else {
      while (*gen == g) __nanosleep(32);
    }
    __threadfence();
  }
  __syncthreads();
}

__device__ __forceinline__ void atomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(i64* p, i64 v) { atomicAdd((unsigned long long*)p, (unsigned long long)v); }

// upper returns the number of entries of the sorted a[0..cnt) that are <= x.
__device__ __forceinline__ int upper(const int* a, int cnt, int x, bool global) {
  int lo = 0, hi = cnt;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    int y = global ? __ldcg(a + mid) : a[mid];
    if (y <= x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// up_range adds out[child] into out[parent[child]] for the children
// Q[lo..hi), the block's warps taking 32 consecutive ones from first on,
// stride apart: a segmented warp reduction by parent (a level's children
// lie grouped by parent), one atomic per segment.
template <class T>
__device__ void up_range(const int* __restrict__ parent, const int* Q, T* out, int lo, int hi, int first, int stride) {
  int lane = threadIdx.x & 31;
  for (int b = lo + first; b < hi; b += stride) {
    int k = b + threadIdx.x;
    int key = -2 - lane;
    T v = (T)0;
    if (k < hi) {
      int c = __ldcg(Q + k);
      key = __ldg(parent + c);
      v = ldcg(out + c);
    }
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      T o = shfl_up(v, d);
      int ok = __shfl_up_sync(0xffffffffu, key, d);
      if (lane >= d && ok == key) v = add(o, v);
    }
    int nk = __shfl_down_sync(0xffffffffu, key, 1);
    if (key >= 0 && (lane == 31 || nk != key)) atomic_add(out + key, v);
  }
}

// bfs computes Rootfix (or, with leaffix, initialises out = w and then
// adds subtrees bottom-up) level by level. Q receives the breadth-first
// order, lev[0..nlev] the level starts; loc, cb and st are scratch.
template <class T>
__device__ void bfs(const int* __restrict__ R, const int* __restrict__ C, const int* __restrict__ parent, const T* __restrict__ w, T* out,
                    int* Q, int* loc, int* cb, int* lev, int* st, unsigned* bar, int root, int leaffix) {
  __shared__ int s_wt[kBFSThreads / 32];
  __shared__ int s_off[kBFSThreads];
  __shared__ int s_q[2][kNarrow];
  __shared__ T s_v[2][kNarrow];
  const int tid = threadIdx.x, B = blockDim.x;
  if (blockIdx.x == 0 && tid == 0) {
    Q[0] = root;
    out[root] = w[root];
    st[0] = 0;
    st[1] = 1;
    st[2] = 1;
    lev[0] = 0;
    lev[1] = 1;
    __threadfence();
  }
  for (;;) {
    if (blockIdx.x == 0) {
      // narrow levels: block 0 alone
      __syncthreads();
      int qlo = __ldcg(st), qhi = __ldcg(st + 1), nlev = __ldcg(st + 2);
      int cur = 0;
      bool loaded = false;
      for (;;) {
        int f = qhi - qlo;
        if (f == 0 || f > B) break;
        if (!loaded) {
          for (int i = tid; i < f; i += B) {
            int v = __ldcg(Q + qlo + i);
            s_q[cur][i] = v;
            s_v[cur][i] = ldcg(out + v);
          }
          __syncthreads();
          loaded = true;
        }
        int total, ex = 0;
        if (f == 1) {
          int v0 = s_q[cur][0];
          total = __ldg(R + v0 + 1) - __ldg(R + v0);
        } else {
          int deg = 0;
          if (tid < f) {
            int v = s_q[cur][tid];
            deg = __ldg(R + v + 1) - __ldg(R + v);
          }
          ex = block_excl(deg, s_wt, &total);
          if (total <= kNarrow && tid < f) s_off[tid] = ex;
          __syncthreads();
        }
        if (total > kNarrow) break;
        for (int k = tid; k < total; k += B) {
          int i = f == 1 ? 0 : upper(s_off, f, k, false) - 1;
          int u = s_q[cur][i];
          int child = __ldg(C + __ldg(R + u) + k - (f == 1 ? 0 : s_off[i]));
          T val = leaffix ? w[child] : add(s_v[cur][i], w[child]);
          out[child] = val;
          Q[qhi + k] = child;
          s_q[cur ^ 1][k] = child;
          s_v[cur ^ 1][k] = val;
        }
        qlo = qhi;
        qhi += total;
        if (total > 0) {
          nlev++;
          if (tid == 0) lev[nlev] = qhi;
        }
        cur ^= 1;
        __syncthreads();
      }
      if (tid == 0) {
        st[0] = qlo;
        st[1] = qhi;
        st[2] = nlev;
      }
    }
    grid_sync(bar);
    int qlo = __ldcg(st), qhi = __ldcg(st + 1), nlev = __ldcg(st + 2);
    if (qlo == qhi) break;
    // a wide level: every block; chunks of B frontier vertices
    int f = qhi - qlo, nc = (f + B - 1) / B;
    for (int c = blockIdx.x; c < nc; c += gridDim.x) {
      int i = c * B + tid, deg = 0;
      if (i < f) {
        int v = __ldcg(Q + qlo + i);
        deg = __ldg(R + v + 1) - __ldg(R + v);
      }
      int tot;
      int ex = block_excl(deg, s_wt, &tot);
      if (i < f) loc[i] = ex;
      if (tid == 0) cb[c] = tot;
    }
    grid_sync(bar);
    if (blockIdx.x == 0) {  // exclusive scan of the chunk totals
      int carry = 0;
      for (int b = 0; b < nc; b += B) {
        int x = b + tid < nc ? __ldcg(cb + b + tid) : 0;
        int tot;
        int ex = block_excl(x, s_wt, &tot);
        if (b + tid < nc) cb[b + tid] = carry + ex;
        carry += tot;
      }
      if (tid == 0) {
        cb[nc] = carry;
        st[0] = qhi;
        st[1] = qhi + carry;
        if (carry > 0) {
          lev[nlev + 1] = qhi + carry;
          st[2] = nlev + 1;
        }
      }
    }
    grid_sync(bar);
    int total = __ldcg(cb + nc);
    for (int k = blockIdx.x * B + tid; k < total; k += gridDim.x * B) {
      int c = upper(cb, nc, k, true) - 1;
      int r = k - __ldcg(cb + c);
      int lo = c * B;
      int i = upper(loc + lo, min(B, f - lo), r, true) - 1;
      int u = __ldcg(Q + qlo + lo + i);
      int child = __ldg(C + __ldg(R + u) + r - __ldcg(loc + lo + i));
      out[child] = leaffix ? w[child] : add(ldcg(out + u), w[child]);
      Q[qhi + k] = child;
    }
    grid_sync(bar);
  }
  if (!leaffix) return;
  // bottom-up: level L's vertices add into their parents, L = nlev-1 .. 1
  int L = __ldcg(st + 2) - 1;
  for (;;) {
    if (blockIdx.x == 0) {
      while (L >= 1) {
        int lo = __ldcg(lev + L), hi = __ldcg(lev + L + 1);
        if (hi - lo > B) break;
        up_range(parent, Q, out, lo, hi, 0, B);
        __threadfence();
        __syncthreads();
        L--;
      }
      if (tid == 0) st[3] = L;
    }
    grid_sync(bar);
    L = __ldcg(st + 3);
    if (L < 1) break;
    up_range(parent, Q, out, __ldcg(lev + L), __ldcg(lev + L + 1), blockIdx.x * B, gridDim.x * B);
    grid_sync(bar);
    L--;
  }
}

}  // namespace tf

using namespace tf;

// tf_pos: pos[C[k]] = k, each child's index in the CSR children array.
extern "C" __global__ void tf_pos(const int* __restrict__ C, int nc, int* pos) {
  TF_FOR(k, nc) pos[C[k]] = (int)k;
}

// tf_succ links the tour: after "(v" comes "(first child" or "v)"; after
// "v)" comes "(next sibling", else "parent)", and nothing after the root's.
extern "C" __global__ void tf_succ(const int* __restrict__ R, const int* __restrict__ C, const int* __restrict__ parent, const int* __restrict__ pos, int n, int* succ) {
  TF_FOR(v, n) {
    int b = R[v];
    succ[2 * v] = b < R[v + 1] ? 2 * C[b] : 2 * (int)v + 1;
    int p = parent[v];
    int s = -1;
    if (p >= 0) {
      int k = pos[v] + 1;
      s = k < R[p + 1] ? 2 * C[k] : 2 * p + 1;
    }
    succ[2 * v + 1] = s;
  }
}

// tf_rulers lists the rulers (in any order) and their list indices.
extern "C" __global__ void tf_rulers(int m, int head, int* count, int* list, int* cidx) {
  TF_FOR(i, m) {
    if (is_ruler((int)i, head)) {
      int r = atomicAdd(count, 1);
      list[r] = (int)i;
      cidx[i] = r;
    }
  }
}

// tf_walk: each ruler walks its sublist up to the next ruler, giving every
// node its ruler and offset, and the ruler its length and successor.
extern "C" __global__ void tf_walk(const int* __restrict__ succ, const int* __restrict__ list, const int* __restrict__ cidx, const int* count, int head, int* owner, int* off, int* rnext, int* rlen) {
  int cnt = *count;
  TF_FOR(r, cnt) {
    int j = list[r], o = 0;
    do {
      owner[j] = (int)r;
      off[j] = o++;
      j = succ[j];
    } while (j >= 0 && !is_ruler(j, head));
    rlen[r] = o;
    rnext[r] = j < 0 ? -1 : cidx[j];
  }
}

// tf_jump is one round of pointer jumping over the rulers: len becomes the
// length of the list from r to twice as far (the suffix length once every
// next is -1).
extern "C" __global__ void tf_jump(int cnt, const int* __restrict__ nin, const int* __restrict__ lin, int* nout, int* lout) {
  TF_FOR(r, cnt) {
    int nx = nin[r];
    if (nx >= 0) {
      lout[r] = lin[r] + lin[nx];
      nout[r] = nin[nx];
    } else {
      lout[r] = lin[r];
      nout[r] = -1;
    }
  }
}

// tf_rank: a node's tour position is its ruler's (m minus the suffix
// length) plus its offset; (v and v) go to open and close.
extern "C" __global__ void tf_rank(int m, const int* __restrict__ owner, const int* __restrict__ off, const int* __restrict__ suf, int* open, int* close) {
  TF_FOR(i, m) {
    int rank = m - suf[owner[i]] + off[i];
    if (i & 1)
      close[i >> 1] = rank;
    else
      open[i >> 1] = rank;
  }
}

// tf_write_S for every element type; tf_read_root_S and tf_read_leaf_S
// after the single-pass scans (float32: only cuda/vectorial-compensated's
// Rootfix reads with tf_read_root_f32; its Leaffix reads double-doubles,
// and cuda/vectorial's float32 reads are the tiled ones).
#define TF_WRITE(S, T)                                                                                               \
  extern "C" __global__ void tf_write_##S(const int* open, const int* close, const T* w, T* E, int n, int leaffix) { \
    write<T>(open, close, w, E, n, leaffix);                                                                         \
  }
#define TF_READ_ROOT(S, T)                                                                                           \
  extern "C" __global__ void tf_read_root_##S(const int* open, const T* E, T* out, int n) {                          \
    read_root<T>(open, E, out, n);                                                                                   \
  }
#define TF_READ_LEAF(S, T)                                                                                           \
  extern "C" __global__ void tf_read_leaf_##S(const int* open, const int* close, const T* E, const T* w, T* out, int n) { \
    read_leaf<T>(open, close, E, w, out, n);                                                                         \
  }

TF_WRITE(f32, float)
TF_WRITE(f64, double)
TF_WRITE(i64, long long)
TF_READ_ROOT(f32, float)
TF_READ_ROOT(f64, double)
TF_READ_ROOT(i64, long long)
TF_READ_LEAF(f64, double)
TF_READ_LEAF(i64, long long)

#define TF_SCAN(NAME, T, A, ITEMS, MINB)                                                                                  \
  extern "C" __global__ void __launch_bounds__(kScanThreads, MINB) NAME(const T* in, long long m, T* out, int* counter, int* flags, A* aggs, A* incls) { \
    StoreElem<T> st;                                                                                                      \
    st.out = out;                                                                                                         \
    scan<T, A, ITEMS>(in, m, st, counter, flags, aggs, incls);                                                            \
  }

// The float scan in two passes (scan_local, scan_tiles) and its reads:
// tiles of 4096 floats (16 a thread), 2^12. Five blocks an SM: at six the
// local scan spills.
static_assert(kScanThreads * 16 == 1 << 12, "the tiled reads' shift is log2 of the float scan's tile");
extern "C" __global__ void __launch_bounds__(kScanThreads, 5) tf_scan_local_f32(float* E, long long m, float* sums) {
  scan_local<float, 16>(E, m, sums);
}
extern "C" __global__ void __launch_bounds__(kTileThreads, 1) tf_scan_tiles_f32(float* sums, int k) {
  scan_tiles<float, 8>(sums, k);
}
extern "C" __global__ void tf_read_root_tiled_f32(const int* open, const float* E, const float* P, float* out, int n) {
  read_root_tiled<float, 12>(open, E, P, out, n);
}
extern "C" __global__ void tf_read_leaf_tiled_f32(const int* open, const int* close, const float* E, const float* P, const float* w, float* out, int n) {
  read_leaf_tiled<float, 12>(open, close, E, P, w, out, n);
}
TF_SCAN(tf_scan_f64, double, double, 8, 3)
TF_SCAN(tf_scan_i64, long long, long long, 8, 3)
TF_SCAN(tf_scan_dd_f32, float, DD, 16, 3)
TF_SCAN(tf_scan_dd_f64, double, DD, 8, 3)

#define TF_SCAN_WIDE(NAME, T, ITEMS)                                                                                       \
  extern "C" __global__ void __launch_bounds__(kScanThreads, 3) NAME(const T* in, long long m, double* hi, double* lo, int* counter, int* flags, DD* aggs, DD* incls) { \
    StoreWide st;                                                                                                          \
    st.hi = hi;                                                                                                            \
    st.lo = lo;                                                                                                            \
    scan<T, DD, ITEMS>(in, m, st, counter, flags, aggs, incls);                                                            \
  }

TF_SCAN_WIDE(tf_scan_ddw_f32, float, 16)
TF_SCAN_WIDE(tf_scan_ddw_f64, double, 8)

extern "C" __global__ void tf_read_leaf_dd_f32(const int* open, const int* close, const double* hi, const double* lo, const float* w, float* out, int n) {
  read_leaf_dd<float>(open, close, hi, lo, w, out, n);
}
extern "C" __global__ void tf_read_leaf_dd_f64(const int* open, const int* close, const double* hi, const double* lo, const double* w, double* out, int n) {
  read_leaf_dd<double>(open, close, hi, lo, w, out, n);
}

#define TF_BFS(S, T)                                                                                                   \
  extern "C" __global__ void __launch_bounds__(kBFSThreads) tf_bfs_##S(const int* R, const int* C, const int* parent, const T* w, T* out, \
                                                                     int* Q, int* loc, int* cb, int* lev, int* st, unsigned* bar, int root, int leaffix) { \
    bfs<T>(R, C, parent, w, out, Q, loc, cb, lev, st, bar, root, leaffix);                                           \
  }

TF_BFS(f32, float)
TF_BFS(f64, double)
TF_BFS(i64, long long)
