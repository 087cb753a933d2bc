// cuda/fast's forest search: the Hungarian method's alternating forest
// grown breadth first from every free column at once, with the slacks kept
// implicit (duals) and one least slack per row, as in the O(n^3) Hungarian
// algorithm, so that a dual update reads n values instead of the matrix.
// It runs after cuda/paper's steps 1 and 2 (kernels/lap_paper.cu), on their
// column-major int32 slack matrix S0 (S0 = cost - u - v; lap_forest16
// reads a 16-bit copy where the span allows) and their stars,
// and finds the rest of the assignment with duals du, dv of its own:
// the slack of (r, c) is S0[c*n + r] - du[r] - dv[c].
//
// One cooperative launch (every block resident; blocks meet at a grid
// barrier of their own) runs the whole search:
//   - T, the forest's columns, starts as the free columns (no star), each
//     the root of its own tree; no row is in the forest (S is empty).
//   - Level by level, the columns that joined T last are folded into each
//     candidate row's least key: key(r, c) = slack(r, c) + D_c, where D is
//     the total of the dual updates so far and D_c its value when c joined.
//     Keys do not change when the duals do, so a dual update is D += delta
//     and nothing else, and row r has a zero slack to T exactly when its
//     least key equals D.
//   - A candidate row with a zero joins the tree of its zero's column: if
//     it has a star, r joins S and its star's column joins T (the next
//     level folds it); if it is free, it ends an augmenting path of that
//     tree, which it claims if no other row has (one path per tree).
//   - A level that adds no column in a round that has found no path yet
//     is followed by a dual update: D becomes the least key of the
//     candidate rows.
//   - The first level that finds paths starts the round's end: the round
//     goes on goOn levels more while they add columns (no dual update; a
//     row that reaches a tree that has its path stays a candidate), then
//     the paths are flipped (disjoint: one per tree), and the trees that
//     had them leave the forest, their duals settled (du[r] -= D - D_r for
//     r in S, D_r when r joined; dv[c] += D - D_c for c in T). The other
//     trees stay: the rows that left them, and the candidate rows whose
//     least key was to a column that left, fold the whole forest again;
//     the others fold only what joined at the last level. Every slack
//     stays >= 0 and the paths' slacks 0.
// The search ends when every column has a star (every tree has left).
//
// Block b owns the rows and the columns b*R .. b*R+R-1 (R a power of two
// from 32 to the block's threads, 1,024, 512 or 256; a thread per row); its
// rows' keys and states live in shared memory for the whole search. For
// the folds its warps are R/32 row groups times warps/(R/32) slices of the
// columns; a warp reads 32 consecutive slacks of a column. A level's
// barrier carries the level's counts (levelBarrier), and a block that added
// a few columns at a level asks L2 for their slacks before that barrier.

#include "grid.cuh"

typedef long long i64;
typedef unsigned long long u64;

#define FOREST_INF 0x7fffffffffffffffLL

// Words of ctl (int64).
// Words 0 and 32 are the grid barrier's (grid.cuh: GRID_ARRIVALS, GRID_PASSAGE).
#define FC_ERROR 1   // 1: no row can reach the forest (an unmatchable row);
                     // 2: more than 4n+4 levels in a round; 3: a path ran
                     // longer than n (internal errors); 4: 2^24 levels, the
                     // most levelBarrier's passage word counts
#define FC_ROUNDS 2  // rounds (each ends in augmentations)
#define FC_LEVELS 3  // levels run
#define FC_DUALS 4   // dual updates
#define FC_FULL 5    // entries of the whole forest's list after a round
#define FC_SLOTS 8   // 8 + 4*s, s = level % 3: the level's list of new columns
                     // (a counter), its arrivals at levelBarrier, its least
                     // key of a candidate row
#define FC_TIMES 20  // 20 + k: block 0's nanoseconds in section k (when timed):
                     // 0 the levels' folds, 1 joins, 2 level barrier, 3 flips,
                     // 4 settling, 5 round barrier, 6 the repairs' folds (and
                     // the block's barrier after the folds)
