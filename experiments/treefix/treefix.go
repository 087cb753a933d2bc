package treefix

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"os"
	"slices"
	"strconv"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/treefix"
)

// Paper is the paper this package reproduces.
var Paper = experiments.PaperInfo{File: "004_89a0ec3b389b4640.txt", Name: "Treefix", Number: "004",
	Source: "Treefix (Rootfix/Leaffix) on GPUs"}

// treefixMTXDir is the folder holding the ten SuiteSparse matrices of
// Table I (name.mtx, name.mtx.gz or name/name.mtx[.gz]), named by the
// environment variable SEMIBENCH_MTX_DIR (no flag sets it). At paper and
// large scale a matrix found there gives the paper's spanning tree;
// otherwise, and always at quick scale, a synthetic stand-in with the row's
// n, depth and branching factor is used and labelled "stand-in".
func treefixMTXDir() string { return os.Getenv("SEMIBENCH_MTX_DIR") }

// Sources of a tree, as the tables print them.
const (
	srcSuiteSparse = "SuiteSparse"
	srcStandIn     = "stand-in"
	srcSynthetic   = "synthetic"
)

// treefixTimedImpls are the implementations of Figs. 4, 5 and 7.
var treefixTimedImpls = impls.Treefix.Names()

// The implementations of impls.Treefix that the experiments single out.
const (
	cpuSequential            = impls.TreefixCPUSequential
	cpuParallel              = impls.TreefixCPUParallel
	cpuVectorial             = impls.TreefixCPUVectorial
	cpuVectorialCompensated  = impls.TreefixCPUVectorialCompensated
	cudaParallel             = impls.TreefixCUDAParallel
	cudaVectorial            = impls.TreefixCUDAVectorial
	cudaVectorialCompensated = impls.TreefixCUDAVectorialCompensated
)

const (
	cpuBuild  = "cpu/build"
	cudaBuild = "cuda/build"
)

// treefixNs is a conservative prior in ns per vertex, or per unit of
// levelWork for the level-synchronous implementations.
var treefixNs = map[string]float64{
	cpuSequential: 60, cpuParallel: 5, cpuVectorial: 10, cpuVectorialCompensated: 20, cpuBuild: 80,
	cudaParallel: 0.2, cudaVectorial: 5, cudaVectorialCompensated: 5, cudaBuild: 5,
	cpuLevels: 100,
}

// levelCost is what one level costs a level-synchronous implementation,
// in vertices' worth of its time: a level holding many vertices (a wide
// one: barriers, a frontier built with atomics) and one of a few (a
// chain's, walked without them). Measured with the committed runs of an
// H100 (cuda/parallel: 15 µs a wide level of a Table I stand-in, 0.38 µs
// a caterpillar's, 0.057 ns a star's vertex) and of a 2-core Xeon
// (cpu/parallel: 25 µs, 73 ns, 2.3 ns); their ratios, not their times,
// enter the estimate.
var levelCost = map[string]struct{ wide, narrow float64 }{
	cudaParallel: {wide: 260000, narrow: 6700},
	cpuParallel:  {wide: 11000, narrow: 32},
}

// levelWork is a tree's work for a level-synchronous implementation: its
// vertices and its levels at levelCost (a level is wide when the tree's
// mean level holds 64 vertices or more); 0 for the other implementations
// and trees of unknown depth (the case's Work then).
func levelWork(impl string, spec treeSpec) float64 {
	lc, ok := levelCost[impl]
	levels := fig6WantLevels(spec)
	if levels == 0 {
		for _, row := range trees.Table1 {
			if row.Name == spec.name {
				levels = min(row.Depth, spec.n)
			}
		}
	}
	if !ok || levels == 0 {
		return 0
	}
	per := lc.narrow
	if spec.n >= 64*levels {
		per = lc.wide
	}
	return float64(spec.n) + float64(levels)*per
}

// treeSpec is one tree of an experiment.
type treeSpec struct {
	name, source string
	n            int
	build        func() (*trees.Tree, error)
	// key says what build makes (builder, size, seed or file), so that the
	// experiments of a run share one tree (instances.go).
	key string
}

