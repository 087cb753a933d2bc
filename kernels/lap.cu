// lap.cu: the linear assignment problem on the GPU (paper
// 001_104f85080adea88a, Lopes et al.), for semibench: cuda/hungarian-n3 (the
// O(n^3) Hungarian algorithm, for the paper's Fig. 6) and cuda/fast (a
// forward auction with epsilon scaling in one persistent cooperative kernel
// per scaling phase, exact on integer costs). The paper's own O(n^4) design,
// cuda/paper, lives in lap_paper.cu.
//
// Self-contained CUDA C++ (no includes): NVRTC compiles it at run time for
// the exact device, and kernels/ptx/lap.ptx is its compute_70 fallback.
//
// Conventions (the host side, package impls/cuda/lap, keeps them):
//   - Costs are int32, row-major, rows x cols with rows <= cols; every sum,
//     dual and price is int64.
//   - Data that other blocks of the same launch write is read with __ldcg
//     (L2, never a stale L1 line); the costs are read-only.

namespace lapk {

typedef long long i64;
typedef unsigned long long u64;

#define LAP_INF (1LL << 62)

// ---------------------------------------------------------------------------
// cuda/hungarian-n3: the O(n^3) Hungarian algorithm in one block.
//
// Rows are added one at a time (1-based, as in the CPU twin
// impls/cpu/lap/n3.go): the row being added sits in the virtual column 0,
// and a shortest augmenting path is grown column by column. minv[j] is the
// slack of column j (the least reduced cost from the tree to j), way[j] the
// tree column it was reached from. Each step scans the newly reached row
// (every thread its columns), takes the least slack of the columns outside
// the tree (a block-wide minimum, preferring a free column among equals) and
// moves the duals by it: u[p[j]] += delta, v[j] -= delta on the tree's
// columns, minv[j] -= delta elsewhere. A step is O(cols), a row O(cols^2)
// steps at worst, hence O(n^3).

// minPair keeps the lexicographically least (d, k) in (*d, *k).
template <typename D>
__device__ __forceinline__ void minPair(D* d, int* k, D od, int ok) {
  if (od < *d || (od == *d && ok < *k)) {
    *d = od;
    *k = ok;
  }
}

// blockMinPair reduces (d, k) over the block; every thread gets the result.
// sd, sk: 32 slots of shared memory each; inf pads the missing warps.
template <typename D>
__device__ void blockMinPair(D* d, int* k, D* sd, int* sk, D inf) {
  for (int o = 16; o > 0; o >>= 1) {
    D od = __shfl_down_sync(0xffffffffu, *d, o);
    int ok = __shfl_down_sync(0xffffffffu, *k, o);
    minPair(d, k, od, ok);
  }
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (lane == 0) {
    sd[w] = *d;
    sk[w] = *k;
  }
  __syncthreads();
  if (w == 0) {
    int nw = (blockDim.x + 31) >> 5;
    *d = lane < nw ? sd[lane] : inf;
    *k = lane < nw ? sk[lane] : 0x7fffffff;
    for (int o = 16; o > 0; o >>= 1) {
      D od = __shfl_down_sync(0xffffffffu, *d, o);
      int ok = __shfl_down_sync(0xffffffffu, *k, o);
      minPair(d, k, od, ok);
    }
    if (lane == 0) {
      sd[0] = *d;
      sk[0] = *k;
    }
  }
  __syncthreads();
  *d = sd[0];
  *k = sk[0];
  __syncthreads();
}

// The integer kernels' reduction (int64 values, LAP_INF padding).
__device__ __forceinline__ void blockMinPair(i64* d, int* k, i64* sd, int* sk) {
  blockMinPair<i64>(d, k, sd, sk, LAP_INF);
}

// dualInf is the "infinite" slack of dual type D: LAP_INF for int64, +inf
// for double.
template <typename D>
__device__ __forceinline__ D dualInf();
template <>
__device__ __forceinline__ i64 dualInf<i64>() {
  return LAP_INF;
}
template <>
__device__ __forceinline__ double dualInf<double>() {
  return __longlong_as_double(0x7ff0000000000000LL);
}

// n3Rows is the body of every O(n^3) Hungarian entry: it adds rows
// rowBegin..rowEnd (1-based, inclusive) of ONE problem, given pointers to
// its costs (C: int, float or double, row-major rows x cols) and its
// workspace (u: rows+1 duals, v, p, way, minv, used: cols+1 each, all in
// global memory; u, v and p start at zero before the first row). D is the
// dual type: long long for int costs (exactly the arithmetic lap_n3 always
// had), double for float and double costs. sd, sk (32 slots each) and sj0
// are the block's shared memory. order, when not null, lists the rows to
// add (1-based).
template <typename C, typename D>
__device__ void n3Rows(const C* __restrict__ c, int rows, int cols, int rowBegin, int rowEnd, D* u, D* v, int* p,
                       int* way, D* minv, unsigned char* used, const int* __restrict__ order, D* sd, int* sk,
                       int* sj0) {
  const int tid = threadIdx.x, bs = blockDim.x;
  const D inf = dualInf<D>();
  for (int k = rowBegin; k <= rowEnd; ++k) {
    const int i = order ? order[k - 1] : k;
    for (int j = tid; j <= cols; j += bs) {
      minv[j] = inf;
      used[j] = 0;
    }
    if (tid == 0) {
      p[0] = i;
      *sj0 = 0;
    }
    __syncthreads();
    // Each step adds a column to the tree, so a row takes at most cols + 1
    // steps. The bound turns a broken invariant (say, non-finite costs)
    // into an unfinished matching, which the host's certificate rejects,
    // instead of a kernel that never ends. Every thread counts alike.
    int steps = 0;
    for (;;) {
      if (++steps > cols + 1) return;
      const int j0 = *sj0;
      if (tid == 0) used[j0] = 1;
      const int i0 = p[j0];
      const D ui = u[i0];
      const C* row = c + (i64)(i0 - 1) * cols;
      __syncthreads();
      D d = inf;
      int k = 0x7fffffff;
      for (int j = tid; j <= cols; j += bs) {
        if (used[j]) continue;  // column 0 is always used
        D mv = minv[j];
        const D cur = (D)row[j - 1] - ui - v[j];
        if (cur < mv) {
          mv = cur;
          minv[j] = cur;
          way[j] = j0;
        }
        // Among equal slacks prefer a free column: the path ends there.
        minPair(&d, &k, mv, (p[j] != 0 ? (1 << 30) : 0) | j);
      }
      blockMinPair<D>(&d, &k, sd, sk, inf);
      const D delta = d;
      const int j1 = k & ((1 << 30) - 1);
      for (int j = tid; j <= cols; j += bs) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      // Thread 0 decides whether the path ends at j1 and publishes it in
      // the sign of sj0 (~j1 < 0: a free column). Every thread must take
      // the same branch from that one value: reading p[j1] itself after
      // the barrier raced with thread 0's augmentation, which rewrites p
      // as soon as thread 0 leaves the loop, so a slow thread could go on
      // alone to a barrier the others never reach (a hung block).
      if (tid == 0) *sj0 = p[j1] == 0 ? ~j1 : j1;
      __syncthreads();
      if (*sj0 < 0) break;
    }
    // Augment along the path back to column 0.
    if (tid == 0) {
      int j0 = ~*sj0;
      while (j0 != 0) {
        const int j1 = way[j0];
        p[j0] = p[j1];
        j0 = j1;
      }
    }
    __syncthreads();
  }
}

// n3Batch solves problem blockIdx.x of a batch: every problem rows x cols,
// its costs at c + k*rows*cols, its u at u + k*(rows+1) and its v, p, way,
// minv and used at k*(cols+1) in theirs (u, v and p zeroed by the host).
template <typename C, typename D>
__device__ void n3Batch(const C* __restrict__ c, int rows, int cols, D* u, D* v, int* p, int* way, D* minv,
                        unsigned char* used, D* sd, int* sk, int* sj0) {
  const i64 k = blockIdx.x, w = (i64)cols + 1;
  n3Rows<C, D>(c + k * rows * cols, rows, cols, 1, rows, u + k * (rows + 1), v + k * w, p + k * w, way + k * w,
               minv + k * w, used + k * w, (const int*)0, sd, sk, sj0);
}

// rowminClaim sets *ui = min_j (row[j] - v[1 + j]) over the block and lets
// row i (1-based) claim one column of zero reduced cost (p[1 + j] = i) if
// one is still free. Every thread of the block calls it; claimed is a
// shared flag.
template <typename D>
__device__ void rowminClaim(const int* __restrict__ row, int cols, const D* v, D* ui, int* p, int i, D* sd, int* sk,
                            int* claimed) {
  D d = dualInf<D>();
  int k = 0x7fffffff;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) minPair(&d, &k, (D)row[j] - v[1 + j], j);
  if (threadIdx.x == 0) *claimed = 0;
  blockMinPair<D>(&d, &k, sd, sk, dualInf<D>());
  if (threadIdx.x == 0) *ui = d;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) {
    if ((D)row[j] - v[1 + j] == d && *(volatile int*)claimed == 0) {
      if (atomicCAS(p + 1 + j, 0, i) == 0 && atomicCAS(claimed, 0, 1) != 0) {
        atomicExch(p + 1 + j, 0);  // the row already has one: give it back
      }
    }
  }
  __syncthreads();
}

