package treefix

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/problems/treefix"
)

// The treefix paper's (004) claims beyond Figs. 6 and 7 and the 2-bit
// bound (treefix.go, fig6.go). Timings are the paper's computation
// time (phase compute) unless a claim says otherwise.

// treefixPair is one tree's parallel and vectorial GPU records.
type treefixPair struct {
	p        bench.Params
	par, vec *bench.Record
}

// treefixPairs are the trees of exps' records where both GPU programs
// passed, in the records' order.
func treefixPairs(run []bench.Record, exps ...string) ([]treefixPair, []experiments.ClaimCell) {
	var out []treefixPair
	var cells []experiments.ClaimCell
	for _, exp := range exps {
		own := experiments.OfExperiment(run, exp)
		rc := experiments.IndexRecords(own)
		seen := map[string]bool{}
		for _, r := range own {
			k := r.Params.String()
			if seen[k] || (r.Impl != cudaParallel && r.Impl != cudaVectorial) {
				continue
			}
			seen[k] = true
			par, vec := experiments.CellOf(rc, exp, cudaParallel, r.Params), experiments.CellOf(rc, exp, cudaVectorial, r.Params)
			cells = append(cells, par, vec)
			if experiments.OKCells(par, vec) {
				out = append(out, treefixPair{r.Params, par.Rec, vec.Rec})
			}
		}
	}
	return out, cells
}

// treefixNotRun is c not run for want of cells (or, with none, of the
// largest Table I tree's).
func treefixNotRun(c experiments.Claim, cells []experiments.ClaimCell, impl string) experiments.Claim {
	if len(cells) == 0 {
		cells = []experiments.ClaimCell{{Rec: nil, Impl: impl, Params: bench.Params{{Name: "tree", Value: trees.Table1[len(trees.Table1)-1].Name}}}}
	}
	return c.NotRunFor(cells...)
}

func treeName(p bench.Params) string {
	s := p.Get("tree") + " n=" + p.Get("n")
	if nb := p.Get("numbering"); nb != "" && nb != string(trees.BreadthFirst) && nb != "file" {
		s += " (" + nb + ")"
	}
	return s
}

// treefixFasterClaim: the vectorial implementation is faster than the
// parallel one on every kind of tree (Table I's and the extremes of Fig. 7).
func treefixFasterClaim(run []bench.Record) experiments.Claim {
	c := experiments.Claim{ID: "treefix/fig4#vectorial-faster", Where: "abstract, section V",
		Text: "The vectorial implementation is faster than the parallel one on every kind of tree: ours is cuda/vectorial against cuda/parallel by computation time, on every tree of Table I and every star and caterpillar that ran. Reproduced when it is faster on each by the samples' test; not reproduced when slower on any; inconclusive otherwise."}
	pairs, cells := treefixPairs(run, "treefix/fig4", "treefix/fig7")
	if len(pairs) == 0 {
		return treefixNotRun(c, cells, cudaVectorial)
	}
	var slower, even []string
	totalSlower := 0
	for _, x := range pairs {
		sign, _ := experiments.CompareWithin(c.ID, experiments.SamplesOf(x.vec, treefix.PhaseCompute), experiments.SamplesOf(x.par, treefix.PhaseCompute))
		switch sign {
		case experiments.NoSamples:
			return c.NoMetric("phase compute", "the GPU programs on "+treeName(x.p))
		case 1:
			slower = append(slower, treeName(x.p))
		case 0:
			even = append(even, treeName(x.p))
		}
		if experiments.PhaseMS(x.vec, bench.TotalPhase) > experiments.PhaseMS(x.par, bench.TotalPhase) {
			totalSlower++
		}
	}
	c.Ours = fmt.Sprintf("faster by computation time on %d of %d trees", len(pairs)-len(slower)-len(even), len(pairs))
	if len(slower) > 0 {
		c.Ours += "; slower on " + experiments.FirstOf(slower, 3)
	}
	if len(even) > 0 {
		c.Ours += "; within the noise on " + experiments.FirstOf(even, 3)
	}
	c.Ours += fmt.Sprintf(" (by total time, the headline with the Euler tour's build, slower on %d)", totalSlower)
	switch {
	case len(slower) > 0:
		c.Verdict = experiments.NotReproduced
	case len(even) > 0:
		c.Verdict = experiments.Inconclusive
	default:
		c.Verdict = experiments.Reproduced
	}
	return c
}

