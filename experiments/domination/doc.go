// Package domination holds the experiments of one paper, declared by Paper and
// registered by Register.
//
// The 2-domination paper (002, Garzón et al., J. Supercomputing 2022):
// Table 1 (size of A(D_m)), Table 2 (Algorithm 2's 50 (min,+) powers),
// Tables 3 and 4 (the recurrence r0, a, b and n0), Table 5 (total times),
// Table 6 (α of the closed formula), and domination/formula, γ2(P_m □ C_n)
// for 3 <= n <= 40 with each m's formula. Algorithm 2 runs on the CPU
// (impls/cpu/minplus) and on the GPU (impls/cuda/minplus's Session, the
// powers kept on the device); every run's powers are compared, fingerprint
// by fingerprint, with one reference analysis per m.
//
// domination.go declares the paper, its implementations and priors, and
// registers its experiments; instances.go sets up their cases and checks,
// shared.go holds the work several cells share (the powers of A(D_m)),
// and needs.go, tables.go, plots.go and claims.go give what decides each
// claim, the tables, the figures and the claims' rules.
package domination
