// Package apsp holds the experiments of one paper, declared by Paper and
// registered by Register.
//
// Rote's algebraic path paper (003): sGJE in every semiring against
// independent algorithms (apsp/semirings), the systolic arrays GJE0 and
// GJE1 simulated and held to the paper's formulas (apsp/systolic), and the
// blocked closure on the CPU and the GPU (apsp/blocked). The CUDA
// implementations (cuda.go) report unavailable without a GPU.
//
// apsp.go declares the paper and registers its experiments; instances.go
// sets up their cases and checks, sweep.go runs Rote's sweep once a run,
// and needs.go, tables.go, plots.go and claims.go give what decides each
// claim, the tables, the figures and the claims' rules.
package apsp