#define FC_LPASS 48  // levelBarrier's passage: level << 40 | new columns << 20
                     // | paths (a 128-byte line of its own, with FC_LMIN)
#define FC_LMIN 49   // levelBarrier: the level's least key, where it added
                     // no column and found no path

// TICK(k) adds the time since the last TICK to section k, in block 0 when
// the launch is timed: in block 0's shared memory (secs_, written to ctl
// once at the end by TIMES_OUT), where a read-modify-write of ctl at
// every TICK would stall block 0 an L2 round trip each.
#define TICK(k)                                                       \
    if (timed && leader) {                                            \
        unsigned long long now_;                                      \
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now_));      \
        secs_[k] += (i64)(now_ - tick_);                              \
        tick_ = now_;                                                 \
    }
#define TIMES_OUT                                                     \
    if (timed && leader) {                                            \
        for (int k_ = 0; k_ < 7; ++k_) ctl[FC_TIMES + k_] = secs_[k_]; \
    }

// A column of T as the folds read it: the column, its tree, and the
// offset of its keys, D_c - dv[c].
struct __align__(16) ForestEntry {
    int c;
    int tree;
    i64 off;
};

__device__ __forceinline__ i64 warpMin64(i64 x) {
    for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_xor_sync(0xffffffffu, x, o));
    return x;
}

__device__ __forceinline__ ForestEntry loadEntry(const ForestEntry* e) {
    const int4 x = __ldcg((const int4*)e);
    ForestEntry y;
    y.c = x.x;
    y.tree = x.y;
    y.off = (i64)(((u64)(unsigned)x.w << 32) | (unsigned)x.z);
    return y;
}

// levelBarrier is a level's grid barrier that carries the level's counts
// (the block's new columns cnt and paths found) in its arrivals, word
// slot+1 (arrivals in bits 0-11, columns from bit 12, paths from bit 32;
// n < 2^20), so that the last block to arrive publishes them with the
// passage, FC_LPASS, and no block reads a control word after it: out gets
// the level's new columns, its paths and, where both are 0, its least key
// (FC_LMIN, read once by the last block). The word slot+1 is zeroed before
// the level starts.
__device__ __forceinline__ void levelBarrier(i64* ctl, int slot, u64 level, const int* cnt, const int* paths,
                                             i64* out) {
    __syncthreads();
    if (threadIdx.x == 0) {
        const u64 add = 1ULL | ((u64)*cnt << 12) | ((u64)*paths << 32);
        __threadfence();
        const u64 tot = atomicAdd((u64*)(ctl + slot + 1), add) + add;
        volatile u64* passage = (volatile u64*)(ctl + FC_LPASS);
        u64 p;
        if ((tot & 0xfffULL) == gridDim.x) {
            const u64 nn = (tot >> 12) & 0xfffffULL, pp = (tot >> 32) & 0xfffffULL;
            if (nn == 0 && pp == 0) {
                ((volatile i64*)ctl)[FC_LMIN] = ((volatile i64*)ctl)[slot + 2];
                __threadfence();
            }
            p = (level << 40) | (nn << 20) | pp;
            *passage = p;
        } else {
            while (((p = *passage) >> 40) < level) {
            }
        }
        __threadfence();
        out[0] = (i64)((p >> 20) & 0xfffffULL);
        out[1] = (i64)(p & 0xfffffULL);
        out[2] = out[0] == 0 && out[1] == 0 ? ((volatile i64*)ctl)[FC_LMIN] : FOREST_INF;
    }
    __syncthreads();
}

// FOREST_PREFETCH is the most new columns a block prefetches at a level
// (the whole column each, n slacks): a few a block in the levels that
// wait on latency, none in the first levels after a round, which fold
// thousands of columns and would evict what they prefetch.
#define FOREST_PREFETCH 8

// Row states.
#define ROW_CANDIDATE 0
#define ROW_IN_S 1
#define ROW_END 2 // the free row ending its tree's path

// FOLD_CHUNK entries of a list are staged in shared memory at a time;
// a warp reads FOLD_BATCH slacks before using any.
#define FOLD_CHUNK 256
#define FOLD_BATCH 8

