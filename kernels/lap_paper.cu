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
#define F_GOTO5 0    // step 4 found a primed zero in a row without a star
#define F_LAUNCHES 1 // step-4 launches that ran (not skipped by their guard)
#define F_STARS 2    // step 3's count of starred zeros
#define F_ERROR 3    // 1: step 6 found no uncovered slack; 2: a step-5 path ran
                     // longer than n (internal errors)
#define F_DELTA 4    // step 6's minimum uncovered slack
#define F_ZEROS 5    // size of the compressed vector after the last compression
#define F_EXITED 6   // 6 + e%3: blocks of step-4 launch e that have finished
#define F_MISSED 9   // 9 + e%3: a column was uncovered after a block of launch
                     // e finished (the kernel must be restarted)
#define F_VERSION 12 // count of the columns uncovered by step 4

__device__ __forceinline__ unsigned long long globalTimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

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

// warpAppend appends z to the block's list out (count in shared memory)
// when keep is set; every lane of the warp calls it.
__device__ __forceinline__ void warpAppend(bool keep, int z, int* out, int* count) {
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (!mask) return;
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == 0) base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(mask & ((1u << lane) - 1))] = z;
}

// lap_paper_step6_update is step 6's add/subtract (Algorithm 6) and the
// compression of the zeros (Algorithm 7) for the columns of one step-4
// block, done incrementally: a zero survives unless its row and column are
// both covered, and new zeros can only appear where delta is subtracted
// (uncovered rows of uncovered columns, where step 4 left no zero). So the
// block copies its surviving zeros from zerosIn to zerosOut, then touches
// only the slacks that change: +delta on the covered rows of covered
// columns, -delta on the uncovered rows of uncovered columns, appending
// the new zeros. u drops by delta on covered rows, v rises by delta on
// uncovered columns.
extern "C" __global__ void lap_paper_step6_update(int n, int a, int* __restrict__ slack,
                                                  const int* __restrict__ coveredRow,
                                                  const int* __restrict__ coveredCol, int* flags,
                                                  const int* __restrict__ zerosIn, const int* __restrict__ zerosSizeIn,
                                                  int* __restrict__ zerosOut, int* __restrict__ zerosSizeOut,
                                                  long long* u, long long* v) {
    __shared__ int count;
    int b = blockIdx.x;
    int delta = flags[F_DELTA];
    int c0 = b * a, c1 = min(n, c0 + a);
    const int* in = zerosIn + (size_t)b * a * n;
    int* out = zerosOut + (size_t)b * a * n;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    int lane = threadIdx.x & 31;
    int m = zerosSizeIn[b];
    for (int k0 = threadIdx.x - lane; k0 < m; k0 += blockDim.x) {
        int k = k0 + lane, z = 0;
        bool keep = false;
        if (k < m) {
            z = in[k];
            keep = !(coveredRow[z % n] && coveredCol[z / n]);
        }
        warpAppend(keep, z, out, &count);
    }
    for (int c = c0; c < c1; c++) {
        int* col = slack + (size_t)c * n;
        int cc = coveredCol[c];
        if (threadIdx.x == 0) {
            if (!cc) v[c] += delta;
            if (coveredRow[c]) u[c] -= delta;
        }
        for (int r0 = threadIdx.x - lane; r0 < n; r0 += blockDim.x) {
            int r = r0 + lane;
            bool zero = false;
            if (r < n) {
                int cr = coveredRow[r];
                if (cr && cc) {
                    col[r] += delta;
                } else if (!cr && !cc) {
                    int x = col[r] - delta;
                    col[r] = x;
                    zero = x == 0;
                }
            }
            warpAppend(zero, c * n + r, out, &count);
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        zerosSizeOut[b] = count;
        atomicAdd(&flags[F_ZEROS], count);
    }
}

// lap_paper_compress builds the compressed vector of zeros at the end of
// step 1 (Algorithm 7), one block per step-4 block of a columns: the zeros
// of the block's columns go to its segment of zeros, their number to
// zerosSize[b] and the total to flags[F_ZEROS].
extern "C" __global__ void lap_paper_compress(int n, int a, const int* __restrict__ slack, int* flags,
                                              int* __restrict__ zeros, int* __restrict__ zerosSize) {
    __shared__ int count;
    int b = blockIdx.x;
    int c0 = b * a, c1 = min(n, c0 + a);
    int* seg = zeros + (size_t)b * a * n;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    int lane = threadIdx.x & 31;
    for (int c = c0; c < c1; c++) {
        const int* col = slack + (size_t)c * n;
        // Every warp runs whole rounds of 32 rows, so the ballot is full.
        for (int r0 = threadIdx.x - lane; r0 < n; r0 += blockDim.x) {
            int r = r0 + lane;
            warpAppend(r < n && col[r] == 0, c * n + r, seg, &count);
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        zerosSize[b] = count;
        atomicAdd(&flags[F_ZEROS], count);
    }
}

// cuda/fast's step 1: the same reductions as lap_paper_step1_rowmin,
// lap_paper_step1_colmin and lap_paper_compress in two kernels that keep
// more loads in flight.

// lap_paper_step1_rows4 is step 1's row minima with each thread taking four
// consecutive rows (one 16-byte load a column, n a multiple of 4) and
// eight columns of its slice at a time.
extern "C" __global__ void lap_paper_step1_rows4(int n, int colsPerSlice, const int* __restrict__ slack, int* rowMin) {
    const int r = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (r >= n) return;
    const int c0 = blockIdx.y * colsPerSlice, c1 = min(n, c0 + colsPerSlice);
    int4 m = make_int4(LAP_INF, LAP_INF, LAP_INF, LAP_INF);
#pragma unroll 8
    for (int c = c0; c < c1; c++) {
        const int4 x = __ldcs((const int4*)(slack + (size_t)c * n + r));
        m = make_int4(min(m.x, x.x), min(m.y, x.y), min(m.z, x.z), min(m.w, x.w));
    }
    atomicMin(&rowMin[r], m.x);
    atomicMin(&rowMin[r + 1], m.y);
    atomicMin(&rowMin[r + 2], m.z);
    atomicMin(&rowMin[r + 3], m.w);
}

// STEP1_BATCH is how many slacks of a column a thread of
// lap_paper_step1_fused loads before it uses any.
#define STEP1_BATCH 8

// lap_paper_step1_fused is step 1 after the row minima: the column pass
// and the compression in one, one block per step-4 block b. For each of
// b's columns in turn it reduces the column minus the row minima to its
// minimum m, then writes the slacks minus m to out (in place, or the
// forest search's 16-bit copy, T unsigned short, where the span fits: a
// slack after step 1 is at most the span) and appends the zeros to b's
// segment; the column's second read comes from the cache. u_c and v_c get
// the row minimum of row c and the minimum of column c.
template <typename T>
__device__ __forceinline__ void step1Fused(int n, int a, const int* slack, const int* __restrict__ rowMin, long long* u,
                                           long long* v, T* out, int* flags, int* __restrict__ zeros,
                                           int* __restrict__ zerosSize) {
    __shared__ int count;
    const int b = blockIdx.x, lane = threadIdx.x & 31, step = blockDim.x;
    const int c0 = b * a, c1 = min(n, c0 + a);
    int* seg = zeros + (size_t)b * a * n;
    if (threadIdx.x == 0) count = 0;
    for (int c = c0; c < c1; c++) {
        const int* col = slack + (size_t)c * n;
        T* dst = out + (size_t)c * n;
        int m = LAP_INF;
        for (int r0 = threadIdx.x; r0 < n; r0 += STEP1_BATCH * step) {
            int x[STEP1_BATCH];
#pragma unroll
            for (int k = 0; k < STEP1_BATCH; ++k) {
                const int r = r0 + k * step;
                x[k] = r < n ? col[r] - __ldg(rowMin + r) : LAP_INF;
            }
#pragma unroll
            for (int k = 0; k < STEP1_BATCH; ++k) m = min(m, x[k]);
        }
        m = blockMin(m);
        // A warp's rows of a round are one run of 32: the ballot is full.
        for (int r0 = threadIdx.x - lane; r0 < n; r0 += STEP1_BATCH * step) {
            int y[STEP1_BATCH];
#pragma unroll
            for (int k = 0; k < STEP1_BATCH; ++k) {
                const int r = r0 + lane + k * step;
                y[k] = r < n ? col[r] - __ldg(rowMin + r) - m : 1;
            }
#pragma unroll
            for (int k = 0; k < STEP1_BATCH; ++k) {
                const int r = r0 + lane + k * step;
                if (r0 + k * step >= n) break;
                if (r < n) dst[r] = (T)y[k];
                warpAppend(y[k] == 0, c * n + r, seg, &count);
            }
        }
        if (threadIdx.x == 0) {
            u[c] = rowMin[c];
            v[c] = m;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        zerosSize[b] = count;
        atomicAdd(&flags[F_ZEROS], count);
    }
}

// step1Column loads a column's slacks minus the row minima into x, PER a
// thread of 256 (rows t, t+256, ...; LAP_INF past n): every load issued
// before any is used, the column's streamed past L1 (__ldcs) so that the
// row minima stay there.
template <int PER>
__device__ __forceinline__ void step1Column(const int* col, const int* rm, int n, int t, int* x) {
    constexpr int step = 256; // the block's threads: the offsets below are immediates
#pragma unroll
    for (int k = 0; k < PER; ++k) x[k] = t + k * step < n ? __ldcs(col + k * step) - rm[k * step] : LAP_INF;
}

// step1FusedRegs is step1Fused where a column fits the block's registers
// (n <= PER * 256, blocks of 256 threads): the second pass writes from the
// registers instead of reading the column again. With write unset it
// writes no slack (the zeros, u and v only): where lap_match follows and
// finds a perfect matching, no step reads them, and lap_paper_step1_write
// writes them after it otherwise.
template <typename T, int PER>
__device__ __forceinline__ void step1FusedRegs(int n, int a, const int* slack, const int* rowMin, long long* u,
                                               long long* v, T* out, int* flags, int* __restrict__ zeros,
                                               int* __restrict__ zerosSize, int write) {
    constexpr int step = 256;
    __shared__ int count;
    const int b = blockIdx.x, t = threadIdx.x, warp0 = t & ~31;
    const int c0 = b * a, c1 = min(n, c0 + a);
    int* seg = zeros + (size_t)b * a * n;
    if (t == 0) count = 0;
    for (int c = c0; c < c1; c++) {
        T* dst = out + (size_t)c * n + t;
        int x[PER];
        step1Column<PER>(slack + (size_t)c * n + t, rowMin + t, n, t, x);
        int m = LAP_INF;
#pragma unroll
        for (int k = 0; k < PER; ++k) m = min(m, x[k]);
        m = blockMin(m);
#pragma unroll
        for (int k = 0; k < PER; ++k) {
            if (warp0 + k * step >= n) break; // the warp's rows are past the column
            const bool in = t + k * step < n;
            const int y = x[k] - m;
            if (in && write) dst[k * step] = (T)y;
            warpAppend(in && y == 0, c * n + t + k * step, seg, &count);
        }
        if (t == 0) {
            u[c] = rowMin[c];
            v[c] = m;
        }
    }
    __syncthreads();
    if (t == 0) {
        zerosSize[b] = count;
        atomicAdd(&flags[F_ZEROS], count);
    }
}

// step1WriteRegs writes the slacks step1FusedRegs left unwritten (the
// column minus the row minima minus v), unless *freeCols, lap_match's
// count of the columns it left free, is 0.
template <typename T, int PER>
__device__ __forceinline__ void step1WriteRegs(int n, int a, const int* slack, const int* rowMin, const long long* v,
                                               T* out, const long long* freeCols) {
    constexpr int step = 256;
    if (*(volatile const long long*)freeCols == 0) return;
    const int t = threadIdx.x, c0 = blockIdx.x * a, c1 = min(n, c0 + a);
#pragma unroll 1
    for (int c = c0; c < c1; c++) {
        int x[PER];
        step1Column<PER>(slack + (size_t)c * n + t, rowMin + t, n, t, x);
        const int m = (int)v[c];
        T* dst = out + (size_t)c * n + t;
#pragma unroll
        for (int k = 0; k < PER; ++k)
            if (t + k * step < n) dst[k * step] = (T)(x[k] - m);
    }
}

// lap_paper_step1_fused_rPER (in place) and lap_paper_step1_fused16_rPER
// (the forest search's 16-bit copy): step1FusedRegs for orders up to 256 *
// PER, in blocks of 256 threads, minBlocks of them an SM;
// lap_paper_step1_write{,16}_rPER: step1WriteRegs, the same orders, two
// blocks an SM at least (it runs only where lap_match left a column free).
#define STEP1_FUSED_REGS(PER, minBlocks)                                                                            \
    extern "C" __global__ void __launch_bounds__(256, minBlocks)                                                    \
        lap_paper_step1_fused_r##PER(int n, int a, const int* slack, const int* rowMin, long long* u, long long* v,  \
                                     int* out, int* flags, int* zeros, int* zerosSize, int write) {                  \
        step1FusedRegs<int, PER>(n, a, slack, rowMin, u, v, out, flags, zeros, zerosSize, write);                   \
    }                                                                                                               \
    extern "C" __global__ void __launch_bounds__(256, minBlocks)                                                    \
        lap_paper_step1_fused16_r##PER(int n, int a, const int* slack, const int* rowMin, long long* u,              \
                                       long long* v, unsigned short* out, int* flags, int* zeros, int* zerosSize,    \
                                       int write) {                                                                 \
        step1FusedRegs<unsigned short, PER>(n, a, slack, rowMin, u, v, out, flags, zeros, zerosSize, write);        \
    }                                                                                                               \
    extern "C" __global__ void __launch_bounds__(256, 2)                                                            \
        lap_paper_step1_write_r##PER(int n, int a, const int* slack, const int* rowMin, const long long* v, int* out, \
                                     const long long* freeCols) {                                                   \
        step1WriteRegs<int, PER>(n, a, slack, rowMin, v, out, freeCols);                                            \
    }                                                                                                               \
    extern "C" __global__ void __launch_bounds__(256, 2)                                                            \
        lap_paper_step1_write16_r##PER(int n, int a, const int* slack, const int* rowMin, const long long* v,        \
                                       unsigned short* out, const long long* freeCols) {                            \
        step1WriteRegs<unsigned short, PER>(n, a, slack, rowMin, v, out, freeCols);                                 \
    }
