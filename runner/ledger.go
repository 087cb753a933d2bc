package runner

import (
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// ledger is the records this run has written, in order: what the settle
// rule judges the claims on, and where a top-up finds a cell's samples.
type ledger struct {
	recs []bench.Record
}

// keep stamps a cell's record, adds it and a copy for each of its aliases
// (naming the cell they reuse) to the ledger, and returns them for the
// file.
func (l *ledger) keep(c *cell, rec bench.Record) []bench.Record {
	rec.Finished = time.Now().UTC()
	recs := []bench.Record{rec}
	for _, a := range c.aliases {
		cp := rec
		cp.Experiment, cp.Statistic = a.exp.Name, statistic(a.exp)
		cp.ReusedFrom, cp.Wall = c.key, nil
		recs = append(recs, cp)
	}
	l.recs = append(l.recs, recs...)
	return recs
}

// last is the record this run wrote last for c, or nil.
func (l *ledger) last(c *cell) *bench.Record {
	for i := len(l.recs) - 1; i >= 0; i-- {
		if l.recs[i].Key() == c.key {
			return &l.recs[i]
		}
	}
	return nil
}

// samples is the number of timed samples c's last record holds (0 when
// it has none, or did not pass its check).
func (l *ledger) samples(c *cell) int {
	rec := l.last(c)
	if rec == nil || rec.Status != bench.StatusOK || rec.ReusedFrom != "" {
		return 0
	}
	return len(experiments.SamplesOf(rec, bench.TotalPhase))
}