// foldList folds entries [0, k) of list into the lane's row r (when take):
// the least key and its column and tree. With live set, it skips the
// entries of trees that have left (found >= 0). The block stages the
// entries in sE a chunk at a time; a warp takes every W-th staged entry
// from slice. Every thread of the block calls it.
template <typename T>
__device__ __forceinline__ void foldList(const ForestEntry* list, int k, int slice, int W, bool take, const T* S0,
                                         size_t n, int r, i64 ur, bool live, const int* found, ForestEntry* sE,
                                         i64* best, int* arg, int* tree) {
    const bool warpTakes = __any_sync(0xffffffffu, take);
    for (int base = 0; base < k; base += FOLD_CHUNK) {
        const int m = min(FOLD_CHUNK, k - base);
        if ((int)threadIdx.x < m) {
            ForestEntry e = loadEntry(list + base + threadIdx.x);
            if (live && __ldcg(found + e.tree) >= 0) e.c = -1;
            sE[threadIdx.x] = e;
        }
        __syncthreads();
        if (warpTakes) {
            for (int q = slice; q < m; q += FOLD_BATCH * W) {
                int c[FOLD_BATCH], x[FOLD_BATCH];
#pragma unroll
                for (int j = 0; j < FOLD_BATCH; ++j) c[j] = q + j * W < m ? sE[q + j * W].c : -1;
#pragma unroll
                for (int j = 0; j < FOLD_BATCH; ++j) x[j] = c[j] >= 0 && take ? (int)__ldg(S0 + (size_t)c[j] * n + r) : 0;
#pragma unroll
                for (int j = 0; j < FOLD_BATCH; ++j) {
                    if (c[j] < 0 || !take) continue;
                    const i64 key = (i64)x[j] - ur + sE[q + j * W].off;
                    if (key < *best) *best = key, *arg = c[j], *tree = sE[q + j * W].tree;
                }
            }
        }
        __syncthreads();
    }
}

// The repairs stage THREADS*PER entries of the whole forest at a time, PER
// a thread, in the launch's dynamic shared memory (16 KiB on the host),
// the next chunk's read from global memory while the block folds this
// one: a block's repairs take about a round trip a chunk however few rows
// it repairs (about 10 a block at n = 8192). A lane reads BATCH slacks
// before using any: 8 in blocks of 1,024 threads (64 registers a thread),
// 16 in blocks of 512.

// repairFold folds the whole forest, full[0, k), into the block's rows to
// repair (rows r0 + list[0, kr)), leaving in key[t] for each such row t its
// least key and the entry that has it, packed as key << 24 | entry (keys
// stay below 2^32: a slack below 2^31 plus a dual total below 2^31; -1
// when none). A block's rows of one column lie within R*4 bytes, so the
// lanes of a warp take the rows to repair and, when there are fewer than
// 32, several columns at once: every load of a warp reads a line or two.
// The entries are staged in sE, CHUNK at a time, and the next
// chunk's are loaded before this one's slacks, so a chunk waits on one
// load of slacks rather than two dependent loads (a round's repairs
// folded thousands of columns in 256-entry chunks, about 2 us each). Every
// thread of the block calls it; blockDim.x == THREADS.
template <typename T, int THREADS, int PER, int BATCH>
__device__ __forceinline__ void repairFold(const ForestEntry* full, int k, const int* list, int kr, const T* S0,
                                           size_t n, int r0, const i64* du, ForestEntry* sE, u64* key) {
    constexpr int CHUNK = THREADS * PER;
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    for (int i = tid; i < kr; i += blockDim.x) key[list[i]] = ~0ULL;
    ForestEntry ahead[PER];
#pragma unroll
    for (int p = 0; p < PER; ++p) ahead[p] = p * THREADS + tid < k ? loadEntry(full + p * THREADS + tid) : ForestEntry{-1, -1, 0};
    for (int base = 0; base < k; base += CHUNK) {
        const int m = min(CHUNK, k - base);
#pragma unroll
        for (int p = 0; p < PER; ++p)
            if (p * THREADS + tid < m) sE[p * THREADS + tid] = ahead[p];
        __syncthreads();
#pragma unroll
        for (int p = 0; p < PER; ++p)
            if (base + CHUNK + p * THREADS + tid < k) ahead[p] = loadEntry(full + base + CHUNK + p * THREADS + tid);
        for (int rc = 0; rc < kr; rc += 32) {
            const int rows = min(32, kr - rc), per = 32 / rows;
            const int col = lane / rows;
            if (col >= per) continue;
            const int t = list[rc + lane % rows];
            const int r = r0 + t;
            const i64 ur = du[r];
            u64 best = ~0ULL;
            const int step = (int)(blockDim.x >> 5) * per;  // the block's warps times a warp's columns
            for (int j = w * per + col; j < m; j += BATCH * step) {
                int x[BATCH];
#pragma unroll
                for (int q = 0; q < BATCH; ++q) {
                    const int jj = j + q * step;
                    x[q] = jj < m ? (int)__ldg(S0 + (size_t)sE[jj].c * n + r) : 0;
                }
#pragma unroll
                for (int q = 0; q < BATCH; ++q) {
                    const int jj = j + q * step;
                    if (jj >= m) continue;
                    const u64 v = ((u64)((i64)x[q] - ur + sE[jj].off) << 24) | (u64)(base + jj);
                    best = min(best, v);
                }
            }
            if (best != ~0ULL) atomicMin(key + t, best);
        }
        __syncthreads();
    }
}

