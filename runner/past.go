package runner

import (
	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Past is the history of earlier runs the planner reads: the runs of this
// machine kind (label, CPU model, core count, GPU model) at this run's
// scale, from the result files in the tree and in git. The history
// package implements it; nil in Config.Past means no history (a run
// priced and judged alone, --no-history).
type Past interface {
	// Records are the cell's records (key: bench.Record.Key) in earlier
	// runs: the newest run first, and a run's records of the cell (a
	// top-up or refine appends the cell again, its wall the whole cell's
	// so far) in the order the run wrote them, so that each run's first
	// record is its first measurement and its last the cell as the run
	// left it. nil when no earlier run has the cell.
	Records(key string) []bench.Record
	// Between is the claim's figures over the earlier runs of this
	// machine kind; nil with fewer than 3 runs.
	Between(claimID string) *experiments.Between
}

// pastRuns splits a cell's records from Past into runs, the newest first:
// a run's records finish one after another, and the next (older) run's
// first record finished before the last one of the run before it.
func pastRuns(recs []bench.Record) [][]bench.Record {
	var out [][]bench.Record
	for i := range recs {
		if i == 0 || recs[i].Finished.IsZero() || !recs[i].Finished.After(recs[i-1].Finished) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], recs[i])
	}
	return out
}