// table1Specs gives the Table I trees at a scale: stand-ins at 1/256 of the
// vertices at quick scale, full size otherwise (the SuiteSparse spanning
// tree when the matrix is in treefixMTXDir).
func table1Specs(s experiments.Scale, seed uint64) []treeSpec {
	var out []treeSpec
	for i, row := range trees.Table1 {
		div := 1
		if s == experiments.Quick {
			div = 256
		}
		spec := treeSpec{name: row.Name, source: srcStandIn, n: max(row.N/div, 1)}
		if dir := treefixMTXDir(); dir != "" && s != experiments.Quick {
			if path := trees.FindMatrix(dir, row.Name); path != "" {
				spec.source = srcSuiteSparse
				spec.n = row.N
				spec.build = func() (*trees.Tree, error) { return trees.ReadSpanningTree(path) }
				spec.key = "SuiteSparse " + path
			}
		}
		if spec.build == nil {
			sd := seed + uint64(i)
			spec.build = func() (*trees.Tree, error) { return trees.StandIn(row, div, sd) }
			spec.key = fmt.Sprintf("stand-in %s n=%d div=%d seed=%d", row.Name, spec.n, div, sd)
		}
		out = append(out, spec)
	}
	return out
}

// fig7Sizes are the star and caterpillar sizes: the paper's 2^15..2^24.
func fig7Sizes(s experiments.Scale) []int {
	switch s {
	case experiments.Quick:
		return []int{1 << 10, 1 << 12, 1 << 14}
	case experiments.Large:
		return []int{1 << 25, 1 << 26}
	}
	var out []int
	for k := 15; k <= 24; k++ {
		out = append(out, 1<<k)
	}
	return out
}

func treefixSeed(opt experiments.Options) uint64 {
	if opt.Seed == 0 {
		return 1
	}
	return opt.Seed
}

// treefixBytesPerVertex bounds the memory of a timed case per vertex:
// parent, CSR, Euler-tour positions, weights and outputs, the float32 and
// float64 Euler-tour vectors, the queues and the int64 reference.
const treefixBytesPerVertex = 112

