package experiments_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
)

func TestBetween(t *testing.T) {
	run := func(name, commit string, fig float64, v experiments.Verdict) experiments.RunFigure {
		return experiments.RunFigure{Run: name, Commit: commit, Figure: fig, Verdict: v}
	}
	b := &experiments.Between{Claim: "kleene/table2#growth", Kind: "h100", Runs: []experiments.RunFigure{
		run("a", "c1", 8, experiments.Reproduced),
		run("b", "c2", 12, experiments.NotReproduced),
		run("c", "c3", 4.6, experiments.Indicative), // below the papers' sizes: not counted
		run("d", "c4", math.NaN(), experiments.Inconclusive),
	}}
	if b.Usable(true) {
		t.Errorf("usable on %d runs with a figure", len(b.Counted(true)))
	}
	if !b.Usable(false) {
		t.Errorf("not usable on the three runs at the papers' sizes")
	}
	sd, df, basis := b.LogSD()
	if want := math.Abs(math.Log(12.0/8)) / math.Sqrt2; math.Abs(sd-want) > 1e-12 || df != 1 || !strings.Contains(basis, "all 2 runs") {
		t.Errorf("LogSD over all runs = %g (%s), want %g", sd, basis, want)
	}
	if lo, hi := b.Range(); lo != 8 || hi != 12 {
		t.Errorf("Range = %g-%g", lo, hi)
	}
	// Two runs of one commit: their spread alone, not the commits' change.
	b = b.With(run("e", "c1", 9, experiments.Reproduced))
	sd, df, basis = b.LogSD()
	if want := math.Log(9.0/8) / math.Sqrt2; math.Abs(sd-want) > 1e-12 || df != 1 || !strings.Contains(basis, "pooled over the replicates of 1 commit") {
		t.Errorf("LogSD pooled = %g (%s), want %g", sd, basis, want)
	}
	if !b.Usable(true) || len(b.Runs) != 5 {
		t.Errorf("With: %d runs, usable %v", len(b.Runs), b.Usable(true))
	}
	if b.Runs[1].Run != "e" {
		t.Errorf("With places a run after its commit's: %+v", b.Runs)
	}
	if b = b.With(run("e", "c1", 10, experiments.Reproduced)); len(b.Runs) != 5 || b.Runs[1].Figure != 10 {
		t.Errorf("With a run of the same name replaces it: %+v", b.Runs)
	}
}

// TestBetweenStretch: a step of the figure cuts the kind's runs; the run
// judged keeps the stretch it belongs to, replicates of one commit stay
// together, and no step leaves them whole.
func TestBetweenStretch(t *testing.T) {
	b := &experiments.Between{Claim: "treefix/fig7#star"}
	for i, c := range []struct {
		commit string
		fig    float64
	}{{"c1", 2.4}, {"c2", 2.45}, {"c3", 2.38}, {"c4", 2.7}, {"c4", 2.66}} {
		b.Runs = append(b.Runs, experiments.RunFigure{Run: fmt.Sprint("r", i), Commit: c.commit, Figure: c.fig, Verdict: experiments.Reproduced})
	}
	var seen [][]float64
	steps := func(groups [][]float64) []int {
		seen = groups
		return []int{3}
	}
	late := b.Stretch("r4", steps)
	if len(seen) != 4 || len(seen[3]) != 2 {
		t.Fatalf("groups by commit: %v", seen)
	}
	if len(late.Runs) != 2 || late.Runs[0].Commit != "c4" || !strings.Contains(late.Part, "from c4 on") {
		t.Errorf("after the step: %+v (%q)", late.Runs, late.Part)
	}
	early := b.Stretch("r1", steps)
	if len(early.Runs) != 3 || !strings.Contains(early.Part, "up to c3") {
		t.Errorf("before the step: %+v (%q)", early.Runs, early.Part)
	}
	if whole := b.Stretch("r1", func([][]float64) []int { return nil }); whole != b {
		t.Error("no step: the runs whole")
	}
}

// TestHistoryDecidesAnIndicativeRun: a paper-scale run whose cells of a
// claim at the papers' sizes were skipped by its budget judged the claim
// below them only (indicative); with three or more runs of its machine
// kind that measured it there, it gets the class they give together, as
// every run of the kind does, and its reason says it was indicative
// alone. Its own figure below the papers' sizes is not counted among the
// runs', and with fewer than three such runs it stays indicative.
func TestHistoryDecidesAnIndicativeRun(t *testing.T) {
	band := experiments.ThresholdBand(10, math.Inf(1), experiments.UnitRatio)
	c := experiments.Claim{ID: "hungarian/table2#speedup-10n", Verdict: experiments.Indicative, Figure: 3, Band: band,
		Reason: "below the paper's sizes (at them: skipped by the budget)"}
	runs := []experiments.RunFigure{
		{Run: "a", Commit: "c1", Figure: 330, Verdict: experiments.Reproduced},
		{Run: "b", Commit: "c1", Figure: 360, Verdict: experiments.Reproduced},
		{Run: "c", Commit: "c1", Figure: 345, Verdict: experiments.Reproduced},
	}
	h := &experiments.History{Run: "d", Commit: "c1", Kind: "h200", Claims: map[string]*experiments.Between{
		c.ID: {Claim: c.ID, Kind: "h200", Runs: runs}}}
	got := h.Apply(c)
	if got.Verdict != experiments.Reproduced || got.Alone != experiments.Indicative || got.Level != experiments.LevelHistory ||
		!strings.Contains(got.Reason, "this run alone: indicative") {
		t.Errorf("with three runs at the papers' sizes: %s (alone %s, level %q): %s; want reproduced by history", got.Verdict, got.Alone, got.Level, got.Reason)
	}
	h.Claims[c.ID].Runs = runs[:2]
	if got := h.Apply(c); got.Verdict != experiments.Indicative {
		t.Errorf("with two runs at the papers' sizes: %s; want indicative (this run's figure below them does not count)", got.Verdict)
	}
	c.Verdict = experiments.NotRun
	h.Claims[c.ID].Runs = runs
	if got := h.Apply(c); got.Verdict != experiments.NotRun {
		t.Errorf("a claim not run: %s; history does not run it", got.Verdict)
	}
}