// treefixGrowsClaim: the vectorial implementation's computation time grows
// with the tree's size, over the Table I trees (per numbering).
func treefixGrowsClaim(run []bench.Record) experiments.Claim {
	const exp = "treefix/fig4"
	own := experiments.OfExperiment(run, exp)
	c := experiments.Claim{ID: exp + "#vectorial-grows", Where: "section IV-A, Fig. 4a",
		Text: "The vectorial implementation's computation time always grows with the tree's size: ours is cuda/vectorial's over the Table I trees by vertex count, per numbering. Reproduced when no larger tree takes less time by the samples' test."}
	byNumbering := map[string][]*bench.Record{}
	var cells []experiments.ClaimCell
	for i := range own {
		r := &own[i]
		if r.Impl != cudaVectorial {
			continue
		}
		cells = append(cells, experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params})
		if experiments.OKRecord(r) {
			byNumbering[r.Params.Get("numbering")] = append(byNumbering[r.Params.Get("numbering")], r)
		}
	}
	var bad []string
	compared := 0
	for _, nb := range slices.Sorted(maps.Keys(byNumbering)) {
		rs := byNumbering[nb]
		sort.SliceStable(rs, func(i, j int) bool {
			return experiments.IntOf(rs[i].Params, "n") < experiments.IntOf(rs[j].Params, "n")
		})
		for i := 1; i < len(rs); i++ {
			compared++
			switch sign, note := experiments.CompareWithin(c.ID, experiments.SamplesOf(rs[i], treefix.PhaseCompute), experiments.SamplesOf(rs[i-1], treefix.PhaseCompute)); sign {
			case experiments.NoSamples:
				return c.NoMetric("phase compute", cudaVectorial+" on "+treeName(rs[i].Params))
			case -1:
				bad = append(bad, fmt.Sprintf("%s faster than the smaller %s (%s)", treeName(rs[i].Params), rs[i-1].Params.Get("tree"), note))
			}
		}
	}
	if compared == 0 {
		return treefixNotRun(c, cells, cudaVectorial)
	}
	c.Ours = fmt.Sprintf("%d of %d steps to a larger tree take longer or the same", compared-len(bad), compared)
	if len(bad) > 0 {
		c.Ours += "; " + experiments.FirstOf(bad, 2)
	}
	c.Verdict = experiments.Holds(len(bad) == 0)
	return c
}

