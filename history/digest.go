package history

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// A digest is the history a machine without the repository's git reads
// (run and reproduce --history FILE): per machine kind and scale, each
// cell's records in the newest runs (what the pricing reads: the wall,
// the headline samples, the warm-ups) and each claim's figures over the
// runs. A GPU machine gets a copy of the working tree without .git; the
// digest, written where the history is, travels with it.

// DigestSchema is the version of the digest format.
const DigestSchema = 1

// digestRunsPerCell is how many runs of a cell a digest keeps, the
// newest: the pricing reads medians over a few runs.
const digestRunsPerCell = 6

// Digest is the history of several machine kinds, as a file holds it.
type Digest struct {
	Schema int `json:"history_digest"` // not "schema": a digest is no result file
	// Made names the build that wrote it and when.
	Made  bench.Build  `json:"made"`
	Date  time.Time    `json:"date"`
	Pasts []digestPast `json:"pasts"`
}

type digestPast struct {
	Kind    jsonKind                  `json:"kind"`
	Scale   string                    `json:"scale"`
	Runs    int                       `json:"runs"`
	Cells   map[string][]bench.Record `json:"cells"`
	Between map[string]digestBetween  `json:"between"`
}

type digestBetween struct {
	Runs []digestFigure `json:"runs"`
}

// digestFigure is a RunFigure whose figure may be absent (JSON has no
// NaN).
type digestFigure struct {
	Run     string              `json:"run"`
	Commit  string              `json:"commit"`
	Date    time.Time           `json:"date"`
	Figure  *float64            `json:"figure"`
	Verdict experiments.Verdict `json:"verdict"`
}

// Digest gathers the history of every machine kind and scale whose runs
// pass keep (nil: all) into a digest: their claims' figures (Past) and,
// with cells, the cells' records the pricing reads.
func (h *History) Digest(ctx context.Context, keep func(*Run) bool, cells bool, progress io.Writer) (*Digest, error) {
	type key struct {
		kind  Kind
		scale string
	}
	var keys []key
	for _, r := range slices.Concat(h.Runs, h.Apart) {
		k := key{r.Kind, r.Scale()}
		if (keep == nil || keep(r)) && !r.Header.IsPeers() && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	d := &Digest{Schema: DigestSchema, Made: bench.CurrentBuild(), Date: time.Now().UTC()}
	for _, k := range keys {
		p, err := h.Past(ctx, k.kind, k.scale, progress)
		if err != nil {
			return nil, err
		}
		dp := digestPast{Kind: kindJSON(k.kind), Scale: k.scale, Runs: p.Runs, Cells: map[string][]bench.Record{}, Between: digestBetweens(p.between)}
		for key, recs := range p.cells {
			if cells {
				if kept := newestRuns(measured(recs), digestRunsPerCell); len(kept) > 0 {
					dp.Cells[key] = kept
				}
			}
		}
		d.Pasts = append(d.Pasts, dp)
	}
	return d, nil
}

// digestBetweens is each claim's figures over the runs as a digest keeps
// them.
func digestBetweens(between map[string]*experiments.Between) map[string]digestBetween {
	out := map[string]digestBetween{}
	for id, b := range between {
		var db digestBetween
		for _, r := range b.Runs {
			db.Runs = append(db.Runs, digestFigure{Run: r.Run, Commit: r.Commit, Date: r.Date, Figure: number(r.Figure), Verdict: r.Verdict})
		}
		out[id] = db
	}
	return out
}

// measured keeps the records that measured their cell (ok or check
// failed): the pricing reads nothing of the others, and the newest runs
// that skipped a cell would leave none of the runs that measured it (the
// H200's digest of 9b86b0f held, for 143 of its 1217 cells measured with
// a wall, skipped records alone: 6829 of its 14202 records were skipped).
func measured(recs []bench.Record) []bench.Record {
	var out []bench.Record
	for _, r := range recs {
		if r.Status == bench.StatusOK || r.Status == bench.StatusCheckFailed {
			out = append(out, r)
		}
	}
	return out
}

// newestRuns keeps the records of a cell's newest n runs (records newest
// run first; a run's records in the order it wrote them, their finish
// times rising).
func newestRuns(recs []bench.Record, n int) []bench.Record {
	runs := 0
	for i := range recs {
		if i == 0 || recs[i].Finished.IsZero() || !recs[i].Finished.After(recs[i-1].Finished) {
			if runs++; runs > n {
				return recs[:i]
			}
		}
	}
	return recs
}

// WriteDigest writes d, gzipped JSON, to w.
func (d *Digest) Write(w io.Writer) error {
	zw := gzip.NewWriter(w)
	if err := json.NewEncoder(zw).Encode(d); err != nil {
		return fmt.Errorf("history digest: %w", err)
	}
	return zw.Close()
}

// ReadDigest reads a digest file (written by `semibench history --digest`).
func ReadDigest(path string) (*Digest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not a history digest (gzipped JSON): %w", path, err)
	}
	var d Digest
	dec := json.NewDecoder(zr)
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: not a history digest: %w", path, err)
	}
	if d.Schema != DigestSchema {
		return nil, fmt.Errorf("%s: a history digest of schema %d; this semibench reads schema %d (write it again with semibench history --digest)", path, d.Schema, DigestSchema)
	}
	return &d, nil
}

// ErrNoKind means a digest holds no run of the machine kind and scale
// asked.
var ErrNoKind = errors.New("no run of this machine kind and scale")

// Past is the digest's history of kind at scale; ErrNoKind when it has
// none.
func (d *Digest) Past(kind Kind, scale string) (*Past, error) {
	for _, dp := range d.Pasts {
		if dp.Kind != kindJSON(kind) || dp.Scale != scale {
			continue
		}
		p := &Past{Kind: kind, Scale: scale, Runs: dp.Runs, cells: dp.Cells, between: map[string]*experiments.Between{}}
		for id, db := range dp.Between {
			b := &experiments.Between{Claim: id, Kind: kind.String()}
			for _, r := range db.Runs {
				f := math.NaN()
				if r.Figure != nil {
					f = *r.Figure
				}
				b.Runs = append(b.Runs, experiments.RunFigure{Run: r.Run, Commit: r.Commit, Date: r.Date, Figure: f, Verdict: r.Verdict})
			}
			p.between[id] = b
		}
		return p, nil
	}
	return nil, fmt.Errorf("%w: %s at %s scale", ErrNoKind, kind, scale)
}
