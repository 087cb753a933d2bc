package experiments

import (
	"fmt"
	"strings"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
)

// AvailabilityNotes are a plot's notes on the implementations it would
// draw that the records of exp cannot show: those with no cell run say
// why ("cuda/paper, cuda/fast: unavailable on this machine (no GPU)",
// "cpu/sgje: skipped by the budget"), those with some cells run count the
// cells the budget skipped.
func AvailabilityNotes(recs []bench.Record, exp string, impls ...string) []string {
	type tally struct{ ran, unavailable, skipped, failed int }
	t := map[string]*tally{}
	for _, im := range impls {
		t[im] = &tally{}
	}
	for i := range recs {
		r := &recs[i]
		c := t[r.Impl]
		if r.Experiment != exp || c == nil {
			continue
		}
		switch {
		case Ran(r):
			c.ran++
		case r.Status == bench.StatusUnavailable:
			c.unavailable++
		case r.Status == bench.StatusSkipped:
			c.skipped++
		default:
			c.failed++
		}
	}
	var unavailGPU, unavail, skipped, failed, partial []string
	for _, im := range impls {
		c := t[im]
		switch {
		case c.ran > 0:
			if c.skipped > 0 {
				partial = append(partial, fmt.Sprintf("%s %d of %d", im, c.skipped, c.ran+c.unavailable+c.skipped+c.failed))
			}
		case c.unavailable > 0 && strings.HasPrefix(im, "cuda/"):
			unavailGPU = append(unavailGPU, im)
		case c.unavailable > 0:
			unavail = append(unavail, im)
		case c.skipped > 0:
			skipped = append(skipped, im)
		case c.failed > 0:
			failed = append(failed, im)
		}
	}
	var notes []string
	add := func(ims []string, why string) {
		if len(ims) > 0 {
			notes = append(notes, strings.Join(ims, ", ")+": "+why)
		}
	}
	add(unavailGPU, "unavailable on this machine (no GPU), not drawn")
	add(unavail, "unavailable on this machine, not drawn")
	add(skipped, "every cell skipped by the budget, not drawn")
	add(failed, "failed in every cell (see the report), not drawn")
	if len(partial) > 0 {
		notes = append(notes, "cells skipped by the budget: "+strings.Join(partial, ", "))
	}
	return notes
}

// ImplSeries sets the implementation (colour) of s and whether it holds a
// paper's values.
func ImplSeries(s report.Series, impl string, paper bool) report.Series {
	s.Impl, s.Paper = impl, paper
	return s
}

// PlotsWithNotes keeps the plots that have series, and those that have
// none but notes saying why (a GPU-less run's CUDA plot): those are not
// drawn (report.Plot.Empty), and the report lists them with their notes
// (PlotsNotDrawn).
func PlotsWithNotes(ps ...report.Plot) []report.Plot {
	var out []report.Plot
	for _, p := range ps {
		if len(p.Series) > 0 || len(p.Notes) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// PlotTitle is a plot's title: what it shows, then on a second line which
// figure of which paper it reproduces.
func PlotTitle(what, source string) string { return what + "\n" + source }

func AppendSeries(p *report.Plot, ss ...report.Series) {
	for _, s := range ss {
		if len(s.X) > 0 {
			p.Series = append(p.Series, s)
		}
	}
}
