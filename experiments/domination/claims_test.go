package domination

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

func TestExactClaims(t *testing.T) {
	// Table 1's rows are exact in the paper: 6 at m = 2, 15 at m = 3.
	row := func(m string, rows float64, status string) bench.Record {
		return bench.Record{Experiment: "domination/table1", Impl: "cpu/paper", Params: bench.Params{{Name: "m", Value: m}},
			Status: status, Metrics: map[string]float64{"rows": rows}}
	}
	got := domExactClaims([]bench.Record{row("2", 6, bench.StatusOK), row("3", 15, bench.StatusOK)}, "domination/table1", "rows")[0]
	if got.Verdict != experiments.Indicative || !strings.HasPrefix(got.Ours, "2 of ") || !strings.Contains(got.Reason, "partial evidence") {
		t.Errorf("two equal rows of eleven: %+v, want indicative (partial evidence)", got)
	}
	got = domExactClaims([]bench.Record{row("2", 6, bench.StatusOK), row("3", 16, bench.StatusOK)}, "domination/table1", "rows")[0]
	if got.Verdict != experiments.NotReproduced || !strings.Contains(got.Ours, "m = 3") {
		t.Errorf("a row off the paper's: %+v", got)
	}
	got = domExactClaims(nil, "domination/table1", "rows")[0]
	if got.Verdict != experiments.NotRun || !strings.Contains(got.Reason, "not in this run") {
		t.Errorf("no records: %+v", got)
	}
}
