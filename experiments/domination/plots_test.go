package domination

import (
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments/experimentstest"

	"github.com/semibench/semibench/bench"
)

// TestDominationPlots: Tables 2 and 5 against m, log y, the paper's times
// (hollow) beside ours, each of our versions in its paper version's colour.
func TestDominationPlots(t *testing.T) {
	run := []bench.Record{
		domRec("domination/table2", "cpu/sparse", 8, bench.TotalPhase, 900),
		domRec("domination/table2", "cpu/sparse", 7, bench.TotalPhase, 300),
		domRec("domination/table5", domV1, 7, bench.TotalPhase, 16000),
		domRec("domination/table5", domV2, 7, bench.TotalPhase, 700),
	}
	t2, t5 := dominationTable2Plots(run), dominationTable5Plots(run)
	if len(t2) != 1 || len(t5) != 1 {
		t.Fatalf("plots: %d and %d", len(t2), len(t5))
	}
	for _, p := range []report.Plot{t2[0], t5[0]} {
		if !p.LogY || p.LogX || !strings.Contains(p.XLabel, "m") {
			t.Errorf("%s: axes log y %v log x %v, x label %q", p.Name, p.LogY, p.LogX, p.XLabel)
		}
		var paper, ours int
		for _, s := range p.Series {
			if s.Paper {
				paper++
			} else {
				ours++
			}
			if !slices.IsSorted(s.X) {
				t.Errorf("%s: series %q x %v not in order", p.Name, s.Name, s.X)
			}
		}
		if paper < 3 || ours < 1 {
			t.Errorf("%s: %d paper series, %d of ours: %q", p.Name, paper, ours, experimentstest.SeriesNames(p))
		}
		if r := p.RepeatedLook(); r != "" {
			t.Errorf("%s: %s", p.Name, r)
		}
		if _, err := p.Save(t.TempDir()); err != nil {
			t.Error(err)
		}
	}
	looks := t5[0].Looks()
	color := map[string]report.Look{}
	for i, s := range t5[0].Series {
		color[s.Name] = looks[i]
	}
	if color["paper V1 sequential"].Color != color[domV1+" (V1)"].Color {
		t.Errorf("our V1 and the paper's differ in colour: %q", experimentstest.SeriesNames(t5[0]))
	}
}
