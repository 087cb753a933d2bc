// Package treefix holds the experiments of one paper, declared by Paper and
// registered by Register.
//
// The treefix paper (004): Table I (the benchmark trees), Figs. 4 and 5
// (+Rootfix computation times and speedups over sequential on the Table I
// trees), Fig. 7 (stars and caterpillars) and the accuracy study (float32
// relative error against the condition number on ill-conditioned chains).
// The implementations are impls.Treefix's: the CUDA ones run beside the CPU
// ones where a GPU is present and are recorded as unavailable elsewhere;
// their transfers (h2d, d2h) are Fig. 4b's phases.
package treefix
