// Package example is a toy sixth paper, built as a real one would be and
// walked through in ARCHITECTURE.md: the widest-path widths of a small
// digraph, the closure of its capacities in the (max,min) semiring.
//
//	problems/widest         types, Reference, Verify, phase names, Impl
//	generators/widestgraph  the seeded generator
//	impls/cpu/widest        cpu/paper (repeated squaring), cpu/fast (Floyd–Warshall)
//	impls                   the registry, impls.Widest
//	experiments/widest      Paper, Register: widest/table1, its Needs and its claim
//
// Its folders mirror the module's own, and internal/layout holds them to
// the same import rules and keeps them outside the product's import graph:
// no package outside this folder imports one inside it. It stays out of
// the five papers' run: nothing outside this folder registers it (no line
// in experiments/papers), so
// `semibench list`, `reproduce`, the claims catalogue and REPRODUCE.md
// never see it; this package's test registers it and runs it through the
// runner to its table, report and verdict.
package example
