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
__device__ __forceinline__ void minPair(i64* d, int* k, i64 od, int ok) {
  if (od < *d || (od == *d && ok < *k)) {
    *d = od;
    *k = ok;
  }
}

// blockMinPair reduces (d, k) over the block; every thread gets the result.
// sd, sk: 32 slots of shared memory each.
__device__ void blockMinPair(i64* d, int* k, i64* sd, int* sk) {
  for (int o = 16; o > 0; o >>= 1) {
    i64 od = __shfl_down_sync(0xffffffffu, *d, o);
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
    *d = lane < nw ? sd[lane] : LAP_INF;
    *k = lane < nw ? sk[lane] : 0x7fffffff;
    for (int o = 16; o > 0; o >>= 1) {
      i64 od = __shfl_down_sync(0xffffffffu, *d, o);
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

}  // namespace lapk

using namespace lapk;

// lap_n3 adds rows rowBegin..rowEnd (1-based, inclusive). u has rows+1
// entries, v, p, way, minv and used cols+1; u, v and p start at zero before
// the first row. One block; launched in chunks of rows so that the host can
// stop between them.
extern "C" __global__ void __launch_bounds__(1024) lap_n3(const int* __restrict__ c, int rows, int cols,
                                                          int rowBegin, int rowEnd, i64* u, i64* v, int* p,
                                                          int* way, i64* minv, unsigned char* used) {
  __shared__ i64 sd[32];
  __shared__ int sk[32];
  __shared__ int sj0;
  const int tid = threadIdx.x, bs = blockDim.x;
  for (int i = rowBegin; i <= rowEnd; ++i) {
    for (int j = tid; j <= cols; j += bs) {
      minv[j] = LAP_INF;
      used[j] = 0;
    }
    if (tid == 0) {
      p[0] = i;
      sj0 = 0;
    }
    __syncthreads();
    for (;;) {
      const int j0 = sj0;
      if (tid == 0) used[j0] = 1;
      const int i0 = p[j0];
      const i64 ui = u[i0];
      const int* row = c + (i64)(i0 - 1) * cols;
      __syncthreads();
      i64 d = LAP_INF;
      int k = 0x7fffffff;
      for (int j = tid; j <= cols; j += bs) {
        if (used[j]) continue;  // column 0 is always used
        i64 mv = minv[j];
        const i64 cur = (i64)row[j - 1] - ui - v[j];
        if (cur < mv) {
          mv = cur;
          minv[j] = cur;
          way[j] = j0;
        }
        // Among equal slacks prefer a free column: the path ends there.
        minPair(&d, &k, mv, (p[j] != 0 ? (1 << 30) : 0) | j);
      }
      blockMinPair(&d, &k, sd, sk);
      const i64 delta = d;
      const int j1 = k & ((1 << 30) - 1);
      for (int j = tid; j <= cols; j += bs) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      if (tid == 0) sj0 = j1;
      __syncthreads();
      if (p[j1] == 0) break;
    }
    // Augment along the path back to column 0.
    if (tid == 0) {
      int j0 = sj0;
      while (j0 != 0) {
        const int j1 = way[j0];
        p[j0] = p[j1];
        j0 = j1;
      }
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------
// cuda/fast: forward auction (Bertsekas), Jacobi bidding, epsilon scaling.
//
// Persons are the rows (rows..n-1 are virtual rows of cost zero when
// rows < n), objects the n columns. Benefits are the costs scaled by
// K = n + 1; person i values object j at c_ij K + price_j and bids for the
// least, j1, raising its price by (second least - least) + eps. With eps = 1
// in the scaled units (below 1/n in the costs' own) an assignment in which
// every person is within eps of its best is optimal for the integer costs.
//
// One scaling phase is lap_auction_min (the least price), lap_auction_init
// (prices shifted so the least is 0, everyone unassigned) and one
// cooperative launch of lap_auction_rounds. A round: every unassigned person
// (the list) bids, a block per bidder scanning its row, and posts
// (bid << 24 | person) to its object with atomicMax; after a grid barrier
// each bidder reads whether it won; a winner takes the object, raises its
// price and evicts the previous owner, a loser stays; both the evicted and
// the losers form the next list. Lists and bid boards alternate between two
// buffers, list counts rotate over three, so that each round needs only two
// grid barriers.
//
// ctl (int32): [0..2] list counts, [3] barrier arrivals, [4] barrier
// generation, [5..6] error flags set in even and odd rounds (1: a bid
// reached 2^39; 2: the round limit), [7] rounds (summed over phases).

#define AUC_BID_LIMIT (1LL << 39)

namespace lapk {

// gridBarrier: every block of a cooperative launch waits here for all.
__device__ __forceinline__ void gridBarrier(int* ctl) {
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile int* gen = ctl + 4;
    const int g = *gen;
    __threadfence();
    if (atomicAdd(ctl + 3, 1) == (int)gridDim.x - 1) {
      atomicExch(ctl + 3, 0);
      __threadfence();
      atomicAdd(ctl + 4, 1);
    } else {
      while (*gen == g) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

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
extern "C" __global__ void lap_auction_min(const i64* __restrict__ price, int n, i64* out) {
  __shared__ i64 sd[32];
  __shared__ int sk[32];
  i64 d = LAP_INF;
  int k = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x) d = min(d, price[j]);
  blockMinPair(&d, &k, sd, sk);
  if (threadIdx.x == 0) *out = d;
}

// lap_auction_init starts a scaling phase: prices shifted so that the least
// is 0, nobody assigned, every person on list 0, both bid boards clear.
extern "C" __global__ void lap_auction_init(i64* price, const i64* minPrice, int n, int* owner, int* assign,
                                            int* list, u64* board, int* ctl) {
  const i64 lo = *minPrice;
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
    price[j] -= lo;
    owner[j] = -1;
    assign[j] = -1;
    list[j] = j;
    board[j] = 0;
    board[n + j] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    ctl[0] = n;
    ctl[1] = 0;
    ctl[2] = 0;
    ctl[3] = 0;
  }
}

// lap_auction_rounds runs the rounds of one scaling phase until nobody is
// unassigned. Cooperative launch; list, bidCol: 2n; board: 2n; bidVal: n.
extern "C" __global__ void __launch_bounds__(512, 1)
    lap_auction_rounds(const int* __restrict__ c, int rows, int n, i64 eps, int maxRounds, i64* price, int* owner,
                       int* assign, int* list, int* bidCol, i64* bidVal, u64* board, int* ctl) {
  __shared__ i64 s1[32], s2[32];
  __shared__ int sj[32];
  const i64 K = (i64)n + 1;
  const int tid = threadIdx.x;
  const int gtid = blockIdx.x * blockDim.x + tid, gthreads = gridDim.x * blockDim.x;
  int r = 0;
  for (;; ++r) {
    const int cur = r & 1;
    const int L = __ldcg(ctl + r % 3);
    // An error of the previous round stops everyone (this round's flag may
    // be set by a block already past this point, so it is read next round;
    // the host reads both after each launch).
    if (L == 0 || __ldcg(ctl + 6 - cur) != 0) break;
    if (r >= maxRounds) {
      if (gtid == 0) ctl[5 + cur] = 2;
      break;
    }
    int* curList = list + cur * n;
    int* nextList = list + (1 - cur) * n;
    // Clear the previous round's bids from its board (not used this round).
    if (r > 0) {
      const int Lp = __ldcg(ctl + (r + 2) % 3);
      for (int k = gtid; k < Lp; k += gthreads) {
        const int i = __ldcg(nextList + k);
        board[(1 - cur) * n + __ldcg(bidCol + (1 - cur) * n + i)] = 0;
      }
    }
    if (gtid == 0) ctl[(r + 1) % 3] = 0;
    // Bids: a block per bidder.
    for (int k = blockIdx.x; k < L; k += gridDim.x) {
      const int i = __ldcg(curList + k);
      i64 b1 = LAP_INF, b2 = LAP_INF;
      int j1 = 0x7fffffff;
      if (i < rows) {
        const int* row = c + (i64)i * n;
        for (int j = tid; j < n; j += blockDim.x) {
          const i64 x = (i64)row[j] * K + __ldcg(price + j);
          if (x < b2) {
            if (x < b1) {
              b2 = b1;
              b1 = x;
              j1 = j;
            } else {
              b2 = x;
            }
          }
        }
      } else {
        for (int j = tid; j < n; j += blockDim.x) {
          const i64 x = __ldcg(price + j);
          if (x < b2) {
            if (x < b1) {
              b2 = b1;
              b1 = x;
              j1 = j;
            } else {
              b2 = x;
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
      const int lane = tid & 31, w = tid >> 5;
      if (lane == 0) {
        s1[w] = b1;
        sj[w] = j1;
        s2[w] = b2;
      }
      __syncthreads();
      if (w == 0) {
        const int nw = (blockDim.x + 31) >> 5;
        b1 = lane < nw ? s1[lane] : LAP_INF;
        j1 = lane < nw ? sj[lane] : 0x7fffffff;
        b2 = lane < nw ? s2[lane] : LAP_INF;
        for (int o = 16; o > 0; o >>= 1) {
          const i64 o1 = __shfl_down_sync(0xffffffffu, b1, o);
          const int oj = __shfl_down_sync(0xffffffffu, j1, o);
          const i64 o2 = __shfl_down_sync(0xffffffffu, b2, o);
          top2(&b1, &j1, &b2, o1, oj, o2);
        }
        if (lane == 0) {
          const i64 bid = __ldcg(price + j1) + (b2 - b1) + eps;
          if (bid >= AUC_BID_LIMIT) ctl[5 + cur] = 1;
          bidCol[cur * n + i] = j1;
          bidVal[i] = bid;
          atomicMax(board + cur * n + j1, ((u64)bid << 24) | (u64)i);
        }
      }
      __syncthreads();
    }
    gridBarrier(ctl);
    // Awards: a thread per bidder.
    for (int k = gtid; k < L; k += gthreads) {
      const int i = __ldcg(curList + k);
      const int j = __ldcg(bidCol + cur * n + i);
      const u64 w = __ldcg(board + cur * n + j);
      if ((int)(w & 0xffffffu) == i) {
        const int old = __ldcg(owner + j);
        owner[j] = i;
        price[j] = __ldcg(bidVal + i);
        assign[i] = j;
        if (old >= 0) {
          assign[old] = -1;
          nextList[atomicAdd(ctl + (r + 1) % 3, 1)] = old;
        }
      } else {
        nextList[atomicAdd(ctl + (r + 1) % 3, 1)] = i;
      }
    }
    gridBarrier(ctl);
  }
  if (gtid == 0) ctl[7] += r;
}