// treefixTimedCase times +Rootfix on one tree. Weights are integers in
// {-1, 0, 1} stored as float32: every partial sum is an integer of
// magnitude at most n <= 2^24, exact in float32, so every implementation
// must equal the int64 reference exactly, while the memory traffic is that
// of float32 data.
func treefixTimedCase(spec treeSpec, numbering trees.Numbering, opt experiments.Options, buildOnly bool) experiments.Case {
	seed := treefixSeed(opt)
	params := bench.Params{{Name: "tree", Value: spec.name}, {Name: "source", Value: spec.source},
		{Name: "n", Value: strconv.Itoa(spec.n)}, {Name: "numbering", Value: string(numbering)}}
	var names []string
	if buildOnly {
		names = []string{cpuBuild, cudaBuild}
	}
	return experiments.Case{
		Params:    params,
		Impls:     names,
		Work:      float64(spec.n),
		ImplWork:  func(impl string) float64 { return levelWork(impl, spec) },
		HostBytes: uint64(spec.n) * treefixBytesPerVertex,
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			need := uint64(spec.n) * treefixBytesPerVertex
			opt.Shared.MakeRoom(need)
			if avail := bench.AvailableMemory(); avail > 0 && need > avail {
				return nil, fmt.Errorf("%s (n=%d) needs about %.1f GiB, only %.1f GiB available", spec.name, spec.n, experiments.GiB(need), experiments.GiB(avail))
			}
			// The tree renumbered and weighted, its builds (timed once),
			// weights, reference and digest: once per run for every
			// experiment on it (instances.go).
			p, err := treefixPrepared(ctx, opt, spec, numbering, seed)
			if err != nil {
				return nil, err
			}
			tr, st, pt, vec, w, ref := p.tr, p.st, p.pt, p.vec, p.w, p.ref
			csrMS, vecMS, n := p.csrMS, p.vecMS, tr.N()
			runs := treefixRuns(pt, opt.Threads)
			out := make([]float32, n)
			desc := fmt.Sprintf("%s tree %s (%s numbering), n=%d, depth %d, integer weights in {-1,0,1} as float32", spec.source, spec.name, numbering, n, st.Depth)
			return &experiments.Instance{
				Input: &bench.Input{Generator: "trees", Seed: seed, Hash: p.hash, Description: desc},
				Metrics: map[string]float64{"n": float64(n), "depth": float64(st.Depth), "branching": st.Branching,
					"max_width": float64(st.MaxWidth), "build_csr_ms": csrMS, "build_vector_ms": vecMS},
				Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
					switch impl {
					case cudaBuild:
						v, err := impls.TreefixBuildVector(ctx, pt, rec)
						return v, experiments.MarkUnavailable(err)
					case cpuBuild:
						stop := rec.Start("csr")
						p2, err := treefix.NewTree(tr.Parent)
						stop()
						if err != nil {
							return nil, err
						}
						stop = rec.Start("euler_tour")
						v := p2.BuildVector()
						stop()
						return v, nil
					}
					run, ok := runs[impl]
					if !ok {
						return nil, fmt.Errorf("treefix: no implementation %q", impl)
					}
					if err := experiments.MarkUnavailable(run(ctx, treefix.Rootfix, w, out, rec)); err != nil {
						return nil, err
					}
					return out, nil
				},
				Check: func(impl string, o any) bench.Check {
					if impl == cpuBuild || impl == cudaBuild {
						v, _ := o.(*treefix.Vector)
						if v == nil || !slices.Equal(v.Open, vec.Open) || !slices.Equal(v.Close, vec.Close) {
							return bench.Check{Method: "Euler tour", Detail: "differs between builds"}
						}
						return checkEulerTour(tr.Parent, v)
					}
					got, _ := o.([]float32)
					if len(got) != n {
						return bench.Check{Method: "exact vs int64 sequential", Detail: "no output"}
					}
					for v := range got {
						if int64(got[v]) != ref[v] || float32(int64(got[v])) != got[v] {
							return bench.Check{Method: "exact vs int64 sequential", Detail: fmt.Sprintf("vertex %d: %g, want %d", v, got[v], ref[v])}
						}
					}
					return bench.Check{OK: true, Method: "exact vs int64 sequential (integer weights)"}
				},
			}, nil
		},
	}
}

// treefixRuns prepares every implementation of impls.Treefix on tree t for
// float32 weights, by name.
func treefixRuns(t *treefix.Tree, threads int) map[string]treefix.Run[float32] {
	runs := map[string]treefix.Run[float32]{}
	for _, im := range impls.Treefix.All() {
		runs[im.Name] = im.Float32(t, threads)
	}
	return runs
}

// checkEulerTour verifies the vector tree representation: the 2n positions
// form a permutation of 0..2n-1, the root spans the tour, and every child's
// interval nests strictly inside its parent's.
func checkEulerTour(parent []int32, v *treefix.Vector) bench.Check {
	const method = "Euler tour: permutation of 0..2n-1, intervals nested along the parent array"
	n := len(parent)
	seen := make([]bool, 2*n)
	for i := 0; i < n; i++ {
		for _, p := range []int32{v.Open[i], v.Close[i]} {
			if p < 0 || int(p) >= 2*n || seen[p] {
				return bench.Check{Method: method, Detail: fmt.Sprintf("vertex %d: position %d repeated or out of range", i, p)}
			}
			seen[p] = true
		}
		if v.Open[i] >= v.Close[i] {
			return bench.Check{Method: method, Detail: fmt.Sprintf("vertex %d: (V %d not before V) %d", i, v.Open[i], v.Close[i])}
		}
		if p := parent[i]; p >= 0 && !(v.Open[p] < v.Open[i] && v.Close[i] < v.Close[p]) {
			return bench.Check{Method: method, Detail: fmt.Sprintf("vertex %d not nested in its parent %d", i, p)}
		} else if p < 0 && (v.Open[i] != 0 || int(v.Close[i]) != 2*n-1) {
			return bench.Check{Method: method, Detail: "the root does not span the tour"}
		}
	}
	return bench.Check{OK: true, Method: method}
}

