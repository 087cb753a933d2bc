package experiments

// headlines marks the headline cells of the experiments whose headline is
// not simply the fast implementation of each backend ("*/fast", the
// default): the implementations a paper's claim is about, at the paper's
// sizes, on each backend. The runner runs these cells before all others,
// so that a budget spends itself on them first.
var headlines = map[string][]string{
	// Table 3 compares the paper's CUDA kernel with ours.
	"kleene/table3": {"cpu/fast", "cuda/fast", "cuda/paper"},
	// Table 1's columns are the CUDA implementations; Jonker-Volgenant is
	// the fast CPU one.
	// (cuda/hungarian-n3 is Fig. 6's comparison, not a Table 1 column.)
	"hungarian/table1": {"cuda/paper", "cuda/fast", "cpu/jv"},
	"hungarian/table2": {"cuda/*", "cpu/jv"},
	"hungarian/table3": {"cuda/paper", "cpu/paper"},
	"hungarian/table4": {"cuda/*"},
	"hungarian/fig6":   {"cuda/*"},
	// Figs. 4 and 5 are ratios to the O(n^4) Hungarian: both ends.
	"hungarian/fig4": {"cpu/jv", "cpu/paper"},
	"hungarian/fig5": {"cpu/jv", "cpu/paper"},
	"apsp/systolic":  {"cpu/systolic", "cuda/systolic"},
	// Table 1 counts A(D_m) with the one implementation.
	"domination/table1": {"cpu/paper"},
	// Algorithm 2's fastest products are the sparse ones (cuda/sparse does
	// m = 12's 50 powers in seconds, the dense cuda/fast in minutes).
	"domination/table2": {"cpu/sparse", "cuda/sparse"},
	"domination/table5": {"cpu/sparse", "cuda/sparse"},
	// Tables 3, 4, 6 and the formula are exact values, the same on every
	// implementation (the GPU's reference computes them once per run for
	// Tables 2 and 5): their timings are no claim of the paper's, so no
	// GPU cell of theirs is a headline.
	"domination/table3":  {"cpu/sparse"},
	"domination/table4":  {"cpu/sparse"},
	"domination/table6":  {"cpu/sparse"},
	"domination/formula": {"cpu/sparse"},
	"treefix/table1":     {"cpu/build", "cuda/build"},
	// Fig. 6's profiles are computed once, on the CPU.
	"treefix/fig6": {"cpu/levels"},
	// The figures' claim is about the GPU implementations; the vectorial
	// one is the CPU's fastest, and Fig. 5's speedups divide the sequential.
	"treefix/fig4":     {"cuda/*", "cpu/vectorial"},
	"treefix/fig5":     {"cuda/*", "cpu/vectorial", "cpu/sequential"},
	"treefix/fig7":     {"cuda/*", "cpu/vectorial"},
	"treefix/accuracy": {"cuda/*", "cpu/vectorial", "cpu/vectorial-compensated"},
}
