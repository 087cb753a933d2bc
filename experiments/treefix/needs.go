package treefix

import (
	"slices"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/trees"
)

// The cells the claims of Treefix (004) read, per scale (Experiment.Needs).

func treefixFig6Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "treefix/fig6"
	tree := func(names ...string) []experiments.CellRef {
		return experiments.CaseCells(exp, s, o, []string{cpuLevels}, func(p bench.Params) bool { return slices.Contains(names, p.Get("tree")) })
	}
	return []experiments.Need{
		experiments.ByScale(exp+"#cage15-fewer-levels", s, tree("cage15", "nlpkkt120"), nil),
		experiments.ByScale(exp+"#star-profile", s, tree("star"), nil),
		experiments.ByScale(exp+"#caterpillar-profile", s, tree("caterpillar"), nil),
	}
}

func treefixFig7Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "treefix/fig7"
	impls := []string{cudaParallel, cudaVectorial}
	var out []experiments.Need
	for _, shape := range []string{"star", "caterpillar"} {
		largest := -1
		for _, c := range experiments.ByName(exp).Cases(s, o) {
			if c.Params.Get("tree") == shape {
				largest = max(largest, experiments.IntOf(c.Params, "n"))
			}
		}
		at := func(n int) []experiments.CellRef {
			return experiments.CaseCells(exp, s, o, impls, func(p bench.Params) bool { return p.Get("tree") == shape && experiments.IntOf(p, "n") == n })
		}
		var paper []experiments.CellRef
		if largest == 1<<24 {
			paper = at(1 << 24)
		}
		out = append(out, experiments.ByScale(exp+"#"+shape, s, paper, at(max(largest/16, 1))))
	}
	return append(out, treefixFig7MoreNeeds(s, o)...)
}

// treefixFig7At lists fig7's cells of impls on the shapes at size n (the
// paper's 2^24 at paper scale, else the largest of the scale).
func treefixFig7At(s experiments.Scale, o experiments.Options, impls []string, n int, shapes ...string) []experiments.CellRef {
	return experiments.CaseCells("treefix/fig7", s, o, impls, func(p bench.Params) bool {
		return slices.Contains(shapes, p.Get("tree")) && experiments.IntOf(p, "n") == n
	})
}

func treefixFig7MoreNeeds(s experiments.Scale, o experiments.Options) []experiments.Need {
	sizes := fig7Sizes(s)
	top := sizes[len(sizes)-1]
	less := sizes[max(len(sizes)-5, 0)] // 1/16 of the largest at paper scale
	slow := []string{cudaParallel, cpuSequential}
	vec := []string{cudaVectorial}
	return []experiments.Need{
		experiments.ByScale("treefix/fig7#parallel-slow-caterpillar", s, treefixFig7At(s, o, slow, top, "caterpillar"), treefixFig7At(s, o, slow, less, "caterpillar")),
		experiments.ByScale("treefix/fig7#vectorial-insensitive", s, treefixFig7At(s, o, vec, top, "star", "caterpillar"), treefixFig7At(s, o, vec, less, "star", "caterpillar")),
	}
}

func treefixFig4Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "treefix/fig4"
	gpu := []string{cudaParallel, cudaVectorial}
	all := experiments.CaseCells(exp, s, o, gpu, nil)
	sizes := fig7Sizes(s)
	extremes := treefixFig7At(s, o, gpu, sizes[len(sizes)-1], "star", "caterpillar")
	tree := func(impls []string, names ...string) []experiments.CellRef {
		return experiments.CaseCells(exp, s, o, impls, func(p bench.Params) bool { return slices.Contains(names, p.Get("tree")) })
	}
	largest := trees.Table1[len(trees.Table1)-1].Name
	return []experiments.Need{
		experiments.ByScale(exp+"#vectorial-faster", s, append(slices.Clone(all), extremes...), nil),
		experiments.ByScale(exp+"#vectorial-grows", s, experiments.CaseCells(exp, s, o, gpu[1:], nil), nil),
		experiments.ByScale(exp+"#cage15-faster", s, tree(gpu[:1], "cage15", "nlpkkt120"), nil),
		experiments.ByScale(exp+"#transfers-same", s, tree(gpu, largest), nil),
		experiments.ByScale(exp+"#integer-exact", s, all, nil),
	}
}

func treefixFig5Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "treefix/fig5"
	largest := trees.Table1[len(trees.Table1)-1].Name
	c := experiments.CaseCells(exp, s, o, []string{cpuSequential, cudaVectorial}, func(p bench.Params) bool { return p.Get("tree") == largest })
	return []experiments.Need{experiments.ByScale(exp+"#vectorial-60x", s, c, nil)}
}

func treefixTable1Needs(s experiments.Scale, o experiments.Options) []experiments.Need {
	const exp = "treefix/table1"
	return []experiments.Need{experiments.ByScale(exp+"#trees", s, experiments.CaseCells(exp, s, o, []string{cpuBuild}, nil), nil)}
}

func treefixAccuracyNeeds(s experiments.Scale, o experiments.Options) []experiments.Need {
	impls := []string{cpuVectorial, cpuParallel, cudaVectorial, cudaParallel}
	all := experiments.CaseCells("treefix/accuracy", s, o, impls, nil)
	return []experiments.Need{experiments.ByScale("treefix/accuracy#2-bits", s, all, nil), experiments.ByScale("treefix/accuracy#vectorial-less-accurate", s, all, nil)}
}
