// Package apsp is what every backend of the algebraic path problem shares:
// given the n×n weight matrix A of a graph (a_ij the weight of the arc
// i -> j, the semiring's zero where there is no arc), D = A* = I ⊕ A ⊕ A² ⊕ …
// in a semiring of package semiring, following Rote, "A systolic array
// algorithm for the algebraic path problem" (Computing 34, 1985).
//
// It holds the dense Matrix, the Impl type through which the backends
// (impls/cpu/apsp, impls/cuda/apsp) list their implementations, the
// paper's operation counts (Counts, FormulaCounts), the errors and phase
// names every backend uses, the float agreement bound (FloatBound), and
// the independent references the checks use: Gauß-Jordan with partial
// pivoting (InvertPivot), Bellman-Ford from every source (BellmanFord, with
// -∞ where a negative cycle reaches) and breadth-first search from every
// vertex (BFSClosure).
//
// Solve is the `semibench solve apsp` command: Matrix Market in, D = A*
// (or A⁻¹) by a named implementation, Matrix Market out.
package apsp
