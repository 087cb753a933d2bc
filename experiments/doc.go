// Package experiments is the core every paper's experiments build on: the
// Experiment (one paper table or figure: its cases at each scale, the
// implementations it compares, the check every timing carries, its tables
// beside the paper's numbers, its plots, its claims and the cells that
// decide them), the registry and the papers registered (PaperInfo), the
// claims' verdicts and evidence classes (Judge, RollUp), the table and
// report scaffolding, the generic checks and claim-rule helpers, and the
// run's store of shared work (Shared).
//
// Each paper's experiments live in their own package under experiments/
// (kleene, hungarian, domination, apsp, treefix), which declares one
// PaperInfo and exports Register; experiments/papers registers the five,
// so a new paper adds a package and one line there and never touches the
// core or the runner.
package experiments
