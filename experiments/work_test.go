package experiments_test

import (
	"context"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// workCase is one cell whose declared work the test computes by hand from
// the declaration's formula.
type workCase struct {
	exp, impl string
	params    bench.Params
	metrics   map[string]float64
	reused    string // the record's ReusedFrom
	want      bench.Work
}

func ps(kv ...string) bench.Params {
	var p bench.Params
	for i := 0; i+1 < len(kv); i += 2 {
		p = append(p, bench.Param{Name: kv[i], Value: kv[i+1]})
	}
	return p
}

// workCases ties each experiment's declaration to its formula, computed
// here by hand (see each paper's work.go for the formula's reasons).
func workCases() []workCase {
	var cs []workCase
	// kleene: m(n+1)/3 updates on the paper's recurrence, C(n,3) for
	// cuda/fast's blocked closure; X read and W written (4 bytes each).
	{
		n, m := 500.0, 62470.0
		cs = append(cs,
			workCase{exp: "kleene/table2", impl: "cpu/paper", params: ps("n", "500", "weights", "normal"), metrics: map[string]float64{"arcs": m},
				want: bench.Work{Updates: m * 501 / 3, DRAMBytes: 8 * n * n}},
			workCase{exp: "kleene/table3", impl: "cpu/fast", params: ps("n", "500", "weights", "normal"), metrics: map[string]float64{"arcs": m},
				want: bench.Work{Updates: m * 501 / 3, DRAMBytes: 8 * n * n}},
			workCase{exp: "kleene/table3", impl: "cuda/paper", params: ps("n", "500", "weights", "normal"), metrics: map[string]float64{"arcs": m},
				want: bench.Work{Updates: m * 501 / 3, DRAMBytes: 4*n*n + 8*m, LinkBytes: 8*m + 4*n*n}},
			workCase{exp: "kleene/table3", impl: "cuda/fast", params: ps("n", "500", "weights", "int"), metrics: map[string]float64{"arcs": m},
				want: bench.Work{Updates: 500 * 499 * 498 / 6, DRAMBytes: 8 * n * n, LinkBytes: 8*n*n + 4*n + 8*n*8}},
			// Without the arcs: the generator's expected 499 + (124750-499)/2.
			workCase{exp: "kleene/table2", impl: "cpu/paper", params: ps("n", "500", "weights", "normal"),
				want: bench.Work{Updates: (499 + (124750.0-499)/2) * 501 / 3, DRAMBytes: 8 * n * n}},
		)
	}
	// apsp/blocked: n³ updates; passes of 2·4n² bytes: n (sGJE), ⌈n/64⌉
	// (cpu/fast), np/128 over the padded np² (cuda/fast), and 8n² over the
	// link.
	{
		n := 1000.0
		cs = append(cs,
			workCase{exp: "apsp/blocked", impl: "cpu/sgje", params: ps("n", "1000", "semiring", "min-plus float32"),
				want: bench.Work{Updates: n * n * n, DRAMBytes: 1000 * 8 * n * n}},
			workCase{exp: "apsp/blocked", impl: "cpu/fast", params: ps("n", "1000", "semiring", "min-plus float32"),
				want: bench.Work{Updates: n * n * n, DRAMBytes: 16 * 8 * n * n}},
			workCase{exp: "apsp/blocked", impl: "cuda/fast", params: ps("n", "1000", "semiring", "min-plus float32"),
				want: bench.Work{Updates: n * n * n, DRAMBytes: 8 * 8 * 1024 * 1024, LinkBytes: 8 * n * n}},
			workCase{exp: "apsp/blocked", impl: "cuda/fast", params: ps("n", "16384", "semiring", "min-plus float32"),
				want: bench.Work{Updates: 16384.0 * 16384 * 16384, DRAMBytes: 128 * 8 * 16384.0 * 16384, LinkBytes: 8 * 16384.0 * 16384}},
		)
	}
	// apsp/semirings: n(n-1)² updates, 2n(n-1) + n other operations.
	{
		n := 128.0
		upd, other := n*127*127, 2*n*127+n
		cs = append(cs,
			workCase{exp: "apsp/semirings", impl: "cpu/sgje", params: ps("semiring", "min-plus", "n", "128"),
				want: bench.Work{Updates: upd, Flops: other, DRAMBytes: 128 * 2 * 8 * n * n}},
			workCase{exp: "apsp/semirings", impl: "cpu/fast", params: ps("semiring", "boolean", "n", "128"),
				want: bench.Work{Updates: upd, IntOps: other, DRAMBytes: 2 * 2 * 1 * n * n}},
			workCase{exp: "apsp/semirings", impl: "cuda/fast", params: ps("semiring", "max-plus", "n", "128"),
				want: bench.Work{Updates: upd, Flops: other, DRAMBytes: 1 * 2 * 4 * n * n, LinkBytes: 2 * 4 * n * n}},
			workCase{exp: "apsp/semirings", impl: "cuda/fast", params: ps("semiring", "real-inverse", "n", "256"),
				want: bench.Work{Updates: 256 * 255 * 255, Flops: 2*256*255 + 256, DRAMBytes: 2 * 2 * 8 * 256 * 256, LinkBytes: 2 * 8 * 256 * 256}},
		)
	}
	// apsp/systolic at n = 4: GJE0's period 24 and 4 matrices a track,
	// GJE1's 12 and 5; singles of 7n-2 = 26 steps, streams of
	// (p-1)·period + 7n steps: 3·24+28 = 100 and 4·12+28 = 76; 25
	// processors; n³ = 64 updates per matrix.
	cs = append(cs,
		workCase{exp: "apsp/systolic", impl: "cpu/systolic", params: ps("n", "4"),
			want: bench.Work{Updates: (3 + 12 + 15) * 64, IntOps: 25 * (3*26 + 100 + 76), DRAMBytes: (3 + 12 + 15) * 2 * 8 * 16}},
		workCase{exp: "apsp/systolic", impl: "cuda/systolic", params: ps("n", "4"),
			want: bench.Work{Updates: (3 + 12) * 64, IntOps: 25 * (3*26 + 100), DRAMBytes: 15 * 2 * 8 * 16, LinkBytes: 15 * 2 * 8 * 16}},
		// The sweep n = 1..2: (2²)(0+40) + (3²)(2+80) processor-steps.
		workCase{exp: "apsp/systolic", impl: "cpu/systolic", params: ps("sweep", "n=1..2"),
			want: bench.Work{IntOps: 4*40 + 9*82}},
	)
	// hungarian: one pass over the costs, n² updates; int64 on the CPU,
	// int32 on the GPU; up the costs (cuda/fast: 2 bytes while the range
	// is at most 2^16), down 12(c+1) + 8(r+1) bytes of answer.
	{
		lap := func(exp, impl, n, rng string, w bench.Work) workCase {
			return workCase{exp: exp, impl: impl, params: ps("n", n, "range", rng), want: w}
		}
		ans := func(n float64) float64 { return 12*(n+1) + 8*(n+1) }
		cs = append(cs,
			lap("hungarian/table1", "cpu/paper", "512", "10n", bench.Work{Updates: 512 * 512, DRAMBytes: 8 * 512 * 512}),
			lap("hungarian/table1", "cuda/fast", "1024", "n", bench.Work{Updates: 1024 * 1024, DRAMBytes: 4 * 1024 * 1024, LinkBytes: 2*1024*1024 + ans(1024)}),
			lap("hungarian/table1", "cuda/fast", "8192", "10n", bench.Work{Updates: 8192 * 8192, DRAMBytes: 4 * 8192 * 8192, LinkBytes: 4*8192*8192 + ans(8192)}),
			lap("hungarian/table1", "cuda/fast", "4096", "10n", bench.Work{Updates: 4096 * 4096, DRAMBytes: 4 * 4096 * 4096, LinkBytes: 2*4096*4096 + ans(4096)}),
			lap("hungarian/table1", "peer/hylac", "1024", "n", bench.Work{Updates: 1024 * 1024, DRAMBytes: 4 * 1024 * 1024, LinkBytes: 4*1024*1024 + ans(1024)}),
			lap("hungarian/table2", "cpu/jv", "2048", "0.1n", bench.Work{Updates: 2048 * 2048, DRAMBytes: 8 * 2048 * 2048}),
			lap("hungarian/table3", "cuda/paper", "2048", "n", bench.Work{Updates: 2048 * 2048, DRAMBytes: 4 * 2048 * 2048, LinkBytes: 4*2048*2048 + ans(2048)}),
			lap("hungarian/table4", "cuda/paper", "512", "0.1n", bench.Work{Updates: 512 * 512, DRAMBytes: 4 * 512 * 512, LinkBytes: 4*512*512 + ans(512)}),
			lap("hungarian/fig4", "cpu/auction", "1024", "n", bench.Work{Updates: 1024 * 1024, DRAMBytes: 8 * 1024 * 1024}),
			lap("hungarian/fig5", "cpu/hungarian-n3", "2048", "1000n", bench.Work{Updates: 2048 * 2048, DRAMBytes: 8 * 2048 * 2048}),
			lap("hungarian/fig6", "cuda/hungarian-n3", "1024", "0.1n", bench.Work{Updates: 1024 * 1024, DRAMBytes: 4 * 1024 * 1024, LinkBytes: 4*1024*1024 + ans(1024)}),
			workCase{exp: "hungarian/batch", impl: "cuda/fast", params: ps("n", "32", "range", "0.1n", "count", "10000"),
				want: bench.Work{Updates: 10000 * 1024, DRAMBytes: 10000 * 4 * 1024, LinkBytes: 10000 * (2*1024 + ans(32))}},
			workCase{exp: "hungarian/batch", impl: "cpu/jv", params: ps("n", "256", "range", "10n", "count", "300"),
				want: bench.Work{Updates: 300 * 256 * 256, DRAMBytes: 300 * 8 * 256 * 256}},
			workCase{exp: "hungarian/batch-float", impl: "cuda/fast", params: ps("rows", "100", "cols", "300", "count", "208"),
				want: bench.Work{Updates: 208 * 30000, DRAMBytes: 208 * 4 * 30000, LinkBytes: 208 * (4*30000 + 12*301 + 8*101)}},
			workCase{exp: "hungarian/batch-float", impl: "cpu/jv", params: ps("rows", "20", "cols", "40", "count", "5000"),
				want: bench.Work{Updates: 5000 * 800, DRAMBytes: 5000 * 8 * 800}},
		)
	}
	// treefix: bytes a vertex (4-byte indices, float32 values) and flops
	// as treefix/work.go derives them; the GPU's Euler tour 36 bytes and
	// 4 integer operations a vertex.
	{
		tree := func(exp, impl string, n int, w bench.Work) workCase {
			return workCase{exp: exp, impl: impl, params: ps("tree", "star", "source", "synthetic", "n", strconv.Itoa(n), "numbering", "bfs"), want: w}
		}
		const n = 1 << 20
		cs = append(cs,
			tree("treefix/fig7", "cpu/sequential", n, bench.Work{Flops: n - 1, DRAMBytes: 16 * n}),
			tree("treefix/fig7", "cpu/parallel", n, bench.Work{Flops: n - 1, IntOps: n, DRAMBytes: 24 * n}),
			tree("treefix/fig7", "cuda/parallel", n, bench.Work{Flops: n - 1, IntOps: n, DRAMBytes: 24 * n, LinkBytes: 16 * n}),
			tree("treefix/fig7", "cpu/vectorial", n, bench.Work{Flops: 3 * n, DRAMBytes: 48 * n}),
			tree("treefix/fig7", "cuda/vectorial", n, bench.Work{Flops: 3 * n, IntOps: 4 * n, DRAMBytes: (48 + 36) * n, LinkBytes: 20 * n}),
			tree("treefix/fig4", "cpu/vectorial-compensated", n, bench.Work{Flops: 13 * n, DRAMBytes: 48 * n}),
			tree("treefix/fig5", "cuda/vectorial-compensated", n, bench.Work{Flops: 13 * n, IntOps: 4 * n, DRAMBytes: 84 * n, LinkBytes: 20 * n}),
			tree("treefix/table1", "cpu/build", n, bench.Work{IntOps: 4 * n, DRAMBytes: 28 * n}),
			tree("treefix/table1", "cuda/build", n, bench.Work{IntOps: 4 * n, DRAMBytes: 36 * n, LinkBytes: 20 * n}),
			workCase{exp: "treefix/fig6", impl: "cpu/levels", params: ps("tree", "caterpillar", "source", "synthetic", "n", "16384"),
				want: bench.Work{IntOps: 2 * 16384, DRAMBytes: 8 * 16384}},
		)
		acc := func(impl, op string, w bench.Work) workCase {
			return workCase{exp: "treefix/accuracy", impl: impl, params: ps("chain", "3", "cond", "1.00e+04", "op", op), want: w}
		}
		const c = 10000
		cs = append(cs,
			acc("cpu/sequential", "leaffix", bench.Work{Flops: c - 1, DRAMBytes: 16 * c}),
			acc("cuda/parallel", "leaffix", bench.Work{Flops: c - 1, IntOps: c, DRAMBytes: 24 * c, LinkBytes: 20 * c}),
			acc("cpu/vectorial", "leaffix", bench.Work{Flops: 4 * c, DRAMBytes: 60 * c}),
			acc("cuda/vectorial-compensated", "leaffix", bench.Work{Flops: 14 * c, IntOps: 4 * c, DRAMBytes: 96 * c, LinkBytes: 20 * c}),
			acc("cuda/vectorial", "rootfix", bench.Work{Flops: 3 * c, IntOps: 4 * c, DRAMBytes: 84 * c, LinkBytes: 20 * c}),
		)
	}
	// domination at m = 7: N = 558, E = 17636, a = 18, n0 = 23 (r0 =
	// 32); Algorithm 1 m(N+E) integer operations and 6E + 4(N+1) bytes;
	// a dense product N³ updates and 6N² bytes, a sparse one N·E and
	// 6E + 4(N+1) + 4N²; K = 50 powers (49 products) or n0+a = 41 (40);
	// the fingerprint search K comparisons; the whole search
	// 18 + (50-18-23+1) + 1 = 29 differences of N² operations and 4N²
	// bytes; the formula's 817 matrix-vector products.
	{
		const n, e = 558.0, 17636.0
		m7 := map[string]float64{"rows": n, "arcs": e, "a": 18, "n0": 23, "r0": 32}
		dom := func(exp, impl string, metrics map[string]float64, reused string, w bench.Work) workCase {
			return workCase{exp: exp, impl: impl, params: ps("m", "7"), metrics: metrics, reused: reused, want: w}
		}
		alg1 := bench.Work{IntOps: 7 * (n + e), DRAMBytes: 6*e + 4*559}
		dense := bench.Work{Updates: n * n * n, DRAMBytes: 6 * n * n}
		sparse := bench.Work{Updates: n * e, DRAMBytes: 6*e + 4*559 + 4*n*n}
		search := bench.Work{IntOps: 50}
		whole := bench.Work{IntOps: 29 * n * n, DRAMBytes: 29 * 4 * n * n}
		witnesses := bench.Work{Updates: 817 * e, DRAMBytes: 817 * (6*e + 4*559)}
		csr := 6*e + 4*559
		link := func(w bench.Work, b float64) bench.Work { w.LinkBytes = b; return w }
		cs = append(cs,
			dom("domination/table1", "cpu/paper", nil, "", alg1),
			dom("domination/table2", "cuda/fast", nil, "", link(alg1.Add(dense.Scale(49)).Add(search), csr)),
			dom("domination/table2", "cpu/sparse", m7, "", alg1.Add(sparse.Scale(49)).Add(search)),
			dom("domination/table2", "cpu/sparse", m7, "domination/table2|cuda/sparse|m=7", alg1.Add(sparse.Scale(49)).Add(search)),
			dom("domination/table3", "cpu/sparse", m7, "domination/table2|cpu/sparse|m=7", search),
			dom("domination/table3", "cpu/whole-seq", m7, "", alg1.Add(sparse.Scale(49)).Add(whole)),
			dom("domination/table5", "cuda/sparse", m7, "", link(alg1.Add(sparse.Scale(40)).Add(search), csr)),
			dom("domination/table5", "cpu/paper", nil, "", alg1.Add(dense.Scale(40)).Add(search)),
			dom("domination/table5", "cuda/v3-gpu", m7, "", link(alg1.Add(dense.Scale(49)).Add(whole), csr+49*2*n*n+29*4*n*n)),
			dom("domination/table5", "cuda/v4-gpu+cpu-par", m7, "", link(alg1.Add(dense.Scale(49)).Add(whole), csr+49*2*n*n)),
			dom("domination/table5", "cpu/v1-seq", m7, "", alg1.Add(dense.Scale(49)).Add(whole)),
			dom("domination/formula", "cuda/sparse", m7, "", link(alg1.Add(sparse.Scale(40)).Add(witnesses).Add(search), csr)),
			dom("domination/formula", "cpu/sparse", m7, "domination/formula|cuda/sparse|m=7", witnesses),
		)
		// m = 8 from its metrics: N = 1386, E = 73113, a = 3, n0 = 25:
		// 3 + 23 + 1 = 27 differences.
		const n8, e8 = 1386.0, 73113.0
		cs = append(cs, workCase{exp: "domination/table6", impl: "cpu/whole-par", params: ps("m", "8"),
			metrics: map[string]float64{"arcs": e8, "a": 3, "n0": 25},
			want: bench.Work{Updates: 49 * n8 * e8, IntOps: 8*(n8+e8) + 27*n8*n8,
				DRAMBytes: 6*e8 + 4*1387 + 49*(6*e8+4*1387+4*n8*n8) + 27*4*n8*n8}})
		// m = 2 without metrics: N = 6, E = 15 (the table), a = 2, n0 = 4
		// (the paper's Table 4).
		cs = append(cs, workCase{exp: "domination/table4", impl: "cuda/sparse", params: ps("m", "2"),
			want: bench.Work{Updates: 49 * 6 * 15, IntOps: 2*(6+15) + 50, DRAMBytes: 6*15 + 4*7 + 49*(6*15+4*7+4*36), LinkBytes: 6*15 + 4*7}})
		// The paper's program at m = 9 (N = 3447, E = 303097): 49 dense
		// products, A up dense and the 49 powers down.
		const n9, e9 = 3447.0, 303097.0
		cs = append(cs, workCase{exp: "domination/table2", impl: "peer/2domination", params: ps("m", "9"),
			want: bench.Work{Updates: 49 * n9 * n9 * n9, IntOps: 9*(n9+e9) + 50, DRAMBytes: 6*e9 + 4*3448 + 49*6*n9*n9, LinkBytes: 50 * 2 * n9 * n9}})
	}
	return cs
}

// record is c as a record of a run.
func (c workCase) record() bench.Record {
	return bench.Record{Experiment: c.exp, Impl: c.impl, Params: c.params, Status: bench.StatusOK,
		Metrics: maps.Clone(c.metrics), ReusedFrom: c.reused}
}

// closeWork reports whether a and b agree within a relative 1e-12, kind by
// kind (the declarations and the test sum in different orders).
func closeWork(a, b bench.Work) bool {
	near := func(x, y float64) bool { return x == y || math.Abs(x-y) <= 1e-12*math.Max(math.Abs(x), math.Abs(y)) }
	return near(a.Updates, b.Updates) && near(a.Flops, b.Flops) && near(a.IntOps, b.IntOps) &&
		near(a.DRAMBytes, b.DRAMBytes) && near(a.LinkBytes, b.LinkBytes)
}

// TestWorkFormulas holds each declaration to its formula, computed by hand,
// and WorkOf to the same work with the work metrics in the record and
// without.
func TestWorkFormulas(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range workCases() {
		covered[c.exp] = true
		rec := c.record()
		got, ok := experiments.WorkOf(&rec)
		if !ok || !closeWork(got, c.want) {
			t.Errorf("%s %s %s: work %+v, %v; want %+v", c.exp, c.impl, c.params, got, ok, c.want)
			continue
		}
		// The same record with its work in the metrics, as the runner
		// writes it: WorkOf reads the metrics and gives the same.
		with := c.record()
		if with.Metrics == nil {
			with.Metrics = map[string]float64{}
		}
		got.SetMetrics(with.Metrics)
		if again, ok := experiments.WorkOf(&with); !ok || again != got {
			t.Errorf("%s %s %s: WorkOf with the metrics %+v, %v; without %+v", c.exp, c.impl, c.params, again, ok, got)
		}
	}
	for _, e := range experiments.All() {
		if e.Work != nil && !covered[e.Name] {
			t.Errorf("%s declares work but no case of workCases ties it to its formula", e.Name)
		}
	}
}

// TestEveryCellDeclaresWork: every registered experiment declares work,
// some operation or some byte, for every cell of its quick and paper
// scales, from the cell's parameters alone (a record of any file).
func TestEveryCellDeclaresWork(t *testing.T) {
	for _, e := range experiments.All() {
		if e.Work == nil {
			t.Errorf("%s declares no work", e.Name)
			continue
		}
		for _, s := range []experiments.Scale{experiments.Quick, experiments.Paper} {
			for _, c := range e.Cases(s, experiments.Options{}) {
				for _, impl := range e.ImplsFor(c, "") {
					rec := bench.Record{Experiment: e.Name, Impl: impl, Params: c.Params}
					w, ok := e.Work(&rec)
					if !ok || w.Ops() <= 0 || w.DRAMBytes < 0 || w.LinkBytes < 0 {
						t.Errorf("%s %s %s (%s scale): work %+v, %v", e.Name, impl, c.Params, s, w, ok)
					}
					if ok && (w.LinkBytes > 0) != strings.HasPrefix(impl, "cuda/") {
						t.Errorf("%s %s %s: link bytes %g (a GPU cell has some, a CPU cell none)", e.Name, impl, c.Params, w.LinkBytes)
					}
				}
			}
		}
	}
}

// TestRunnerPathWritesWork: a case's instance, as the runner uses it
// (Setup, then Finish with the cell's record), writes the declared work
// into the record's metrics, on a copy: the instance's own metrics, which
// every implementation of the case shares, stay without it.
func TestRunnerPathWritesWork(t *testing.T) {
	e := experiments.ByName("kleene/table2")
	cs := e.Cases(experiments.Quick, experiments.Options{Threads: 1})
	inst, err := cs[0].Setup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if inst.Release != nil {
		defer inst.Release()
	}
	instKeys := slices.Sorted(maps.Keys(inst.Metrics))
	rec := bench.Record{Experiment: e.Name, Impl: "cpu/paper", Params: cs[0].Params, Status: bench.StatusOK, Metrics: inst.Metrics}
	if inst.Finish == nil {
		t.Fatal("the instance has no Finish to write the work")
	}
	inst.Finish("cpu/paper", &rec)
	got, ok := bench.WorkFromMetrics(rec.Metrics)
	n, m := 60.0, rec.Metrics["arcs"]
	if want := (bench.Work{Updates: m * (n + 1) / 3, DRAMBytes: 8 * n * n}); !ok || !closeWork(got, want) {
		t.Errorf("record's work %+v, %v; want %+v", got, ok, want)
	}
	if keys := slices.Sorted(maps.Keys(inst.Metrics)); !slices.Equal(keys, instKeys) {
		t.Errorf("the instance's metrics changed to %v (were %v)", keys, instKeys)
	}
	// The window beside it: update W, every update, the arcs as lists and
	// W written once.
	win, ok := bench.WindowFromMetrics(rec.Metrics)
	if want := (bench.Work{Updates: m * (n + 1) / 3, DRAMBytes: 8*m + 4*n*n}); !ok || win.Label() != "update_w" || !closeWork(win.Work, want) {
		t.Errorf("record's window %+v, %v; want update_w %+v", win, ok, want)
	}
}

// TestWindowPhasesRecorded: a cell that declares a window records its
// phases, so that its window has a time (bench.Window.WindowMS): the CPU
// implementations of each experiment that declares windows, on its first
// quick case, measured once as the runner measures them.
func TestWindowPhasesRecorded(t *testing.T) {
	ctx := context.Background()
	for _, e := range experiments.All() {
		if e.Window == nil {
			continue
		}
		c := e.Cases(experiments.Quick, experiments.Options{Threads: 1})[0]
		inst, err := c.Setup(ctx)
		if err != nil {
			t.Fatalf("%s %s: %v", e.Name, c.Params, err)
		}
		windows := 0
		for _, impl := range e.ImplsFor(c, "") {
			rec := bench.Record{Experiment: e.Name, Impl: impl, Params: c.Params, Metrics: maps.Clone(inst.Metrics)}
			w, ok := e.Window(&rec)
			if !ok || strings.HasPrefix(impl, "cuda/") {
				continue
			}
			windows++
			rec.Phases, err = bench.Measure(ctx, bench.Protocol{Reps: 1, Statistic: bench.StatMedian},
				func(ctx context.Context, r *bench.Recorder) error { _, err := inst.Run(ctx, impl, r); return err })
			if err != nil {
				t.Fatalf("%s %s %s: %v", e.Name, impl, c.Params, err)
			}
			if _, ok := w.WindowMS(&rec); !ok {
				var names []string
				for _, p := range rec.Phases {
					names = append(names, p.Name)
				}
				t.Errorf("%s %s %s: window %s, but the run records the phases %v", e.Name, impl, c.Params, w.Label(), names)
			}
		}
		if windows == 0 {
			t.Errorf("%s declares windows, but none for a CPU implementation of its first quick case %s", e.Name, c.Params)
		}
		if inst.Release != nil {
			inst.Release()
		}
	}
}

// windowCase is one cell whose declared window the test computes by hand;
// phases nil: the cell declares none.
type windowCase struct {
	workCase
	phases []string
}

// windowCases ties each window declaration to its formula, by hand (see
// each paper's work.go for the reasons).
func windowCases() []windowCase {
	var cs []windowCase
	// treefix: the vectorial implementations' write, scan and read, the
	// GPU's Euler tour and the copies outside: Rootfix 2n scan additions
	// (a TwoSum of 6 flops each compensated) and n negations, 20 + 16 +
	// 12 bytes a vertex; Leaffix two flops and 12 bytes a vertex more.
	{
		wsr := []string{"write", "scan", "read"}
		tree := func(exp, impl string, phases []string, w bench.Work) windowCase {
			return windowCase{workCase{exp: exp, impl: impl, want: w,
				params: ps("tree", "caterpillar", "source", "synthetic", "n", "16777216", "numbering", "bfs")}, phases}
		}
		const n = 1 << 24
		cs = append(cs,
			tree("treefix/fig7", "cuda/vectorial", wsr, bench.Work{Flops: 3 * n, DRAMBytes: 48 * n}),
			tree("treefix/fig7", "cpu/vectorial", wsr, bench.Work{Flops: 3 * n, DRAMBytes: 48 * n}),
			tree("treefix/fig4", "cuda/vectorial-compensated", wsr, bench.Work{Flops: 13 * n, DRAMBytes: 48 * n}),
			tree("treefix/fig5", "cpu/vectorial-compensated", wsr, bench.Work{Flops: 13 * n, DRAMBytes: 48 * n}),
			tree("treefix/fig7", "cuda/parallel", nil, bench.Work{}),
			tree("treefix/fig7", "cpu/sequential", nil, bench.Work{}),
			tree("treefix/table1", "cuda/build", nil, bench.Work{}),
		)
		acc := func(impl, op string, phases []string, w bench.Work) windowCase {
			return windowCase{workCase{exp: "treefix/accuracy", impl: impl, want: w,
				params: ps("chain", "3", "cond", "1.00e+04", "op", op)}, phases}
		}
		const c = 10000
		cs = append(cs,
			acc("cuda/vectorial", "leaffix", wsr, bench.Work{Flops: 4 * c, DRAMBytes: 60 * c}),
			acc("cuda/vectorial-compensated", "leaffix", wsr, bench.Work{Flops: 14 * c, DRAMBytes: 60 * c}),
			acc("cpu/vectorial-compensated", "rootfix", wsr, bench.Work{Flops: 13 * c, DRAMBytes: 48 * c}),
			acc("cuda/parallel", "rootfix", nil, bench.Work{}),
		)
	}
	// kleene: update W does every update; it reads the arcs as lists (8m:
	// cpu/paper, cuda/paper) or X dense (4n²: cpu/fast, cuda/fast) and
	// writes W once (4n²); no copies.
	{
		n, m := 500.0, 62470.0
		arcs := map[string]float64{"arcs": m}
		kl := func(exp, impl, weights string, w bench.Work) windowCase {
			return windowCase{workCase{exp: exp, impl: impl, params: ps("n", "500", "weights", weights), metrics: arcs, want: w}, []string{"update_w"}}
		}
		cs = append(cs,
			kl("kleene/table2", "cpu/paper", "normal", bench.Work{Updates: m * 501 / 3, DRAMBytes: 8*m + 4*n*n}),
			kl("kleene/table2", "cpu/fast", "normal", bench.Work{Updates: m * 501 / 3, DRAMBytes: 8 * n * n}),
			kl("kleene/table3", "cuda/paper", "normal", bench.Work{Updates: m * 501 / 3, DRAMBytes: 8*m + 4*n*n}),
			kl("kleene/table3", "cuda/fast", "int", bench.Work{Updates: 500 * 499 * 498 / 6, DRAMBytes: 8 * n * n}),
		)
	}
	return cs
}

// TestWindowFormulas holds each window declaration to its formula, by
// hand, and WindowOf to the same window with the window in the record's
// metrics (as the runner writes it) and without; every experiment that
// declares windows has a case here.
func TestWindowFormulas(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range windowCases() {
		rec := c.record()
		got, ok := experiments.WindowOf(&rec)
		if c.phases == nil {
			if ok {
				t.Errorf("%s %s %s: window %+v; want none", c.exp, c.impl, c.params, got)
			}
			continue
		}
		covered[c.exp] = true
		if !ok || !slices.Equal(got.Phases, c.phases) || !closeWork(got.Work, c.want) {
			t.Errorf("%s %s %s: window %+v, %v; want %v %+v", c.exp, c.impl, c.params, got, ok, c.phases, c.want)
			continue
		}
		with := c.record()
		if with.Metrics == nil {
			with.Metrics = map[string]float64{}
		}
		got.SetMetrics(with.Metrics)
		if again, ok := experiments.WindowOf(&with); !ok || again.Label() != got.Label() || again.Work != got.Work {
			t.Errorf("%s %s %s: WindowOf with the metrics %+v, %v; without %+v", c.exp, c.impl, c.params, again, ok, got)
		}
	}
	for _, e := range experiments.All() {
		if e.Window != nil && !covered[e.Name] {
			t.Errorf("%s declares windows but no case of windowCases ties one to its formula", e.Name)
		}
	}
}
