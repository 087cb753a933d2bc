// cuda/paper: the block-distributed O(n^4) Hungarian algorithm of Lopes,
// Yadav, Ilic and Patra (JPDC 130, 2019), section 4.
//
// Data (section 4.1), all in global memory, n x n after padding:
//   slack            n x n int32, column-major: slack[c*n + r]
//   zeros            the compressed vector of zero slacks (positions
//                    c*n + r), split into one segment of a*n entries per
//                    step-4 block b (the zeros of columns b*a .. b*a+a-1),
//                    zerosSize[b] entries used
//   coveredRow, coveredCol, rowOfStarAtCol, colOfStarAtRow,
//   colOfPrimeAtRow, rowOfGreenAtCol  int32 vectors of n, -1 = none
//   u, v             int64 duals: slack = cost - u_r - v_c
//   flags            the small shared words below
//
// Slacks fit int32: they start below the cost spread R and grow by at most
// the sum of the step-6 minima, itself at most n*R (each step 6 raises the
// dual objective by at least its minimum, and the dual objective stays below
// the optimum); the host refuses instances with (n+1)*R >= 2^31-1.

#define LAP_INF 0x7fffffff

// Words of flags.
#define F_GOTO5 0  // step 4 found a primed zero in a row without a star
#define F_REPEAT 1 // the epoch of the last step-4 launch that primed a zero
#define F_STARS 2  // step 3's count of starred zeros
#define F_ERROR 3  // step 6 found no uncovered slack (internal error)
#define F_DELTA 4  // step 6's minimum uncovered slack
#define F_ZEROS 5  // size of the compressed vector after the last compression

__device__ __forceinline__ int warpMin(int x) {
    for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_xor_sync(0xffffffffu, x, o));
    return x;
}

// blockMin returns the minimum of x over the block (blockDim.x a multiple
// of 32, at most 1024) to every thread.
__device__ int blockMin(int x) {
    __shared__ int part[32];
    __shared__ int result;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    x = warpMin(x);
    __syncthreads();
    if (lane == 0) part[warp] = x;
    __syncthreads();
    if (warp == 0) {
        int y = lane < (int)(blockDim.x >> 5) ? part[lane] : LAP_INF;
        y = warpMin(y);
        if (lane == 0) result = y;
    }
    __syncthreads();
    return result;
}

// lap_paper_transpose copies the row-major rows x n costs src into the
// column-major n x n slack matrix; rows rows..n-1 (padding) get 0.
extern "C" __global__ void lap_paper_transpose(int n, int rows, const int* __restrict__ src, int* __restrict__ slack) {
    __shared__ int tile[32][33];
    int c0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
    for (int k = threadIdx.y; k < 32; k += blockDim.y) {
        int r = r0 + k, c = c0 + threadIdx.x;
        if (c < n) tile[k][threadIdx.x] = r < rows ? src[(size_t)r * n + c] : 0;
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += blockDim.y) {
        int c = c0 + k, r = r0 + threadIdx.x;
        if (c < n && r < n) slack[(size_t)c * n + r] = tile[threadIdx.x][k];
    }
}

// lap_paper_init sets every star, prime and green to none, every line
// uncovered, the row minima to +inf and the flags to 0.
extern "C" __global__ void lap_paper_init(int n, int* rowOfStarAtCol, int* colOfStarAtRow, int* colOfPrimeAtRow,
                                          int* rowOfGreenAtCol, int* coveredRow, int* coveredCol, int* rowMin, int* flags) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        rowOfStarAtCol[i] = -1;
        colOfStarAtRow[i] = -1;
        colOfPrimeAtRow[i] = -1;
        rowOfGreenAtCol[i] = -1;
        coveredRow[i] = 0;
        coveredCol[i] = 0;
        rowMin[i] = LAP_INF;
    }
    if (i < 16) flags[i] = 0;
}

