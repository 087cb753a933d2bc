package treefix

import (
	"strconv"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
	"github.com/semibench/semibench/generators/trees"
)

// Every testable claim of the paper is held to a record set on which its
// rule holds and one on which it fails (ruleCases, keyed by claim ID): a
// rule that cannot fail is no rule.

var (
	mk     = experimentstest.Mk
	failed = experimentstest.Failed
	timed  = experimentstest.Timed
	phases = experimentstest.Phases
	with   = experimentstest.With
)

type ruleCase = experimentstest.RuleCase

// ruleCases holds every testable claim of the paper to its rule, keyed
// by claim ID; CheckRules keeps it complete.
func ruleCases() map[string]ruleCase {
	const t4, t6, t7, acc = "treefix/fig4", "treefix/fig6", "treefix/fig7", "treefix/accuracy"
	pair := func(exp string, p bench.Params, par, vec float64) []bench.Record {
		return []bench.Record{timed(mk(exp, "cuda/parallel", p, phases("total", par+1, "h2d", 10, "d2h", 1), nil), "compute", par),
			timed(mk(exp, "cuda/vectorial", p, phases("total", vec+1, "h2d", 10, "d2h", 1), nil), "compute", vec)}
	}
	big := tp("nlpkkt200", srcSuiteSparse, 16240000, "file")
	accRec := func(impl string, chain int, err float64) bench.Record {
		r := mk(acc, impl, bench.Params{{Name: "chain", Value: strconv.Itoa(chain)}, {Name: "cond", Value: "1.00e+05"}, {Name: "op", Value: "rootfix"}}, phases("total", 1), map[string]float64{"cond": 1e5})
		r.Check.MaxErr = err
		return r
	}
	accuracy := func(vec float64) []bench.Record {
		return []bench.Record{accRec("cpu/vectorial", 0, vec), accRec("cpu/parallel", 0, 1e-6), accRec("cpu/vectorial", 1, vec), accRec("cpu/parallel", 1, 1e-6)}
	}
	shape := func(impl, shape string, n int, compute float64) bench.Record {
		return timed(mk(t7, impl, tp(shape, srcSynthetic, n, string(trees.BreadthFirst)), phases("total", compute), nil), "compute", compute)
	}
	fig7 := func(tree string, ratio float64) []bench.Record {
		return []bench.Record{shape("cuda/parallel", tree, 1<<24, 10*ratio), shape("cuda/vectorial", tree, 1<<24, 10)}
	}
	levels := func(tree string, mt map[string]float64) bench.Record {
		return mk(t6, cpuLevels, bench.Params{{Name: "tree", Value: tree}}, phases("total", 1), mt)
	}
	starProfile := map[string]float64{"levels": 2, "n": 100, "max_width": 99, ProfileKey(0): 1, ProfileKey(1): 99}
	catProfile := map[string]float64{"levels": 100, "n": 100, "max_width": 1, ProfileKey(0): 1, ProfileKey(99): 1}
	grows := func(second float64) []bench.Record {
		return []bench.Record{timed(mk(t4, "cuda/vectorial", tp("a", srcStandIn, 100, string(trees.BreadthFirst)), nil, nil), "compute", 1),
			timed(mk(t4, "cuda/vectorial", tp("b", srcStandIn, 200, string(trees.BreadthFirst)), nil, nil), "compute", second)}
	}
	cage := func(cage, kkt float64) []bench.Record {
		return []bench.Record{timed(mk(t4, "cuda/parallel", tp("cage15", srcSuiteSparse, 5154859, "file"), nil, nil), "compute", cage),
			timed(mk(t4, "cuda/parallel", tp("nlpkkt120", srcSuiteSparse, 3542400, "file"), nil, nil), "compute", kkt)}
	}
	table1Tree := func(depth float64) []bench.Record {
		return []bench.Record{mk("treefix/table1", cpuBuild, tp("af_shell9", srcSuiteSparse, 504855, "file"), phases("total", 1), map[string]float64{"n": 504855, "depth": depth})}
	}

	return map[string]ruleCase{
		"treefix/fig4#vectorial-faster": {Hold: pair(t4, big, 10, 1), Fail: pair(t4, big, 1, 10)},
		"treefix/fig4#vectorial-grows":  {Hold: grows(2), Fail: grows(0.5)},
		"treefix/fig4#cage15-faster":    {Hold: cage(12, 21), Fail: cage(21, 12)},
		"treefix/fig4#transfers-same": {Hold: pair(t4, big, 10, 1),
			Fail: []bench.Record{pair(t4, big, 10, 1)[0], mk(t4, "cuda/vectorial", big, phases("compute", 1, "total", 2, "h2d", 30, "d2h", 1), nil)}},
		"treefix/fig4#integer-exact": {Hold: pair(t4, big, 10, 1), Fail: []bench.Record{pair(t4, big, 10, 1)[0], failed(pair(t4, big, 10, 1)[1])}},
		"treefix/fig5#vectorial-60x": {
			Hold: []bench.Record{mk(t4, "cpu/sequential", big, phases("compute", 600), nil), mk(t4, "cuda/vectorial", big, phases("compute", 10), nil)},
			Fail: []bench.Record{mk(t4, "cpu/sequential", big, phases("compute", 100), nil), mk(t4, "cuda/vectorial", big, phases("compute", 10), nil)}},
		"treefix/fig6#cage15-fewer-levels": {
			Hold: []bench.Record{levels("cage15", map[string]float64{"levels": 81, "levels_90pct": 58}), levels("nlpkkt120", map[string]float64{"levels": 123, "levels_90pct": 87})},
			Fail: []bench.Record{levels("cage15", map[string]float64{"levels": 130, "levels_90pct": 58}), levels("nlpkkt120", map[string]float64{"levels": 123, "levels_90pct": 87})}},
		"treefix/fig6#star-profile":        {Hold: []bench.Record{levels("star", starProfile)}, Fail: []bench.Record{levels("star", with(with(starProfile, ProfileKey(1), 98), "levels", 3))}},
		"treefix/fig6#caterpillar-profile": {Hold: []bench.Record{levels("caterpillar", catProfile)}, Fail: []bench.Record{levels("caterpillar", with(catProfile, "max_width", 2))}},
		"treefix/fig7#star":                {Hold: fig7("star", 6), Fail: fig7("star", 1.5)},
		"treefix/fig7#caterpillar":         {Hold: fig7("caterpillar", 3000), Fail: fig7("caterpillar", 100)},
		"treefix/fig7#parallel-slow-caterpillar": {Hold: []bench.Record{shape("cuda/parallel", "caterpillar", 1<<24, 100), shape("cpu/sequential", "caterpillar", 1<<24, 10)},
			Fail: []bench.Record{shape("cuda/parallel", "caterpillar", 1<<24, 1), shape("cpu/sequential", "caterpillar", 1<<24, 10)}},
		"treefix/fig7#vectorial-insensitive": {Hold: []bench.Record{shape("cuda/vectorial", "star", 1<<24, 1), shape("cuda/vectorial", "caterpillar", 1<<24, 1.2)},
			Fail: []bench.Record{shape("cuda/vectorial", "star", 1<<24, 1), shape("cuda/vectorial", "caterpillar", 1<<24, 10)}},
		"treefix/accuracy#2-bits":                  {Hold: accuracy(4e-6), Fail: accuracy(1e-4)},
		"treefix/accuracy#vectorial-less-accurate": {Hold: accuracy(1e-5), Fail: accuracy(1e-7)},
		"treefix/table1#trees":                     {Hold: table1Tree(490), Fail: table1Tree(491)},
	}
}

// TestClaimRules holds every rule of the paper to its cases
// (experimentstest.CheckRules).
func TestClaimRules(t *testing.T) { experimentstest.CheckRules(t, Paper.File, ruleCases()) }

func tp(tree, src string, n int, nb string) bench.Params {
	return bench.Params{{Name: "tree", Value: tree}, {Name: "source", Value: src}, {Name: "n", Value: strconv.Itoa(n)}, {Name: "numbering", Value: nb}}
}

// TestStandInsNotComparable: stand-in trees make cage15 against nlpkkt120
// not comparable.
func TestStandInsNotComparable(t *testing.T) {
	stand := []bench.Record{mk("treefix/fig4", "cuda/parallel", tp("cage15", srcStandIn, 5154859, string(trees.BreadthFirst)), phases("compute", 12), nil),
		mk("treefix/fig4", "cuda/parallel", tp("nlpkkt120", srcStandIn, 3542400, string(trees.BreadthFirst)), phases("compute", 21), nil)}
	if got := treefixCage15Claim(stand); got.Class != experiments.NotComparable {
		t.Errorf("cage15 on stand-ins: class %q, want not comparable", got.Class)
	}
}