// greedyStart starts a square n x n integer problem as cuda/fast starts a
// large one (lap_colmin, lap_rowmin_greedy): v_j = min_i c_ij, then row by
// row u_i = min_j (c_ij - v_j) and a claim of a free column of zero reduced
// cost. The duals are feasible and the matched pairs tight. It lists the
// rows left free (1-based) in order and returns their count to every
// thread; mark (n+1 ints) is scratch.
template <typename D>
__device__ int greedyStart(const int* __restrict__ c, int n, D* u, D* v, int* p, int* mark, int* order, D* sd,
                           int* sk, int* flag) {
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    int m = 0x7fffffff;
    for (int i = 0; i < n; ++i) m = min(m, c[(i64)i * n + j]);
    v[1 + j] = (D)m;
  }
  __syncthreads();
  for (int i = 0; i < n; ++i) rowminClaim<D>(c + (i64)i * n, n, v, u + 1 + i, p, i + 1, sd, sk, flag);
  for (int i = threadIdx.x; i <= n; i += blockDim.x) mark[i] = 0;
  __syncthreads();
  for (int j = 1 + threadIdx.x; j <= n; j += blockDim.x)
    if (p[j] != 0) mark[p[j]] = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int nfree = 0;
    for (int i = 1; i <= n; ++i)
      if (!mark[i]) order[nfree++] = i;
    *flag = nfree;
  }
  __syncthreads();
  const int nfree = *flag;
  __syncthreads();
  return nfree;
}

