package treefix

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/trees"
)

// Fig. 6 of the treefix paper: the vertex distribution over the levels of
// the Table I trees ("Comparison of vertex distribution in the nlpkkt120
// and cage15 benchmarks"), here for every Table I tree and for the star
// and the caterpillar of Fig. 7.

// cpuLevels computes a tree's level profile on the CPU: the breadth-first
// levels of every vertex (trees.Levels) and their histogram.
const cpuLevels = "cpu/levels"

// maxProfilePoints bounds the levels a record keeps: a profile of more
// levels (the caterpillar's) is kept at every k-th level and its last.
const maxProfilePoints = 2048

// ProfileKey is the metric holding the width of level l.
func ProfileKey(l int) string { return fmt.Sprintf(profilePrefix+"%08d", l) }

// profilePrefix begins every ProfileKey.
const profilePrefix = "width_at_"

// fig6ShapeN is the size of the star and the caterpillar: Fig. 7's largest
// (2^24) at paper and large scale.
func fig6ShapeN(s experiments.Scale) int {
	if s == experiments.Quick {
		return 1 << 14
	}
	return 1 << 24
}

// levelProfile returns the number of vertices on each breadth-first level.
func levelProfile(parent []int32) ([]int, error) {
	lv, err := trees.Levels(parent)
	if err != nil {
		return nil, err
	}
	var width []int
	for _, l := range lv {
		for int(l) >= len(width) {
			width = append(width, 0)
		}
		width[l]++
	}
	return width, nil
}

// profileStats are the table's numbers of one profile.
type profileStats struct {
	levels, widest, widestAt int
	// core is the fewest levels holding 90% of the vertices.
	core int
}

func statsOf(width []int) profileStats {
	st := profileStats{levels: len(width)}
	n := 0
	for l, w := range width {
		n += w
		if w > st.widest {
			st.widest, st.widestAt = w, l
		}
	}
	sorted := slices.Clone(width)
	slices.SortFunc(sorted, func(a, b int) int { return b - a })
	need, got := (9*n+9)/10, 0
	for _, w := range sorted {
		if got >= need {
			break
		}
		got += w
		st.core++
	}
	return st
}

func fig6Cases(s experiments.Scale, opt experiments.Options) []experiments.Case {
	specs := table1Specs(s, treefixSeed(opt))
	n := fig6ShapeN(s)
	specs = append(specs, shapeSpec("star", n), shapeSpec("caterpillar", n))
	var cs []experiments.Case
	for _, spec := range specs {
		cs = append(cs, fig6Case(spec, opt))
	}
	return cs
}

// fig6WantLevels is the number of levels a tree must have: a stand-in's
// Table I depth (capped by its vertices), 2 for the star, n for the
// caterpillar; 0 when unknown (a SuiteSparse tree: its own depth).
func fig6WantLevels(spec treeSpec) int {
	switch {
	case spec.name == "star":
		return min(2, spec.n)
	case spec.name == "caterpillar":
		return spec.n
	case spec.source == srcStandIn:
		for _, row := range trees.Table1 {
			if row.Name == spec.name {
				return min(row.Depth, spec.n)
			}
		}
	}
	return 0
}

