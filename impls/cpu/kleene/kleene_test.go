package kleene

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// run calls an implementation with a recorder and checks the phases.
func run(t *testing.T, im kleene.Impl, x *maxplus.Matrix, opt kleene.Options) *maxplus.Matrix {
	t.Helper()
	rec := &bench.Recorder{}
	w, err := im.Run(context.Background(), x, opt, rec)
	if err != nil {
		t.Fatalf("%s: %v", im.Name, err)
	}
	names, _ := rec.Durations()
	if want := []string{kleene.PhaseConvertCCS, kleene.PhaseTopoSort, kleene.PhaseInitW, kleene.PhaseUpdateW}; fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("%s: phases %v, want %v", im.Name, names, want)
	}
	return w
}

// checkAll runs cpu/paper and cpu/fast (with several thread counts) on x,
// verifies each against the reference and requires them bit-identical.
func checkAll(t *testing.T, x *maxplus.Matrix, exact bool) {
	t.Helper()
	ref, err := kleene.Reference(context.Background(), x, 2)
	if err != nil {
		t.Fatal(err)
	}
	wp := run(t, Impls()[0], x, kleene.Options{})
	if ck := kleene.Verify(x, wp, ref, exact); !ck.OK {
		t.Fatalf("cpu/paper: %s", ck.Detail)
	}
	for _, threads := range []int{0, 1, 3} {
		wf := run(t, Impls()[1], x, kleene.Options{Threads: threads})
		if ck := kleene.Verify(x, wf, ref, exact); !ck.OK {
			t.Fatalf("cpu/fast (threads %d): %s", threads, ck.Detail)
		}
		if wf.Hash() != wp.Hash() {
			i := firstDiff(wp, wf)
			t.Fatalf("cpu/fast (threads %d) differs from cpu/paper at W[%d,%d]: %v vs %v", threads, i/x.N+1, i%x.N+1, wf.Val[i], wp.Val[i])
		}
	}
}

func firstDiff(a, b *maxplus.Matrix) int {
	for i := range a.Val {
		if math.Float32bits(a.Val[i]) != math.Float32bits(b.Val[i]) {
			return i
		}
	}
	return -1
}

// TestRandomDAGs: the paper's generator at many sizes, awkward ones
// included (around the chunk and panel widths, 32 and 256), integer weights
// exactly and N(0,1) weights within the bound, and bit-identical between
// the implementations in both cases.
func TestRandomDAGs(t *testing.T) {
	sizes := []int{1, 2, 3, 5, 8, 31, 32, 33, 63, 65, 100, 127, 129, 255, 256, 257, 300}
	if !testing.Short() {
		sizes = append(sizes, 511, 513, 600, 1000, 1500)
	}
	for _, n := range sizes {
		for _, ints := range []bool{true, false} {
			for seed := uint64(1); seed <= 2; seed++ {
				t.Run(fmt.Sprintf("n=%d/int=%v/seed=%d", n, ints, seed), func(t *testing.T) {
					x, err := dag.Generate(n, seed, ints)
					if err != nil {
						t.Fatal(err)
					}
					checkAll(t, x, ints)
				})
			}
		}
	}
}

// relabel permutes the node labels of a matrix given in topological order,
// so that the implementations must find the order themselves.
func relabel(x *maxplus.Matrix, seed uint64) *maxplus.Matrix {
	n := x.N
	perm := rand.New(rand.NewPCG(seed, 9)).Perm(n)
	y := maxplus.New(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			y.Set(perm[i], perm[j], x.At(i, j))
		}
	}
	return y
}