STEP1_FUSED_REGS(8, 6)
STEP1_FUSED_REGS(16, 4)
STEP1_FUSED_REGS(32, 3)

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
// prime in a row without a star sets F_GOTO5 and ends the search.
//
// A block that finished may miss zeros uncovered later by another block;
// then the kernel must be restarted (a global synchronisation). To restart
// only when needed, every uncovering bumps F_VERSION and then, if a block
// of the launch has finished, sets the launch's F_MISSED; a quiet block
// announces that it finishes (F_EXITED) and then passes again instead if
// F_VERSION moved since its pass began. With the fences between, either
// the block sees the uncovering or the uncovering sees the finished block.
//
// A quiet block also lingers up to linger ns, watching F_VERSION, before it
// finishes: while other blocks still uncover columns it passes again, so
// that a launch usually ends with the search and no restart is needed.
//
// The host enqueues several launches e, e+1, ... and reads the flags after
// them: launch e (first = 0) returns at once unless launch e-1 missed
// something, and every launch returns at once once F_GOTO5 is set or every
// row has a star (F_STARS, from step 3). Launch e resets the words of
// launch e+1.
extern "C" __global__ void lap_paper_step4(int n, int a, const int* __restrict__ zeros,
                                           const int* __restrict__ zerosSize, volatile int* coveredRow,
                                           volatile int* coveredCol, int* colOfPrimeAtRow,
                                           const int* __restrict__ colOfStarAtRow, volatile int* flags, int epoch,
                                           int first, int linger) {
    __shared__ int found, skip, again, v0;
    int slot = epoch % 3, next = (epoch + 1) % 3, prev = (epoch + 2) % 3;
    if (threadIdx.x == 0) {
        skip = flags[F_GOTO5] || flags[F_STARS] == n || flags[F_ERROR] || (!first && !flags[F_MISSED + prev]);
        if (blockIdx.x == 0) {
            flags[F_EXITED + next] = 0;
            flags[F_MISSED + next] = 0;
            if (!skip) atomicAdd((int*)&flags[F_LAUNCHES], 1);
        }
    }
    __syncthreads();
    if (skip) return;
    int b = blockIdx.x;
    int cnt = zerosSize[b];
    const int* seg = zeros + (size_t)b * a * n;
    for (;;) {
        if (threadIdx.x == 0) {
            found = 0;
            v0 = flags[F_VERSION];
            __threadfence();
        }
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
                __threadfence();
                atomicAdd((int*)&flags[F_VERSION], 1);
                __threadfence();
                if (flags[F_EXITED + slot]) flags[F_MISSED + slot] = 1;
            } else {
                flags[F_GOTO5] = 1;
            }
        }
        __syncthreads();
        // Thread 0 decides for the block (flags may change meanwhile).
        if (threadIdx.x == 0) {
            if (found) {
                again = !flags[F_GOTO5];
            } else {
                // Linger up to linger ns for another block's uncovering
                // before finishing, so that fewer restarts are needed.
                unsigned long long t0 = globalTimer();
                int v = flags[F_VERSION];
                while (v == v0 && !flags[F_GOTO5] && globalTimer() - t0 < (unsigned long long)linger)
                    v = flags[F_VERSION];
                if (v != v0) {
                    again = !flags[F_GOTO5];
                } else {
                    atomicAdd((int*)&flags[F_EXITED + slot], 1);
                    __threadfence();
                    again = flags[F_VERSION] != v0;
                    if (again) atomicSub((int*)&flags[F_EXITED + slot], 1);
                }
            }
        }
        __syncthreads();
        if (!again) break;
    }
}

