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
//   - A level that adds no column and finds no path is followed by a dual
//     update: D becomes the least key of the candidate rows.
//   - At the first level that finds paths, the round ends: the paths are
//     flipped (disjoint: one per tree), and the trees that had them leave
//     the forest, their duals settled (du[r] -= D - D_r for r in S, D_r
//     when r joined; dv[c] += D - D_c for c in T). The other trees stay:
//     the rows that left them, and the candidate rows whose least key was
//     to a column that left, fold the whole forest again; the others fold
//     only what joined at the last level. Every slack stays >= 0 and the
//     paths' slacks 0.
// The search ends when every column has a star (every tree has left).
//
// Block b owns the rows and the columns b*R .. b*R+R-1 (R a power of two
// from 32 to 1024, one thread per row); its rows' keys and states live in
// shared memory for the whole search. For the folds its warps are R/32 row
// groups times 32/(R/32) slices of the columns; a warp reads 32
// consecutive slacks of a column.

typedef long long i64;
typedef unsigned long long u64;

#define FOREST_INF 0x7fffffffffffffffLL

// Words of ctl (int64).
#define FC_BARRIER 48 // the grid barrier's arrivals (a 128-byte line of its own)
#define FC_PASSAGE 32 // the grid barrier's passages (a 128-byte line of its own)
#define FC_ERROR 1   // 1: no row can reach the forest (an unmatchable row);
                     // 2: more than 4n+4 levels in a round; 3: a path ran
                     // longer than n (internal errors)
#define FC_ROUNDS 2  // rounds (each ends in augmentations)
#define FC_LEVELS 3  // levels run
#define FC_DUALS 4   // dual updates
#define FC_FULL 5    // entries of the whole forest's list after a round
#define FC_SLOTS 8   // 8 + 4*s, s = level % 3: the level's new columns, its
                     // paths found, its least key of a candidate row
#define FC_TIMES 20  // 20 + k: block 0's nanoseconds in section k (when timed):
                     // 0 the levels' folds, 1 joins, 2 level barrier, 3 flips,
                     // 4 settling, 5 round barrier, 6 the repairs' folds (and
                     // the block's barrier after the folds)

// TICK(k) adds the time since the last TICK to section k, in block 0 when
// the launch is timed: in block 0's shared memory (secs_, written to ctl
// once at the end by TIMES_OUT), where a read-modify-write of ctl at
// every TICK stalled block 0 an L2 round trip each and skewed what it
// timed.
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

