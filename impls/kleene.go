package impls

import (
	cpukleene "github.com/semibench/semibench/impls/cpu/kleene"
	cudakleene "github.com/semibench/semibench/impls/cuda/kleene"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/kleene"
)

// Kleene is every implementation of the Kleene star of a DAG (paper 000),
// CPU then CUDA, in display order.
var Kleene = problems.NewRegistry(func(im kleene.Impl) string { return im.Name }, cpukleene.Impls(), cudakleene.Impls())
