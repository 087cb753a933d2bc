// Package impls is the example paper's implementation registry
// (example/), as impls/<p>.go is a real problem's: it joins the
// backends, and the experiment finds implementations only through it.
package impls

import (
	cpuwidest "github.com/semibench/semibench/example/impls/cpu/widest"
	"github.com/semibench/semibench/example/problems/widest"
	"github.com/semibench/semibench/problems"
)

// Widest is every implementation of the widest-path closure: the CPU
// ones (a real paper would add its impls/cuda/<p> backend here).
var Widest = problems.NewRegistry(func(im widest.Impl) string { return im.Name }, cpuwidest.Impls())