func TestAdversarial(t *testing.T) {
	build := func(n int, arc func(i, j int) (float32, bool)) *maxplus.Matrix {
		x := maxplus.New(n)
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				if w, ok := arc(i, j); ok {
					x.Set(i, j, w)
				}
			}
		}
		return relabel(x, uint64(n))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	tests := []struct {
		name  string
		x     *maxplus.Matrix
		exact bool
	}{
		{"empty", maxplus.New(0), true},
		{"chain", build(300, func(i, j int) (float32, bool) { return float32(i%7 - 3), j == i-1 }), true},
		{"chain float", build(300, func(i, j int) (float32, bool) { return float32(rng.NormFloat64()), j == i-1 }), false},
		{"no arcs", maxplus.New(300), true},
		{"one node no arcs", maxplus.New(1), true},
		{"all negative", build(260, func(i, j int) (float32, bool) { return -1 - float32(rng.IntN(50)), rng.IntN(2) == 0 }), true},
		{"all negative float", build(260, func(i, j int) (float32, bool) { return -0.5 - float32(rng.Float64()), rng.IntN(2) == 0 }), false},
		{"source reaches all", build(300, func(i, j int) (float32, bool) { return float32(i), j == 0 }), true},
		{"sink reached by all", build(300, func(i, j int) (float32, bool) { return float32(j % 5), i == 299 }), true},
		// Every arc heavier than any detour: nothing can be pruned.
		{"direct arcs dominate", build(300, func(i, j int) (float32, bool) { return float32((i - j) * (i - j)), true }), true},
		// Many ties: weights 0 and 1 only, pruned on equality.
		{"ties", build(290, func(i, j int) (float32, bool) { return float32(rng.IntN(2)), rng.IntN(3) == 0 }), true},
		{"dense complete", build(200, func(i, j int) (float32, bool) { return float32(rng.IntN(17) - 8), true }), true},
		// Weights of 2^103 and more: the ε-checking kernels.
		{"huge weights", build(150, func(i, j int) (float32, bool) {
			return float32(rng.NormFloat64() * 1e31), rng.IntN(2) == 0 || j == i-1
		}), false},
		{"tiny weights", build(200, func(i, j int) (float32, bool) { return float32(rng.NormFloat64() * 1e-30), rng.IntN(2) == 0 }), false},
		{"two components", build(280, func(i, j int) (float32, bool) { return float32(rng.IntN(9)), (i%2 == j%2) && rng.IntN(2) == 0 }), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkAll(t, tc.x, tc.exact) })
	}
}

func TestCycle(t *testing.T) {
	// Nodes 1..6 (1-based): a DAG part and the cycle 2 -> 4 -> 5 -> 2.
	arcs := [][2]int{{1, 2}, {2, 4}, {4, 5}, {5, 2}, {1, 3}, {3, 6}, {5, 6}}
	x := maxplus.New(6)
	for _, a := range arcs {
		x.Set(a[1]-1, a[0]-1, 1) // arc a[0] -> a[1]
	}
	onCycle := map[int]bool{1: true, 3: true, 4: true} // 0-based
	selfLoop := maxplus.New(3)
	selfLoop.Set(1, 0, 1)
	selfLoop.Set(1, 1, -2) // a self-loop at node 2, even a negative one
	for _, tc := range []struct {
		name  string
		x     *maxplus.Matrix
		cycle map[int]bool
	}{{"three-cycle", x, onCycle}, {"self-loop", selfLoop, map[int]bool{1: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			check := func(who string, err error) {
				t.Helper()
				var ce *kleene.CycleError
				if !errors.As(err, &ce) {
					t.Fatalf("%s: got %v, want a *CycleError", who, err)
				}
				if !tc.cycle[ce.Node] {
					t.Fatalf("%s: node %d is not on the cycle", who, ce.Node+1)
				}
				msg := ce.Error()
				if !strings.Contains(msg, fmt.Sprintf("node %d ", ce.Node+1)) || !strings.Contains(msg, "diverges") {
					t.Fatalf("%s: message %q", who, msg)
				}
			}
			for _, im := range Impls() {
				_, err := im.Run(context.Background(), tc.x, kleene.Options{}, nil)
				check(im.Name, err)
			}
			_, err := kleene.TopoSort(kleene.ConvertCCS(tc.x))
			check("TopoSort", err)
			_, err = kleene.Reference(context.Background(), tc.x, 1)
			check("Reference", err)
		})
	}
}

func TestBadInput(t *testing.T) {
	nan := maxplus.New(3)
	nan.Set(2, 1, float32(math.NaN()))
	inf := maxplus.New(3)
	inf.Set(0, 2, float32(math.Inf(1)))
	short := &maxplus.Matrix{N: 3, Val: make([]float32, 8)}
	for _, tc := range []struct {
		name string
		x    *maxplus.Matrix
		want string
	}{
		{"NaN", nan, "X[3,2] is NaN"},
		{"+Inf", inf, "X[1,3] is +Inf"},
		{"short", short, "holds 8 entries"},
		{"nil", nil, "nil matrix"},
	} {
		for _, im := range Impls() {
			if _, err := im.Run(context.Background(), tc.x, kleene.Options{}, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %s: got %v, want %q", im.Name, tc.name, err, tc.want)
			}
		}
		if _, err := kleene.Reference(context.Background(), tc.x, 1); err == nil {
			t.Errorf("Reference %s: no error", tc.name)
		}
	}
	// -Inf entries are not arcs.
	x := maxplus.New(2)
	x.Set(1, 0, float32(math.Inf(-1)))
	for _, im := range Impls() {
		w := run(t, im, x, kleene.Options{})
		if w.At(1, 0) != maxplus.Epsilon {
			t.Errorf("%s: -Inf entry made a path: %v", im.Name, w.Val)
		}
	}
}

