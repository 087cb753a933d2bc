package cputreefix

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/treefix"
)

// fig2 is the paper's Fig. 2 tree: a(b(c, d, e), f) with W = [1,2,4,5,6,3].
var fig2 = []int32{-1, 0, 1, 1, 1, 0}

// TestFig2 runs every implementation through the solver on the paper's
// Fig. 2 tree (its vector representation is problems/treefix's TestFig2;
// through Impls, the production entry point, it is a row of impls'
// treefixCases).
func TestFig2(t *testing.T) {
	tr, err := treefix.NewTree(fig2)
	if err != nil {
		t.Fatal(err)
	}
	w := []int64{1, 2, 4, 5, 6, 3}
	want := map[treefix.Op][]int64{treefix.Rootfix: {1, 3, 7, 8, 9, 4}, treefix.Leaffix: {21, 17, 4, 5, 6, 3}}
	for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
		for _, im := range Impls() {
			out := make([]int64, 6)
			if err := newSolver[int64](tr, 2).run(context.Background(), im.Name, op, w, out, nil); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out, want[op]) {
				t.Errorf("%s %s = %v, want %v", im.Name, op, out, want[op])
			}
		}
	}
}

// naive computes op by walking the parent pointers.
func naive(parent []int32, op treefix.Op, w []int64) []int64 {
	out := make([]int64, len(parent))
	for v := range parent {
		for u := int32(v); u >= 0; u = parent[u] {
			if op == treefix.Rootfix {
				out[v] += w[u]
			} else {
				out[u] += w[v]
			}
		}
	}
	return out
}

func testTrees(t *testing.T) map[string]*trees.Tree {
	t.Helper()
	out := map[string]*trees.Tree{}
	add := func(name string, tr *trees.Tree, err error) {
		if err != nil {
			t.Fatal(err)
		}
		for _, how := range []trees.Numbering{trees.BreadthFirst, trees.DepthFirst, trees.RandomOrder} {
			r, err := trees.Renumber(tr, how, 5)
			if err != nil {
				t.Fatal(err)
			}
			out[name+"/"+string(how)] = r
		}
	}
	s, err := trees.Star(3000)
	add("star", s, err)
	c, err := trees.Caterpillar(700)
	add("caterpillar", c, err)
	r, err := trees.Random(3000, 12, trees.Uniform, 1)
	add("random", r, err)
	b, err := trees.Random(2500, 40, trees.Bell, 2)
	add("bell", b, err)
	one, err := trees.Star(1)
	add("single", one, err)
	return out
}

// TestIntegerExact: on integer weights every implementation, at every
// thread count and with the parallel paths forced on, equals the naive
// reference exactly; so does each of Impls (the production entry point).
func TestIntegerExact(t *testing.T) {
	defer func(g, a int) { gatherGrain, arrayGrain = g, a }(gatherGrain, arrayGrain)
	gatherGrain, arrayGrain = 7, 16
	for name, tr := range testTrees(t) {
		trees.IntWeights(tr, 1000, 3)
		w := make([]int64, tr.N())
		for i, x := range tr.Weight {
			w[i] = int64(x)
		}
		pt, err := treefix.NewTree(tr.Parent)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			want := naive(tr.Parent, op, w)
			for _, threads := range []int{1, 2, 3, 8} {
				s := newSolver[int64](pt, threads)
				for _, impl := range names {
					out := make([]int64, tr.N())
					for rep := 0; rep < 2; rep++ { // scratch reuse
						if err := s.run(context.Background(), impl, op, w, out, nil); err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(out, want) {
							t.Fatalf("%s %s %s threads=%d differs from the naive reference", name, impl, op, threads)
						}
					}
				}
			}
			for _, im := range Impls() {
				out := make([]int64, tr.N())
				if err := im.Int64(pt, 0)(context.Background(), op, w, out, nil); err != nil || !slices.Equal(out, want) {
					t.Fatalf("%s Impls %s %s: %v", name, im.Name, op, err)
				}
			}
		}
	}
}

// exactResults computes op exactly (big.Float) for float32 weights, with
// the absolute-value sums the bound needs.
func exactResults(t *testing.T, parent []int32, op treefix.Op, w []float32) (exact []float64, absPre []float64, sumAbs float64) {
	t.Helper()
	pt, err := treefix.NewTree(parent)
	if err != nil {
		t.Fatal(err)
	}
	w64 := make([]float64, len(w))
	for i, x := range w {
		w64[i] = float64(x)
		sumAbs += math.Abs(float64(x))
	}
	if exact, err = treefix.Exact(pt, op, w64); err != nil {
		t.Fatal(err)
	}
	absPre = make([]float64, len(parent))
	for v := range absPre {
		absPre[v] = 2*sumAbs + math.Abs(float64(w[v]))
	}
	return exact, absPre, sumAbs
}

