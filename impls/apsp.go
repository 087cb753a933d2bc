package impls

import (
	cpuapsp "github.com/semibench/semibench/impls/cpu/apsp"
	cudaapsp "github.com/semibench/semibench/impls/cuda/apsp"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/apsp"
)

// APSP is the algebraic path problem's implementations (Rote, paper 003):
// cpu/sgje, cpu/fast, cpu/systolic, cuda/fast, cuda/systolic.
var APSP = problems.NewRegistry(func(im apsp.Impl) string { return im.Name }, cpuapsp.Impls(), cudaapsp.Impls())
