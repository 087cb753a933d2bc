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

// DistinctParams lists the distinct parameter sets of recs in first-seen
// order: a table's rows, one per cell.
func DistinctParams(recs []bench.Record) []bench.Params {
	var out []bench.Params
	seen := map[string]bool{}
	for _, r := range recs {
		if k := r.Params.String(); !seen[k] {
			seen[k] = true
			out = append(out, r.Params)
		}
	}
	return out
}

// Latest is recs with each cell's latest record only, where its first
// stood: a cell topped up later in a run (or re-run by a later invocation)
// appends a record with all its samples, which supersedes the earlier one.
// Rules that walk an experiment's records would otherwise meet one cell
// twice and compare it with itself.
func Latest(recs []bench.Record) []bench.Record { return bench.Latest(recs) }