// table1Cases and fig4Cases: the Table I trees; Figs. 4 and 5 add a random
// numbering at paper and large scale (it changes the memory access), and
// large scale a depth-first one.
func table1Cases(s experiments.Scale, opt experiments.Options, buildOnly bool) []experiments.Case {
	numberings := []trees.Numbering{trees.BreadthFirst}
	if !buildOnly && s != experiments.Quick {
		numberings = append(numberings, trees.RandomOrder)
	}
	if !buildOnly && s == experiments.Large {
		numberings = append(numberings, trees.DepthFirst)
	}
	var cs []experiments.Case
	for _, spec := range table1Specs(s, treefixSeed(opt)) {
		for _, nb := range numberings {
			if spec.source == srcSuiteSparse && nb == trees.BreadthFirst {
				nb = "file" // the paper's tree keeps the matrix's numbering
			}
			cs = append(cs, treefixTimedCase(spec, nb, opt, buildOnly))
		}
	}
	return cs
}

// shapeSpec is the star or the caterpillar of n vertices.
func shapeSpec(shape string, n int) treeSpec {
	spec := treeSpec{name: shape, source: srcSynthetic, n: n, key: fmt.Sprintf("%s n=%d", shape, n)}
	if shape == "star" {
		spec.build = func() (*trees.Tree, error) { return trees.Star(n) }
	} else {
		spec.build = func() (*trees.Tree, error) { return trees.Caterpillar(n) }
	}
	return spec
}

func fig7Cases(s experiments.Scale, opt experiments.Options) []experiments.Case {
	var cs []experiments.Case
	for _, shape := range []string{"star", "caterpillar"} {
		for _, n := range fig7Sizes(s) {
			cs = append(cs, treefixTimedCase(shapeSpec(shape, n), trees.BreadthFirst, opt, false))
		}
	}
	return cs
}

// Accuracy study: chains of 10,000 vertices whose weights are GenSum
// series with condition numbers from 10 to 1e10.

const accuracyN = 10000

func accuracyChains(s experiments.Scale) int {
	switch s {
	case experiments.Quick:
		return 10
	case experiments.Large:
		return 1000
	}
	return 100
}

// accuracyCond is the condition number asked of chain i of k: 10 to 1e10,
// evenly on a log scale.
func accuracyCond(i, k int) float64 { return math.Pow(10, 1+9*float64(i)/float64(k-1)) }

func accuracyCases(s experiments.Scale, opt experiments.Options) []experiments.Case {
	k := accuracyChains(s)
	var cs []experiments.Case
	for i := 0; i < k; i++ {
		cond := accuracyCond(i, k)
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			cs = append(cs, accuracyCase(i, cond, op, opt))
		}
	}
	return cs
}