func TestCancel(t *testing.T) {
	x, _ := dag.Generate(300, 1, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, im := range Impls() {
		if _, err := im.Run(ctx, x, kleene.Options{}, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", im.Name, err)
		}
	}
	if _, err := kleene.Reference(ctx, x, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("Reference: got %v", err)
	}
}

// TestConvertCRSAndTopoSort checks cpu/fast's row storage (the CCS of X's
// transpose) and its depth-first search over predecessors.
func TestConvertCRSAndTopoSort(t *testing.T) {
	// Arcs 3 -> 1 (w 7), 3 -> 2 (w 8), 1 -> 2 (w 9), 1-based.
	x := maxplus.New(3)
	x.Set(0, 2, 7)
	x.Set(1, 2, 8)
	x.Set(1, 0, 9)
	// The fast path's row storage is the same arcs, by rows.
	r := convertCRS(x, 2)
	if fmt.Sprint(r.ptr, r.idx, r.val) != "[0 1 3 3] [2 0 2] [7 9 8]" {
		t.Fatalf("CRS %v %v %v", r.ptr, r.idx, r.val)
	}
	// Random DAGs: the order is topological.
	for _, n := range []int{1, 50, 300} {
		x, _ := dag.Generate(n, 4, false)
		order, err := convertCRS(x, 3).topoSort()
		if err != nil {
			t.Fatal(err)
		}
		if err := kleene.CheckOrder(x, order); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}

func TestIsArc(t *testing.T) {
	for _, tc := range []struct {
		v    float32
		want int32
	}{
		{maxplus.Epsilon, 0},
		{float32(math.Inf(-1)), 0},
		{math.Nextafter32(maxplus.Epsilon, 0), 1},
		{-1, 1}, {0, 1}, {float32(math.Copysign(0, -1)), 1}, {1e-45, 1}, {math.MaxFloat32, 1},
	} {
		if got := isArc(tc.v); got != tc.want {
			t.Errorf("isArc(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

func TestPruneMargin(t *testing.T) {
	xi, _ := dag.Generate(200, 1, true)
	xf, _ := dag.Generate(200, 1, false)
	for _, tc := range []struct {
		x        *maxplus.Matrix
		zero     bool
		integral bool
	}{{xi, true, true}, {xf, false, false}} {
		info, err := checkInput(tc.x)
		if err != nil || info.integral != tc.integral {
			t.Fatalf("checkInput: %+v, %v", info, err)
		}
		r := convertCRS(tc.x, 1)
		order, _ := r.topoSort()
		d := topoPredecessors(tc.x, r.ptr, order, 1).pruneMargin(info.integral)
		if (d == 0) != tc.zero || d < 0 || math.IsInf(d, 0) {
			t.Errorf("margin %v (integral %v)", d, tc.integral)
		}
	}
}

// TestChunkKernel holds the chunk kernel in use (plain Go, or SIMD in a
// GOEXPERIMENT=simd build) to a scalar loop on random data.
func TestChunkKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	n := 100
	work := make([]float32, n*n)
	for k := range work {
		work[k] = float32(rng.NormFloat64() * 10)
		if rng.IntN(4) == 0 {
			work[k] = maxplus.Epsilon
		}
	}
	for _, k := range []chunkFunc{chunkKernel, chunkGo} {
		for trial := 0; trial < 200; trial++ {
			m := rng.IntN(12)
			idx := make([]int32, m)
			val := make([]float32, m)
			for i := range idx {
				idx[i] = int32(rng.IntN(n))
				val[i] = float32(rng.NormFloat64())
			}
			col := rng.IntN(n - chunkWidth + 1)
			var got [chunkWidth]float32
			for c := range got {
				got[c] = 42 // must be overwritten
			}
			k(&got, work, n, col, idx, val)
			for c := 0; c < chunkWidth; c++ {
				want := float32(maxplus.Epsilon)
				for i := range idx {
					if v := val[i] + work[int(idx[i])*n+col+c]; v > want {
						want = v
					}
				}
				if got[c] != want {
					t.Fatalf("kernel %s: column %d got %v, want %v", KernelName(), c, got[c], want)
				}
			}
		}
	}
}
