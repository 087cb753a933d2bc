package runner

import "github.com/semibench/semibench/bench"

// Past is the history of earlier runs the planner reads: the runs of this
// machine kind (label, CPU model, core count, GPU model) at this run's
// scale, from the result files in the tree and in git. The "history"
// package implements it; nil in Config.Past means no history (a run
// judged and priced alone, --no-history).
type Past interface {
	// Records are the cell's records (key: bench.Record.Key) in earlier
	// runs, newest run first, one a run (the run's last record of the
	// cell); nil when no earlier run measured it.
	Records(key string) []bench.Record
}
