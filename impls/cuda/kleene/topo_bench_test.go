package cudakleene

import (
	"testing"

	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// predBitsCPU builds the predecessor bit sets the device writes.
func predBitsCPU(x *maxplus.Matrix) ([]uint64, int) {
	n := x.N
	words := words64(n)
	pred := make([]uint64, n*words)
	for i := 0; i < n; i++ {
		for l := 0; l < n; l++ {
			if x.Val[i*n+l] > maxplus.Epsilon {
				pred[i*words+l/64] |= 1 << (l % 64)
			}
		}
	}
	return pred, words
}

func BenchmarkTopoFromPred(b *testing.B) {
	x, err := dag.Generate(4000, 1, false)
	if err != nil {
		b.Fatal(err)
	}
	pred, words := predBitsCPU(x)
	for _, check := range []bool{false, true} {
		b.Run(map[bool]string{false: "unchecked", true: "checked"}[check], func(b *testing.B) {
			for b.Loop() {
				if _, err := topoFromPred(x.N, words, pred, check); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
