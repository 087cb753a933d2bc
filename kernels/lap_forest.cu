// cuda/fast's forest search: the Hungarian method's alternating forest
// grown breadth first over all free columns at once, with the slacks kept
// implicit (duals) and one least slack per row, as in the O(n^3) Hungarian
// algorithm, so that a dual update reads n values instead of the matrix.
// It runs after cuda/paper's steps 1 and 2 (kernels/lap_paper.cu), on their
// column-major int32 slack matrix S0 (S0 = cost - u - v) and their stars,
// and finds the rest of the assignment with duals du, dv of its own:
// the slack of (r, c) is S0[c*n + r] - du[r] - dv[c].
//
// One cooperative launch (every block resident; blocks meet at a grid
// barrier of their own) runs every phase. A phase:
//   - T, the forest's columns, starts as the free columns (no star), each
//     the root of its own tree; no row is in the forest (S is empty).
//   - Level by level, the columns that joined T last are folded into each
//     candidate row's least key: key(r, c) = slack(r, c) + D_c, where D_c
//     is the phase's dual total D when c joined. Keys do not change when
//     the duals do, so a dual update is D += delta and nothing else, and a
//     row r has a zero slack to T exactly when its least key equals D.
//   - A candidate row with a zero joins the tree of its zero's column: if
//     it has a star, r joins S and its star's column joins T (the next
//     level folds it); if it is free, it ends an augmenting path of that
//     tree, which it claims if no other row has (one path per tree).
//   - When a level adds no column: if a path was found the phase ends,
//     else D becomes the least key of the candidate rows (the dual update).
//   - The paths found are flipped (disjoint: one per tree), and the duals
//     settled: du[r] -= D - D_r for r in S (D_r: when r joined), dv[c] +=
//     D - D_c for c in T. Every slack stays >= 0 and the paths' slacks 0.
// The phases end when every column has a star.
//
// Block b owns the rows and the columns b*R .. b*R+R-1 (R a power of two
// from 32 to 1024). Its warps are R/32 row groups times 32/(R/32) slices
// of the folded columns; a warp reads 32 consecutive slacks of a column.

typedef long long i64;
typedef unsigned long long u64;

#define FOREST_INF 0x7fffffffffffffffLL

// Words of ctl (int64).
#define FC_BARRIER 0 // the grid barrier's arrivals
#define FC_ERROR 1   // 1: a phase found no path (a row cannot be matched);
                     // 2: a phase ran more than 3n+3 levels; 3: a path ran
                     // longer than n (internal errors)
#define FC_PHASES 2  // phases run
#define FC_LEVELS 3  // levels run
#define FC_DUALS 4   // dual updates
#define FC_SLOTS 8   // 8 + 4*s, s = level % 3: the level's new columns, its
                     // paths found, its least key of a candidate row

// gridBarrier waits until every block of the grid has reached it as many
// times as this one (*target counts this block's passages times the grid).
__device__ __forceinline__ void gridBarrier(u64* bar, u64* target) {
    __syncthreads();
    if (threadIdx.x == 0) {
        *target += gridDim.x;
        __threadfence();
        atomicAdd(bar, 1ULL);
        while (*(volatile u64*)bar < *target) {
        }
        __threadfence();
    }
    __syncthreads();
}

__device__ __forceinline__ i64 warpMin64(i64 x) {
    for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_xor_sync(0xffffffffu, x, o));
    return x;
}

// Row states.
#define ROW_CANDIDATE 0
#define ROW_IN_S 1
#define ROW_DONE 2 // reached a tree that has its path, or a free row that lost its claim
#define ROW_END 3  // the free row ending its tree's path