// n3BatchShared is n3Batch with the problem's whole workspace in the
// block's shared memory (dynamic: (rows+1) duals u, then cols+1 each of v
// and minv, p and way, rows+1 row numbers, used; BatchShared on the host),
// so that every step of a row's search reads and writes on-chip memory.
// With Greedy (integer costs) and greedy (the host's choice), a square
// problem starts from greedyStart's duals and matching and adds only the
// rows it left free; otherwise it
// starts from zero duals and an empty matching, as n3Batch. It writes u,
// v and p to global memory at the end.
template <typename C, typename D, bool Greedy>
__device__ void n3BatchShared(const C* __restrict__ c, int rows, int cols, D* gu, D* gv, int* gp, bool greedy, D* sd,
                              int* sk, int* sj0) {
  extern __shared__ __align__(16) unsigned char lapShared[];
  const i64 k = blockIdx.x, w = (i64)cols + 1;
  D* u = (D*)lapShared;
  D* v = u + rows + 1;
  D* minv = v + w;
  int* p = (int*)(minv + w);
  int* way = p + w;
  int* order = way + w;
  unsigned char* used = (unsigned char*)(order + rows + 1);
  for (int j = threadIdx.x; j <= cols; j += blockDim.x) {
    v[j] = 0;
    p[j] = 0;
  }
  for (int i = threadIdx.x; i <= rows; i += blockDim.x) u[i] = 0;
  __syncthreads();
  const C* ck = c + k * rows * cols;
  if (Greedy && greedy && rows == cols) {
    const int nfree = greedyStart<D>((const int*)ck, rows, u, v, p, way, order, sd, sk, sj0);
    n3Rows<C, D>(ck, rows, cols, 1, nfree, u, v, p, way, minv, used, order, sd, sk, sj0);
  } else {
    n3Rows<C, D>(ck, rows, cols, 1, rows, u, v, p, way, minv, used, (const int*)0, sd, sk, sj0);
  }
  __syncthreads();
  for (int j = threadIdx.x; j <= cols; j += blockDim.x) {
    gv[k * w + j] = v[j];
    gp[k * w + j] = p[j];
  }
  for (int i = threadIdx.x; i <= rows; i += blockDim.x) gu[k * (rows + 1) + i] = u[i];
}
}  // namespace lapk

