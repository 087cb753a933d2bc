package cputreefix

import (
	"context"
	"testing"

	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/problems/treefix"
)

// BenchmarkTreefix times +Rootfix per implementation on a star, a
// caterpillar and a bell-shaped random tree of 2^22 vertices (depth-first
// numbered, float32 weights).
func BenchmarkTreefix(b *testing.B) {
	const n = 1 << 22
	star, _ := trees.Star(n)
	cat, _ := trees.Caterpillar(n)
	rnd, _ := trees.Random(n, 200, trees.Bell, 1)
	for _, tc := range []struct {
		name string
		t    *trees.Tree
	}{{"star", star}, {"caterpillar", cat}, {"bell", rnd}} {
		tr, _ := trees.Renumber(tc.t, trees.DepthFirst, 1)
		trees.FloatWeights(tr, 1)
		pt, err := treefix.NewTree(tr.Parent)
		if err != nil {
			b.Fatal(err)
		}
		pt.BuildVector()
		w := make([]float32, n)
		for i, x := range tr.Weight {
			w[i] = float32(x)
		}
		out := make([]float32, n)
		s := newSolver[float32](pt, 0)
		for _, impl := range names {
			b.Run(tc.name+"/"+impl[4:], func(b *testing.B) {
				for b.Loop() {
					if err := s.run(context.Background(), impl, treefix.Rootfix, w, out, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
			})
		}
	}
}

// BenchmarkScan times the in-place inclusive scans over 2^23 float32
// entries on one goroutine: plain (cpu/vectorial) and compensated
// (cpu/vectorial-compensated's Rootfix).
func BenchmarkScan(b *testing.B) {
	e := make([]float32, 1<<23)
	for i := range e {
		e[i] = float32(i%7) - 3
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			scanRange(e, 0)
		}
	})
	b.Run("compensated", func(b *testing.B) {
		for b.Loop() {
			scanCompRange(e, nil, 0, 0)
		}
	})
}
