// cuda/fast's matching of the zeros, in place of cuda/paper's step 2 where
// the zeros are dense (costs spanning at most a quarter of the order):
// after step 1 the zero slacks are a bipartite graph of columns and rows
// (z = c*n + r in step 1's compressed segments), and lap_match finds a
// maximum matching of it as stars. Steps 3 to 6, or the forest search, go
// on from those stars; where the zeros hold a perfect matching (range 0.1n:
// about ten zeros a row) it is the optimum, and nothing is left to search.
// Step 2's greedy matching runs in one block, a thread walking a segment's
// zeros one after another, and leaves what it misses (about 7% of the columns
// at range 0.1n) to rounds of step 4 and step 5.
//
// One cooperative launch (every block resident; grid.cuh's barrier):
//   - the segments' zeros are copied into one list, the edges, each block
//     finding its segments' offsets by a scan of the sizes;
//   - then rounds, each an alternating forest grown breadth first, over the
//     zeros only, from every free column at once:
//       - start: every free column is the root of its own tree at level 0;
//         no row is visited and no tree has a path;
//       - level L: every zero (r, c) whose column joined at level L, in a
//         tree still without a path, visits row r unless another zero has
//         (a compare-and-swap of r's parent column). A visited row with a
//         star adds its star's column to the tree at level L+1; a free row
//         ends an augmenting path, which the tree claims if it has none
//         (one path a tree: the paths are disjoint). A free row whose tree
//         had claimed one meanwhile is released, and the level runs again
//         (up to MC_REPEATS passes) while it releases rows, so that another
//         tree's zero may take them;
//       - at the first level that adds no column the search ends, and every
//         claimed path is flipped (its zeros starred, the stars between
//         them unstarred).
//     The matching is maximum after a round that claims no path: the
//     search from every free column reached every row that an alternating
//     path of zeros reaches, and none was free. From no stars, the first
//     round is a greedy matching: every column a root, every row free, and
//     its passes those of a parallel greedy matching.
// The column, tree, parent and path-end vectors are cuda/paper's covers,
// primes and greens, which step 3 resets.

#include "grid.cuh"

typedef long long i64;
typedef unsigned long long u64;

// Words of ctl (int64). Words 0 and 32 are the grid barrier's.
#define MC_ERROR 1  // 1: a round ran more than n+1 levels; 2: more than n+1
                    // rounds; 3: a path ran longer than n (internal errors)
#define MC_ROUNDS 2 // rounds that flipped paths
#define MC_LEVELS 3 // levels run
#define MC_FREE 4   // free columns at the end
#define MC_EDGES 5  // zeros in the list
#define MC_SLOTS 8  // 8 + 3*s, s = step % 3: a step's counts (a round's
                    // start: its free columns; a level: its new columns,
                    // its paths claimed and its rows released; a round's
                    // flips: paths too long)
#define MC_REPEATS 8 // passes of a level at most