// treefixCage15Claim: the parallel implementation processes cage15 faster
// than the smaller nlpkkt120 (Fig. 4a: 12 ms and 21 ms).
func treefixCage15Claim(run []bench.Record) experiments.Claim {
	const exp = "treefix/fig4"
	own := experiments.OfExperiment(run, exp)
	c := experiments.Claim{ID: exp + "#cage15-faster", Where: "section IV-A, Fig. 4a",
		Text: "The parallel implementation processes cage15 faster than the smaller nlpkkt120, whose vertices spread over more levels: ours is cuda/parallel's computation time on the two, same numbering. Reproduced when cage15's is the shorter by the samples' test."}
	find := func(tree, nb string) *bench.Record {
		for i := range own {
			r := &own[i]
			if r.Impl == cudaParallel && r.Params.Get("tree") == tree && r.Params.Get("numbering") == nb {
				return r
			}
		}
		return nil
	}
	var cells []experiments.ClaimCell
	for _, nb := range []string{"file", string(trees.BreadthFirst), string(trees.RandomOrder), string(trees.DepthFirst)} {
		cage, kkt := find("cage15", nb), find("nlpkkt120", nb)
		if cage == nil && kkt == nil {
			continue
		}
		cells = append(cells, experiments.ClaimCell{Rec: kkt, Impl: cudaParallel, Params: nil}, experiments.ClaimCell{Rec: cage, Impl: cudaParallel, Params: nil})
		if !experiments.OKRecord(cage) || !experiments.OKRecord(kkt) {
			continue
		}
		sign, note := experiments.CompareWithin(c.ID, experiments.SamplesOf(cage, treefix.PhaseCompute), experiments.SamplesOf(kkt, treefix.PhaseCompute))
		c.Ours = fmt.Sprintf("cage15 %s, nlpkkt120 %s (%s numbering; cage15 / nlpkkt120 %s; %s)", experiments.MsText(cage, treefix.PhaseCompute), experiments.MsText(kkt, treefix.PhaseCompute), nb,
			experiments.Ratio(experiments.PhaseMS(cage, treefix.PhaseCompute), experiments.PhaseMS(kkt, treefix.PhaseCompute)), note)
		c.Verdict = experiments.BySamples(sign, -1)
		// ours: cage15 / nlpkkt120, below the margin when cage15 is faster
		c = c.WithFigure(experiments.PhaseMS(cage, treefix.PhaseCompute)/experiments.PhaseMS(kkt, treefix.PhaseCompute),
			experiments.MarginBand(c.ID, experiments.Reproduced, experiments.Inconclusive, experiments.NotReproduced))
		if cage.Params.Get("source") == srcStandIn || kkt.Params.Get("source") == srcStandIn {
			c.Class = experiments.NotComparable
			c.Reason = "on stand-in trees of ours (Table I's vertices and depths, not the SuiteSparse spanning trees: SEMIBENCH_MTX_DIR)"
		}
		return c
	}
	return treefixNotRun(c, cells, cudaParallel)
}

// treefixLargestPair is the pair of the largest tree among pairs (the
// first numbering found at that size).
func treefixLargestPair(pairs []treefixPair) (treefixPair, bool) {
	best, ok := treefixPair{}, false
	for _, x := range pairs {
		if !ok || experiments.IntOf(x.p, "n") > experiments.IntOf(best.p, "n") {
			best, ok = x, true
		}
	}
	return best, ok
}

// treefixTransfersClaim: the two GPU programs spend almost the same time on
// transfers, on the largest Table I tree.
func treefixTransfersClaim(run []bench.Record) experiments.Claim {
	c := experiments.Claim{ID: "treefix/fig4#transfers-same", Where: "section IV-A, Fig. 4b",
		Text: "The parallel and vectorial implementations spend almost the same time on transfers: ours is each one's host-to-device plus device-to-host time on the largest Table I tree that ran. Reproduced when within the claim's tolerance."}
	pairs, cells := treefixPairs(run, "treefix/fig4")
	x, ok := treefixLargestPair(pairs)
	if !ok {
		return treefixNotRun(c, cells, cudaParallel)
	}
	move := func(r *bench.Record) float64 {
		return experiments.PhaseMS(r, treefix.PhaseH2D) + experiments.PhaseMS(r, treefix.PhaseD2H)
	}
	a, b := move(x.par), move(x.vec)
	if math.IsNaN(a) || math.IsNaN(b) {
		return c.NoMetric("phases h2d and d2h", "the GPU programs on "+treeName(x.p))
	}
	c.Ours = fmt.Sprintf("parallel %s ms, vectorial %s ms on %s (%s; tolerance %s)", report.FormatMS(a), report.FormatMS(b), treeName(x.p), experiments.Ratio(a, b), experiments.ClaimTolerance(c.ID).Text)
	c.Verdict = experiments.Holds(experiments.WithinFactor(c.ID, a, b))
	return c.WithFigure(a/b, experiments.MarginBand(c.ID, experiments.NotReproduced, experiments.Reproduced, experiments.NotReproduced))
}