using namespace lapk;

// LAP_N3_ENTRIES(SUFFIX, C, D, GREEDY) defines the O(n^3) Hungarian's
// entries for costs of type C and duals of type D (GREEDY: the shared-memory
// batch entry starts square problems with greedyStart, integer costs only):
//   - lap_n3SUFFIX adds rows rowBegin..rowEnd (1-based, inclusive) of one
//     problem. u has rows+1 entries, v, p, way, minv and used cols+1; u, v
//     and p start at zero before the first row. One block; launched in
//     chunks of rows so that the host can stop between them. order, when
//     not null, lists the rows to add (1-based): the k-th row added is
//     order[k-1] (cuda/fast adds only the rows its greedy start left free).
//   - lap_n3_batchSUFFIX solves a batch of independent problems of one
//     shape, one block per problem (blockIdx.x), every row of each (see
//     n3Batch for the layout). The host picks the block size from cols (a
//     warp up to 32 columns, up to 256 threads).
//   - lap_n3_batch_sharedSUFFIX is lap_n3_batchSUFFIX with each problem's
//     workspace in shared memory (n3BatchShared), for the shapes whose
//     workspace fits a block's default 48 KB; it writes u, v and p only.
//     greedy != 0 starts square integer problems with greedyStart.
#define LAP_N3_ENTRIES(SUFFIX, C, D, GREEDY)                                                                            \
  extern "C" __global__ void __launch_bounds__(1024)                                                               \
      lap_n3##SUFFIX(const C* __restrict__ c, int rows, int cols, int rowBegin, int rowEnd, D* u, D* v, int* p,    \
                     int* way, D* minv, unsigned char* used, const int* __restrict__ order) {                      \
    __shared__ D sd[32];                                                                                           \
    __shared__ int sk[32];                                                                                         \
    __shared__ int sj0;                                                                                            \
    n3Rows<C, D>(c, rows, cols, rowBegin, rowEnd, u, v, p, way, minv, used, order, sd, sk, &sj0);                  \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(1024) lap_n3_batch##SUFFIX(                                         \
      const C* __restrict__ c, int rows, int cols, D* u, D* v, int* p, int* way, D* minv, unsigned char* used) {   \
    __shared__ D sd[32];                                                                                           \
    __shared__ int sk[32];                                                                                         \
    __shared__ int sj0;                                                                                            \
    n3Batch<C, D>(c, rows, cols, u, v, p, way, minv, used, sd, sk, &sj0);                                          \
  }                                                                                                                \
  extern "C" __global__ void __launch_bounds__(1024)                                                               \
      lap_n3_batch_shared##SUFFIX(const C* __restrict__ c, int rows, int cols, D* u, D* v, int* p, int greedy) {   \
    __shared__ D sd[32];                                                                                           \
    __shared__ int sk[32];                                                                                         \
    __shared__ int sj0;                                                                                            \
    n3BatchShared<C, D, GREEDY>(c, rows, cols, u, v, p, greedy != 0, sd, sk, &sj0);                                \
  }