// TestCompensatedBound holds cpu/vectorial-compensated to Bound on every
// vertex of ill-conditioned chains (GenSum, C up to 1e10) and random
// trees, and checks that it matches or beats cpu/parallel's error on the
// chain's full sum.
func TestCompensatedBound(t *testing.T) {
	defer func(g, a int) { gatherGrain, arrayGrain = g, a }(gatherGrain, arrayGrain)
	gatherGrain, arrayGrain = 64, 256
	type input struct {
		name   string
		parent []int32
		w      []float32
	}
	var ins []input
	for i, cond := range []float64{1e2, 1e5, 1e8, 1e10} {
		x, _, err := trees.GenSum(4000, cond, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		c, _ := trees.Caterpillar(len(x))
		ins = append(ins, input{fmt.Sprintf("chain C=%g", cond), c.Parent, x})
	}
	r, _ := trees.Random(3000, 25, trees.Bell, 9)
	r, _ = trees.Renumber(r, trees.RandomOrder, 9)
	rng := rand.New(rand.NewPCG(3, 3))
	w := make([]float32, r.N())
	for i := range w {
		w[i] = float32((2*rng.Float64() - 1) * math.Exp2(float64(rng.IntN(30))))
	}
	ins = append(ins, input{"random bell", r.Parent, w})
	for _, in := range ins {
		pt, err := treefix.NewTree(in.parent)
		if err != nil {
			t.Fatal(err)
		}
		s := newSolver[float32](pt, 2)
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			exact, absPre, sumAbs := exactResults(t, in.parent, op, in.w)
			comp := make([]float32, len(in.w))
			par := make([]float32, len(in.w))
			if err := s.run(context.Background(), VectorialCompensated, op, in.w, comp, nil); err != nil {
				t.Fatal(err)
			}
			if err := s.run(context.Background(), Parallel, op, in.w, par, nil); err != nil {
				t.Fatal(err)
			}
			for v := range comp {
				b := treefix.Bound(op, len(comp), exact[v], absPre[v], sumAbs)
				if e := math.Abs(float64(comp[v]) - exact[v]); e > b {
					t.Fatalf("%s %s vertex %d: error %g exceeds the bound %g", in.name, op, v, e, b)
				}
			}
			if in.name[:5] == "chain" {
				full := len(comp) - 1 // Rootfix: the leaf holds the whole sum
				if op == treefix.Leaffix {
					full = 0
				}
				ec := math.Abs(float64(comp[full]) - exact[full])
				ep := math.Abs(float64(par[full]) - exact[full])
				if ec > max(ep, treefix.U32*math.Abs(exact[full])) {
					t.Errorf("%s %s: compensated error %g, parallel %g", in.name, op, ec, ep)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	tr, _ := treefix.NewTree(fig2)
	s := newSolver[float64](tr, 1)
	if err := s.run(context.Background(), "cpu/nope", treefix.Rootfix, make([]float64, 6), make([]float64, 6), nil); err == nil {
		t.Error("unknown implementation accepted")
	}
	if err := s.run(context.Background(), Sequential, treefix.Rootfix, make([]float64, 5), make([]float64, 6), nil); err == nil {
		t.Error("short weights accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.run(ctx, Parallel, treefix.Rootfix, make([]float64, 6), make([]float64, 6), nil); err == nil {
		t.Error("cancelled context ignored")
	}
	for _, s := range []string{"sequential", "cpu/parallel", "vectorial-compensated"} {
		if _, err := treefix.ResolveImpl(registry(), s); err != nil {
			t.Error(err)
		}
	}
}

// registry is the CPU implementations as the CLI's registry holds them.
func registry() problems.Registry[treefix.Impl] {
	return problems.NewRegistry(func(im treefix.Impl) string { return im.Name }, Impls())
}

// TestExactPath: when the weights' exponents span few enough bits,
// cpu/vectorial-compensated accumulates in int64 and every float32 result
// is the exact value correctly rounded, at every thread count.
func TestExactPath(t *testing.T) {
	defer func(a int) { arrayGrain = a }(arrayGrain)
	arrayGrain = 64
	r, _ := trees.Random(5000, 40, trees.Bell, 11)
	r, _ = trees.Renumber(r, trees.RandomOrder, 11)
	rng := rand.New(rand.NewPCG(5, 5))
	w := make([]float32, r.N())
	for i := range w {
		// exponents within 11 bits: every exact sum (< 2^49 units) is a
		// float64, so float32(exact) is the correct rounding, no double one
		x := (1 + rng.Float64()) * math.Exp2(float64(rng.IntN(11)-5))
		if rng.IntN(2) == 0 {
			x = -x
		}
		w[i] = float32(x)
	}
	if _, ok := fixedMinExp(w, 2*len(w)); !ok {
		t.Fatal("exact path not eligible")
	}
	w2 := slices.Clone(w)
	w2[7] = 1e-40 // subnormal: not eligible
	if _, ok := fixedMinExp(w2, 2*len(w2)); ok {
		t.Fatal("subnormal weight eligible")
	}
	pt, _ := treefix.NewTree(r.Parent)
	for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
		exact, _, _ := exactResults(t, r.Parent, op, w)
		for _, threads := range []int{1, 2, 3} {
			out := make([]float32, len(w))
			if err := newSolver[float32](pt, threads).run(context.Background(), VectorialCompensated, op, w, out, nil); err != nil {
				t.Fatal(err)
			}
			for v := range out {
				if out[v] != float32(exact[v]) {
					t.Fatalf("%s threads=%d vertex %d: %g, want %g correctly rounded", op, threads, v, out[v], float32(exact[v]))
				}
			}
		}
	}
}