// treefixIntegerClaim: on integer data (ours: weights in {-1, 0, 1}, every
// partial sum exact in float32) every implementation returns the exact
// result.
func treefixIntegerClaim(run []bench.Record) experiments.Claim {
	c := experiments.Claim{ID: "treefix/fig4#integer-exact", Where: "section IV-B",
		Text: "On integer data the parallel and vectorial implementations return the same result: ours is every timed cell of Figs. 4 and 7 (integer weights, exact in float32) checked equal to the exact reference. Reproduced when every cell that ran passes."}
	ok := 0
	var failed []string
	var cells []experiments.ClaimCell
	for _, exp := range []string{"treefix/fig4", "treefix/fig7"} {
		own := experiments.OfExperiment(run, exp)
		for i := range own {
			r := &own[i]
			if r.Impl != cudaParallel && r.Impl != cudaVectorial && r.Impl != cpuParallel && r.Impl != cpuVectorial {
				continue
			}
			cells = append(cells, experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params})
			switch r.Status {
			case bench.StatusOK:
				ok++
			case bench.StatusCheckFailed:
				failed = append(failed, r.Impl+" on "+treeName(r.Params))
			}
		}
	}
	switch {
	case len(failed) > 0:
		c.Verdict, c.Ours = experiments.NotReproduced, fmt.Sprintf("%d cells differ from the exact result: %s", len(failed), experiments.FirstOf(failed, 3))
	case ok == 0:
		return treefixNotRun(c, cells, cudaVectorial)
	default:
		c.Verdict, c.Ours = experiments.Reproduced, fmt.Sprintf("%d cells, each exact", ok)
	}
	return c
}

// treefixSixtyClaim: counting computation only, the vectorial GPU
// implementation is more than 60 times faster than the sequential CPU one
// on the largest trees (Fig. 5).
func treefixSixtyClaim(run []bench.Record) experiments.Claim {
	const exp = "treefix/fig5"
	paper := experiments.PaperValue(exp + "#vectorial-60x")
	c := experiments.Claim{ID: exp + "#vectorial-60x", Where: "section IV-A, Fig. 5",
		Text: fmt.Sprintf("Counting computation only, the vectorial implementation is more than %gx faster than the sequential one on the largest trees: ours is cpu/sequential / cuda/vectorial by computation time on the largest Table I tree where both ran. ", paper) + experiments.RatioRule(experiments.HigherBetter)}
	var best *bench.Record
	var seqOf *bench.Record
	var cells []experiments.ClaimCell
	for _, src := range []string{"treefix/fig5", "treefix/fig4"} {
		own := experiments.OfExperiment(run, src)
		rc := experiments.IndexRecords(own)
		for i := range own {
			r := &own[i]
			if r.Impl != cudaVectorial {
				continue
			}
			seq := experiments.CellOf(rc, src, cpuSequential, r.Params)
			cells = append(cells, seq, experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params})
			if experiments.OKCells(seq, experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params}) && (best == nil || experiments.IntOf(r.Params, "n") > experiments.IntOf(best.Params, "n")) {
				best, seqOf = r, seq.Rec
			}
		}
		if best != nil {
			break
		}
	}
	if best == nil {
		return treefixNotRun(c, cells, cpuSequential)
	}
	ours := experiments.PhaseMS(seqOf, treefix.PhaseCompute) / experiments.PhaseMS(best, treefix.PhaseCompute)
	c, band := c.JudgeRatio(paper, ours, experiments.HigherBetter, experiments.UnitRatio)
	c.Ours = fmt.Sprintf("%s on %s, %s", report.FormatRatio(ours), treeName(best.Params), band)
	return c
}

// treefixShapeRecord is impl's record of the shape at size n in fig7.
func treefixShapeRecord(own []bench.Record, impl, shape string, n int) *bench.Record {
	for i := range own {
		r := &own[i]
		if r.Impl == impl && r.Params.Get("tree") == shape && experiments.IntOf(r.Params, "n") == n {
			return r
		}
	}
	return nil
}

