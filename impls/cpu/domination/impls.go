package domination

import (
	"context"
	"fmt"

	"github.com/semibench/semibench/bench"
	cpuminplus "github.com/semibench/semibench/impls/cpu/minplus"
	"github.com/semibench/semibench/problems/domination"
	"github.com/semibench/semibench/problems/minplus"
)

// Impls lists the CPU implementations in display order: one per CPU
// product (cpu/paper, cpu/fast, cpu/sparse; fingerprint search), then the
// whole-matrix searches: cpu/whole-seq and cpu/whole-par (Algorithm 2 on
// cpu/sparse, every power kept and compared whole, sequentially or by bands
// of rows on every thread) and the paper's Table 5 versions 1 (cpu/v1-seq:
// its triple loop and the differences on one thread) and 2 (cpu/v2-par:
// the triple loop's rows and the differences on every thread, as the
// paper's OpenMP).
func Impls() []domination.Impl {
	ps := cpuminplus.Impls()
	product := func(name string) minplus.Impl {
		for _, p := range ps {
			if p.Name == name {
				return p
			}
		}
		panic("impls/cpu/domination: no CPU product " + name)
	}
	return append(domination.FromProducts(ps),
		domination.Impl{Name: "cpu/whole-seq", Product: product("cpu/sparse"), Search: domination.SearchWholeSequential},
		domination.Impl{Name: "cpu/whole-par", Product: product("cpu/sparse"), Search: domination.SearchWholeParallel},
		domination.Impl{Name: "cpu/v1-seq", Product: product("cpu/paper"), Search: domination.SearchWholeSequential, Sequential: true},
		domination.Impl{Name: "cpu/v2-par", Product: paperParallel(), Search: domination.SearchWholeParallel},
	)
}

// paperParallel is version 2's product: the paper's triple loop with its
// rows on every thread (cpuminplus.PaperParallel), under cpu/paper's name
// (the same algorithm and the same dense A).
func paperParallel() minplus.Impl {
	return minplus.Impl{Name: "cpu/paper", Mul: func(ctx context.Context, c *minplus.Dense, a *minplus.Operand, b *minplus.Dense, threads int, _ *bench.Recorder) error {
		if a.Dense == nil {
			return fmt.Errorf("minplus: cpu/paper needs the dense A")
		}
		return cpuminplus.PaperParallel(ctx, c, a.Dense, b, threads)
	}}
}