// FOREST_REPAIR_PER is the entries a thread stages for the repairs: 1,024
// entries a chunk either way (16 KiB of dynamic shared memory).
#define FOREST_REPAIR_PER(THREADS) (1024 / (THREADS))

// forestSearch is the kernel, on slacks of type T (int, or unsigned short
// where they fit: half the bytes a fold reads), in blocks of THREADS
// threads (1,024, 512 or 256: the host picks by order and span, NOTES.md).
template <typename T, int THREADS>
__device__ __forceinline__ void forestSearch(int n, int R, const T* __restrict__ S0, i64* du, i64* dv,
                                             int* rowOfStarAtCol, int* colOfStarAtRow, int2* par, int* root,
                                             i64* djoin, int* found, ForestEntry* lists, ForestEntry* full, i64* ctl,
                                             int timed, int goOn) {
    static_assert(THREADS >= FOLD_CHUNK && THREADS <= 1024, "a fold stages a chunk of entries, one a thread");
    __shared__ i64 sKey[1024];
    __shared__ int sJoin[1024];  // D when the row joined S (D < 2^31: see the host's bound)
    __shared__ ForestEntry sE[FOLD_CHUNK];
    __shared__ int sArg[1024];
    __shared__ int sTree[1024];
    __shared__ int sStar[1024];
    __shared__ signed char sState[1024];
    __shared__ signed char sRepair[1024];
    __shared__ __align__(16) i64 pKey[32][32];
    __shared__ int pArg[32][32];
    __shared__ int pTree[32][32];
    __shared__ i64 sMin[32];
    extern __shared__ __align__(16) unsigned char forestDyn[];  // the repairs' staging (THREADS entries)

    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const int RG = R >> 5, W = (int)(blockDim.x >> 5) / RG;
    const int rg = w % RG, slice = w / RG;
    const int r0 = blockIdx.x * R, r1 = min(n, r0 + R);
    const bool leader = blockIdx.x == 0 && tid == 0;
    __shared__ i64 sCtl[8];  // control words read after a barrier
    __shared__ int sRepairs;  // rows to repair after a round, listed in pArg
    __shared__ int sNewCount, sPathCount;  // the block's new columns and paths at a level
    __shared__ int sNew[FOREST_PREFETCH];  // its first new columns
    u64 gen = 0;  // grid barriers passed
    unsigned long long tick_ = 0;
    __shared__ i64 secs_[7];
    if (tid < 7) secs_[tid] = 0;
    if (timed) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(tick_));

    // Start: every free column a root (the first level's list), every row
    // a candidate with no key.
    for (int c = r0 + tid; c < r1; c += blockDim.x) {
        du[c] = 0;
        dv[c] = 0;
        found[c] = -1;
        root[c] = -1;
        if (__ldcg(rowOfStarAtCol + c) < 0) {
            root[c] = c;
            djoin[c] = 0;
            ForestEntry e = {c, c, 0};
            lists[atomicAdd((u64*)(ctl + FC_SLOTS), 1ULL)] = e;
        }
    }
    if (tid < R) {
        sState[tid] = ROW_CANDIDATE;
        sRepair[tid] = 0;
        sKey[tid] = FOREST_INF;
        sArg[tid] = -1;
        sTree[tid] = -1;
        sStar[tid] = r0 + tid < n ? __ldcg(colOfStarAtRow + r0 + tid) : -1;
    }
    if (leader) {
        ctl[FC_SLOTS + 4] = 0;
        ctl[FC_SLOTS + 5] = 0;
        ctl[FC_SLOTS + 6] = FOREST_INF;
    }
    gridBarrier(ctl, &gen, FC_SLOTS, 1, sCtl);
    i64 freeLeft = sCtl[0];
    int nIn = (int)freeLeft;                 // entries of the list to fold
    const ForestEntry* in = lists;           // the list to fold
    int nFull = 0;                           // entries of full, after a round
    bool afterRound = false;                 // the level follows a round's end
    i64 D = 0;
    int L = 1;  // the level (the start is level 0), the same in every block
    int levels = 0, rounds = 0, duals = 0, err = 0;  // levels: of this round
    int going = 0;  // the round's paths so far (bits 0-19) and its levels since the first (from bit 20)
    while (freeLeft > 0) {
        if (L >= (1 << 24)) {  // the same L in every block: all stop here
            err = 4;
            break;
        }
        // Fold: the candidate rows fold the new columns (those of trees that
        // are still in the forest); after a round, the rows to repair fold
        // the whole forest.
        {
            const int t = rg * 32 + lane, r = r0 + t;
            const bool mine = r < n && sState[t] == ROW_CANDIDATE;
            const bool repair = mine && sRepair[t];
            const i64 ur = r < n ? du[r] : 0;
            i64 best = FOREST_INF;
            int arg = -1, tree = -1;
            foldList(in, nIn, slice, W, mine && !repair, S0, n, r, ur, afterRound, found, sE, &best, &arg, &tree);
            TICK(0)
            if (afterRound && sRepairs > 0)
                repairFold<T, THREADS, FOREST_REPAIR_PER(THREADS), THREADS >= 1024 ? 8 : 16>(
                    full, nFull, &pArg[0][0], sRepairs, S0, n, r0, du, (ForestEntry*)forestDyn, (u64*)sKey);
            pKey[w][lane] = best;
            pArg[w][lane] = arg;
            pTree[w][lane] = tree;
            if (tid == 0) sNewCount = 0, sPathCount = 0;
        }
        __syncthreads();
        TICK(6)
        // Each thread of the first R takes its row: the least key over the
        // slices, then, if it is zero, the row joins the forest.
        const int slot = FC_SLOTS + 4 * (L % 3);
        ForestEntry* out = lists + (L & 1) * n;
        i64 least = FOREST_INF;
        if (tid < R && r0 + tid < n && sState[tid] == ROW_CANDIDATE) {
            const int r = r0 + tid, g = tid >> 5, l2 = tid & 31;
            i64 b = sKey[tid];
            int a = sArg[tid], tr = sTree[tid];
            if (sRepair[tid]) {  // repairFold's packed least key and entry
                sStar[tid] = __ldcg(colOfStarAtRow + r);  // a path's flip may have changed it
                const u64 v = ((u64*)sKey)[tid];
                b = FOREST_INF;
                if (v != ~0ULL) {
                    const ForestEntry e = loadEntry(full + (int)(v & 0xffffffu));
                    b = (i64)(v >> 24);
                    a = e.c;
                    tr = e.tree;
                }
            }
            sRepair[tid] = 0;
            for (int s = 0; s < W; ++s) {
                const int ww = s * RG + g;
                if (pKey[ww][l2] < b) b = pKey[ww][l2], a = pArg[ww][l2], tr = pTree[ww][l2];
            }
            sKey[tid] = b;
            sArg[tid] = a;
            sTree[tid] = tr;
            if (b != D) {
                least = b;
            } else {
                const int star = sStar[tid];
                if (star >= 0 && going > 0 && __ldcg(found + tr) >= 0) {
                    // The tree has its path: the row stays a candidate and
                    // is repaired at the round's end.
                } else if (star < 0) {
                    if (atomicCAS(found + tr, -1, r) == -1) {
                        sState[tid] = ROW_END;
                        par[r] = make_int2(a, __ldcg(rowOfStarAtCol + a));
                        atomicAdd(&sPathCount, 1);
                    }
                    // A row that lost its claim stays a candidate: the tree
                    // leaves at the round's end and the row folds again.
                } else {
                    const int prow = __ldcg(rowOfStarAtCol + a);
                    sState[tid] = ROW_IN_S;
                    sJoin[tid] = (int)D;
                    root[star] = tr;
                    djoin[star] = D;
                    ForestEntry e = {star, tr, D - __ldcg(dv + star)};
                    out[atomicAdd((u64*)(ctl + slot), 1ULL)] = e;
                    par[r] = make_int2(a, prow);
                    const int k = atomicAdd(&sNewCount, 1);
                    if (k < FOREST_PREFETCH) sNew[k] = star;
                }
            }
        }
        least = warpMin64(least);
        if (lane == 0) sMin[w] = least;
        __syncthreads();
        // The next level folds the columns that joined: where the block
        // added a few, its warps but the first ask L2 for their slacks now,
        // while the grid meets at the barrier.
        if (tid >= 32 && sNewCount <= FOREST_PREFETCH) {
            constexpr int per = 128 / (int)sizeof(T);  // slacks a line
            const int lines = (n + per - 1) / per, all = sNewCount * lines;
            for (int i = tid - 32; i < all; i += (int)blockDim.x - 32) {
                const T* p = S0 + (size_t)sNew[i / lines] * n + (size_t)(i % lines) * per;
                asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
            }
        }
        if (w == 0) {
            i64 m = lane < (int)(blockDim.x >> 5) ? sMin[lane] : FOREST_INF;
            m = warpMin64(m);
            if (lane == 0 && m < FOREST_INF) atomicMin((u64*)(ctl + slot + 2), (u64)m);
        }
        if (leader) {
            ctl[FC_FULL] = 0;  // for a round's end after this level
            const int next = FC_SLOTS + 4 * ((L + 1) % 3);
            ctl[next] = 0;
            ctl[next + 1] = 0;
            ctl[next + 2] = FOREST_INF;
        }
        TICK(1)
        levelBarrier(ctl, slot, (u64)L, &sNewCount, &sPathCount, sCtl);
        TICK(2)
        const int nNext = (int)sCtl[0];
        i64 paths = sCtl[1];
        const i64 m = sCtl[2];
        ++L;
        ++levels;
        nIn = nNext;
        in = out;
        afterRound = false;
        // A round that has its first paths goes on up to goOn levels while
        // they add columns: the trees without a path keep growing.
        going += (int)paths;
        if (going > 0 && nNext > 0 && (going >> 20) < goOn) {
            going += 1 << 20;
            continue;
        }
        paths = going & 0xfffff;
        going = 0;
        if (paths == 0) {
            if (nNext == 0) {
                if (m == FOREST_INF) {
                    err = 1;
                    break;
                }
                D = m;
                ++duals;
            }
            if (levels > 4 * n + 4) {
                err = 2;
                break;
            }
            continue;
        }
        // The round's end, one barrier: flip the paths, from each path's
        // free row back through the primes and stars to its tree's root
        // (par[r] is r's prime column and that column's star row when r
        // joined, -1 at a root: the stars of a tree change only in its own
        // flip), and settle the trees that leave, which reads no star (the
        // rows to repair reread theirs after the barrier).
        ++rounds;
        levels = 0;
        freeLeft -= paths;
        if (tid < R && sState[tid] == ROW_END) {
            int row = r0 + tid;
            for (int steps = 0;; ++steps) {
                if (steps > n) {
                    ctl[FC_ERROR] = 3;
                    break;
                }
                const int2 cp = __ldcg(par + row);
                const int c = cp.x, prev = cp.y;
                rowOfStarAtCol[c] = row;
                colOfStarAtRow[row] = c;
                if (prev < 0) break;
                row = prev;
            }
        }
        if (tid == 0) sRepairs = 0;
        __syncthreads();
        TICK(3)
        // The trees with paths leave: settle their columns' duals; list the
        // columns that stay.
        for (int c = r0 + tid; c < r1; c += blockDim.x) {
            const int tr = __ldcg(root + c);
            if (tr < 0) continue;
            const i64 dj = __ldcg(djoin + c);
            if (__ldcg(found + tr) >= 0) {
                dv[c] += D - dj;
                root[c] = -1;
            } else {
                ForestEntry e = {c, tr, dj - dv[c]};
                full[atomicAdd((u64*)(ctl + FC_FULL), 1ULL)] = e;
            }
        }
        // Rows: those of the trees that left settle their duals and become
        // candidates again; they, the path ends, and the candidates whose
        // least key was to a tree that left fold the whole forest next.
        if (tid < R && r0 + tid < n) {
            const int r = r0 + tid;
            const int st = sState[tid];
            const bool gone = sTree[tid] >= 0 && __ldcg(found + sTree[tid]) >= 0;
            if (st == ROW_IN_S && gone) {
                du[r] -= D - (i64)sJoin[tid];
                sState[tid] = ROW_CANDIDATE;
                sRepair[tid] = 1;
            } else if (st == ROW_END) {
                sState[tid] = ROW_CANDIDATE;
                sRepair[tid] = 1;
            } else if (st == ROW_CANDIDATE && gone) {
                sRepair[tid] = 1;
            }
            if (sRepair[tid]) (&pArg[0][0])[atomicAdd(&sRepairs, 1)] = tid;
        }
        TICK(4)
        gridBarrier(ctl, &gen, FC_ERROR, FC_FULL - FC_ERROR + 1, sCtl);
        TICK(5)
        if (sCtl[0] != 0) {
            err = 3;
            break;
        }
        nFull = (int)sCtl[FC_FULL - FC_ERROR];
        afterRound = true;
    }
    TIMES_OUT
    if (leader) {
        if (err != 0 && err != 3) ctl[FC_ERROR] = err;
        ctl[FC_ROUNDS] = rounds;
        ctl[FC_LEVELS] = L - 1;  // level barriers
        ctl[FC_DUALS] = duals;
    }
}