func fig6Case(spec treeSpec, opt experiments.Options) experiments.Case {
	return experiments.Case{
		Params: bench.Params{{Name: "tree", Value: spec.name}, {Name: "source", Value: spec.source}, {Name: "n", Value: strconv.Itoa(spec.n)}},
		Work:   float64(spec.n),
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			// The tree as built, shared with the run's other treefix
			// experiments (instances.go).
			raw, err := treeRaw(ctx, opt, spec)
			if err != nil {
				return nil, err
			}
			tr := raw.tr
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			width, err := levelProfile(tr.Parent)
			if err != nil {
				return nil, fmt.Errorf("tree %s: %w", spec.name, err)
			}
			st := statsOf(width)
			m := map[string]float64{"n": float64(tr.N()), "levels": float64(st.levels), "max_width": float64(st.widest),
				"widest_level": float64(st.widestAt), "levels_90pct": float64(st.core), "branching": float64(tr.N()) / float64(st.levels)}
			step := (len(width) + maxProfilePoints - 1) / maxProfilePoints
			m["profile_step"] = float64(step)
			for l := 0; l < len(width); l += step {
				m[ProfileKey(l)] = float64(width[l])
			}
			m[ProfileKey(len(width)-1)] = float64(width[len(width)-1])
			want := fig6WantLevels(spec)
			return &experiments.Instance{
				Input:   &bench.Input{Generator: "trees", Hash: raw.digest(), Description: fmt.Sprintf("%s tree %s, n=%d", spec.source, spec.name, tr.N())},
				Metrics: m,
				Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
					defer rec.Start("levels")()
					return levelProfile(tr.Parent)
				},
				Check: func(impl string, o any) bench.Check {
					const method = "profile sums to n, one root on level 0, no empty level, levels as built"
					got, _ := o.([]int)
					total := 0
					for l, w := range got {
						if w <= 0 {
							return bench.Check{Method: method, Detail: fmt.Sprintf("level %d is empty", l)}
						}
						total += w
					}
					switch {
					case len(got) == 0 || got[0] != 1:
						return bench.Check{Method: method, Detail: "level 0 does not hold the root alone"}
					case total != tr.N():
						return bench.Check{Method: method, Detail: fmt.Sprintf("profile sums to %d, want n = %d", total, tr.N())}
					case want > 0 && len(got) != want:
						return bench.Check{Method: method, Detail: fmt.Sprintf("%d levels, want %d", len(got), want)}
					case !slices.Equal(got, width):
						return bench.Check{Method: method, Detail: "differs from the setup's profile"}
					}
					return bench.Check{OK: true, Method: method}
				},
			}, nil
		},
	}
}

// fig6Profile returns the stored profile of a record: the levels kept
// and their widths.
func fig6Profile(r *bench.Record) (levels, widths []float64) {
	if r == nil {
		return nil, nil
	}
	// The record's keys, not every level: the caterpillar has 2^24 levels.
	total := int(r.Metrics["levels"])
	for _, k := range slices.Sorted(maps.Keys(r.Metrics)) { // zero-padded: in level order
		rest, ok := strings.CutPrefix(k, profilePrefix)
		if l, err := strconv.Atoi(rest); ok && err == nil && l >= 0 && l < total {
			levels, widths = append(levels, float64(l)), append(widths, r.Metrics[k])
		}
	}
	return levels, widths
}

// fig6Record returns the passing cpu/levels record of a tree.
func fig6Record(own []bench.Record, tree string) *bench.Record {
	for i := range own {
		if own[i].Impl == cpuLevels && own[i].Params.Get("tree") == tree && own[i].Status == bench.StatusOK {
			return &own[i]
		}
	}
	return nil
}

