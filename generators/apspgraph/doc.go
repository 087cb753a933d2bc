// Package apspgraph generates random weighted digraphs for the algebraic
// path problem (paper 003, Rote; `semibench solve apsp`), with negative arcs
// and, on request, a planted negative cycle, deterministically from a seed:
// the same options give the same bytes on every machine and Go version, as
// only the PCG generator of math/rand/v2 and dag.Uintn (bounded integers
// computed here from PCG's raw outputs) are used.
//
// The graph has n vertices and exactly m arcs i -> j (i != j; no self-loop),
// a uniformly random set of m of the n(n-1) ordered pairs. It is written as
// the matrix A of `solve apsp`: a_ij, the line "i j w" (1-based), is the
// weight of the arc i -> j (Rote's convention; the Kleene-star paper's files
// are the transpose, see package maxplus).
//
// # Weights without a negative cycle
//
// Every weight is an integer in [Min, Max]. Without a planted cycle no
// cycle is negative, by construction from a potential: each vertex v gets
// p(v) uniform in [0, P], P = min(-Min, Max) when Min < 0 (else 0), and the
// arc i -> j gets w uniform in [max(Min, p(i) - p(j)), Max]. Then
// w = c + p(i) - p(j) with a reduced cost c >= 0, so the weight of any
// cycle, the sum of its reduced costs, is >= 0, while an arc with
// p(i) < p(j) may be negative (down to -P). The interval is never empty:
// p(i) - p(j) <= P <= Max, and Max >= 0 is required (with every arc
// negative every cycle would be).
//
// # A planted negative cycle
//
// With NegativeCycle, k = min(3, n) distinct vertices v_0, ..., v_{k-1}
// (n >= 2) form the cycle v_0 -> v_1 -> ... -> v_{k-1} -> v_0, whose arcs
// are among the m and get weights uniform in [Min, min(Max, -1)] (Min <= -1
// is required), so the cycle's weight is at most -k. The other arcs follow
// the potential rule above when Max >= 0, or are uniform in [Min, Max] when
// Max < 0. The distances the cycle reaches are -inf in the closure.
//
// # Draw order
//
// Three PCG streams, all seeded with Seed:
//
//  1. Shape, rand.NewPCG(Seed, StreamShape): with NegativeCycle, the k
//     cycle vertices (each Uintn(n), drawn again while it repeats an
//     earlier one), then the k cycle weights in cycle order, each
//     Min + Uintn(min(Max, -1) - Min + 1). Then the arc set over the
//     indices t of the n(n-1) ordered pairs in row-major order (t = i(n-1)
//     + j, less one when j > i): the k cycle arcs are in it; when
//     2m <= n(n-1), Uintn(n(n-1)) is drawn and its pair added while fewer
//     than m are in; otherwise every pair starts in, and Uintn(n(n-1)) is
//     drawn and its pair, unless absent or a cycle arc, removed while more
//     than m are in.
//  2. Potential, rand.NewPCG(Seed, StreamPotential): p(v) = Uintn(P + 1) for
//     v = 0..n-1 (nothing is drawn when P = 0).
//  3. Weights, rand.NewPCG(Seed, StreamWeights): the arcs not on the cycle,
//     in row-major order, each w = lo + Uintn(Max - lo + 1) with lo as above.
package apspgraph
