package experiments_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// TestReportWithHistory: a report judged with its machine kind's history
// says so, and names the verdicts history changed from the run's alone:
// Kleene's update-W growth, reproduced in the H100's second run of 3393cf4
// alone (8.33x; the fixture experiments/testdata names), is inconclusive
// with runs whose figures cross its band (5.9x to 13.2x against 6.4x-10x).
func TestReportWithHistory(t *testing.T) {
	f, err := bench.ReadFile("testdata/h100-reproduce-7m-3393cf4-r2.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	alone := claimOf(t, experiments.JudgeFile(f), "kleene/table2#growth")
	if alone.Verdict != experiments.Reproduced {
		t.Fatalf("the H100 run r2 of 3393cf4 alone: %s (%s); want reproduced (8.33x)", alone.Verdict, alone.Ours)
	}
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	b := &experiments.Between{Claim: "kleene/table2#growth", Kind: "box"}
	for i, x := range []float64{5.9, 13.2, 8.0, 11.6} {
		b.Runs = append(b.Runs, experiments.RunFigure{Run: "r" + string(rune('a'+i)), Commit: "abc", Date: day.AddDate(0, 0, i), Figure: x, Verdict: experiments.Reproduced})
	}
	h := &experiments.History{Run: "this", Commit: f.Semibench.Commit, Date: f.Started, Kind: "box", Claims: map[string]*experiments.Between{b.Claim: b}}
	with := claimOf(t, experiments.JudgeFileWith(f, h), "kleene/table2#growth")
	if with.Verdict != experiments.Inconclusive || !strings.Contains(with.Reason, "over 5 runs on box") {
		t.Fatalf("with history: %s (%s); want inconclusive over the 5 runs of box", with.Verdict, with.Reason)
	}
	var w bytes.Buffer
	experiments.WriteSummary(&w, f, 0, nil, time.Time{}, h)
	doc := w.String()
	if !strings.Contains(doc, "Judged with the history of box") {
		t.Errorf("the summary does not say it was judged with history:\n%s", doc)
	}
	if !strings.Contains(doc, "(kleene/table2#growth): reproduced alone, inconclusive with history") {
		t.Errorf("the summary does not name the verdict history changed (%s alone):\n%s", alone.Verdict, doc)
	}
}

func claimOf(t *testing.T, cs []experiments.Claim, id string) experiments.Claim {
	t.Helper()
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no claim %s", id)
	return experiments.Claim{}
}
