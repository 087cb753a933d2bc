package kleene

import (
	"context"
	"testing"

	"github.com/semibench/semibench/problems/kleene"
)

// The pieces of cpu/fast one by one at n = 2000, on the paper's random DAG.

func BenchmarkFastPieces2000(b *testing.B) {
	const n = 2000
	x := benchInput(b, n)
	info, err := checkInput(x)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("convert_ccs/paper", func(b *testing.B) {
		for b.Loop() {
			kleene.ConvertCCS(x)
		}
	})
	b.Run("convert_crs/fast", func(b *testing.B) {
		for b.Loop() {
			convertCRS(x, 2)
		}
	})
	r := convertCRS(x, 2)
	b.Run("topo_sort/fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.topoSort(); err != nil {
				b.Fatal(err)
			}
		}
	})
	order, _ := r.topoSort()
	b.Run("predecessors", func(b *testing.B) {
		for b.Loop() {
			topoPredecessors(x, r.ptr, order, 2)
		}
	})
	p := topoPredecessors(x, r.ptr, order, 2)
	b.Run("margin", func(b *testing.B) {
		for b.Loop() {
			p.pruneMargin(info.integral)
		}
	})
	work := make([]float32, n*n)
	for _, threads := range []int{1, 2} {
		b.Run("closure/threads="+string(rune('0'+threads)), func(b *testing.B) {
			for b.Loop() {
				fillEps(work)
				if err := p.closure(context.Background(), work, info, threads); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
