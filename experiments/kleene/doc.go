// Package kleene holds the experiments of one paper, declared by Paper and
// registered by Register.
//
// The Kleene-star paper (000): Table 2 (CPU phases) and Table 3 (GPU phases
// and speedup), on the paper's random DAG.
package kleene
