// Package kleene is the problem of the Kleene-star paper (000): the Kleene
// star X* = e ⊕ X ⊕ X² ⊕ ... of a DAG's weighted adjacency matrix in
// max-plus algebra, whose [X]_ij is the weight of the arc j -> i and whose
// [X*]_ij is the weight of the heaviest path from j to i (ε where there is
// none, e = 0 on the diagonal). The matrix type and its Matrix Market I/O
// are package maxplus's.
//
// It holds what every backend (impls/cpu/kleene, impls/cuda/kleene)
// shares: the Impl type and its Options, the phase names in the paper's
// words, the input checks (CheckShape, CheckWeights), the paper's host-side
// steps that both cpu/paper and cuda/paper take (ConvertCCS, TopoSort), the
// CycleError every implementation returns on a graph that is not a DAG, and
// the checking side.
//
// Reference computes X* in float64 by the textbook longest-path dynamic
// programme per column over Kahn's topological order (independent of the
// implementations' depth-first search), and Verify checks an
// implementation's W against it (exactly for integer weights, within a
// rigorous rounding bound otherwise) and checks the fixed-point certificate
// X* = e ⊕ X ⊗ X* on a sample of columns.
package kleene
