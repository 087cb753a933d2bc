package impls

import (
	cpudomination "github.com/semibench/semibench/impls/cpu/domination"
	cudadomination "github.com/semibench/semibench/impls/cuda/domination"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/domination"
)

// Domination is every implementation of the 2-domination analysis (paper
// 002): the CPU ones, then the GPU ones.
var Domination = problems.NewRegistry(func(im domination.Impl) string { return im.Name }, cpudomination.Impls(), cudadomination.Impls())