// lap_forest and lap_forest16 (int32 slacks, and the 16-bit copy step 1
// makes where the span allows: lap_paper_step1_fused16) in blocks of 1,024
// threads; lap_forest_512 and lap_forest16_512 in blocks of 512, and the
// _256 pair in blocks of 256.
#define FOREST_ENTRY(name, T, THREADS)                                                                          \
    extern "C" __global__ void __launch_bounds__(THREADS, 1)                                                     \
        name(int n, int R, const T* __restrict__ S0, i64* du, i64* dv, int* rowOfStarAtCol, int* colOfStarAtRow, \
             int2* par, int* root, i64* djoin, int* found, ForestEntry* lists, ForestEntry* full, i64* ctl,      \
             int timed, int goOn) {                                                                              \
        forestSearch<T, THREADS>(n, R, S0, du, dv, rowOfStarAtCol, colOfStarAtRow, par, root, djoin, found,     \
                                 lists, full, ctl, timed, goOn);                                                 \
    }
FOREST_ENTRY(lap_forest, int, 1024)
FOREST_ENTRY(lap_forest16, unsigned short, 1024)
FOREST_ENTRY(lap_forest_512, int, 512)
FOREST_ENTRY(lap_forest16_512, unsigned short, 512)
FOREST_ENTRY(lap_forest_256, int, 256)
FOREST_ENTRY(lap_forest16_256, unsigned short, 256)

// lap_forest_settle adds the forest's duals to cuda/paper's (u += du,
// v += dv).
extern "C" __global__ void lap_forest_settle(int n, const i64* __restrict__ du, const i64* __restrict__ dv, i64* u,
                                             i64* v) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        u[i] += du[i];
        v[i] += dv[i];
    }
}
