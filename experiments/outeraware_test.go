package experiments_test

import (
	"path/filepath"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// TestOuterAwareJudgesOneDraw: a run that says it sampled the outer level
// (experiments.OuterAware) is judged at both levels, so a claim it did
// not sample there is judged from its one draw and the spread between
// runs: the 11.6x of kleene/table2#growth, 16% past its band's edge at
// 10x, is inconclusive, where the same records judged as a run made
// before the outer level give "not reproduced" (the flip of the H100's
// two runs of 3393cf4). A figure no timing moves keeps its verdict.
func TestOuterAwareJudgesOneDraw(t *testing.T) {
	f, err := bench.ReadFile(filepath.Join("testdata", "flipping", "h100-20261207-reproduce-7m-3393cf4-r1.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if experiments.OuterAware(f.Notes) {
		t.Fatal("a run of 3393cf4 says it sampled the outer level")
	}
	verdict := func(claims []experiments.Claim, id string) experiments.Claim {
		for _, c := range claims {
			if c.ID == id {
				return c
			}
		}
		t.Fatalf("no claim %s", id)
		return experiments.Claim{}
	}
	const growth = "kleene/table2#growth"
	alone := verdict(experiments.JudgeFile(f), growth)
	if alone.Verdict != experiments.NotReproduced {
		t.Fatalf("%s alone: %s (%s); the fixture should give not reproduced", growth, alone.Verdict, alone.Ours)
	}
	f.Notes = append(f.Notes, experiments.OuterNotePrefix+"this run samples claims at the outer level")
	if !experiments.OuterAware(f.Notes) {
		t.Fatal("OuterAware misses its own note")
	}
	both := experiments.JudgeFile(f)
	if c := verdict(both, growth); c.Verdict != experiments.Inconclusive || c.Level != experiments.LevelOuter && c.Level != experiments.LevelWithin {
		t.Errorf("%s at both levels: %s (level %q, %s); want inconclusive from its one draw", growth, c.Verdict, c.Level, c.Reason)
	}
	// A figure that no timing moves (a count of processors) keeps its
	// verdict, whatever the spread between runs.
	g, err := bench.ReadFile(filepath.Join("testdata", "golden-run.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	const count = "apsp/systolic#two-thirds-idle"
	before := verdict(experiments.JudgeFile(g), count)
	g.Notes = append(g.Notes, experiments.OuterNotePrefix+"this run samples claims at the outer level")
	if after := verdict(experiments.JudgeFile(g), count); after.Verdict != before.Verdict || !before.Verdict.Decided() {
		t.Errorf("%s: %s alone, %s at both levels; a count is no draw of timing noise", count, before.Verdict, after.Verdict)
	}
}
