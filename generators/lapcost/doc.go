// Package lapcost generates the Hungarian paper's (001) linear assignment
// cost matrices deterministically from a seed: uniform integers in
// [0, range) with range a multiple of the size n, labelled as the paper
// labels them ("0.1n", "n", "10n").
//
// # Draw order
//
// One PCG stream, rand.NewPCG(seed, Stream), with one draw per cell in
// row-major order (row 0 left to right, then row 1, ...): cell (i, j) gets
// Uintn(range), Lemire's multiply-shift with rejection on the raw 64-bit
// outputs (hi, lo = 128-bit product of Uint64() and range; when lo < range,
// redraw while lo < (2^64 - range) mod range; the value is hi). Only the PCG
// generator of math/rand/v2, whose output the standard library specifies, is
// used, so the same seed gives the same matrix on every machine.
//
// # Ranges
//
// A label "Fn" (F a positive decimal, "n" alone meaning 1) gives
// range = max(1, floor(F·n)) with n the number of columns: "0.1n" at
// n = 512 is [0, 51).
//
// # Float costs in [0, 1)
//
// Uniform01 costs (GenerateUniform01Batch) are the integers of range 2^24
// drawn as above, times 2^-24: float32 values k·2^-24, uniform in [0, 1)
// on the grid torch.rand draws its float32 values from. Every cost is exact
// in float32, and a problem times 2^24 is the integer problem of range
// 2^24 with the same seed.
package lapcost
