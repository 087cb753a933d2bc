// grid.cuh: the grid barrier of semibench's cooperative kernels (every
// block resident, launched with cuLaunchCooperativeKernel), on two words of
// a kernel's int64 control buffer that the host zeroes before the launch.
#ifndef SEMIBENCH_GRID_CUH
#define SEMIBENCH_GRID_CUH

#define GRID_ARRIVALS 0 // the barrier's arrivals
#define GRID_PASSAGE 32 // its passages (a 128-byte line of its own)

// gridBarrier waits until every block of the grid has reached it as many
// times as this one (*gen counts this block's passages): each block's
// thread 0 adds one to the arrivals; the last of a passage raises the
// passage word, on which the others wait (a line of its own, so that the
// waiting does not slow the arrivals). Then, if words > 0, it copies
// ctl[at .. at+words) into out for the whole block: one thread reads them
// (every thread of every block reading the same words would queue
// thousands of requests on one L2 line).
__device__ __forceinline__ void gridBarrier(long long* ctl, unsigned long long* gen, int at = 0, int words = 0,
                                            long long* out = nullptr) {
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned long long g = ++*gen;
        __threadfence();
        const unsigned long long arrived = atomicAdd((unsigned long long*)(ctl + GRID_ARRIVALS), 1ULL) + 1;
        volatile unsigned long long* passage = (volatile unsigned long long*)(ctl + GRID_PASSAGE);
        if (arrived == g * gridDim.x) {
            *passage = g;
        } else {
            while (*passage < g) {
            }
        }
        __threadfence();
        for (int i = 0; i < words; ++i) out[i] = ((volatile const long long*)ctl)[at + i];
    }
    __syncthreads();
}

#endif
