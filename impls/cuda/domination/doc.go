// Package cudadomination lists the GPU implementations of the 2-domination
// analysis (problems/domination): Algorithm 2 in a Session of each CUDA
// (min,+) product of impls/cuda/minplus, the powers kept on the device, and
// the paper's Table 5 version 4 (cuda/v4-gpu+cpu-par: the powers on the
// GPU, each downloaded, the whole-matrix differences parallel on the CPU).
// Version 3 (the differences on the GPU too) needs a GPU difference kernel
// that impls/cuda/minplus does not have: not implemented.
package cudadomination
