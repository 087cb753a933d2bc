// Package hungarian holds the experiments of one paper, declared by Paper and
// registered by Register.
//
// The Hungarian paper (001, Lopes et al., JPDC 2019): Table 1 (run times),
// Fig. 4 (CPU algorithms relative to the O(n^4) Hungarian vs n at range n)
// and Fig. 5 (the same vs the range at n = 2048), on uniform integer costs
// in [0, range); and, in cuda.go, the GPU tables and figures (Tables 2-4,
// Figs. 6-12), in batch.go hungarian/batch, and in batchfloat.go
// hungarian/batch-float (beyond the paper: float32 batches, beside
// torch-linear-assignment). hungarian.go holds the CPU
// side; the CUDA implementations join the same experiments by name.
package hungarian
