package kleene

import (
	"context"
	"testing"

	"github.com/semibench/semibench/generators/dag"
)

func benchClosure(b *testing.B, n, threads int) {
	x, _ := dag.Generate(n, 1, false)
	info, _ := checkInput(x)
	r := convertCRS(x, 2)
	order, _ := r.topoSort()
	p := topoPredecessors(x, r.ptr, order, 2)
	work := make([]float32, n*n)
	fillEps(work)
	b.ResetTimer()
	for b.Loop() {
		p.closure(context.Background(), work, info, threads)
	}
}

func BenchmarkClosure4000T1(b *testing.B) { benchClosure(b, 4000, 1) }
func BenchmarkClosure4000T2(b *testing.B) { benchClosure(b, 4000, 2) }
func BenchmarkMargin4000(b *testing.B) {
	x, _ := dag.Generate(4000, 1, false)
	r := convertCRS(x, 2)
	order, _ := r.topoSort()
	p := topoPredecessors(x, r.ptr, order, 2)
	b.ResetTimer()
	for b.Loop() {
		p.pruneMargin(false)
	}
}

func BenchmarkConvertCCS4000(b *testing.B) {
	x, _ := dag.Generate(4000, 1, false)
	b.Run("paper", func(b *testing.B) {
		for b.Loop() {
			ConvertCCS(x)
		}
	})
	b.Run("crs", func(b *testing.B) {
		for b.Loop() {
			convertCRS(x, 2)
		}
	})
	b.Run("crs1", func(b *testing.B) {
		for b.Loop() {
			convertCRS(x, 1)
		}
	})
	r := convertCRS(x, 2)
	b.Run("topo", func(b *testing.B) {
		for b.Loop() {
			r.topoSort()
		}
	})
	order, _ := r.topoSort()
	b.Run("preds1", func(b *testing.B) {
		for b.Loop() {
			topoPredecessors(x, r.ptr, order, 1)
		}
	})
}
