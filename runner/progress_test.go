package runner

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestProgressGolden holds the progress lines (testdata/progress.golden)
// in every pass: the terminal's live line, the log's line while a cell
// runs and when it ends, and the closing line (issue 56, item 21: the
// pass, the sample within the cell, the claims measured out of those this
// machine can measure, the cells by status).
func TestProgressGolden(t *testing.T) {
	start := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	c := &cell{exp: &experiments.Experiment{Name: "hungarian/table1"}, impl: "cpu/jv",
		cs: &experiments.Case{Params: bench.Params{{Name: "n", Value: "2048"}, {Name: "range", Value: "n"}}}}
	var recs []bench.Record
	for i, st := range map[string]int{bench.StatusOK: 604, bench.StatusSkipped: 689, bench.StatusUnavailable: 914, bench.StatusFailed: 1} {
		for k := range st {
			recs = append(recs, bench.Record{Experiment: "x/" + i, Impl: "cpu/a", Params: bench.Params{{Name: "k", Value: fmt.Sprint(k)}}, Status: i})
		}
	}
	done := bench.Record{Status: bench.StatusOK, Phases: []bench.Phase{{Name: bench.TotalPhase, SamplesMS: []float64{1, 2}}}}
	var b strings.Builder
	for _, tc := range []struct {
		p        pass
		budgeted bool
	}{{passAA, true}, {passClaims, true}, {passClaims, false}, {passTopUp, true}, {passRefine, true}, {passSide, true}, {passOuter, true}, {passRest, true}} {
		m := &meter{start: start, budget: 5 * time.Minute, claims: 52, status: map[string]int{}, seen: map[string]string{}}
		m.add(recs)
		m.pass, m.label = passName(tc.p, tc.budgeted), c.exp.Name+" "+c.impl+" "+c.cs.Params.String()
		m.since, m.left, m.atPaper = start.Add(61*time.Second), 3*time.Minute, 35
		m.warmups, m.most, m.runs = 1, 6, 2
		now := start.Add(90 * time.Second)
		fmt.Fprintf(&b, "%s\n%s\n%s\n", m.liveLine(now), m.runningLine(now), m.finishedLine(done, now))
		if tc.p == passAA {
			m.runs = 0
			fmt.Fprintf(&b, "%s\n", m.runningLine(now)) // in the warm-up
			fmt.Fprintf(&b, "%s\n", m.finalLine(start.Add(295*time.Second)))
		}
	}
	golden := filepath.Join("testdata", "progress.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("progress lines:\n%s\nwant (%s):\n%s", b.String(), golden, want)
	}
}
