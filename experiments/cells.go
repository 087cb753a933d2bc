package experiments

import "github.com/semibench/semibench/bench"

// Cells indexes records by experiment, implementation and parameters so a
// table can look its cells up; later records replace earlier ones.
type Cells map[string]*bench.Record

// IndexRecords builds the index.
func IndexRecords(recs []bench.Record) Cells {
	c := Cells{}
	for i := range recs {
		c[recs[i].Key()] = &recs[i]
	}
	return c
}

// Get returns the record, or nil.
func (c Cells) Get(experiment, impl string, params bench.Params) *bench.Record {
	r := bench.Record{Experiment: experiment, Impl: impl, Params: params}
	return c[r.Key()]
}