// lap_match is the matching above. zeros and zerosSize are step 1's
// segments (nb of them, segment b at b*a*n); edges has room for n*n ints;
// level, tree, parent and end are n ints each; ctl is zeroed by the host.
// Dynamic shared memory: nb ints (the segments' offsets).
extern "C" __global__ void __launch_bounds__(1024, 1)
    lap_match(int n, int nb, int a, const int* __restrict__ zeros, const int* __restrict__ zerosSize, int* edges,
              int* rowOfStarAtCol, int* colOfStarAtRow, int* level, int* tree, int* parent, int* end, i64* ctl) {
    extern __shared__ int sOff[];
    __shared__ int sWarp[32];
    __shared__ int sCount[3];
    __shared__ i64 sCtl[3];
    u64 gen = 0;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, warps = blockDim.x >> 5;
    const int gtid = blockIdx.x * blockDim.x + tid, gthreads = gridDim.x * blockDim.x;
    const bool leader = blockIdx.x == 0 && tid == 0;

    // The segments' offsets: an exclusive scan of their sizes, in every
    // block (no barrier needed before the copy).
    int carry = 0;
    for (int base = 0; base < nb; base += blockDim.x) {
        const int i = base + tid;
        const int x = i < nb ? zerosSize[i] : 0;
        int y = x;
        for (int o = 1; o < 32; o <<= 1) {
            const int t = __shfl_up_sync(0xffffffffu, y, o);
            if (lane >= o) y += t;
        }
        if (lane == 31) sWarp[warp] = y;
        __syncthreads();
        if (warp == 0) {
            int w = lane < warps ? sWarp[lane] : 0;
            for (int o = 1; o < 32; o <<= 1) {
                const int t = __shfl_up_sync(0xffffffffu, w, o);
                if (lane >= o) w += t;
            }
            sWarp[lane] = w; // inclusive over the warps
        }
        __syncthreads();
        const int before = carry + (warp > 0 ? sWarp[warp - 1] : 0) + y - x;
        if (i < nb) sOff[i] = before;
        carry += sWarp[warps - 1];
        __syncthreads();
    }
    const int E = carry;
    for (int b = blockIdx.x; b < nb; b += gridDim.x) {
        const int* seg = zeros + (size_t)b * a * n;
        const int cnt = zerosSize[b], off = sOff[b];
        for (int k = tid; k < cnt; k += blockDim.x) edges[off + k] = __ldg(seg + k);
    }
    if (leader) ctl[MC_EDGES] = E;

    int step = 0, rounds = 0, levels = 0, err = 0;
    i64 freeCols = 0;
    // startStep clears this step's block counts and the slot of the step
    // after it (read by every block two barriers ago at the latest).
    auto startStep = [&]() {
        if (tid < 3) sCount[tid] = 0;
        if (leader) {
            const int next = MC_SLOTS + 3 * ((step + 1) % 3);
            for (int k = 0; k < 3; ++k) ctl[next + k] = 0;
        }
        __syncthreads();
    };
    // endStep adds the block's counts to this step's slot, waits for the
    // grid, and reads the slot into sCtl.
    auto endStep = [&]() {
        __syncthreads();
        const int slot = MC_SLOTS + 3 * (step % 3);
        if (tid < 3 && sCount[tid]) atomicAdd((u64*)(ctl + slot + tid), (u64)sCount[tid]);
        gridBarrier(ctl, &gen, slot, 3, sCtl);
        step++;
    };
    for (;;) {
        // A round's start: the free columns are the roots.
        startStep();
        int myFree = 0;
        for (int c = gtid; c < n; c += gthreads) {
            const bool isFree = __ldcg(rowOfStarAtCol + c) < 0;
            level[c] = isFree ? 0 : -1;
            tree[c] = c;
            end[c] = -1;
            parent[c] = -1; // the rows' parents (n rows, n columns)
            myFree += isFree;
        }
        if (myFree) atomicAdd(&sCount[0], myFree);
        endStep();
        freeCols = sCtl[0];
        if (freeCols == 0) break;
        if (rounds > n) {
            err = 2;
            break;
        }
        i64 paths = 0, addedL = 0;
        for (int L = 0, pass = 1;; ++pass) {
            startStep();
            int added = 0, claimed = 0, released = 0;
            for (int e = gtid; e < E; e += gthreads) {
                const int z = edges[e];
                const int c = z / n, r = z - c * n;
                if (__ldcg(level + c) != L) continue;
                const int t = __ldcg(tree + c);
                if (__ldcg(end + t) >= 0 || __ldcg(parent + r) >= 0) continue;
                if (atomicCAS(parent + r, -1, c) != -1) continue;
                const int s = __ldcg(colOfStarAtRow + r);
                if (s < 0) {
                    if (atomicCAS(end + t, -1, r) == -1) {
                        ++claimed;
                    } else {
                        parent[r] = -1; // its tree had a path: free for another
                        ++released;
                    }
                } else {
                    tree[s] = t;
                    level[s] = L + 1;
                    ++added;
                }
            }
            if (added) atomicAdd(&sCount[0], added);
            if (claimed) atomicAdd(&sCount[1], claimed);
            if (released) atomicAdd(&sCount[2], released);
            endStep();
            ++levels;
            addedL += sCtl[0];
            paths += sCtl[1];
            if (sCtl[2] != 0 && pass < MC_REPEATS) continue; // the level again, for the released rows
            if (addedL == 0) break;
            if (L > n) {
                err = 1;
                break;
            }
            ++L;
            addedL = 0;
            pass = 0;
        }
        if (err != 0 || paths == 0) break;
        // Flip every claimed path, from its free row back to its root.
        startStep();
        for (int c = gtid; c < n; c += gthreads) {
            int r = __ldcg(end + c);
            if (r < 0 || __ldcg(level + c) != 0) continue;
            for (int len = 0;; ++len) {
                const int cc = __ldcg(parent + r);
                const int prev = __ldcg(rowOfStarAtCol + cc);
                rowOfStarAtCol[cc] = r;
                colOfStarAtRow[r] = cc;
                if (prev < 0) break;
                r = prev;
                if (len > n) {
                    atomicAdd(&sCount[1], 1);
                    break;
                }
            }
        }
        endStep();
        ++rounds;
        if (sCtl[1] != 0) {
            err = 3;
            break;
        }
    }
    if (leader) {
        ctl[MC_ERROR] = err;
        ctl[MC_ROUNDS] = rounds;
        ctl[MC_LEVELS] = levels;
        ctl[MC_FREE] = freeCols;
    }
}
