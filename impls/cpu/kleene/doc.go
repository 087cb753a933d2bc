// Package kleene computes the Kleene star X* = e ⊕ X ⊕ X² ⊕ ... of a DAG's
// weighted adjacency matrix in max-plus algebra on the CPU: the problem of
// the Kleene-star paper (000), whose [X]_ij is the weight of the arc j -> i
// and whose [X*]_ij is the weight of the heaviest path from j to i (ε where
// there is none, e = 0 on the diagonal).
//
// Two implementations share one signature (Impl):
//
//   - cpu/paper (Paper): the paper's procedure on one thread, as its C code
//     would do it: convert X to compressed column storage (CCS), sort the
//     nodes topologically by depth-first search, initialize the work matrix
//     W = e, then for each source node l in topological order and each
//     successor i of l update the whole row W[i,:] = W[i,:] ⊕ X[i,l] ⊗ W[l,:],
//     skipping the entries where W[l,j] = ε as the paper's kernel does.
//   - cpu/fast (Fast): the same recursion reorganised for a modern CPU. In
//     topological coordinates X and X* are lower triangular, and row a of
//     X* is e_a ⊕ max over the predecessors b of a of X[a,b] + row b (the
//     paper's update, pulled instead of pushed). The columns are cut into
//     panels; goroutines compute panels from right to left, each row after
//     row, a panel following the one to its right a row behind. The row
//     kernel keeps 32 columns in registers: plain Go written for
//     bounds-check elimination, or AVX-512/AVX2 vectors (simd/archsimd)
//     when built with GOEXPERIMENT=simd on amd64.
//
// cpu/fast also skips dominated arcs: visiting a row's predecessors in
// decreasing order, it knows, when it reaches the arc b -> a, the heaviest
// alternative path from b to a; if that beats the arc by more than a
// rigorous bound on float32 rounding (zero for integer weights), no
// candidate through the arc can win in any column and the arc is dropped.
// On the paper's random DAGs only a few arcs per node survive, so update W
// does a few n² operations instead of about n³/12; on graphs where no arc is
// dominated it does the full work.
//
// Both form every candidate as fl(X[i,l] + W[l,j]) from the final W[l,j],
// and max is exact, so they give bit-identical W, float weights included:
// Fast's extra candidates ε + x round back to ε as long as every weight is
// below 2^103 (above that Fast switches to kernels that skip ε), and the
// candidates of dropped arcs never exceed a kept one. The tests hold them to
// each other bit for bit and to Reference.
//
// The problem's shared side (the Impl type, phase names, ConvertCCS,
// TopoSort, Reference, Verify) is package problems/kleene.
package kleene
