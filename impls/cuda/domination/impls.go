package cudadomination

import (
	"context"

	cudaminplus "github.com/semibench/semibench/impls/cuda/minplus"
	"github.com/semibench/semibench/problems/domination"
	"github.com/semibench/semibench/problems/minplus"
)

// Impls lists the GPU implementations in display order: one per CUDA
// product (cuda/paper, cuda/fast, cuda/sparse; fingerprint search), then
// the paper's Table 5 versions 3 (cuda/v3-gpu: Algorithm 2 on cuda/paper,
// every power kept in host memory, each difference of Algorithms 3 and 4
// computed on the GPU by cudaminplus.Differ) and 4 (cuda/v4-gpu+cpu-par:
// Algorithm 2 on cuda/paper, the differences on every CPU thread).
func Impls() []domination.Impl {
	ps := cudaminplus.Impls()
	for _, p := range ps {
		if p.Name == cudaminplus.NamePaper {
			return append(domination.FromProducts(ps),
				domination.Impl{Name: "cuda/v3-gpu", Product: p, Search: domination.SearchWholeDevice, NewDiffer: newDiffer},
				domination.Impl{Name: "cuda/v4-gpu+cpu-par", Product: p, Search: domination.SearchWholeParallel})
		}
	}
	panic("impls/cuda/domination: no product " + cudaminplus.NamePaper)
}

// newDiffer is cuda/v3-gpu's domination.Impl.NewDiffer.
func newDiffer(ctx context.Context, n int, opt minplus.SessionOptions) (minplus.Differ, error) {
	d, err := cudaminplus.NewDiffer(ctx, n, opt)
	if err != nil {
		return nil, err
	}
	return d, nil
}