// lap_widen16 widens count 16-bit costs to int32 (grid-stride): the upload
// of costs that fit 16 bits moves half the bytes over the bus and widens
// them on the device, chunk by chunk, into the solvers' int32 cost buffer.
// Each is sign-extended, then masked: mask -1 keeps int16 costs, 0xffff
// takes the low 16 bits of costs from 0 to 65,535 (hostcost.Width).
extern "C" __global__ void lap_widen16(const short* __restrict__ src, long long count, int* __restrict__ dst, int mask) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < count; k += (long long)gridDim.x * blockDim.x)
    dst[k] = (int)src[k] & mask;
}

// lap_shift32 subtracts d from count int32 costs (grid-stride): the fused
// upload sends costs as they are, and the Hungarian wants them minus their
// least, which is known only once every cost has been read.
extern "C" __global__ void lap_shift32(int* __restrict__ c, long long count, int d) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < count; k += (long long)gridDim.x * blockDim.x)
    c[k] -= d;
}

// int32 costs with int64 duals (exactly the arithmetic lap_n3 always had);
// float and double costs with double duals (every sum in double, float
// costs widened exactly).
LAP_N3_ENTRIES(, int, i64, true)
LAP_N3_ENTRIES(_f32, float, double, false)
LAP_N3_ENTRIES(_f64, double, double, false)

// ---------------------------------------------------------------------------
// cuda/fast on small cost ranges: reductions and a greedy start for lap_n3.
//
// Column reduction v_j = min_i c_ij (square problems only: with free
// columns v must stay 0), row reduction u_i = min_j (c_ij - v_j), and a
// greedy matching on the zero reduced costs: every row tries to claim one
// of its zero columns with a compare-and-swap on p. The duals are feasible
// and the matched pairs tight, so lap_n3 then adds only the free rows.

// lap_colmin lowers v[1 + j] to the least c_ij over a slice of the rows
// (grid.y slices; v starts at a large value).
extern "C" __global__ void lap_colmin(const int* __restrict__ c, int rows, int cols, i64* v) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  const int chunk = (rows + gridDim.y - 1) / gridDim.y;
  const int i0 = blockIdx.y * chunk, i1 = min(rows, i0 + chunk);
  if (i0 >= i1) return;
  int m = 0x7fffffff;
  for (int i = i0; i < i1; ++i) m = min(m, c[(i64)i * cols + j]);
  atomicMin(v + 1 + j, (i64)m);
}

// lap_rowmin_greedy sets u[1 + i] = min_j (c_ij - v[1 + j]) and lets row i
// claim one column of zero reduced cost (p[1 + j] = i + 1) if one is still
// free. A block per row.
extern "C" __global__ void lap_rowmin_greedy(const int* __restrict__ c, int rows, int cols, const i64* v, i64* u,
                                             int* p) {
  __shared__ i64 sd[32];
  __shared__ int sk[32];
  __shared__ int claimed;
  for (int i = blockIdx.x; i < rows; i += gridDim.x)
    rowminClaim<i64>(c + (i64)i * cols, cols, v, u + 1 + i, p, i + 1, sd, sk, &claimed);
}

// ---------------------------------------------------------------------------
// cuda/fast: forward auction (Bertsekas), asynchronous, epsilon scaling.
//
// Persons are the rows (rows..n-1 are virtual rows of cost zero when
// rows < n), objects the n columns. Benefits are the costs scaled by
// K = n + 1; person i values object j at c_ij K + price_j and bids for the
// least, j1, raising its price to price_j1 + (second least - least) + eps.
// With eps = 1 in the scaled units (below 1/n in the costs' own) an
// assignment in which every person is within eps of its best is optimal
// for the integer costs.
//
// Each object's price and owner share one 64-bit word, price << 24 |
// (owner + 1), so that a bid is one compare-and-swap: it succeeds when the
// bid is above the price at that moment, takes the object and evicts the
// owner. The auction is asynchronous (Bertsekas and Castanon): a bid may be
// computed from prices that others have since raised; prices only rise, so
// the bidder's own object still ends within eps of its best (its value is
// the second least it saw plus eps, and every other value only grew), and
// a bid that lost its race is simply recomputed. There are no rounds and no
// grid barriers: the blocks of one cooperative launch take unassigned
// persons from a ring queue (a block per bidder, scanning its row), push
// the persons they evict, and stop when every object has an owner.
//
// One scaling phase is lap_auction_min (the least price), lap_auction_init
// (prices shifted so the least is 0), lap_auction_check (the warm start:
// assignments still within the new eps kept, the other persons queued) and
// lap_auction_async.
//
// ctl (int32): [0] queue head (claims), [1] queue tail (pushes), [2] objects
// owned, [3] done, [4] error (1: a bid reached 2^39; 2: the bid limit),
// [5] bids of this phase (each block adds its count at the end; the limit
// maxBids holds per block). Bytes 32..39: the least
// price (int64).

