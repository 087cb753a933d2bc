package cudadomination

import (
	cudaminplus "github.com/semibench/semibench/impls/cuda/minplus"
	"github.com/semibench/semibench/problems/domination"
)

// Impls lists the GPU implementations in display order: one per CUDA
// product (cuda/paper, cuda/fast, cuda/sparse; fingerprint search), then
// cuda/v4-gpu+cpu-par (cuda/paper, whole-matrix search in parallel).
func Impls() []domination.Impl {
	ps := cudaminplus.Impls()
	for _, p := range ps {
		if p.Name == cudaminplus.NamePaper {
			return append(domination.FromProducts(ps),
				domination.Impl{Name: "cuda/v4-gpu+cpu-par", Product: p, Search: domination.SearchWholeParallel})
		}
	}
	panic("impls/cuda/domination: no product " + cudaminplus.NamePaper)
}