// lap_paper_step1_rowmin: step 1's row minima (Fig. 3). The matrix is cut
// into gridDim.y slices of columns; thread r of a slice takes the serial
// minimum of row r over the slice (consecutive threads read consecutive
// rows of a column: coalesced), then the slices are combined atomically.
extern "C" __global__ void lap_paper_step1_rowmin(int n, int colsPerSlice, const int* __restrict__ slack, int* rowMin) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    int c0 = blockIdx.y * colsPerSlice, c1 = min(n, c0 + colsPerSlice);
    int m = LAP_INF;
    for (int c = c0; c < c1; c++) m = min(m, slack[(size_t)c * n + r]);
    atomicMin(&rowMin[r], m);
}

// lap_paper_step1_colmin: block c subtracts the row minima from column c,
// reduces the column to its minimum and subtracts it too. u_c and v_c get
// the row minimum of row c and the minimum of column c.
extern "C" __global__ void lap_paper_step1_colmin(int n, int* __restrict__ slack, const int* __restrict__ rowMin,
                                                  long long* u, long long* v) {
    for (int c = blockIdx.x; c < n; c += gridDim.x) {
        int* col = slack + (size_t)c * n;
        int m = LAP_INF;
        for (int r = threadIdx.x; r < n; r += blockDim.x) {
            int x = col[r] - rowMin[r];
            col[r] = x;
            m = min(m, x);
        }
        m = blockMin(m);
        if (m != 0)
            for (int r = threadIdx.x; r < n; r += blockDim.x) col[r] -= m;
        if (threadIdx.x == 0) {
            u[c] = rowMin[c];
            v[c] = m;
        }
    }
}

// lap_paper_update is step 6's add/subtract (Algorithm 6) followed by the
// compression of the zeros (Algorithm 7), one block per step-4 block of a
// columns: the minimum delta (flags[F_DELTA]) is added to the slacks
// covered twice and subtracted from the uncovered ones, u drops by delta on
// covered rows and v rises by delta on uncovered columns, and the zeros of
// the block's columns are appended to its segment of the zeros vector.
// With update = 0 it only compresses (the end of step 1).
extern "C" __global__ void lap_paper_update(int n, int a, int update, int* __restrict__ slack,
                                            const int* __restrict__ coveredRow, const int* __restrict__ coveredCol,
                                            int* flags, int* __restrict__ zeros, int* __restrict__ zerosSize,
                                            long long* u, long long* v) {
    __shared__ int count;
    int b = blockIdx.x;
    int delta = update ? flags[F_DELTA] : 0;
    int c0 = b * a, c1 = min(n, c0 + a);
    int* seg = zeros + (size_t)b * a * n;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    int lane = threadIdx.x & 31;
    for (int c = c0; c < c1; c++) {
        int* col = slack + (size_t)c * n;
        int cc = coveredCol[c];
        if (update && threadIdx.x == 0) {
            if (!cc) v[c] += delta;
            if (coveredRow[c]) u[c] -= delta;
        }
        // Every warp runs whole rounds of 32 rows, so the ballot is full.
        for (int r0 = threadIdx.x - lane; r0 < n; r0 += blockDim.x) {
            int r = r0 + lane;
            bool zero = false;
            if (r < n) {
                int x = col[r];
                if (delta != 0) {
                    int cr = coveredRow[r];
                    if (cr && cc) {
                        x += delta;
                        col[r] = x;
                    } else if (!cr && !cc) {
                        x -= delta;
                        col[r] = x;
                    }
                }
                zero = x == 0;
            }
            unsigned mask = __ballot_sync(0xffffffffu, zero);
            if (mask) {
                int base = 0;
                if (lane == 0) base = atomicAdd(&count, __popc(mask));
                base = __shfl_sync(0xffffffffu, base, 0);
                if (zero) seg[base + __popc(mask & ((1u << lane) - 1))] = c * n + r;
            }
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        zerosSize[b] = count;
        atomicAdd(&flags[F_ZEROS], count);
    }
}

// lap_paper_step2 is the initial matching (Algorithm 1), in one block:
// every zero whose row and column are uncovered tries to cover its row and
// then its column with atomicExch; it is starred when both succeed and
// gives its row back otherwise, and the block repeats until a pass gives
// nothing back. Thread t takes the segments t, t+blockDim, ... of the zeros.
extern "C" __global__ void lap_paper_step2(int n, int a, int nb, const int* __restrict__ zeros,
                                           const int* __restrict__ zerosSize, int* coveredRow, int* coveredCol,
                                           int* rowOfStarAtCol, int* colOfStarAtRow) {
    __shared__ int repeat;
    volatile int* vRow = coveredRow;
    volatile int* vCol = coveredCol;
    do {
        __syncthreads();
        if (threadIdx.x == 0) repeat = 0;
        __syncthreads();
        for (int b = threadIdx.x; b < nb; b += blockDim.x) {
            const int* seg = zeros + (size_t)b * a * n;
            int cnt = zerosSize[b];
            for (int k = 0; k < cnt; k++) {
                int z = seg[k];
                int r = z % n, c = z / n;
                if (vCol[c] || vRow[r]) continue;
                if (atomicExch(&coveredRow[r], 1)) continue;
                if (!atomicExch(&coveredCol[c], 1)) {
                    colOfStarAtRow[r] = c;
                    rowOfStarAtCol[c] = r;
                } else {
                    atomicExch(&coveredRow[r], 0);
                    repeat = 1;
                }
            }
        }
        __syncthreads();
    } while (repeat);
}

// lap_paper_step3_init uncovers every line, erases the primes and greens
// of the last step 5 and resets the count of stars and step 4's flag.
extern "C" __global__ void lap_paper_step3_init(int n, int* coveredRow, int* coveredCol, int* colOfPrimeAtRow,
                                                int* rowOfGreenAtCol, int* flags) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        coveredRow[i] = 0;
        coveredCol[i] = 0;
        colOfPrimeAtRow[i] = -1;
        rowOfGreenAtCol[i] = -1;
    }
    if (i == 0) {
        flags[F_STARS] = 0;
        flags[F_GOTO5] = 0;
    }
}