// treefixFig7MoreClaims: on the caterpillar the parallel implementation is
// slower than the sequential one; the vectorial one hardly depends on the
// topology (star against caterpillar).
func treefixFig7MoreClaims(run []bench.Record) []experiments.Claim {
	const exp = "treefix/fig7"
	own := experiments.OfExperiment(run, exp)
	slow := experiments.Claim{ID: exp + "#parallel-slow-caterpillar", Where: "section IV-A, Fig. 7",
		Text: "On the caterpillar the parallel implementation is slower than the sequential one: ours is cuda/parallel against cpu/sequential by computation time on the largest caterpillar where both ran. Reproduced when slower by the samples' test."}
	flat := experiments.Claim{ID: exp + "#vectorial-insensitive", Where: "section IV-A, section V",
		Text: "The vectorial implementation's time hardly depends on the tree's topology: ours is cuda/vectorial's computation time on the star and on the caterpillar of the largest size where both ran. Reproduced when within the claim's tolerance."}
	var ns []int
	for _, r := range own {
		if n := experiments.IntOf(r.Params, "n"); n > 0 && !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	top := 1 << 24
	if len(ns) > 0 {
		top = ns[len(ns)-1]
	}
	cell := func(impl, shape string, n int) experiments.ClaimCell {
		return experiments.ClaimCell{Rec: treefixShapeRecord(own, impl, shape, n), Impl: impl, Params: bench.Params{{Name: "tree", Value: shape}, {Name: "n", Value: strconv.Itoa(n)}}}
	}
	slowDone, flatDone := false, false
	for i := len(ns) - 1; i >= 0; i-- {
		n := ns[i]
		par, seq := cell(cudaParallel, "caterpillar", n), cell(cpuSequential, "caterpillar", n)
		if !slowDone && experiments.OKCells(par, seq) {
			sign, note := experiments.CompareWithin(slow.ID, experiments.SamplesOf(seq.Rec, treefix.PhaseCompute), experiments.SamplesOf(par.Rec, treefix.PhaseCompute))
			slow.Ours = fmt.Sprintf("parallel %s, sequential %s at n = %d (%s)", experiments.MsText(par.Rec, treefix.PhaseCompute), experiments.MsText(seq.Rec, treefix.PhaseCompute), n, note)
			slow.Verdict, slowDone = experiments.BySamples(sign, -1), true
			// ours: parallel / sequential, above the margin when the sequential is faster
			slow = slow.WithFigure(experiments.PhaseMS(par.Rec, treefix.PhaseCompute)/experiments.PhaseMS(seq.Rec, treefix.PhaseCompute),
				experiments.MarginBand(slow.ID, experiments.NotReproduced, experiments.Inconclusive, experiments.Reproduced))
		}
		star, cat := cell(cudaVectorial, "star", n), cell(cudaVectorial, "caterpillar", n)
		if !flatDone && experiments.OKCells(star, cat) {
			a, b := experiments.PhaseMS(star.Rec, treefix.PhaseCompute), experiments.PhaseMS(cat.Rec, treefix.PhaseCompute)
			if math.IsNaN(a) || math.IsNaN(b) {
				flat, flatDone = flat.NoMetric("phase compute", fmt.Sprintf("cuda/vectorial on the star or the caterpillar at n = %d", n)), true
				continue
			}
			flat.Ours = fmt.Sprintf("star %s ms, caterpillar %s ms at n = %d (%s; tolerance %s)", report.FormatMS(a), report.FormatMS(b), n, experiments.Ratio(b, a), experiments.ClaimTolerance(flat.ID).Text)
			flat.Verdict, flatDone = experiments.Holds(experiments.WithinFactor(flat.ID, a, b)), true
			flat = flat.WithFigure(b/a, experiments.MarginBand(flat.ID, experiments.NotReproduced, experiments.Reproduced, experiments.NotReproduced))
		}
	}
	if !slowDone {
		slow = slow.NotRunFor(cell(cudaParallel, "caterpillar", top), cell(cpuSequential, "caterpillar", top))
	}
	if !flatDone {
		flat = flat.NotRunFor(cell(cudaVectorial, "star", top), cell(cudaVectorial, "caterpillar", top))
	}
	return []experiments.Claim{slow, flat}
}

// treefixLessAccurateClaim: on floating-point data the vectorial
// implementation errs more than the parallel one.
func treefixLessAccurateClaim(run []bench.Record) experiments.Claim {
	const exp = "treefix/accuracy"
	own := experiments.OfExperiment(run, exp)
	c := experiments.Claim{ID: exp + "#vectorial-less-accurate", Where: "section IV-B, section V",
		Text: "The vectorial implementation is less accurate than the parallel one on floating-point data: ours compares their relative errors against the exact sum on every chain, Rootfix and Leaffix, CPU and GPU. Reproduced when the vectorial one errs more in most of the comparisons where the two differ."}
	more, less := 0, 0
	for _, op := range []string{"rootfix", "leaffix"} {
		for _, r := range accuracyRows(own, op) {
			for _, pair := range [][2]string{{cpuVectorial, cpuParallel}, {cudaVectorial, cudaParallel}} {
				v, okv := r.errs[pair[0]]
				p, okp := r.errs[pair[1]]
				switch {
				case !okv || !okp || v == p:
				case v > p:
					more++
				default:
					less++
				}
			}
		}
	}
	if more+less == 0 {
		var cells []experiments.ClaimCell
		for i := range own {
			cells = append(cells, experiments.ClaimCell{Rec: &own[i], Impl: own[i].Impl, Params: own[i].Params})
		}
		return treefixNotRun(c, cells, cpuVectorial)
	}
	c.Ours = fmt.Sprintf("the vectorial errs more in %d and less in %d of %d comparisons", more, less, more+less)
	c.Verdict = experiments.Holds(more > less)
	return c
}

// treefixTable1Claim: the trees' vertices and depths are Table I's: a
// test of the SuiteSparse spanning trees; on our stand-ins, built with
// those numbers, by construction.
func treefixTable1Claim(run []bench.Record) experiments.Claim {
	const exp = "treefix/table1"
	own := experiments.OfExperiment(run, exp)
	c := experiments.Claim{ID: exp + "#trees", Where: "Table I",
		Text: "The ten benchmark spanning trees have Table I's vertices and depths: ours is each tree's vertex count and breadth-first depth. Reproduced when every tree equals Table I's."}
	seen := map[string]bool{}
	var bad, stand []string
	var cells []experiments.ClaimCell
	for i := range own {
		r := &own[i]
		name := r.Params.Get("tree")
		cells = append(cells, experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params})
		if seen[name] || !experiments.OKRecord(r) {
			continue
		}
		var row *trees.Table1Tree
		for j := range trees.Table1 {
			if trees.Table1[j].Name == name {
				row = &trees.Table1[j]
			}
		}
		if row == nil {
			continue
		}
		if key := experiments.MissingMetric(r, "n", "depth"); key != "" {
			return c.NoMetric(key, r.Impl+" on "+name)
		}
		seen[name] = true
		if r.Params.Get("source") == srcStandIn {
			stand = append(stand, name)
		}
		if int(r.Metrics["n"]) != row.N || int(r.Metrics["depth"]) != row.Depth {
			bad = append(bad, fmt.Sprintf("%s: %s vertices, depth %g (Table I: %s, %d)", name, experiments.FormatCount(r.Metrics["n"]), r.Metrics["depth"], experiments.FormatCount(float64(row.N)), row.Depth))
		}
	}
	if len(seen) == 0 {
		return treefixNotRun(c, cells, cpuBuild)
	}
	c.Ours = fmt.Sprintf("%d of %d trees equal Table I's", len(seen)-len(bad), len(seen))
	if len(bad) > 0 {
		c.Ours += "; " + experiments.FirstOf(bad, 3)
	}
	c.Verdict = experiments.Holds(len(bad) == 0)
	if len(stand) > 0 {
		c.Class = experiments.ByConstruction
		c.Reason = fmt.Sprintf("%d stand-in trees, generated with Table I's vertices and depths; the SuiteSparse spanning trees (SEMIBENCH_MTX_DIR) test it", len(stand))
	}
	return c
}
