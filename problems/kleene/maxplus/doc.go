// Package maxplus holds dense matrices over the max-plus semiring in single
// precision, as the Kleene-star paper (000) computes them: ⊕ is max, ⊗ is +,
// the zero ε is -FLT_MAX (Epsilon) and the unit e is 0.
//
// A Matrix is square and row-major. Following the paper, [X]_ij is the
// weight of the arc j -> i: column l lists the successors of node l, and
// [X*]_ij is the weight of the heaviest path from j to i.
//
// The Matrix Market functions read and write such matrices as coordinate
// files: a line "i j w" (1-based) is the entry X_ij = w, that is the arc
// j -> i of weight w; absent entries are ε.
package maxplus