#define AUC_BID_LIMIT (1LL << 39)
#define AUC_BATCH 8  // columns per thread loaded at once in a bid's scan

namespace lapk {

// top2 merges (b1, j1, b2) with (o1, oj, o2): least value, its object
// (lower index among equals), second least.
__device__ __forceinline__ void top2(i64* b1, int* j1, i64* b2, i64 o1, int oj, i64 o2) {
  if (o1 < *b1 || (o1 == *b1 && oj < *j1)) {
    *b2 = min(*b1, o2);
    *b1 = o1;
    *j1 = oj;
  } else {
    *b2 = min(*b2, o1);
  }
}

}  // namespace lapk

// lap_auction_min writes the least of the n prices to *out. One block.
extern "C" __global__ void lap_auction_min(const u64* __restrict__ word, int n, i64* out) {
  __shared__ i64 sd[32];
  __shared__ int sk[32];
  i64 d = LAP_INF;
  int k = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x) d = min(d, (i64)(word[j] >> 24));
  blockMinPair(&d, &k, sd, sk);
  if (threadIdx.x == 0) *out = d;
}

// lap_auction_init starts a scaling phase: prices shifted so that the least
// is 0 (owners kept), assign[owner] = object (the host sets assign to -1
// first), the queue empty.
extern "C" __global__ void lap_auction_init(u64* word, const i64* minPrice, int n, int* assign, int* queue, int* ctl) {
  const i64 lo = *minPrice;
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
    const u64 w = word[j];
    word[j] = ((u64)((i64)(w >> 24) - lo) << 24) | (w & 0xffffffu);
    const int owner = (int)(w & 0xffffffu) - 1;
    if (owner >= 0) assign[owner] = j;
    queue[j] = -1;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    ctl[0] = 0;
    ctl[1] = 0;
    ctl[2] = 0;
    ctl[3] = 0;
    ctl[5] = 0;
  }
}

// lap_auction_check keeps the assignments that satisfy epsilon
// complementary slackness for this phase's eps (the object's value within
// eps of the row's least) and frees and queues every other person: a warm
// start, so that a phase redoes only what the smaller eps invalidates. A
// block per person.
extern "C" __global__ void lap_auction_check(const int* __restrict__ c, int rows, int n, i64 eps, u64* word,
                                             const int* assign, int* queue, int* ctl) {
  __shared__ i64 sd[32];
  __shared__ int sk[32];
  const i64 K = (i64)n + 1;
  for (int i = blockIdx.x; i < n; i += gridDim.x) {
    const int a = assign[i];
    if (a < 0) {
      if (threadIdx.x == 0) queue[atomicAdd(ctl + 1, 1)] = i;
      continue;
    }
    const int* row = c + (i64)i * n;
    const bool real = i < rows;
    i64 d = LAP_INF;
    int k = 0;
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
      d = min(d, (real ? (i64)row[j] * K : 0) + (i64)(word[j] >> 24));
    }
    blockMinPair(&d, &k, sd, sk);
    if (threadIdx.x == 0) {
      const i64 own = (real ? (i64)row[a] * K : 0) + (i64)(word[a] >> 24);
      if (own > d + eps) {
        word[a] &= ~(u64)0xffffffu;
        queue[atomicAdd(ctl + 1, 1)] = i;
      } else {
        atomicAdd(ctl + 2, 1);
      }
    }
  }
}