// treefixFig6Claims gives section IV-A's claims on the level profiles:
// cage15's vertices sit on fewer levels than nlpkkt120's, the star's on
// one level below the root, the caterpillar's one per level.
func treefixFig6Claims(run []bench.Record) []experiments.Claim {
	const exp = "treefix/fig6"
	own := experiments.OfExperiment(run, exp)
	cell := func(tree string) experiments.ClaimCell {
		if r := fig6Record(own, tree); r != nil {
			return experiments.ClaimCell{Rec: r, Impl: cpuLevels, Params: r.Params}
		}
		for i := range own {
			if own[i].Params.Get("tree") == tree {
				return experiments.ClaimCell{Rec: &own[i], Impl: own[i].Impl, Params: own[i].Params}
			}
		}
		return experiments.ClaimCell{Rec: nil, Impl: cpuLevels, Params: bench.Params{{Name: "tree", Value: tree}}}
	}
	var out []experiments.Claim
	cage, kkt := cell("cage15"), cell("nlpkkt120")
	c := experiments.Claim{ID: exp + "#cage15-fewer-levels", Where: "Fig. 6, section IV-A", PaperFigure: "cage15 on fewer levels than nlpkkt120 (Table I: 81 and 123 levels)",
		Text: "\"The 5.15 million vertices of the cage15 benchmark are concentrated in fewer levels than the 3.54 million of the nlpkkt120 benchmark\": ours compares their levels and the fewest levels holding 90% of their vertices. Reproduced when cage15 has fewer of both."}
	if !experiments.OKCells(cage, kkt) {
		c = c.NotRunFor(cage, kkt)
	} else if key := experiments.MissingMetric(cage.Rec, "levels", "levels_90pct") + experiments.MissingMetric(kkt.Rec, "levels", "levels_90pct"); key != "" {
		c = c.NoMetric(key, "cage15 or nlpkkt120")
	} else {
		cl, kl := cage.Rec.Metrics["levels"], kkt.Rec.Metrics["levels"]
		c90, k90 := cage.Rec.Metrics["levels_90pct"], kkt.Rec.Metrics["levels_90pct"]
		c.Ours = fmt.Sprintf("cage15 %s levels (90%% of the vertices on %s), nlpkkt120 %s (%s)", experiments.FormatCount(cl), experiments.FormatCount(c90), experiments.FormatCount(kl), experiments.FormatCount(k90))
		c.Verdict = experiments.NotReproduced
		if cl < kl && c90 < k90 {
			c.Verdict = experiments.Reproduced
		}
		if cage.Params.Get("source") == srcStandIn || kkt.Params.Get("source") == srcStandIn {
			c.Class = experiments.ByConstruction
			c.Reason = "stand-in trees generated with Table I's depths and a bell profile, so the level counts follow from Table I; the SuiteSparse trees (SEMIBENCH_MTX_DIR) test it"
		}
	}
	out = append(out, c)
	star := cell("star")
	c = experiments.Claim{ID: exp + "#star-profile", Where: "Fig. 8, section IV-A", PaperFigure: "the root, then n-1 vertices on one level",
		Text:  "In the star \"all the vertices except the root are concentrated on one single level\": ours is the star's profile. Reproduced when it is 1, n-1.",
		Class: experiments.ByConstruction} // the generator's own definition of a star
	if !experiments.OKCells(star) {
		c = c.NotRunFor(star)
	} else if key := experiments.MissingMetric(star.Rec, "levels", "n"); key != "" {
		c = c.NoMetric(key, "the star")
	} else {
		_, w := fig6Profile(star.Rec)
		n := star.Rec.Metrics["n"]
		c.Ours = fmt.Sprintf("%d levels: %v", len(w), w)
		c.Verdict = experiments.NotReproduced
		if len(w) == 2 && w[0] == 1 && w[1] == n-1 {
			c.Verdict = experiments.Reproduced
		}
	}
	out = append(out, c)
	cat := cell("caterpillar")
	c = experiments.Claim{ID: exp + "#caterpillar-profile", Where: "Fig. 8, section IV-A", PaperFigure: "n levels of one vertex",
		Text:  "In the caterpillar \"every vertex has exactly one child\" (the last none): ours is its profile. Reproduced when it has n levels, each of one vertex.",
		Class: experiments.ByConstruction} // the generator's own definition of a caterpillar
	if !experiments.OKCells(cat) {
		c = c.NotRunFor(cat)
	} else if key := experiments.MissingMetric(cat.Rec, "levels", "n", "max_width"); key != "" {
		c = c.NoMetric(key, "the caterpillar")
	} else {
		_, w := fig6Profile(cat.Rec)
		c.Ours = fmt.Sprintf("%s levels, widest %s", experiments.FormatCount(cat.Rec.Metrics["levels"]), experiments.FormatCount(cat.Rec.Metrics["max_width"]))
		c.Verdict = experiments.NotReproduced
		if cat.Rec.Metrics["levels"] == cat.Rec.Metrics["n"] && cat.Rec.Metrics["max_width"] == 1 && len(w) > 0 {
			c.Verdict = experiments.Reproduced
		}
	}
	return append(out, c)
}

// profileSummary is a profile in a few numbers: the widths at 0, 1/4, 1/2,
// 3/4 of the depth and at the last level (the nearest kept level); a
// profile of at most five levels in full.
func profileSummary(levels, widths []float64) string {
	if len(levels) == 0 {
		return "—"
	}
	var parts []string
	if len(levels) <= 5 && levels[len(levels)-1] == float64(len(levels)-1) { // every level: all of them
		for _, w := range widths {
			parts = append(parts, experiments.FormatCount(w))
		}
		return strings.Join(parts, " · ")
	}
	last := levels[len(levels)-1]
	for _, f := range []float64{0, 0.25, 0.5, 0.75, 1} {
		at := f * last
		i, _ := slices.BinarySearch(levels, at)
		if i == len(levels) || (i > 0 && at-levels[i-1] < levels[i]-at) {
			i--
		}
		parts = append(parts, experiments.FormatCount(widths[i]))
	}
	return strings.Join(parts, " · ")
}

