package kleene

import (
	"context"
	"flag"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

var benchInputs sync.Map // n -> *maxplus.Matrix

func benchInput(b *testing.B, n int) *maxplus.Matrix {
	if x, ok := benchInputs.Load(n); ok {
		return x.(*maxplus.Matrix)
	}
	x, err := dag.Generate(n, 1, false)
	if err != nil {
		b.Fatal(err)
	}
	benchInputs.Store(n, x)
	return x
}

// benchUpdateW reports the update_w phase alone, as ns/op and as
// update_w-ms/op, for the paper's random DAG (N(0,1) weights, seed 1).
func benchUpdateW(b *testing.B, run func(context.Context, *maxplus.Matrix, kleene.Options, *bench.Recorder) (*maxplus.Matrix, error), n int) {
	x := benchInput(b, n)
	var total time.Duration
	b.ResetTimer()
	for b.Loop() {
		rec := &bench.Recorder{}
		if _, err := run(context.Background(), x, kleene.Options{}, rec); err != nil {
			b.Fatal(err)
		}
		names, durs := rec.Durations()
		for i, name := range names {
			if name == kleene.PhaseUpdateW {
				total += durs[i]
			}
		}
	}
	b.ReportMetric(float64(total.Nanoseconds())/1e6/float64(b.N), "update_w-ms/op")
}

func BenchmarkUpdateWPaper1000(b *testing.B) { benchUpdateW(b, Paper, 1000) }
func BenchmarkUpdateWFast1000(b *testing.B)  { benchUpdateW(b, Fast, 1000) }
func BenchmarkUpdateWPaper2000(b *testing.B) { benchUpdateW(b, Paper, 2000) }
func BenchmarkUpdateWFast2000(b *testing.B)  { benchUpdateW(b, Fast, 2000) }

var ratioN = flag.Int("kleene.ratio", 2000, "n of BenchmarkUpdateWRatio")

// BenchmarkUpdateWRatio runs cpu/paper and cpu/fast once each per
// iteration on the paper's random DAG (N(0,1) weights, seed 1) at n =
// -kleene.ratio and reports update_w of each (ms/op) and their ratio
// paper/fast (of the fastest iteration of each), measured in one run:
//
//	go test -run '^$' -bench UpdateWRatio ./impls/cpu/kleene -args -kleene.ratio=4000
//
// (add GOEXPERIMENT=simd for the SIMD kernels). It fails if the two W are
// not bit-identical.
func BenchmarkUpdateWRatio(b *testing.B) {
	n := *ratioN
	if n < 1 {
		b.Fatalf("-kleene.ratio=%d: want a positive n", n)
	}
	x := benchInput(b, n)
	updateW := func(run func(context.Context, *maxplus.Matrix, kleene.Options, *bench.Recorder) (*maxplus.Matrix, error)) (time.Duration, *maxplus.Matrix) {
		rec := &bench.Recorder{}
		w, err := run(context.Background(), x, kleene.Options{}, rec)
		if err != nil {
			b.Fatal(err)
		}
		var d time.Duration
		names, durs := rec.Durations()
		for i, name := range names {
			if name == kleene.PhaseUpdateW {
				d += durs[i]
			}
		}
		return d, w
	}
	var sumP, sumF time.Duration
	minP, minF := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for b.Loop() {
		dp, wp := updateW(Paper)
		df, wf := updateW(Fast)
		if wp.Hash() != wf.Hash() {
			b.Fatalf("n=%d: cpu/fast's W differs from cpu/paper's", n)
		}
		sumP, sumF = sumP+dp, sumF+df
		minP, minF = min(minP, dp), min(minF, df)
	}
	b.ReportMetric(float64(sumP.Nanoseconds())/1e6/float64(b.N), "paper-update_w-ms/op")
	b.ReportMetric(float64(sumF.Nanoseconds())/1e6/float64(b.N), "fast-update_w-ms/op")
	b.ReportMetric(float64(minP)/float64(minF), "paper/fast")
	b.Logf("n=%d arcs=%d kernel=%s", n, x.Arcs(), KernelName())
}

// dominantArcs is a complete DAG in which every arc is heavier than any
// detour (weight (i-j)², labels shuffled), so cpu/fast can drop nothing: its
// worst case.
func dominantArcs(n int) *maxplus.Matrix {
	key := -n
	if x, ok := benchInputs.Load(key); ok {
		return x.(*maxplus.Matrix)
	}
	x := maxplus.New(n)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			x.Set(i, j, float32((i-j)*(i-j)))
		}
	}
	x = relabel(x, 1)
	benchInputs.Store(key, x)
	return x
}

func benchUpdateWWorst(b *testing.B, run func(context.Context, *maxplus.Matrix, kleene.Options, *bench.Recorder) (*maxplus.Matrix, error), n int) {
	benchInputs.Store(n, dominantArcs(n))
	defer benchInputs.Delete(n)
	benchUpdateW(b, run, n)
}

func BenchmarkUpdateWNoPruningPaper1000(b *testing.B) { benchUpdateWWorst(b, Paper, 1000) }
func BenchmarkUpdateWNoPruningFast1000(b *testing.B)  { benchUpdateWWorst(b, Fast, 1000) }

// BenchmarkReferenceVerify times the checking side at n = 2000: Reference
// (float64, parallel over columns) and Verify.
func BenchmarkReferenceVerify2000(b *testing.B) {
	x := benchInput(b, 2000)
	w, err := Fast(context.Background(), x, kleene.Options{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var ref []float64
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			if ref, err = kleene.Reference(context.Background(), x, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			if ck := kleene.Verify(x, w, ref, false); !ck.OK {
				b.Fatal(ck.Detail)
			}
		}
	})
}