// lap_paper_step3 covers every column with a starred zero and counts them.
extern "C" __global__ void lap_paper_step3(int n, const int* __restrict__ rowOfStarAtCol, int* coveredCol, int* flags) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    bool star = c < n && rowOfStarAtCol[c] >= 0;
    if (c < n) coveredCol[c] = star;
    unsigned mask = __ballot_sync(0xffffffffu, star);
    if ((threadIdx.x & 31) == 0 && mask) atomicAdd(&flags[F_STARS], __popc(mask));
}

// lap_paper_step4 is the alternating-path search (Algorithm 2), the zeros
// distributed over the blocks by columns (block b: columns b*a..b*a+a-1).
// Each block primes the uncovered zeros of its segment, covering the row
// and (after a device fence) uncovering the column of the star in the
// primed zero's row, in passes until a pass finds nothing, reading the
// covers through volatile pointers so blocks see each other's changes. A
// prime in a row without a star sets F_GOTO5 and ends the search. A block
// that primed anything stores epoch in F_REPEAT: the host restarts the
// kernel then, since a block that had finished may have zeros uncovered
// later by another.
extern "C" __global__ void lap_paper_step4(int n, int a, const int* __restrict__ zeros,
                                           const int* __restrict__ zerosSize, volatile int* coveredRow,
                                           volatile int* coveredCol, int* colOfPrimeAtRow,
                                           const int* __restrict__ colOfStarAtRow, volatile int* flags, int epoch) {
    __shared__ int found;
    int b = blockIdx.x;
    int cnt = zerosSize[b];
    const int* seg = zeros + (size_t)b * a * n;
    bool any = false;
    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0) found = 0;
        __syncthreads();
        for (int k = threadIdx.x; k < cnt; k += blockDim.x) {
            int z = seg[k];
            int r = z % n, c = z / n;
            if (coveredCol[c] || coveredRow[r]) continue;
            found = 1;
            colOfPrimeAtRow[r] = c;
            int cs = colOfStarAtRow[r];
            if (cs >= 0) {
                coveredRow[r] = 1;
                __threadfence();
                coveredCol[cs] = 0;
            } else {
                flags[F_GOTO5] = 1;
            }
        }
        __syncthreads();
        if (!found) break;
        any = true;
        if (flags[F_GOTO5]) break;
    }
    if (any && threadIdx.x == 0) flags[F_REPEAT] = epoch;
}

