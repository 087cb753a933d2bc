package experiments

import (
	"context"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestTreefixQuick runs every treefix experiment at quick scale once per
// implementation, requires every check to pass, and renders the tables and
// plots.
func TestTreefixQuick(t *testing.T) {
	var run []bench.Record
	names := []string{"treefix/table1", "treefix/fig4", "treefix/fig5", "treefix/fig6", "treefix/fig7", "treefix/accuracy"}
	for _, name := range names {
		exps, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		run = append(run, runCases(t, name, exps[0].Cases(Quick, Options{Threads: 2}))...)
	}
	for _, name := range names {
		exps, _ := Lookup(name)
		e := exps[0]
		tables := e.Tables(run)
		if len(tables) == 0 || len(tables[0].Rows) == 0 {
			t.Errorf("%s: no table rows", name)
		}
		for _, tb := range tables {
			for _, n := range tb.Notes {
				if strings.Contains(n, "CHECK FAILED") {
					t.Errorf("%s: %s", name, n)
				}
			}
			if testing.Verbose() {
				var sb strings.Builder
				tb.Render(&sb, bench.FormatText)
				t.Log("\n" + sb.String())
			}
		}
		if e.Plots != nil {
			for _, p := range e.Plots(run) {
				if len(p.Series) == 0 {
					t.Errorf("%s: plot %s has no series", name, p.Name)
				}
			}
		}
	}
}

// TestTreefixFig6 checks the level profiles at quick scale: every stand-in
// has its Table I depth, the claims are reproduced, a profile that lost a
// vertex fails the check, and the plot has a series per tree.
func TestTreefixFig6(t *testing.T) {
	exps, err := Lookup("treefix/fig6")
	if err != nil {
		t.Fatal(err)
	}
	cases := exps[0].Cases(Quick, Options{})
	if len(cases) != 12 {
		t.Fatalf("%d cases, want the 10 Table I trees, the star and the caterpillar", len(cases))
	}
	run := runCases(t, "treefix/fig6", cases)
	for _, c := range exps[0].Claims(run) {
		if c.Verdict != Reproduced {
			t.Errorf("claim %s: %s (%s)", c.Where, c.Verdict, c.Ours)
		}
	}
	inst, err := cases[0].Setup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out, err := inst.Run(context.Background(), cpuLevels, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := out.([]int)
	if chk := inst.Check(cpuLevels, w); !chk.OK {
		t.Fatalf("correct profile fails: %s", chk.Detail)
	}
	w[len(w)/2]--
	if chk := inst.Check(cpuLevels, w); chk.OK {
		t.Error("a profile missing a vertex passes the check")
	}
	plots := exps[0].Plots(run)
	if len(plots) != 2 || len(plots[0].Series) != 10 || len(plots[1].Series) != 2 {
		t.Errorf("plots: %d, want the Table I trees' (10 series) and the shapes' (2)", len(plots))
	}
	if got := profileSummary([]float64{0, 1, 2, 3, 4}, []float64{1, 5, 9, 5, 2}); got != "1 · 5 · 9 · 5 · 2" {
		t.Errorf("profileSummary = %q", got)
	}
}
