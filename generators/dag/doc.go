// Package dag generates the Kleene-star paper's (000) random weighted DAG,
// deterministically from a seed: the same seed gives the same bytes on every
// machine and Go version, because only the PCG generator of math/rand/v2
// (whose output the standard library specifies) is used, and every
// derived draw (coin flips, bounded integers, the permutation, normal
// deviates) is computed here from its raw 64-bit outputs.
//
// The graph, as the paper describes it: nodes in topological order 1..n,
// the chain i -> i+1 for every i < n, every other forward pair j -> i
// (j < i) with probability 1/2, weights N(0,1) in float32 (or, for exact
// float32 arithmetic, integers uniform in [-8, 8]), then the node labels
// permuted uniformly at random, rows and columns together. The result is the
// max-plus matrix X with [X]_ij the weight of the arc j -> i and ε elsewhere
// (the diagonal included).
//
// # Draw order
//
// Two PCG streams, both seeded with seed:
//
//  1. The permutation, from rand.NewPCG(seed, StreamPerm): p starts as the
//     identity 0..n-1; for k = n-1 down to 1, r = Uintn(k+1) and p[k], p[r]
//     are swapped (Fisher-Yates). Topological node t (0-based) gets label p[t].
//  2. The arcs, from rand.NewPCG(seed, StreamArcs): for each target
//     i = 1..n-1 (0-based, topological), for each source j = 0..i-1 in
//     increasing order: the pair j -> i is an arc without any draw when
//     j = i-1 (the chain), otherwise when the top bit of one Uint64 is 1.
//     For each arc, in that order, its weight is drawn at once: Normal() or,
//     with integer weights, Uintn(17) - 8. Then X[p[i], p[j]] = weight.
//
// Uintn(b) is Lemire's multiply-shift with rejection: hi, lo =
// bits.Mul64(Uint64(), b); if lo < b, draw again while lo < (-b mod b);
// return hi. Normal() is Marsaglia's polar method: u = 2U-1, v = 2V-1 with
// U, V = (Uint64() >> 11) * 2^-53, s = u*u + v*v (each product rounded, no
// fused multiply-add), repeat while s = 0 or s >= 1, return
// u * sqrt(-2 ln(s) / s) rounded to float32. All of it is IEEE 754 exact
// except math.Log, whose last bit could in principle differ on a platform
// with its own assembly Log; the float32 rounding makes a visible
// difference in a weight improbable (about 2^-29 per weight).
package dag