// lap_paper_step5a is the forward pass of step 5 (Algorithm 3), a thread
// per row: from each primed zero in a row without a star it follows the
// path (the star in the prime's column, the prime in the star's row, ...)
// marking each prime on it green, one green per column (the last writer
// wins, which selects one of the paths that join).
extern "C" __global__ void lap_paper_step5a(int n, const int* __restrict__ colOfPrimeAtRow,
                                            const int* __restrict__ colOfStarAtRow,
                                            const int* __restrict__ rowOfStarAtCol, int* rowOfGreenAtCol) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    int c = colOfPrimeAtRow[r];
    if (c < 0 || colOfStarAtRow[r] >= 0) return;
    rowOfGreenAtCol[c] = r;
    for (int rs = rowOfStarAtCol[c]; rs >= 0; rs = rowOfStarAtCol[c]) {
        c = colOfPrimeAtRow[rs];
        rowOfGreenAtCol[c] = rs;
    }
}

// lap_paper_step5b is the reverse pass (Algorithm 4), a thread per column:
// from each green in a column without a star it walks the greens back to
// the path's start, starring every green and unstarring the stars between
// them. The green paths are disjoint, so all are applied at once.
extern "C" __global__ void lap_paper_step5b(int n, const int* __restrict__ rowOfGreenAtCol, int* colOfStarAtRow,
                                            int* rowOfStarAtCol) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n) return;
    int r = rowOfGreenAtCol[c];
    if (r < 0 || rowOfStarAtCol[c] >= 0) return;
    int c2 = colOfStarAtRow[r];
    colOfStarAtRow[r] = c;
    rowOfStarAtCol[c] = r;
    while (c2 >= 0) {
        r = rowOfGreenAtCol[c2];
        int c0 = c2;
        c2 = colOfStarAtRow[r];
        colOfStarAtRow[r] = c0;
        rowOfStarAtCol[c0] = r;
    }
}

// lap_paper_step6_reduce1 is the first kernel of step 6's minimum
// (Algorithm 5): block-strided over the columns, skipping covered columns
// whole, each thread takes the serial minimum of its uncovered rows, then
// the block reduces in shared memory and writes one partial minimum.
extern "C" __global__ void lap_paper_step6_reduce1(int n, const int* __restrict__ slack,
                                                   const int* __restrict__ coveredRow,
                                                   const int* __restrict__ coveredCol, int* partial) {
    int m = LAP_INF;
    for (int c = blockIdx.x; c < n; c += gridDim.x) {
        if (coveredCol[c]) continue;
        const int* col = slack + (size_t)c * n;
        for (int r = threadIdx.x; r < n; r += blockDim.x)
            if (!coveredRow[r]) m = min(m, col[r]);
    }
    m = blockMin(m);
    if (threadIdx.x == 0) partial[blockIdx.x] = m;
}

// lap_paper_step6_reduce2 reduces the partial minima in one block into
// flags[F_DELTA]; it flags an error when nothing was uncovered.
extern "C" __global__ void lap_paper_step6_reduce2(int parts, const int* __restrict__ partial, int* flags) {
    int m = LAP_INF;
    for (int k = threadIdx.x; k < parts; k += blockDim.x) m = min(m, partial[k]);
    m = blockMin(m);
    if (threadIdx.x == 0) {
        flags[F_DELTA] = m == LAP_INF ? 0 : m;
        if (m == LAP_INF) flags[F_ERROR] = 1;
        flags[F_ZEROS] = 0;
    }
}
