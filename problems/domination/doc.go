// Package domination computes the 2-domination number γ2(P_m □ C_n) of the
// cylinder with the algorithms of the 2-domination paper (002, section 3),
// written against the (min,+) products of problems/minplus: what every
// backend shares. An Impl names Algorithm 2's product (a minplus.Impl: its
// Mul on the host, or its Session on a device) and the search of
// Algorithms 3 to 5; impls/cpu/domination and impls/cuda/domination list
// theirs.
//
//   - Algorithm 1: the digraph D_m and its (min,+) matrix A(D_m) (Build,
//     digraph.go; below).
//   - Algorithm 2: K (min,+) powers A^i = A ⊗ A^(i-1), K = 50 as the paper,
//     with any minplus product. Only what the later algorithms need
//     is kept per power: a 128-bit fingerprint of A^i minus its minimum
//     entry, that minimum, and the minimum of the diagonal and where it is;
//     plus the last few powers in a ring buffer sized to the memory at hand.
//   - Algorithm 3 (recurrence.go, with 4, 5 and the formula): the paper's
//     search, from i = K down and j = i-1 down, for the first pair with
//     A^i - A^j constant, read on the fingerprints: a_m = i - j, b_m the
//     constant, r0_m = j.
//   - Algorithm 4: from i = r0 + a down, the smallest n0 with
//     A^(n0+a) = b ⊗ A^n0 (again on the fingerprints).
//   - Algorithm 5: γ2(P_m □ C_n) = min of the diagonal of A^n (Theorem 2)
//     for 3 <= n <= n0 + a - 1.
//
// Fingerprints that differ prove that the matrices differ; a match is
// re-checked exactly: A^(n0+a) = b ⊗ A^n0 is compared entry by entry (from
// the ring buffer, or by recomputing the powers when A^n0 is no longer
// held), and by Lemma 3 that one equality gives every later one, Table 3's
// A^K = b ⊗ A^(K-a) included. Algorithm 2's first repetition of the
// normalised power is exactly (n0, n0 + a), which Algorithm 4 confirms.
//
// From the recurrence γ2(n + a) = γ2(n) + b for n >= n0 (Theorem 4),
// γ2(P_m □ C_n) = ceil(b·n / a) + α_k with k = n mod a: the program derives
// every α_k from the boundary values γ2(n0..n0+a-1) and lists the n below n0
// where the formula does not hold (the paper's Table 6 and its exceptions).
//
// An Impl whose Search is whole runs Algorithms 3 to 5 as the paper computes them
// instead (whole.go): Algorithm 2 keeps every power in host memory, each
// "A^i - A^j == constant" is the difference matrix computed entry by entry
// (on one thread, or by bands of rows on every thread as the paper's
// OpenMP versions) and scanned, and Algorithm 5 reads each A^n's diagonal.
//
// A witness, an optimal 2-dominating set, is found by backtracking a
// minimum closed walk of length n through the diagonal's minimising word,
// with (min,+) matrix-vector products, and is checked to be 2-dominating.
//
// Algorithm 1 (section 2.2). A 2-dominating set S of P_m □ C_n labels each
// vertex v: 0 when v ∈ S; 1 when v ∉ S has at least two neighbours in S in
// its column or the previous one; 2 when it has exactly one there. A column
// is then a word p = p^1..p^m over {0, 1, 2}; the correct m-words are those
// containing none of 020, 111, 211, 112, 212, neither 11 nor 12 as
// p^1 p^2, and neither 11 nor 21 as p^(m-1) p^m (Table 1's row counts: 6,
// 15, 36, 90, ... for m = 2, 3, 4, 5, ...). D_m has an arc q -> p when p can
// follow q: for every position i, q_i = 2 implies p_i = 0; p_i = 2 implies
// exactly one of p_(i-1), p_(i+1), q_i is 0; p_i = 1 implies at least two of
// them are (positions outside 1..m do not count). The arc is labelled with
// the number of zeros of p, and A(D_m)_qp is that label, or ∞
// (minplus.Inf) without an arc. Words are numbered in increasing
// lexicographic order (0 < 1 < 2, p^1 most significant), the order in which
// Algorithm 1 enumerates them; row and column q of A(D_m) belong to word q.
package domination
