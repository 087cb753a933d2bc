package hungarian

import (
	"context"
	"testing"

	"github.com/semibench/semibench/experiments"
)

// BenchmarkNoVectorCell runs one whole hungarian/table1 cell of cpu/jv
// (generation, digest, one solve, the dual check), code in which no vector
// kernel runs. `make bench-builds` runs it in the plain and the SIMD build:
// the two must take the same time. On Intel hosts the GOEXPERIMENT=simd
// runtime leaves the upper vector state dirty after an asynchronous
// preemption, and the legacy-SSE code compiled Go runs then pays the AVX-SSE
// transition penalty (measured on the H100's Xeon host: cpu/jv at n = 8192
// about 1.24x slower in the SIMD build, none on the 2-core AMD EPYC).
func BenchmarkNoVectorCell(b *testing.B) {
	c := hungarianCase(2048, "n", experiments.Options{Seed: 1}, nil)
	ctx := context.Background()
	for b.Loop() {
		inst, err := c.Setup(ctx)
		if err != nil {
			b.Fatal(err)
		}
		out, err := inst.Run(ctx, "cpu/jv", nil)
		if err != nil {
			b.Fatal(err)
		}
		if chk := inst.Check("cpu/jv", out); !chk.OK {
			b.Fatal(chk.Detail)
		}
	}
}
