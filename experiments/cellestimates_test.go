package experiments

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestCellEstimateText: the measurements of 50 ms or more are weighed,
// within 3x or not, the worst named; shorter ones, skipped cells and
// files without cell estimates say nothing.
func TestCellEstimateText(t *testing.T) {
	rec := func(impl string, est, setup, measure, check float64, status string) bench.Record {
		return bench.Record{Experiment: "x/y", Impl: impl, Params: bench.Params{{Name: "n", Value: "1"}}, Status: status,
			EstimateWallMS: est, Wall: &bench.CellWall{SetupMS: setup, MeasureMS: measure, CheckMS: check}}
	}
	recs := []bench.Record{
		rec("cpu/a", 100, 10, 80, 10, bench.StatusOK),   // 1x
		rec("cpu/b", 1, 1000, 900, 100, bench.StatusOK), // 2000x
		rec("cpu/c", 40, 0, 120, 0, bench.StatusOK),     // 3x
		rec("cpu/d", 1, 0, 20, 0, bench.StatusOK),       // under 50 ms
		rec("cpu/e", 1, 0, 0, 0, bench.StatusSkipped),   // skipped
		rec("cpu/f", 0, 0, 500, 0, bench.StatusOK),      // no estimate
	}
	got := CellEstimateText(recs)
	for _, want := range []string{"within 3x of their estimate: 2 of 3", "worst 2000.0x (x/y cpu/b n=1: estimated 1 ms, took 2.0 s)"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if got := CellEstimateText(recs[3:]); got != "" {
		t.Errorf("no cell of 50 ms with an estimate: %q, want nothing", got)
	}
}
