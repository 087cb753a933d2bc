package impls

import (
	cputreefix "github.com/semibench/semibench/impls/cpu/treefix"
	cudatreefix "github.com/semibench/semibench/impls/cuda/treefix"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/treefix"
)

// Treefix is every implementation of +Rootfix and +Leaffix (paper 004), the
// CPU ones first, in display order.
var Treefix = problems.NewRegistry(func(im treefix.Impl) string { return im.Name }, cputreefix.Impls(), cudatreefix.Impls())