// lap_auction_async runs one scaling phase to its end. Cooperative launch
// (the blocks wait on each other through the queue, so all must be
// resident).
extern "C" __global__ void __launch_bounds__(1024, 1)
    lap_auction_async(const int* __restrict__ c, int rows, int n, i64 eps, int maxBids, u64* word, int* queue,
                      int* ctl) {
  __shared__ i64 s1[32], s2[32];
  __shared__ int sj[32];
  __shared__ int sPerson;
  const i64 K = (i64)n + 1;
  const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  volatile int* done = ctl + 3;
  if (tid == 0 && __ldcg(ctl + 2) == n) *done = 1;  // every assignment kept
  int bids = 0;                                      // this block's (thread 0's)
  for (;;) {
    // Claim the next queue position and wait for its person (or the end).
    if (tid == 0) {
      const int pos = atomicAdd(ctl + 0, 1);
      int* slot = queue + pos % n;
      int person = -1;
      for (;;) {
        if (*(volatile int*)slot >= 0) {
          person = atomicExch(slot, -1);
          if (person >= 0) break;
        }
        if (*done) break;
      }
      sPerson = person;
    }
    __syncthreads();
    const int i = sPerson;
    if (i < 0) break;
    // Bid until a bid is accepted.
    for (;;) {
      i64 b1 = LAP_INF, b2 = LAP_INF;
      int j1 = 0x7fffffff;
      const int* row = c + (i64)i * n;
      const bool real = i < rows;
      // A bid's latency is the critical path of the auction's tail, where
      // few rows bid: every thread issues all its loads of a batch before
      // using any.
      for (int base = tid; base < n; base += blockDim.x * AUC_BATCH) {
        i64 x[AUC_BATCH];
#pragma unroll
        for (int u = 0; u < AUC_BATCH; ++u) {
          const int j = base + u * blockDim.x;
          x[u] = j < n ? (real ? (i64)row[j] * K : 0) + (i64)(__ldcg(word + j) >> 24) : LAP_INF;
        }
#pragma unroll
        for (int u = 0; u < AUC_BATCH; ++u) {
          if (x[u] < b2) {
            if (x[u] < b1) {
              b2 = b1;
              b1 = x[u];
              j1 = base + u * blockDim.x;
            } else {
              b2 = x[u];
            }
          }
        }
      }
      for (int o = 16; o > 0; o >>= 1) {
        const i64 o1 = __shfl_down_sync(0xffffffffu, b1, o);
        const int oj = __shfl_down_sync(0xffffffffu, j1, o);
        const i64 o2 = __shfl_down_sync(0xffffffffu, b2, o);
        top2(&b1, &j1, &b2, o1, oj, o2);
      }
      if (lane == 0) {
        s1[w] = b1;
        sj[w] = j1;
        s2[w] = b2;
      }
      __syncthreads();
      if (tid == 0) {
        const int nw = (blockDim.x + 31) >> 5;
        for (int k = 1; k < nw; ++k) top2(&b1, &j1, &b2, s1[k], sj[k], s2[k]);
        const i64 seen = b1 - (real ? (i64)row[j1] * K : 0);  // the price of j1 the scan saw
        const i64 bid = seen + (b2 - b1) + eps;
        int result = 0;  // 0: lost the race, 1: placed
        if (bid >= AUC_BID_LIMIT) {
          ctl[4] = 1;
          *done = 1;
          result = 1;
        } else {
          u64 old = __ldcg(word + j1);
          for (;;) {
            if ((i64)(old >> 24) >= bid) break;
            const u64 prev = atomicCAS(word + j1, old, ((u64)bid << 24) | (u64)(i + 1));
            if (prev == old) {
              result = 1;
              break;
            }
            old = prev;
          }
          if (result) {
            const int evicted = (int)(old & 0xffffffu) - 1;
            if (evicted >= 0) {
              ((volatile int*)queue)[atomicAdd(ctl + 1, 1) % n] = evicted;
            } else if (atomicAdd(ctl + 2, 1) == n - 1) {
              *done = 1;
            }
          }
          if (++bids >= maxBids) {
            ctl[4] = 2;
            *done = 1;
            result = 1;
          }
        }
        sPerson = result;
      }
      __syncthreads();
      const int placed = sPerson;
      __syncthreads();
      if (placed) break;
    }
  }
  if (tid == 0) atomicAdd(ctl + 5, bids);
}
