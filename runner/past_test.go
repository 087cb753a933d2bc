package runner

import (
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
)

// TestPastRuns: a cell's records from Past split into runs where a
// record finished before the one listed before it (an older run).
func TestPastRuns(t *testing.T) {
	at := func(h int, stop string) bench.Record {
		return bench.Record{Stop: stop, Finished: time.Date(2026, 12, 1, h, 0, 0, 0, time.UTC)}
	}
	recs := []bench.Record{at(20, "a1"), at(21, "a2"), at(9, "b1"), at(3, "c1"), at(4, "c2"), at(5, "c3")}
	runs := pastRuns(recs)
	var got []int
	for _, r := range runs {
		got = append(got, len(r))
	}
	if len(runs) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 3 || runs[2][0].Stop != "c1" {
		t.Errorf("runs of %d, %v records: want 3 runs of 2, 1 and 3 records", len(runs), got)
	}
}
