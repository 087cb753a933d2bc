// Package impls is the one place where the backends of every problem are
// joined: each problem has one problems.Registry here, built from the
// Impls() of its CPU and CUDA packages, and experiments and the CLI look
// implementations up through it and nowhere else.
//
// Each problem's registry lives in its own file (kleene.go, lap.go, ...).
package impls
