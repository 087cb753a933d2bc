package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// TestClaimsFitTheTerminal holds `claims` to COLUMNS: no line wider, and
// every figure of every verdict whole in the output (issue 56, items 22
// and 23: rows of 5,799 characters, verdicts cut mid-number).
func TestClaimsFitTheTerminal(t *testing.T) {
	const run = "../../experiments/testdata/golden-run.jsonl.gz"
	for _, width := range []string{"120", "100"} {
		t.Setenv("COLUMNS", width)
		code, out, stderr := capture(t, "claims", run)
		if code != 0 {
			t.Fatalf("claims exited %d: %s", code, stderr)
		}
		w := map[string]int{"120": 120, "100": 100}[width]
		for i, l := range strings.Split(out, "\n") {
			if n := runewidth.StringWidth(l); n > w {
				t.Errorf("COLUMNS=%s: line %d is %d wide: %.80q...", width, i+1, n, l)
			}
		}
		flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(out)), " ")
		f, err := bench.ReadFile(run)
		if err != nil {
			t.Fatal(err)
		}
		number := regexp.MustCompile(`[0-9][0-9,.]*[0-9x%]?`)
		for _, c := range experiments.JudgeFile(f) {
			for _, fig := range number.FindAllString(c.Ours, -1) {
				if !strings.Contains(flat, fig) {
					t.Errorf("COLUMNS=%s: %s's figure %q (of %q) is not whole in the output", width, c.ID, fig, c.Ours)
				}
			}
		}
	}
}
