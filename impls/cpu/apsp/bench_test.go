package apsp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// Benchmarks: go test -run - -bench . ./impls/cpu/apsp (n=2000 is long).
func BenchmarkClosureMinPlus32(b *testing.B) {
	for _, n := range []int{500, 1000, 2000} {
		a := randomGraph[float32](rand.New(rand.NewPCG(1, uint64(n))), n, 0.5, 0, 1)
		for _, impl := range []string{"cpu/sgje", "cpu/fast"} {
			b.Run(fmt.Sprintf("%s/n=%d", impl, n), func(b *testing.B) {
				for b.Loop() {
					c := a.Clone()
					if impl == "cpu/sgje" {
						SGJE(context.Background(), semiring.MinPlus[float32]{}, c)
					} else {
						Fast(context.Background(), semiring.MinPlus[float32]{}, c, FastOptions{})
					}
				}
				b.ReportMetric(float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gupdates/s")
			})
		}
	}
}
