package runner

import (
	"math"
	"time"
)

// budget is the run's time: the --budget from its start, less the
// reserve for the report (limit), and the milliseconds held back for the
// long one-core cells waiting to run side by side (batch.go). Without a
// budget everything is unbounded.
type budget struct {
	total  time.Duration // --budget; 0: none
	start  time.Time
	limit  time.Duration // total less the reserve; 0 without a budget
	heldMS float64       // held back from left for the waiting side cells
}

func newBudget(total, reserve time.Duration, start time.Time) *budget {
	b := &budget{total: total, start: start}
	if total > 0 {
		b.limit = max(time.Millisecond, total-max(0, reserve))
	}
	return b
}

// on reports whether the run has a budget: then the claims' cells are
// sampled as their verdicts need (settle.go).
func (b *budget) on() bool { return b.total > 0 }

// left is the part of the budget not yet spent or held back, in
// milliseconds (+Inf without a budget).
func (b *budget) left() float64 {
	if !b.on() {
		return math.Inf(1)
	}
	return max(0, float64(b.limit-time.Since(b.start))/1e6-b.heldMS)
}

// spent reports whether a budget was set and nothing of it is left.
func (b *budget) spent() bool { return b.on() && b.left() == 0 }

// end is when the cells must have finished (the zero time without a
// budget).
func (b *budget) end() time.Time {
	if !b.on() {
		return time.Time{}
	}
	return b.start.Add(b.limit)
}
