package experiments

import (
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestSkippedText: the skipped cells by reason and by experiment, the
// most first (issue 56, item 26: "689 skipped (by the budget or memory)"
// had no split).
func TestSkippedText(t *testing.T) {
	skip := func(exp, why string) bench.Record {
		return bench.Record{Experiment: exp, Impl: "cpu/a", Status: bench.StatusSkipped, Error: why}
	}
	recs := []bench.Record{
		skip("a/x", "estimated 2s; the 5m0s budget is spent"),
		skip("a/x", "estimated 2s; the 5m0s budget is spent"),
		skip("b/y", "estimated 9s exceeds the 3s left of the 5m0s budget"),
		skip("b/y", "needs 40.0 GiB of host memory, 23.5 GiB available (limit 23.5 GiB, from MemTotal)"),
		skip("c/z", "stopped at the end of the 5m0s budget after 2s of it"),
		{Experiment: "d/w", Status: bench.StatusOK},
	}
	want := "Skipped: 5 cell(s), 2 not reached before the budget's end, 1 beyond the memory, 1 estimated beyond the budget left, 1 stopped by the budget's end; by experiment, 2 a/x, 2 b/y, 1 c/z."
	if got := SkippedText(recs); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := SkippedText(recs[5:]); got != "" {
		t.Errorf("nothing skipped: %q", got)
	}
}