// gridBarrier waits until every block of the grid has reached it as many
// times as this one (*gen counts this block's passages): each block's
// thread 0 adds one to the arrivals (acquire-release: the block's writes
// before the barrier go with it, and the last arrival acquires them all);
// the last of a passage raises the passage word (release), on which the
// others wait with acquire loads (a line of its own, so that the waiting
// does not slow the arrivals). Release and acquire where __threadfence
// fenced both sides: a sequentially consistent fence (MEMBAR.SC) is
// dearer than the ordering a barrier needs. Then, if words > 0, it copies
// ctl[at .. at+words) into out for the whole block: one thread reads them
// (every thread of every block reading the same words would queue
// thousands of requests on one L2 line).
__device__ __forceinline__ void gridBarrier(i64* ctl, u64* gen, int at = 0, int words = 0, i64* out = nullptr) {
    __syncthreads();
    if (threadIdx.x == 0) {
        const u64 g = ++*gen;
        u64 arrived;
        asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;"
                     : "=l"(arrived)
                     : "l"(__cvta_generic_to_global(ctl + FC_BARRIER))
                     : "memory");
        ++arrived;
        const size_t passage = __cvta_generic_to_global(ctl + FC_PASSAGE);
        if (arrived == g * gridDim.x) {
            asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(passage), "l"(g) : "memory");
        } else {
            u64 p;
            do {
                asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(p) : "l"(passage) : "memory");
            } while (p < g);
        }
        for (int i = 0; i < words; ++i) out[i] = ((volatile const i64*)ctl)[at + i];
    }
    __syncthreads();
}

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
__device__ __forceinline__ void foldStaged(int m, int slice, int W, bool take, const T* S0, size_t n, int r, i64 ur,
                                           const ForestEntry* sE, i64* best, int* arg, int* tree) {
    if (!__any_sync(0xffffffffu, take)) return;
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

template <typename T>
__device__ __forceinline__ void foldList(const ForestEntry* list, int k, int slice, int W, bool take, const T* S0,
                                         size_t n, int r, i64 ur, bool live, const int* found, ForestEntry* sE,
                                         i64* best, int* arg, int* tree) {
    for (int base = 0; base < k; base += FOLD_CHUNK) {
        const int m = min(FOLD_CHUNK, k - base);
        if ((int)threadIdx.x < m) {
            ForestEntry e = loadEntry(list + base + threadIdx.x);
            if (live && __ldcg(found + e.tree) >= 0) e.c = -1;
            sE[threadIdx.x] = e;
        }
        __syncthreads();
        foldStaged(m, slice, W, take, S0, n, r, ur, sE, best, arg, tree);
        __syncthreads();
    }
}

// REPAIR_CHUNK entries of the whole forest are staged at a time for the
// repairs, in a buffer of their own (the level's partial keys, free then),
// the next chunk's read from global memory while the block folds this one.
#define REPAIR_CHUNK 512

// repairFold folds the whole forest, full[0, k), into the block's rows to
// repair (rows r0 + list[0, kr)), leaving in key[t] for each such row t its
// least key and the entry that has it, packed as key << 24 | entry (keys
// stay below 2^32: a slack below 2^31 plus a dual total below 2^31; -1
// when none). A block's rows of one column lie within R*4 bytes, so the
// lanes of a warp take the rows to repair and, when there are fewer than
// 32, several columns at once: every load of a warp reads a line or two.
// The entries are staged in sE, REPAIR_CHUNK at a time, and the next
// chunk's are loaded before this one's slacks, so a chunk waits on one
// load of slacks rather than two dependent loads (a round's repairs
// folded thousands of columns in 256-entry chunks, about 2 us each). Every
// thread of the block calls it; blockDim.x >= REPAIR_CHUNK.
template <typename T>
__device__ __forceinline__ void repairFold(const ForestEntry* full, int k, const int* list, int kr, const T* S0,
                                           size_t n, int r0, const i64* du, ForestEntry* sE, u64* key) {
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    for (int i = tid; i < kr; i += blockDim.x) key[list[i]] = ~0ULL;
    ForestEntry ahead = {-1, -1, 0};
    if (tid < min(REPAIR_CHUNK, k)) ahead = loadEntry(full + tid);
    for (int base = 0; base < k; base += REPAIR_CHUNK) {
        const int m = min(REPAIR_CHUNK, k - base);
        if (tid < m) sE[tid] = ahead;
        __syncthreads();
        if (tid < REPAIR_CHUNK && base + REPAIR_CHUNK + tid < k) ahead = loadEntry(full + base + REPAIR_CHUNK + tid);
        for (int rc = 0; rc < kr; rc += 32) {
            const int rows = min(32, kr - rc), per = 32 / rows;
            const int col = lane / rows;
            if (col >= per) continue;
            const int t = list[rc + lane % rows];
            const int r = r0 + t;
            const i64 ur = du[r];
            u64 best = ~0ULL;
            const int step = 32 * per;
            for (int j = w * per + col; j < m; j += FOLD_BATCH * step) {
                int x[FOLD_BATCH];
#pragma unroll
                for (int q = 0; q < FOLD_BATCH; ++q) {
                    const int jj = j + q * step;
                    x[q] = jj < m ? (int)__ldg(S0 + (size_t)sE[jj].c * n + r) : 0;
                }
#pragma unroll
                for (int q = 0; q < FOLD_BATCH; ++q) {
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

// forestSearch is the kernel, on slacks of type T (int, or unsigned short
// where they fit: half the bytes a fold reads).
template <typename T>
__device__ __forceinline__ void forestSearch(int n, int R, const T* __restrict__ S0, i64* du, i64* dv,
                                             int* rowOfStarAtCol, int* colOfStarAtRow, int2* par, int* root,
                                             i64* djoin, int* found, ForestEntry* lists, ForestEntry* full, i64* ctl,
                                             int timed) {
    __shared__ i64 sKey[1024];
    __shared__ int sJoin[1024];  // D when the row joined S (D < 2^31: see the host's bound)
    __shared__ ForestEntry sE[FOLD_CHUNK];
    __shared__ int sArg[1024];
    __shared__ int sTree[1024];
    __shared__ int sStar[1024];
    __shared__ signed char sState[1024];
    __shared__ signed char sRepair[1024];
    __shared__ __align__(16) i64 pKey[32][32];  // also the repairs' staging (8 KiB: REPAIR_CHUNK entries)
    __shared__ int pArg[32][32];
    __shared__ int pTree[32][32];
    __shared__ i64 sMin[32];
    static_assert(REPAIR_CHUNK * sizeof(ForestEntry) <= sizeof(pKey), "the repairs' staging fits pKey");

    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const int RG = R >> 5, W = 32 / RG;
    const int rg = w % RG, slice = w / RG;
    const int r0 = blockIdx.x * R, r1 = min(n, r0 + R);
    const bool leader = blockIdx.x == 0 && tid == 0;
    __shared__ i64 sCtl[8];  // control words read after a barrier
    __shared__ int sRepairs;  // rows to repair after a round, listed in pArg
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
    while (freeLeft > 0) {
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
                repairFold(full, nFull, &pArg[0][0], sRepairs, S0, n, r0, du, (ForestEntry*)&pKey[0][0], (u64*)sKey);
            pKey[w][lane] = best;
            pArg[w][lane] = arg;
            pTree[w][lane] = tree;
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
                if (star < 0) {
                    if (atomicCAS(found + tr, -1, r) == -1) {
                        sState[tid] = ROW_END;
                        par[r] = make_int2(a, __ldcg(rowOfStarAtCol + a));
                        atomicAdd((u64*)(ctl + slot + 1), 1ULL);
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
                }
            }
        }
        least = warpMin64(least);
        if (lane == 0) sMin[w] = least;
        __syncthreads();
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
        gridBarrier(ctl, &gen, slot, 3, sCtl);
        TICK(2)
        const int nNext = (int)sCtl[0];
        const i64 paths = sCtl[1];
        const i64 m = sCtl[2];
        ++L;
        ++levels;
        nIn = nNext;
        in = out;
        afterRound = false;
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

// ---------------------------------------------------------------------------
// The asynchronous forest search (forestAsync): the same forest, keys,
// rounds, flips, settling and repairs as forestSearch, without a grid
// barrier per level. The columns that join T within a round are appended
// to one list (a block reserves its slots with one atomic on FA_COUNT and
// writes each entry with one 16-byte store; the lists start each round
// with every column -1, so a written entry is one whose column is >= 0).
// Each block keeps its own cursor into the list: its warp 0 polls the 64
// slots from the cursor on, stages the written ones in shared memory and
// the block folds them at once, then joins its rows whose least key
// equals D, appending their stars' columns. A block with nothing new is
// idle: it publishes its state (the dual generation g, its cursor, its
// least candidate key) and polls. The dual update is the state where
// every block is idle at the same cursor and generation and the list
// holds no more: any block that reads it (every state, then the count)
// takes D to the least key and publishes it in the slot of generation
// g+1, where the blocks that come later find it (a block lags at most one
// generation: the next update needs its state at g+1). The first claimed
// path ends the round: the blocks stop joining, meet at a barrier, fold
// what is left of the list (the trees that leave skipped), flip, settle
// and repair as forestSearch does, and meet again; rounds alternate
// between two lists, each reset while the other is in use. A hop (a row
// joins, its star's column is folded by the other blocks, one of their
// rows joins) costs the slots' atomic, the poll that reads the entry and
// the slacks' load, where a level of forestSearch adds the entries' load
// and a grid barrier.

// ctl words of the asynchronous search.
#define FA_COUNT 64    // slots reserved in this round's list
#define FA_PATHS 65    // paths claimed this round
#define FA_DSLOT 80    // 80 + (g & 3): (g << 40) | D, the dual total of generation g
#define FA_STATE 128   // 128 + b: block b's idle state (faState), 0 when none
#define FA_MAX_BLOCKS 256
#define FA_STALL_NS 2000000000ULL  // a block waiting this long sets error 4
#define FA_WINDOW 64   // slots a poll reads

// ldRelaxed is a strong relaxed load: it sees other blocks' writes, and
// several of them are in flight at once (acquire loads wait each for the
// last: a poll of four acquire loads took four round trips).
__device__ __forceinline__ i64 ldRelaxed(const i64* p) {
    i64 x;
    asm volatile("ld.relaxed.gpu.global.s64 %0, [%1];" : "=l"(x) : "l"(__cvta_generic_to_global(p)) : "memory");
    return x;
}

__device__ __forceinline__ i64 ldAcquire(const i64* p) {
    i64 x;
    asm volatile("ld.acquire.gpu.global.s64 %0, [%1];" : "=l"(x) : "l"(__cvta_generic_to_global(p)) : "memory");
    return x;
}

__device__ __forceinline__ void stRelease(i64* p, i64 x) {
    asm volatile("st.release.gpu.global.s64 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "l"(x) : "memory");
}

__device__ __forceinline__ unsigned long long nowNs() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// storeEntry writes an entry with one 16-byte store; pollEntry reads one
// with one 16-byte load that bypasses the L1 (it may not be written yet:
// its column is then -1).
__device__ __forceinline__ void storeEntry(ForestEntry* p, ForestEntry e) {
    __stcg((int4*)p, make_int4(e.c, e.tree, (int)(unsigned)(u64)e.off, (int)(unsigned)((u64)e.off >> 32)));
}

__device__ __forceinline__ ForestEntry pollEntry(const ForestEntry* p) {
    const int4 x = __ldcv((const int4*)p);
    ForestEntry y;
    y.c = x.x;
    y.tree = x.y;
    y.off = (i64)(((u64)(unsigned)x.w << 32) | (unsigned)x.z);
    return y;
}

// faState packs an idle block's state: valid bit 63, generation (15
// bits), cursor (16 bits), least candidate key (32 bits; all ones: none).
__device__ __forceinline__ i64 faState(int g, int cursor, i64 key) {
    const u64 k = key >= 0xffffffffLL ? 0xffffffffULL : (u64)key;
    return (i64)((1ULL << 63) | ((u64)(g & 0x7fff) << 48) | ((u64)(cursor & 0xffff) << 32) | k);
}

// faBarrier is gridBarrier that gives up when the error word is set (a
// block that stopped on an error never arrives); it returns false then.
__device__ __forceinline__ bool faBarrier(i64* ctl, u64* gen, int at, int words, i64* out) {
    __syncthreads();
    __shared__ int sOk;
    if (threadIdx.x == 0) {
        const u64 g = ++*gen;
        u64 arrived;
        asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;"
                     : "=l"(arrived)
                     : "l"(__cvta_generic_to_global(ctl + FC_BARRIER))
                     : "memory");
        ++arrived;
        const size_t passage = __cvta_generic_to_global(ctl + FC_PASSAGE);
        int ok = 1;
        if (arrived == g * gridDim.x) {
            asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(passage), "l"(g) : "memory");
        } else {
            const unsigned long long t0 = nowNs();
            for (u64 p = 0;;) {
                asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(p) : "l"(passage) : "memory");
                if (p >= g) break;
                if (ldRelaxed(ctl + FC_ERROR) != 0) {
                    ok = 0;
                    break;
                }
                if (nowNs() - t0 > FA_STALL_NS) {
                    atomicCAS((u64*)(ctl + FC_ERROR), 0ULL, 4ULL);
                    ok = 0;
                    break;
                }
            }
        }
        for (int i = 0; i < words; ++i) out[i] = ((volatile const i64*)ctl)[at + i];
        sOk = ok;
    }
    __syncthreads();
    return sOk != 0;
}

// Actions a block's poll returns.
#define FA_FOLD 1   // fold the list up to sVal
#define FA_DUAL 2   // D becomes sVal
#define FA_ROUND 3  // a path was claimed: the round ends
#define FA_ERR 4    // the error word is set

template <typename T>
__device__ __forceinline__ void forestAsync(int n, int R, const T* __restrict__ S0, i64* du, i64* dv,
                                            int* rowOfStarAtCol, int* colOfStarAtRow, int2* par, int* root,
                                            i64* djoin, int* found, ForestEntry* lists, ForestEntry* full, i64* ctl,
                                            int timed) {
    __shared__ i64 sKey[1024];
    __shared__ int sJoin[1024];
    __shared__ ForestEntry sE[FOLD_CHUNK];  // the poll's entries, or a chunk of the list
    __shared__ int sArg[1024];
    __shared__ int sTree[1024];
    __shared__ int sStar[1024];
    __shared__ signed char sState[1024];
    __shared__ signed char sRepair[1024];
    __shared__ __align__(16) i64 pKey[32][32];
    __shared__ int pArg[32][32];
    __shared__ int pTree[32][32];
    __shared__ i64 sMin[32];
    __shared__ int sWarpN[32];
    __shared__ i64 sCtl[8];
    __shared__ int sRepairs, sAct, sBase;
    __shared__ i64 sVal;
    static_assert(FA_WINDOW <= FOLD_CHUNK, "a poll's entries fit the staging");

    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const int RG = R >> 5, W = 32 / RG;
    const int rg = w % RG, slice = w / RG;
    const int r0 = blockIdx.x * R, r1 = min(n, r0 + R);
    const bool leader = blockIdx.x == 0 && tid == 0;
    const int gthreads = gridDim.x * blockDim.x, gtid = blockIdx.x * blockDim.x + tid;
    const ForestEntry none = {-1, -1, 0};
    u64 gen = 0;
    unsigned long long tick_ = 0;
    __shared__ i64 secs_[7];
    if (tid < 7) secs_[tid] = 0;
    if (timed) tick_ = nowNs();

    // Start: both lists unwritten; every row a candidate; then every free
    // column a root, listed.
    for (int i = gtid; i < 2 * n; i += gthreads) storeEntry(lists + i, none);
    for (int c = r0 + tid; c < r1; c += blockDim.x) {
        du[c] = 0;
        dv[c] = 0;
        found[c] = -1;
        root[c] = -1;
    }
    if (tid < R) {
        sState[tid] = ROW_CANDIDATE;
        sRepair[tid] = 0;
        sKey[tid] = FOREST_INF;
        sArg[tid] = -1;
        sTree[tid] = -1;
        sStar[tid] = r0 + tid < n ? __ldcg(colOfStarAtRow + r0 + tid) : -1;
    }
    if (!faBarrier(ctl, &gen, 0, 0, nullptr)) return;
    for (int c = r0 + tid; c < r1; c += blockDim.x) {
        if (__ldcg(rowOfStarAtCol + c) < 0) {
            root[c] = c;
            djoin[c] = 0;
            storeEntry(lists + atomicAdd((u64*)(ctl + FA_COUNT), 1ULL), ForestEntry{c, c, 0});
        }
    }
    if (!faBarrier(ctl, &gen, FA_COUNT, 1, sCtl)) return;
    i64 freeLeft = sCtl[0];
    i64 D = 0;
    int g = 0, cursor = 0, nFull = 0, used = 0, round = 0;
    int folds = 0, duals = 0;
    ForestEntry* list = lists;  // this round's
    // What the next fold takes: staged entries of the poll (sE[0, staged)),
    // the list from cursor to upto (at a round's end, live: the trees that
    // left skipped), the rows to repair (after a round).
    int staged = 0, upto = 0;
    bool live = false, repairs = false, ending = false;
    while (freeLeft > 0 || ending) {  // ending: the last round still to flip
        if (staged > 0 || upto > cursor || repairs) {
            const int t = rg * 32 + lane, r = r0 + t;
            const bool mine = r < n && sState[t] == ROW_CANDIDATE;
            const bool rep = mine && sRepair[t];
            const i64 ur = r < n ? du[r] : 0;
            i64 best = FOREST_INF;
            int arg = -1, tree = -1;
            if (staged > 0) {
                foldStaged(staged, slice, W, mine && !rep, S0, n, r, ur, sE, &best, &arg, &tree);
                cursor += staged;
                __syncthreads();
            }
            // A full window: more may be written; the block reads the list
            // FOLD_CHUNK slots at a time, up to the first unwritten one.
            for (int m = staged; m == FA_WINDOW || m == FOLD_CHUNK;) {
                const int k = cursor + tid;
                const ForestEntry e = tid < FOLD_CHUNK && k < n ? pollEntry(list + k) : none;
                const unsigned v = __ballot_sync(0xffffffffu, e.c >= 0);
                if (lane == 0) sWarpN[w] = v == 0xffffffffu ? 32 : __ffs(~v) - 1;
                __syncthreads();
                m = 0;
                for (int q = 0; q < FOLD_CHUNK / 32; ++q) {
                    m += sWarpN[q];
                    if (sWarpN[q] < 32) break;
                }
                if (tid < m) sE[tid] = e;
                __syncthreads();
                if (m > 0) foldStaged(m, slice, W, mine && !rep, S0, n, r, ur, sE, &best, &arg, &tree);
                cursor += m;
                __syncthreads();
            }
            if (upto > cursor)
                foldList(list + cursor, upto - cursor, slice, W, mine && !rep, S0, n, r, ur, live, found, sE, &best,
                         &arg, &tree);
            if (repairs && sRepairs > 0)
                repairFold(full, nFull, &pArg[0][0], sRepairs, S0, n, r0, du, (ForestEntry*)&pKey[0][0], (u64*)sKey);
            __syncthreads();
            pKey[w][lane] = best;
            pArg[w][lane] = arg;
            pTree[w][lane] = tree;
            __syncthreads();
            if (tid < R && r0 + tid < n && sState[tid] == ROW_CANDIDATE) {
                const int g2 = tid >> 5, l2 = tid & 31;
                i64 b = sKey[tid];
                int a = sArg[tid], tr = sTree[tid];
                if (sRepair[tid]) {  // repairFold's packed least key and entry
                    sStar[tid] = __ldcg(colOfStarAtRow + r0 + tid);
                    const u64 v = ((u64*)sKey)[tid];
                    b = FOREST_INF;
                    if (v != ~0ULL) {
                        const ForestEntry e = loadEntry(full + (int)(v & 0xffffffu));
                        b = (i64)(v >> 24);
                        a = e.c;
                        tr = e.tree;
                    }
                    sRepair[tid] = 0;
                }
                for (int s = 0; s < W; ++s) {
                    const int ww = s * RG + g2;
                    if (pKey[ww][l2] < b) b = pKey[ww][l2], a = pArg[ww][l2], tr = pTree[ww][l2];
                }
                sKey[tid] = b;
                sArg[tid] = a;
                sTree[tid] = tr;
            }
            cursor = max(cursor, upto);
            staged = 0;
            repairs = false;
            ++folds;
            __syncthreads();
            TICK(0)
        }
        if (!ending) {
            // Join: each candidate row whose least key is D joins the forest;
            // the block reserves the list's slots for its new columns at once,
            // while the joining rows read what their entries need.
            const bool cand = tid < R && r0 + tid < n && sState[tid] == ROW_CANDIDATE;
            const bool atD = cand && sKey[tid] == D;
            const bool app = atD && sStar[tid] >= 0;
            const unsigned bal = __ballot_sync(0xffffffffu, app);
            const i64 least = warpMin64(cand && !atD ? sKey[tid] : FOREST_INF);
            if (lane == 0) {
                sWarpN[w] = __popc(bal);
                sMin[w] = least;
            }
            __syncthreads();
            if (tid == 0) {
                int total = 0;
                i64 m = FOREST_INF;
                for (int k = 0; k < (int)(blockDim.x >> 5); ++k) {
                    const int c = sWarpN[k];
                    sWarpN[k] = total;
                    total += c;
                    m = min(m, sMin[k]);
                }
                sMin[0] = m;
                sBase = total > 0 ? (int)atomicAdd((u64*)(ctl + FA_COUNT), (u64)total) : 0;
            }
            ForestEntry e = none;
            if (atD) {
                const int r = r0 + tid, a = sArg[tid], tr = sTree[tid], star = sStar[tid];
                if (star < 0) {
                    if (atomicCAS(found + tr, -1, r) == -1) {
                        sState[tid] = ROW_END;
                        par[r] = make_int2(a, __ldcg(rowOfStarAtCol + a));
                        __threadfence();
                        atomicAdd((u64*)(ctl + FA_PATHS), 1ULL);
                    }
                } else {
                    const int prow = __ldcg(rowOfStarAtCol + a);
                    sState[tid] = ROW_IN_S;
                    sJoin[tid] = (int)D;
                    root[star] = tr;
                    djoin[star] = D;
                    e = {star, tr, D - __ldcg(dv + star)};
                    par[r] = make_int2(a, prow);
                }
            }
            __syncthreads();
            if (app) storeEntry(list + sBase + sWarpN[w] + __popc(bal & ((1u << lane) - 1)), e);
            TICK(1)
            // Poll: warp 0 waits for something to do.
            if (w == 0) {
                int act = 0;
                i64 val = 0;
                const i64 myMin = sMin[0];
                bool published = false;
                const unsigned long long t0 = nowNs();
                for (;;) {
                    // The entries from the cursor on, and the control words, all
                    // in flight at once. The dual slot is taken first; a block
                    // may see the entries or the paths that followed a dual
                    // update before the update itself: entries joined at the
                    // new total have keys above the old one (no row joins on
                    // them early), and a round's end reads the slot again
                    // after its barrier.
                    const int k0 = cursor + lane, k1 = k0 + 32;
                    const ForestEntry e0 = k0 < n ? pollEntry(list + k0) : none;
                    const ForestEntry e1 = k1 < n ? pollEntry(list + k1) : none;
                    const i64 err = ldRelaxed(ctl + FC_ERROR);
                    const i64 paths = ldRelaxed(ctl + FA_PATHS);
                    const i64 cnt = ldRelaxed(ctl + FA_COUNT);
                    const i64 ds = ldRelaxed(ctl + FA_DSLOT + ((g + 1) & 3));
                    const unsigned v0 = __ballot_sync(0xffffffffu, e0.c >= 0), v1 = __ballot_sync(0xffffffffu, e1.c >= 0);
                    const int ready = v0 == 0xffffffffu ? 32 + __ffs(~v1) - 1 + (v1 == 0xffffffffu ? 33 : 0) : __ffs(~v0) - 1;
                    if (err != 0) {
                        act = FA_ERR;
                    } else if ((u64)ds >> 40 == (u64)(g + 1)) {
                        act = FA_DUAL;
                        val = ds & ((1LL << 40) - 1);
                    } else if (paths > 0) {
                        act = FA_ROUND;
                    } else if (ready > 0) {
                        act = FA_FOLD;
                        val = min(ready, FA_WINDOW);
                        if (lane < val) sE[lane] = e0;
                        if (32 + lane < val) sE[32 + lane] = e1;
                    } else if (cnt == cursor) {
                        // Idle: publish the state once, then look for the
                        // dual update (every state at g and the cursor, then
                        // the count).
                        if (!published) {
                            if (lane == 0) stRelease(ctl + FA_STATE + blockIdx.x, faState(g, cursor, myMin));
                            published = true;
                        }
                        bool all = true;
                        u64 km = ~0ULL;
                        for (int b = lane; b < (int)gridDim.x; b += 32) {
                            const u64 st = (u64)ldRelaxed(ctl + FA_STATE + b);
                            all = all && (st >> 63) && (int)((st >> 48) & 0x7fff) == (g & 0x7fff) &&
                                  (int)((st >> 32) & 0xffff) == (cursor & 0xffff);
                            km = min(km, st & 0xffffffffULL);
                        }
                        all = __all_sync(0xffffffffu, all);
                        if (all) asm volatile("fence.acq_rel.gpu;" ::: "memory");  // the states, then the count
                        if (all && ldRelaxed(ctl + FA_COUNT) == cursor) {
                            for (int o = 16; o > 0; o >>= 1) km = min(km, __shfl_xor_sync(0xffffffffu, km, o));
                            if (km == 0xffffffffULL) {
                                if (lane == 0) atomicCAS((u64*)(ctl + FC_ERROR), 0ULL, 1ULL);
                                act = FA_ERR;
                            } else {
                                if (lane == 0)
                                    stRelease(ctl + FA_DSLOT + ((g + 1) & 3), (i64)(((u64)(g + 1) << 40) | km));
                                act = FA_DUAL;
                                val = (i64)km;
                            }
                        }
                    }
                    if (act != 0) break;
                    if (nowNs() - t0 > FA_STALL_NS) {
                        if (lane == 0) atomicCAS((u64*)(ctl + FC_ERROR), 0ULL, 4ULL);
                        act = FA_ERR;
                        break;
                    }
                }
                if (lane == 0) {
                    sAct = act;
                    sVal = val;
                }
            }
            __syncthreads();
            TICK(2)
            const int act = sAct;
            if (act == FA_ERR) break;
            if (act == FA_FOLD) {
                staged = (int)sVal;
                continue;
            }
            if (act == FA_DUAL) {
                D = sVal;
                ++g;
                ++duals;
                continue;
            }
            // FA_ROUND: every block stops joining and meets the others; then
            // it folds what is left of the list, the trees that leave
            // skipped.
            if (leader) ctl[FC_FULL] = 0;
            if (!faBarrier(ctl, &gen, FA_COUNT, FA_PATHS - FA_COUNT + 1, sCtl)) break;
            if (tid == 0) sVal = ldAcquire(ctl + FA_DSLOT + ((g + 1) & 3));
            __syncthreads();
            if ((u64)sVal >> 40 == (u64)(g + 1)) {  // a dual update this block had not seen
                D = sVal & ((1LL << 40) - 1);
                ++g;
                ++duals;
            }
            upto = (int)sCtl[0];
            freeLeft -= sCtl[FA_PATHS - FA_COUNT];
            live = ending = true;
            continue;
        }
        // The round's end (after the fold of the rest of the list): flip the
        // paths, settle the trees that leave, list the rows to repair; reset
        // the other list (the last round's) for the next round.
        live = ending = false;
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
        ForestEntry* other = lists + ((round + 1) & 1) * n;
        for (int i = gtid; i < used; i += gthreads) storeEntry(other + i, none);
        used = upto;
        __syncthreads();
        TICK(3)
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
        if (tid == 0) ctl[FA_STATE + blockIdx.x] = 0;
        if (leader) {
            ctl[FA_COUNT] = 0;
            ctl[FA_PATHS] = 0;
        }
        ++round;
        list = other;
        cursor = upto = 0;
        TICK(4)
        if (!faBarrier(ctl, &gen, FC_ERROR, FC_FULL - FC_ERROR + 1, sCtl)) break;
        TICK(5)
        if (sCtl[0] != 0 || freeLeft == 0) break;
        nFull = (int)sCtl[FC_FULL - FC_ERROR];
        repairs = true;
    }
    TIMES_OUT
    if (leader) {
        ctl[FC_ROUNDS] = round;
        ctl[FC_LEVELS] = folds;
        ctl[FC_DUALS] = duals;
    }
}

// lap_forest_async and lap_forest_async16: the asynchronous search on
// int32 and 16-bit slacks.
extern "C" __global__ void __launch_bounds__(1024, 1)
    lap_forest_async(int n, int R, const int* __restrict__ S0, i64* du, i64* dv, int* rowOfStarAtCol,
                     int* colOfStarAtRow, int2* par, int* root, i64* djoin, int* found, ForestEntry* lists,
                     ForestEntry* full, i64* ctl, int timed) {
    forestAsync(n, R, S0, du, dv, rowOfStarAtCol, colOfStarAtRow, par, root, djoin, found, lists, full, ctl, timed);
}

extern "C" __global__ void __launch_bounds__(1024, 1)
    lap_forest_async16(int n, int R, const unsigned short* __restrict__ S0, i64* du, i64* dv, int* rowOfStarAtCol,
                       int* colOfStarAtRow, int2* par, int* root, i64* djoin, int* found, ForestEntry* lists,
                       ForestEntry* full, i64* ctl, int timed) {
    forestAsync(n, R, S0, du, dv, rowOfStarAtCol, colOfStarAtRow, par, root, djoin, found, lists, full, ctl, timed);
}

extern "C" __global__ void __launch_bounds__(1024, 1)
    lap_forest(int n, int R, const int* __restrict__ S0, i64* du, i64* dv, int* rowOfStarAtCol, int* colOfStarAtRow,
               int2* par, int* root, i64* djoin, int* found, ForestEntry* lists, ForestEntry* full, i64* ctl,
               int timed) {
    forestSearch(n, R, S0, du, dv, rowOfStarAtCol, colOfStarAtRow, par, root, djoin, found, lists, full, ctl, timed);
}

// lap_forest16 is lap_forest on the slacks narrowed by lap_forest_narrow.
extern "C" __global__ void __launch_bounds__(1024, 1)
    lap_forest16(int n, int R, const unsigned short* __restrict__ S0, i64* du, i64* dv, int* rowOfStarAtCol,
                 int* colOfStarAtRow, int2* par, int* root, i64* djoin, int* found, ForestEntry* lists,
                 ForestEntry* full, i64* ctl, int timed) {
    forestSearch(n, R, S0, du, dv, rowOfStarAtCol, colOfStarAtRow, par, root, djoin, found, lists, full, ctl, timed);
}

// lap_forest_narrow copies the count slacks of S0 into dst as unsigned
// 16 bits (the host calls it only when the costs' span is below 2^16: a
// slack after step 1 is at most the span).
extern "C" __global__ void lap_forest_narrow(const int* __restrict__ S0, long long count, unsigned short* dst) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
        dst[i] = (unsigned short)S0[i];
}

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
