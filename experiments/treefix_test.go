package experiments

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestTreefixQuick runs every treefix experiment at quick scale once per
// implementation, requires every check to pass, and renders the tables and
// plots.
func TestTreefixQuick(t *testing.T) {
	var run []bench.Record
	names := []string{"treefix/table1", "treefix/fig4", "treefix/fig5", "treefix/fig7", "treefix/accuracy"}
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
