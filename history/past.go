package history

import (
	"cmp"
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Past is the history of one machine kind at one scale as a run reads it
// (it satisfies runner.Past): each cell's records in the earlier runs,
// and each claim's figures over them.
type Past struct {
	Kind  Kind
	Scale string
	// Runs counts the runs it holds.
	Runs int
	// cells holds each cell's records, newest run first (a run's records
	// of the cell in the order it wrote them).
	cells map[string][]bench.Record
	// between holds each claim's figures over the runs on the timeline,
	// in commit order.
	between map[string]*experiments.Between
}

// Records are the cell's records (key: bench.Record.Key) in the earlier
// runs, newest run first, a run's records of the cell in its order; nil
// when none has it. The records keep their headline phases' samples, the
// warm-ups and the wall, not the other phases' samples.
func (p *Past) Records(key string) []bench.Record {
	if p == nil {
		return nil
	}
	return p.cells[key]
}

// Between is the claim's figures over the earlier runs of this kind and
// scale (each run judged alone), in commit order; nil with fewer than
// experiments.MinBetweenRuns runs that decided it.
func (p *Past) Between(claimID string) *experiments.Between {
	if p == nil {
		return nil
	}
	b := p.between[claimID]
	if b == nil || len(b.Runs) < experiments.MinBetweenRuns {
		return nil
	}
	return b
}

// Claims lists the claims Between knows, sorted.
func (p *Past) Claims() []string {
	var ids []string
	for id := range p.between {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Past reads the history of runs of kind at scale: every such run's
// records and its claims judged alone (Judge: from the cache where it
// has them). Runs apart (dirty builds, commits not in the history) give
// records, whose cost is this kind's too, but no figures.
func (h *History) Past(ctx context.Context, kind Kind, scale string, progress io.Writer) (*Past, error) {
	var runs []*Run
	for _, r := range slices.Concat(h.Runs, h.Apart) {
		if r.Kind == kind && r.Scale() == scale && !r.Header.IsPeers() {
			runs = append(runs, r)
		}
	}
	if err := h.Fill(ctx, runs, progress); err != nil {
		return nil, err
	}
	if err := h.Judge(ctx, runs, progress); err != nil {
		return nil, err
	}
	return pastOf(kind, scale, runs), nil
}

// pastOf gathers runs (of one kind and scale, records filled and claims
// judged) into a Past.
func pastOf(kind Kind, scale string, runs []*Run) *Past {
	p := &Past{Kind: kind, Scale: scale, Runs: len(runs), cells: map[string][]bench.Record{}, between: map[string]*experiments.Between{}}
	newest := slices.Clone(runs)
	slices.SortStableFunc(newest, func(a, b *Run) int { return b.Date().Compare(a.Date()) })
	for _, r := range newest {
		for _, rec := range r.Records {
			k := rec.Key()
			p.cells[k] = append(p.cells[k], rec)
		}
	}
	ordered := slices.Clone(runs)
	slices.SortStableFunc(ordered, func(a, b *Run) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), a.Date().Compare(b.Date()), strings.Compare(a.Where, b.Where))
	})
	for _, r := range ordered {
		if r.Apart != "" {
			continue
		}
		for _, j := range r.Claims {
			if !j.Verdict.Decided() {
				continue
			}
			b := p.between[j.ID]
			if b == nil {
				b = &experiments.Between{Claim: j.ID, Kind: kind.String()}
				p.between[j.ID] = b
			}
			b.Runs = append(b.Runs, experiments.RunFigure{Run: r.Where, Commit: r.Commit, Date: r.Date(), Figure: j.Figure, Verdict: j.Verdict})
		}
	}
	return p
}

// For is the history a run of this kind and scale is judged with
// (experiments.JudgeWith): each claim's figures over the kind's runs, the
// run itself left out where history holds it (matched by its commit and
// start, however its file is named), since JudgeWith adds it under run.
func (p *Past) For(run string, commit string, started time.Time) *experiments.History {
	if p == nil {
		return nil
	}
	h := &experiments.History{Run: run, Commit: commit, Date: started, Kind: p.Kind.String(), Claims: map[string]*experiments.Between{}, Steps: figureSteps}
	for id, b := range p.between {
		c := &experiments.Between{Claim: b.Claim, Kind: b.Kind}
		for _, r := range b.Runs {
			if r.Date.Equal(started) && sameCommit(r.Commit, commit) {
				continue
			}
			c.Runs = append(c.Runs, r)
		}
		h.Claims[id] = c
	}
	return h
}

// figureSteps are the steps of a claim's figure over the commits (groups
// of figures, one a commit, in commit order) by the timelines' detector,
// as the index of the first group after each: experiments.Between.Stretch
// judges a claim over the runs of the code the judged run measured.
func figureSteps(groups [][]float64) []int {
	steps, _ := DetectSteps(groups, 0)
	var at []int
	for _, s := range steps {
		at = append(at, s.Index)
	}
	return at
}

// sameCommit reports whether two commit names are one commit: equal, or
// one a prefix of the other (a full hash and its short form).
func sameCommit(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}
