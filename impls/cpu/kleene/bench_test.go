package kleene

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/maxplus"
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
func benchUpdateW(b *testing.B, run func(context.Context, *maxplus.Matrix, Options, *bench.Recorder) (*maxplus.Matrix, error), n int) {
	x := benchInput(b, n)
	var total time.Duration
	b.ResetTimer()
	for b.Loop() {
		rec := &bench.Recorder{}
		if _, err := run(context.Background(), x, Options{}, rec); err != nil {
			b.Fatal(err)
		}
		names, durs := rec.Durations()
		for i, name := range names {
			if name == PhaseUpdateW {
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

var ratioN = flag.String("kleene.ratio", "", "n (e.g. 4000): TestUpdateWRatio measures update_w of cpu/paper once and cpu/fast five times at this n and prints the ratio")

// TestUpdateWRatio prints update_w of cpu/paper and cpu/fast side by side and
// their ratio, measured in one run, when -kleene.ratio=N is given:
//
//	go test -run UpdateWRatio -v ./impls/cpu/kleene -args -kleene.ratio=4000
//
// (add GOEXPERIMENT=simd for the SIMD kernels). It asserts nothing about
// time.
func TestUpdateWRatio(t *testing.T) {
	if *ratioN == "" {
		t.Skip("set -kleene.ratio=N to measure")
	}
	var n int
	if _, err := fmt.Sscan(*ratioN, &n); err != nil || n < 1 {
		t.Fatalf("-kleene.ratio=%q: want a positive n", *ratioN)
	}
	x, err := dag.Generate(n, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	phase := func(run func(context.Context, *maxplus.Matrix, Options, *bench.Recorder) (*maxplus.Matrix, error), reps int) ([]time.Duration, *maxplus.Matrix) {
		var ds []time.Duration
		var w *maxplus.Matrix
		for range reps {
			rec := &bench.Recorder{}
			if w, err = run(context.Background(), x, Options{}, rec); err != nil {
				t.Fatal(err)
			}
			names, durs := rec.Durations()
			for i, name := range names {
				if name == PhaseUpdateW {
					ds = append(ds, durs[i])
				}
			}
		}
		return ds, w
	}
	paper, wp := phase(Paper, 1)
	fast, wf := phase(Fast, 5)
	minOf := func(ds []time.Duration) time.Duration {
		m := ds[0]
		for _, d := range ds {
			m = min(m, d)
		}
		return m
	}
	fmt.Printf("n=%d arcs=%d kernel=%s\n", n, x.Arcs(), KernelName())
	fmt.Printf("update_w cpu/paper: %v\n", paper)
	fmt.Printf("update_w cpu/fast:  %v\n", fast)
	fmt.Printf("ratio paper/fast (min of each): %.1f\n", float64(minOf(paper))/float64(minOf(fast)))
	fmt.Printf("bit-identical: %v\n", wp.Hash() == wf.Hash())
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

func benchUpdateWWorst(b *testing.B, run func(context.Context, *maxplus.Matrix, Options, *bench.Recorder) (*maxplus.Matrix, error), n int) {
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
	w, err := Fast(context.Background(), x, Options{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var ref []float64
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			if ref, err = Reference(context.Background(), x, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			if ck := Verify(x, w, ref, false); !ck.OK {
				b.Fatal(ck.Detail)
			}
		}
	})
}