// lap_paper_step5a is the forward pass of step 5 (Algorithm 3), a thread
// per row: from each primed zero in a row without a star it follows the
// path (the star in the prime's column, the prime in the star's row, ...)
// marking each prime on it green, one green per column (the last writer
// wins, which selects one of the paths that join).
extern "C" __global__ void lap_paper_step5a(int n, const int* __restrict__ colOfPrimeAtRow,
                                            const int* __restrict__ colOfStarAtRow,
                                            const int* __restrict__ rowOfStarAtCol, int* rowOfGreenAtCol,
                                            int* flags) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    int c = colOfPrimeAtRow[r];
    if (c < 0 || colOfStarAtRow[r] >= 0) return;
    rowOfGreenAtCol[c] = r;
    int len = 0;
    for (int rs = rowOfStarAtCol[c]; rs >= 0; rs = rowOfStarAtCol[c]) {
        c = colOfPrimeAtRow[rs];
        if (c < 0 || ++len > n) {
            flags[F_ERROR] = 2;
            return;
        }
        rowOfGreenAtCol[c] = rs;
    }
}

// lap_paper_step5b is the reverse pass (Algorithm 4), a thread per column:
// from each green in a column without a star it walks the greens back to
// the path's start, starring every green and unstarring the stars between
// them. The green paths are disjoint, so all are applied at once.
extern "C" __global__ void lap_paper_step5b(int n, const int* __restrict__ rowOfGreenAtCol, int* colOfStarAtRow,
                                            int* rowOfStarAtCol, int* flags) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n) return;
    int r = rowOfGreenAtCol[c];
    if (r < 0 || rowOfStarAtCol[c] >= 0) return;
    int c2 = colOfStarAtRow[r];
    colOfStarAtRow[r] = c;
    rowOfStarAtCol[c] = r;
    for (int len = 0; c2 >= 0; len++) {
        r = rowOfGreenAtCol[c2];
        if (r < 0 || len > n) {
            flags[F_ERROR] = 2;
            return;
        }
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
