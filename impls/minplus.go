package impls

import (
	cpuminplus "github.com/semibench/semibench/impls/cpu/minplus"
	cudaminplus "github.com/semibench/semibench/impls/cuda/minplus"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/minplus"
)

// Minplus is every (min,+) product of the 2-domination paper (002): the
// CPU ones, then the CUDA ones.
var Minplus = problems.NewRegistry(func(im minplus.Impl) string { return im.Name }, cpuminplus.Impls(), cudaminplus.Impls())

// MinplusCPUKernel names the inner kernel of cpu/fast and cpu/sparse on this
// binary and CPU: "go", "avx2" or "avx512".
func MinplusCPUKernel() string { return cpuminplus.Kernel() }
