// Package treefix is what every implementation of +Rootfix and +Leaffix,
// the treefix operations of Leiserson and Maggs, shares, after the treefix
// paper (004_89a0ec3b389b4640.txt): the parent array's checks and its CSR
// children lists, the paper's R and C (Validate, Children), the tree and its
// vector representation (Tree, Vector), the operations (Op), the Impl type through which a backend
// package (impls/cpu/treefix, impls/cuda/treefix) exports its
// implementations, the phase names they report, the reference sums
// (Reference, and Exact in math/big), the error models and bounds the
// accuracy experiment checks results against, and the input file format
// with its overflow checks (ReadInput, Solve).
//
// Definitions (the paper's section II, fixed by its Algorithm 1 and by
// "with unit weights +Rootfix returns the depth and +Leaffix the size of the
// subtree"): for a tree with vertex weights w and an operator ⊕,
//
//	Rootfix(v) = ⊕ of w over the path from the root to v, v included;
//	Leaffix(v) = ⊕ of w over the subtree rooted at v, v included.
package treefix