extern "C" __global__ void __launch_bounds__(1024, 1)
    lap_forest(int n, int R, const int* __restrict__ S0, i64* du, i64* dv, int* rowOfStarAtCol, int* colOfStarAtRow,
               int* parCol, int* root, i64* djoin, int* found, int* lists, i64* ctl) {
    __shared__ i64 sKey[1024];
    __shared__ i64 sJoin[1024];
    __shared__ int sArg[1024];
    __shared__ signed char sState[1024];
    __shared__ i64 pKey[32][32];
    __shared__ int pArg[32][32];
    __shared__ i64 sMin[32];

    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const int RG = R >> 5, W = 32 / RG;
    const int rg = w % RG, slice = w / RG;
    const int r0 = blockIdx.x * R, r1 = min(n, r0 + R);
    volatile i64* vctl = ctl;
    u64* bar = (u64*)(ctl + FC_BARRIER);
    u64 target = 0;
    const bool leader = blockIdx.x == 0 && tid == 0;

    for (int c = r0 + tid; c < r1; c += blockDim.x) {
        du[c] = 0;
        dv[c] = 0;
    }
    if (leader) {
        for (int s = 0; s < 3; ++s) {
            ctl[FC_SLOTS + 4 * s] = 0;
            ctl[FC_SLOTS + 4 * s + 1] = 0;
            ctl[FC_SLOTS + 4 * s + 2] = FOREST_INF;
        }
    }
    gridBarrier(bar, &target);

    int L = 0;  // levels so far, the same in every block
    for (;;) {
        // Phase start (level L): the free columns are the roots.
        {
            const int slot = FC_SLOTS + 4 * (L % 3);
            int* out = lists + (L & 1) * n;
            for (int c = r0 + tid; c < r1; c += blockDim.x) {
                found[c] = -1;
                if (__ldcg(rowOfStarAtCol + c) < 0) {
                    root[c] = c;
                    djoin[c] = 0;
                    out[atomicAdd((u64*)(ctl + slot), 1ULL)] = c;
                } else {
                    root[c] = -1;
                }
            }
            for (int t = tid; t < R; t += blockDim.x) {
                sState[t] = ROW_CANDIDATE;
                sKey[t] = FOREST_INF;
                sArg[t] = -1;
            }
            if (leader) {
                const int next = FC_SLOTS + 4 * ((L + 1) % 3);
                ctl[next] = 0;
                ctl[next + 1] = 0;
                ctl[next + 2] = FOREST_INF;
            }
        }
        gridBarrier(bar, &target);
        int nIn = (int)vctl[FC_SLOTS + 4 * (L % 3)];
        if (nIn == 0) break;  // every column has a star
        const int* in = lists + (L & 1) * n;
        ++L;
        if (leader) ctl[FC_PHASES]++;
        i64 D = 0;
        i64 paths = 0;
        int levels = 0;
        bool failed = false;  // decided alike by every block
        for (;;) {
            // Fold the columns that joined T last into the candidate rows.
            if (nIn > 0) {
                const int t = rg * 32 + lane, r = r0 + t;
                i64 best = FOREST_INF;
                int arg = -1;
                if (r < n && sState[t] == ROW_CANDIDATE) {
                    const i64 ur = du[r];
                    int k = slice;
                    for (; k + 3 * W < nIn; k += 4 * W) {
                        int c[4];
                        i64 key[4];
#pragma unroll
                        for (int q = 0; q < 4; ++q) c[q] = __ldcg(in + k + q * W);
#pragma unroll
                        for (int q = 0; q < 4; ++q)
                            key[q] = (i64)__ldg(S0 + (size_t)c[q] * n + r) - ur - __ldcg(dv + c[q]) + __ldcg(djoin + c[q]);
#pragma unroll
                        for (int q = 0; q < 4; ++q)
                            if (key[q] < best) best = key[q], arg = c[q];
                    }
                    for (; k < nIn; k += W) {
                        const int c = __ldcg(in + k);
                        const i64 key = (i64)__ldg(S0 + (size_t)c * n + r) - ur - __ldcg(dv + c) + __ldcg(djoin + c);
                        if (key < best) best = key, arg = c;
                    }
                }
                pKey[w][lane] = best;
                pArg[w][lane] = arg;
                __syncthreads();
                for (int t2 = tid; t2 < R; t2 += blockDim.x) {
                    const int g = t2 >> 5, l2 = t2 & 31;
                    i64 b = sKey[t2];
                    int a = sArg[t2];
                    for (int s = 0; s < W; ++s) {
                        const int ww = s * RG + g;
                        if (pKey[ww][l2] < b) b = pKey[ww][l2], a = pArg[ww][l2];
                    }
                    sKey[t2] = b;
                    sArg[t2] = a;
                }
                __syncthreads();
            }
            // The rows whose least slack is zero join the forest.
            const int slot = FC_SLOTS + 4 * (L % 3);
            int* out = lists + (L & 1) * n;
            i64 least = FOREST_INF;
            for (int t = tid; t < R; t += blockDim.x) {
                const int r = r0 + t;
                if (r >= n || sState[t] != ROW_CANDIDATE) continue;
                if (sKey[t] != D) {
                    least = min(least, sKey[t]);
                    continue;
                }
                const int c = sArg[t];
                const int tree = __ldcg(root + c);
                parCol[r] = c;
                if (__ldcg(found + tree) >= 0) {
                    sState[t] = ROW_DONE;
                    continue;
                }
                const int star = __ldcg(colOfStarAtRow + r);
                if (star < 0) {
                    if (atomicCAS(found + tree, -1, r) == -1) {
                        sState[t] = ROW_END;
                        atomicAdd((u64*)(ctl + slot + 1), 1ULL);
                    } else {
                        sState[t] = ROW_DONE;
                    }
                    continue;
                }
                sState[t] = ROW_IN_S;
                sJoin[t] = D;
                root[star] = tree;
                djoin[star] = D;
                out[atomicAdd((u64*)(ctl + slot), 1ULL)] = star;
            }
            least = warpMin64(least);
            if (lane == 0) sMin[w] = least;
            __syncthreads();
            if (tid == 0) {
                i64 m = sMin[0];
                for (int k = 1; k < (int)(blockDim.x >> 5); ++k) m = min(m, sMin[k]);
                if (m < FOREST_INF) atomicMin((u64*)(ctl + slot + 2), (u64)m);
            }
            if (leader) {
                const int next = FC_SLOTS + 4 * ((L + 1) % 3);
                ctl[next] = 0;
                ctl[next + 1] = 0;
                ctl[next + 2] = FOREST_INF;
            }
            gridBarrier(bar, &target);
            const int nNext = (int)vctl[slot];
            paths += vctl[slot + 1];
            const i64 m = vctl[slot + 2];
            ++L;
            ++levels;
            if (nNext > 0) {
                nIn = nNext;
                in = out;
            } else if (paths > 0) {
                break;
            } else if (m == FOREST_INF) {
                if (leader) ctl[FC_ERROR] = 1;
                failed = true;
                break;
            } else {
                D = m;
                nIn = 0;
                if (leader) ctl[FC_DUALS]++;
            }
            if (levels > 3 * n + 3) {
                if (leader) ctl[FC_ERROR] = 2;
                failed = true;
                break;
            }
        }
        if (leader) ctl[FC_LEVELS] += levels;
        if (failed) break;
        // Flip the paths (one per tree: disjoint) and settle the duals.
        for (int t = tid; t < R; t += blockDim.x) {
            const int r = r0 + t;
            if (r >= n) continue;
            if (sState[t] == ROW_IN_S) du[r] -= D - sJoin[t];
            if (sState[t] != ROW_END) continue;
            int row = r;
            for (int steps = 0;; ++steps) {
                if (steps > n) {
                    ctl[FC_ERROR] = 3;
                    break;
                }
                const int c = __ldcg(parCol + row);
                const int prev = __ldcg(rowOfStarAtCol + c);
                rowOfStarAtCol[c] = row;
                colOfStarAtRow[row] = c;
                if (prev < 0) break;
                row = prev;
            }
        }
        for (int c = r0 + tid; c < r1; c += blockDim.x)
            if (__ldcg(root + c) >= 0) dv[c] += D - __ldcg(djoin + c);
        gridBarrier(bar, &target);
        if (vctl[FC_ERROR] != 0) break;
    }
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