func accuracyCase(i int, cond float64, op treefix.Op, opt experiments.Options) experiments.Case {
	seed := treefixSeed(opt) + uint64(i)
	return experiments.Case{
		Params: bench.Params{{Name: "chain", Value: strconv.Itoa(i)}, {Name: "cond", Value: strconv.FormatFloat(cond, 'e', 2, 64)}, {Name: "op", Value: op.String()}},
		Work:   accuracyN,
		// a chain: one vertex a level, as the caterpillar's
		ImplWork: func(impl string) float64 { return levelWork(impl, treeSpec{name: "caterpillar", n: accuracyN}) },
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			x, c, err := trees.GenSum(accuracyN, cond, seed)
			if err != nil {
				return nil, err
			}
			chain, _ := trees.Caterpillar(accuracyN)
			for v := range x {
				chain.Weight[v] = float64(x[v])
			}
			// a random numbering: the "random trees" of the paper; the
			// values along the chain keep GenSum's order
			tr, err := trees.Renumber(chain, trees.RandomOrder, seed)
			if err != nil {
				return nil, err
			}
			pt, err := treefix.NewTree(tr.Parent)
			if err != nil {
				return nil, err
			}
			w := make([]float32, accuracyN)
			var sumAbs float64
			for v, y := range tr.Weight {
				w[v] = float32(y)
				sumAbs += math.Abs(y)
			}
			exactBig := trees.ExactSum(x)
			exact, _ := exactBig.Float64()
			bounds := accuracyBounds(op, x, sumAbs)
			// the vertex holding the whole sum: the leaf for Rootfix, the root for Leaffix
			full := int32(-1)
			if op == treefix.Rootfix {
				isParent := make([]bool, accuracyN)
				for _, p := range tr.Parent {
					if p >= 0 {
						isParent[p] = true
					}
				}
				full = int32(slices.Index(isParent, false))
			} else {
				full = tr.Root()
			}
			runs := treefixRuns(pt, opt.Threads)
			out := make([]float32, accuracyN)
			return &experiments.Instance{
				Input: &bench.Input{Generator: "trees.GenSum", Seed: seed, Hash: tr.Hash(),
					Description: fmt.Sprintf("chain of %d vertices, GenSum weights (float32), condition number %.3g (asked %.3g)", accuracyN, c, cond)},
				Metrics: map[string]float64{"cond": c, "n": accuracyN, "exact_sum": exact},
				Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
					run, ok := runs[impl]
					if !ok {
						return nil, fmt.Errorf("treefix: no implementation %q", impl)
					}
					if err := experiments.MarkUnavailable(run(ctx, op, w, out, rec)); err != nil {
						return nil, err
					}
					return out[full], nil
				},
				Check: func(impl string, o any) bench.Check {
					got, ok := o.(float32)
					if !ok {
						return bench.Check{Method: "error of the full sum vs the exact sum", Detail: "no output"}
					}
					// |got - exact sum|, computed exactly and rounded once
					d := new(big.Float).SetPrec(exactBig.Prec()).SetFloat64(float64(got))
					d.Sub(d, exactBig)
					err, _ := d.Abs(d).Float64()
					rel := err / math.Abs(exact)
					var bound float64
					method := "error of the full sum vs the exact (math/big) sum of the same float32 terms; bound: "
					switch impl {
					case cpuVectorialCompensated:
						bound = treefix.Bound(op, accuracyN, exact, 2*sumAbs+math.Abs(float64(w[full])), sumAbs)
						method += "treefix.Bound"
					case cudaVectorialCompensated:
						bound = impls.TreefixCUDACompensatedBound(op, accuracyN, exact, sumAbs)
						method += "cudatreefix.Bound"
					default:
						b, ok := bounds[impl]
						if !ok {
							return bench.Check{Method: method, Detail: "no error model for " + impl}
						}
						bound, method = b.bound, method+b.model
					}
					return bench.Check{OK: err <= bound, Method: method, MaxErr: rel, Bound: bound / math.Abs(exact),
						Detail: fmt.Sprintf("relative error %.3g (bound %.3g) at condition number %.3g", rel, bound/math.Abs(exact), c)}
				},
			}, nil
		},
	}
}

// errModel is one implementation's error bound on a chain's full sum and
// the model it comes from, in words.
type errModel struct {
	bound float64
	model string
}

// cudaScanHeight bounds the height of the evaluation tree of any prefix of
// cuda/vectorial's float32 scan over m entries (kernels/treefix.cu), for
// both scans its records may come from. The single pass with decoupled
// look-back (tf_scan_f32, before the two passes): a thread's 16 items
// summed in turn (16 additions), the block's warp scans (5 + 5) and the
// thread's offset (1), the look-back's warp reductions of 32 tiles (5)
// and its running exclusive prefix (1) and the published inclusive prefix
// (1) per tile before it, then the offset and the thread's 16 items again
// (17): at most 45 + 7·tiles. The two passes: a tile's local prefix at
// most 43 (the same first 27, then 16 items), its total 26, the tiles'
// scan 8 items in turn, 11 in the block scan, the carry and 7 items more
// (53 + one a chunk of 8,192 tiles), and the read's addition (1): at most
// 55 + tiles/8192. 64 + 8·tiles bounds both.
func cudaScanHeight(m int) int {
	const tile = 256 * 16
	return 64 + 8*((m+tile-1)/tile)
}