func treefixFig6Table(run []bench.Record) []report.Table {
	const exp = "treefix/fig6"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper := treefixPaperByTree("treefix/table1")
	rc := experiments.IndexRecords(own)
	t := report.Table{
		Title: "treefix/fig6 — level profiles: vertices per breadth-first level of the Table I trees, the star and the caterpillar (paper: Fig. 6, nlpkkt120 and cage15)",
		Header: []string{"tree", "source", "n", "levels", "paper levels (Table I)", "widest level (vertices)", "at level",
			"levels holding 90%", "mean branching (n / levels)", "profile: widths at 0, ¼, ½, ¾, 1 of the depth", "profile time ms"},
	}
	standIn := false
	for _, p := range experiments.DistinctParams(own) {
		r := rc.Get(exp, cpuLevels, p)
		if p.Get("source") == srcStandIn {
			standIn = true
		}
		pl := ""
		if pr := paper[p.Get("tree")]; pr != nil {
			pl = metricText(pr, "depth", 0)
		}
		lv, w := fig6Profile(r)
		t.Rows = append(t.Rows, []string{p.Get("tree"), p.Get("source"), metricText(r, "n", 0), metricText(r, "levels", 0), pl,
			metricText(r, "max_width", 0), metricText(r, "widest_level", 0), metricText(r, "levels_90pct", 0),
			metricText(r, "branching", 2), profileSummary(lv, w), experiments.CellText(r, bench.TotalPhase)})
	}
	if standIn {
		t.Notes = append(t.Notes, "stand-in: not the paper's tree but a random tree with its vertex count and depth, levels sized by a bell profile (sin over the levels; generators/trees.Random), so its levels and mean branching are Table I's by construction and its shape within the levels is ours, not SuiteSparse's. Put the SuiteSparse matrices in the folder SEMIBENCH_MTX_DIR names for the real trees.")
	}
	t.Notes = append(t.Notes,
		"Paper (section IV-A, Fig. 6): \"The 5.15 million vertices of the cage15 benchmark are concentrated in fewer levels than the 3.54 million of the nlpkkt120 benchmark. As a consequence of this, the nlpkkt120 benchmark takes longer to process\"; the figure plots the two profiles, which survive only as a figure.",
		"levels holding 90%: the fewest levels whose vertices make 90% of n. Levels count the root's as level 0 (Table I's depth is the number of levels).")
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

// treefixFig6Plots draws the profiles: vertices per level against the
// level, log y, one series per tree; the Table I trees in one plot, the
// star and the caterpillar (whose levels run to n) in another.
func treefixFig6Plots(run []bench.Record) []report.Plot {
	const exp = "treefix/fig6"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc := experiments.IndexRecords(own)
	mk := func(name, what string, logX bool) report.Plot {
		return report.Plot{Name: name, Title: experiments.PlotTitle(what, Paper.Source+", Fig. 6"),
			XLabel: "level (root = 0)", YLabel: "vertices on the level", LogX: logX, LogY: true,
			Notes: experiments.AvailabilityNotes(own, exp, cpuLevels)}
	}
	table := mk("treefix-fig6", "Vertices per breadth-first level of the Table I trees", false)
	shapes := mk("treefix-fig6-shapes", "Vertices per level of the star and the caterpillar", true)
	stand := false
	for _, p := range experiments.DistinctParams(own) {
		r := rc.Get(exp, cpuLevels, p)
		lv, w := fig6Profile(r)
		if len(lv) == 0 {
			continue
		}
		s := report.Series{Name: p.Get("tree"), X: lv, Y: w}
		switch p.Get("tree") {
		case "star", "caterpillar":
			if p.Get("tree") == "star" {
				s.Points = true
			}
			s.X = slices.Clone(lv)
			for i := range s.X {
				s.X[i]++ // level+1 on the log axis
			}
			shapes.Series = append(shapes.Series, s)
		default:
			stand = stand || p.Get("source") == srcStandIn
			table.Series = append(table.Series, s)
		}
	}
	if stand {
		table.Notes = append(table.Notes, "stand-ins: random trees with Table I's n and depth and a bell profile, not the SuiteSparse spanning trees")
	}
	shapes.XLabel = "level + 1 (root = 1)"
	shapes.Notes = append(shapes.Notes, "the caterpillar's profile drawn at every kept level (every k-th of its n levels); the star's two levels as points")
	return experiments.PlotsWithNotes(table, shapes)
}