// accuracyBounds gives the error bound of each plain implementation on
// the full sum of a chain whose weights, root to leaf, are x (the error
// model of treefix.SeqErrBound, u = 2^-24):
//
//   - cpu/sequential, cpu/parallel, cuda/parallel: a recursive sum along
//     the chain, from the root (Rootfix) or from the leaf (Leaffix): the
//     running bound u·Σ|s_k| over that order's partial sums;
//   - cpu/vectorial: Rootfix reads the leaf's prefix, the recursive sum of
//     the n opens from the root (the same bound); Leaffix reads
//     fl(fl(E[root)] - E[(root]) + w_root), the prefix of all n weights
//     (their running bound) then two rounded operations (OpErrBound);
//   - cuda/vectorial: any order of height cudaScanHeight(2n): γ_h·Σ|x|,
//     and for Leaffix the two operations of the read.
func accuracyBounds(op treefix.Op, x []float32, sumAbs float64) map[string]errModel {
	const u = treefix.U32
	order := slices.Clone(x)
	if op == treefix.Leaffix {
		slices.Reverse(order)
	}
	s, seq := treefix.SeqErrBound(u, order)
	running := errModel{seq, "recursive sum " + map[treefix.Op]string{treefix.Rootfix: "from the root", treefix.Leaffix: "from the leaf"}[op] + ", running bound Σ_k u32·|s_k| over the exact partial sums"}
	out := map[string]errModel{cpuSequential: running, cpuParallel: running, cudaParallel: running}
	h := cudaScanHeight(2 * len(x))
	tree := treefix.TreeErrBound(u, h, sumAbs)
	x0 := float64(x[0])
	if op == treefix.Rootfix {
		out[cpuVectorial] = running
		out[cudaVectorial] = errModel{tree, fmt.Sprintf("scan tree of height <= %d, γ_h(u32)·Σ|w|", h)}
		return out
	}
	_, pre := treefix.SeqErrBound(u, x)
	read := func(eClose, eOpen float64) float64 {
		return treefix.OpErrBound(u, treefix.OpErrBound(u, eClose, eOpen, s-x0), 0, s)
	}
	out[cpuVectorial] = errModel{read(pre, 0), "recursive scan from the root (running bound), then the read's two roundings"}
	out[cudaVectorial] = errModel{read(tree, treefix.TreeErrBound(u, h, math.Abs(x0))),
		fmt.Sprintf("scan tree of height <= %d (γ_h(u32)·Σ|w|), then the read's two roundings", h)}
	return out
}

// Register registers the paper and its experiments (experiments.RegisterPaper,
// experiments.Register); experiments/papers calls it for cmd/semibench.
func Register() {
	experiments.RegisterPaper(Paper)
	experiments.Register(&experiments.Experiment{
		Name:        "treefix/table1",
		Headline:    []string{"cpu/build", "cuda/build"},
		Paper:       Paper.File,
		Work:        treefixTimedWork,
		Description: "the benchmark trees of Table I (n, depth, average branching factor), the CPU build of CSR and the Euler-tour vector representation, and the GPU build of the Euler tour",
		Impls:       []string{cpuBuild, cudaBuild},
		NsPerWork:   treefixNs,
		Cases:       func(s experiments.Scale, o experiments.Options) []experiments.Case { return table1Cases(s, o, true) },
		Tables:      treefixTable1,
		Claims:      func(run []bench.Record) []experiments.Claim { return []experiments.Claim{treefixTable1Claim(run)} },
		Needs:       treefixTable1Needs,
	})
	experiments.Register(&experiments.Experiment{
		Name: "treefix/fig6",
		// Fig. 6's profiles are computed once, on the CPU.
		Headline:    []string{"cpu/levels"},
		Paper:       Paper.File,
		Work:        treefixLevelsWork,
		Description: "the level profile (vertices per breadth-first level) of the Table I trees, the star and the caterpillar (paper's Fig. 6)",
		Impls:       []string{cpuLevels},
		NsPerWork:   treefixNs,
		Cases:       fig6Cases,
		Tables:      treefixFig6Table,
		Claims:      treefixFig6Claims,
		Needs:       treefixFig6Needs,
		Plots:       treefixFig6Plots,
	})
	experiments.Register(&experiments.Experiment{
		Name: "treefix/fig4",
		// The figure's claim is about the GPU implementations; the vectorial one is the CPU's fastest.
		Headline:    []string{"cuda/*", "cpu/vectorial"},
		Paper:       Paper.File,
		Work:        treefixTimedWork,
		Window:      treefixTimedWindow,
		Description: "+Rootfix computation time per implementation on the Table I trees (paper's Fig. 4a)",
		Impls:       treefixTimedImpls,
		NsPerWork:   treefixNs,
		Cases:       func(s experiments.Scale, o experiments.Options) []experiments.Case { return table1Cases(s, o, false) },
		Tables:      treefixFig4Tables,
		Claims: func(run []bench.Record) []experiments.Claim {
			return []experiments.Claim{treefixFasterClaim(run), treefixGrowsClaim(run), treefixCage15Claim(run), treefixTransfersClaim(run), treefixIntegerClaim(run)}
		},
		Needs: treefixFig4Needs,
		Plots: treefixFig4Plots,
	})
	experiments.Register(&experiments.Experiment{
		Name: "treefix/fig5",
		// The GPU implementations, the CPU's fastest, and the sequential one that Fig. 5's speedups divide.
		Headline:    []string{"cuda/*", "cpu/vectorial", "cpu/sequential"},
		MeasuredBy:  "treefix/fig4",
		Paper:       Paper.File,
		Work:        treefixTimedWork,
		Window:      treefixTimedWindow,
		Description: "+Rootfix speedup over sequential on the Table I trees (paper's Fig. 5)",
		Impls:       treefixTimedImpls,
		NsPerWork:   treefixNs,
		Cases:       func(s experiments.Scale, o experiments.Options) []experiments.Case { return table1Cases(s, o, false) },
		Tables:      treefixSpeedupTable,
		Claims:      func(run []bench.Record) []experiments.Claim { return []experiments.Claim{treefixSixtyClaim(run)} },
		Needs:       treefixFig5Needs,
		Plots:       func(run []bench.Record) []report.Plot { return treefixTreePlots(run, "treefix/fig5", true) },
	})
	experiments.Register(&experiments.Experiment{
		Name: "treefix/fig7",
		// The figure's claim is about the GPU implementations; the vectorial one is the CPU's fastest.
		Headline:    []string{"cuda/*", "cpu/vectorial"},
		Paper:       Paper.File,
		Work:        treefixTimedWork,
		Window:      treefixTimedWindow,
		Description: "+Rootfix on stars and caterpillars, 2^15 to 2^24 vertices (paper's Fig. 7)",
		Impls:       treefixTimedImpls,
		NsPerWork:   treefixNs,
		Cases:       fig7Cases,
		Tables:      treefixFig7Table,
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(treefixFig7Claims(run), treefixFig7MoreClaims(run)...)
		},
		Needs: treefixFig7Needs,
		Plots: treefixFig7Plots,
	})
	experiments.Register(&experiments.Experiment{
		Name:        "treefix/accuracy",
		Headline:    []string{"cuda/*", "cpu/vectorial", "cpu/vectorial-compensated"},
		Paper:       Paper.File,
		Work:        treefixAccuracyWork,
		Window:      treefixAccuracyWindow,
		Description: "float32 relative error of +Rootfix and +Leaffix on GenSum chains of 10,000 vertices, condition numbers 10 to 1e10 (paper's accuracy study)",
		Impls:       treefixTimedImpls,
		NsPerWork:   treefixNs,
		Cases:       accuracyCases,
		Tables:      treefixAccuracyTable,
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(treefixAccuracyClaims(run), treefixLessAccurateClaim(run))
		},
		Needs: treefixAccuracyNeeds,
		Plots: treefixAccuracyPlots,
	})
}

// treefixFig7Claims gives section IV-A's claims on Fig. 7: at 2^24 vertices
// the vectorial implementation is about 5x faster than the parallel one on
// the star and about 5000x on the caterpillar, by the paper's computation
// time on the GPU.
func treefixFig7Claims(run []bench.Record) []experiments.Claim {
	const exp = "treefix/fig7"
	own := experiments.OfExperiment(run, exp)
	n := strconv.Itoa(1 << 24)
	var out []experiments.Claim
	for _, shape := range []string{"star", "caterpillar"} {
		id := exp + "#" + shape
		paper := experiments.PaperValue(id) // experiments/treefix/paper/claims.json
		c := experiments.Claim{ID: id, Where: "Fig. 7, section IV-A", PaperFigure: experiments.CatalogueFigure(id),
			Text: fmt.Sprintf("On the %s of 2^24 vertices the vectorial implementation is about %gx faster than the parallel one: ours is cuda/parallel / cuda/vectorial by the paper's computation time. %s", shape, paper, experiments.RatioRule(experiments.HigherBetter))}
		var par, vec experiments.ClaimCell
		par, vec = experiments.ClaimCell{Rec: nil, Impl: cudaParallel, Params: bench.Params{{Name: "tree", Value: shape}, {Name: "n", Value: n}}}, experiments.ClaimCell{Rec: nil, Impl: cudaVectorial, Params: par.Params}
		for i := range own {
			r := &own[i]
			if r.Params.Get("tree") != shape || r.Params.Get("n") != n {
				continue
			}
			switch r.Impl {
			case cudaParallel:
				par = experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params}
			case cudaVectorial:
				vec = experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params}
			}
		}
		if !experiments.OKCells(par, vec) {
			out = append(out, c.NotRunFor(par, vec))
			continue
		}
		ours := experiments.PhaseMS(par.Rec, treefix.PhaseCompute) / experiments.PhaseMS(vec.Rec, treefix.PhaseCompute)
		c, band := c.JudgeRatio(paper, ours, experiments.HigherBetter, experiments.UnitRatio)
		c.Ours = report.FormatRatio(ours) + ", " + band
		out = append(out, c)
	}
	return out
}

// treefixAccuracyClaims gives the paper's accuracy claim: the vectorial
// algorithm "may lead to a 2-bit lost in the worst case" against the
// parallel one.
func treefixAccuracyClaims(run []bench.Record) []experiments.Claim {
	const exp = "treefix/accuracy"
	own := experiments.OfExperiment(run, exp)
	bitsPaper := experiments.PaperValue(exp + "#2-bits") // experiments/treefix/paper/claims.json
	most := experiments.TolHigh(exp + "#2-bits")         // the paper's, with the catalogue's margin
	c := experiments.Claim{ID: exp + "#2-bits", Where: "section IV-B, V", PaperFigure: fmt.Sprintf("at most %g bits", bitsPaper),
		Text: fmt.Sprintf("The vectorial algorithm may lose %g bits in the worst case against the parallel one: ours is the largest log2(vectorial's error / parallel's) over every chain, Rootfix and Leaffix, CPU and GPU, each error measured against the exact sum (and each result checked against its error model, the table's note). Reproduced when at most %g bits (%s) and every result is within its error model.", bitsPaper, most, experiments.ClaimTolerance(exp+"#2-bits").Text)}
	worst, where, chains := math.Inf(-1), "", 0
	for _, op := range []string{"rootfix", "leaffix"} {
		for _, r := range accuracyRows(own, op) {
			for _, pair := range [][2]string{{cpuVectorial, cpuParallel}, {cudaVectorial, cudaParallel}} {
				if bits, ok := r.extraBits(pair[0], pair[1]); ok {
					chains++
					if bits > worst {
						worst, where = bits, fmt.Sprintf("%s, %s, chain %s, condition number %.2g", pair[0], op, r.chain, r.cond)
					}
				}
			}
		}
	}
	if chains == 0 {
		var cells []experiments.ClaimCell
		for i := range own {
			cells = append(cells, experiments.ClaimCell{Rec: &own[i], Impl: own[i].Impl, Params: own[i].Params})
		}
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{{Rec: nil, Impl: cpuVectorial, Params: nil}}
		}
		return []experiments.Claim{c.NotRunFor(cells...)}
	}
	within, cells := 0, 0
	for _, r := range own {
		if r.Check != nil && (r.Status == bench.StatusOK || r.Status == bench.StatusCheckFailed) {
			cells++
			if r.Check.OK {
				within++
			}
		}
	}
	c.Ours = fmt.Sprintf("%.1f bits (%s); %d of %d results within their error model", worst, where, within, cells)
	c.Verdict = experiments.NotReproduced
	if worst <= most && within == cells {
		c.Verdict = experiments.Reproduced
	}
	return []experiments.Claim{c}
}
