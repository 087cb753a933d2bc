package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
)

// DefaultTop is how many cells the summary lists that differ most beyond
// their noise.
const DefaultTop = 10

// maxTopPerExperiment is the most cells of one experiment the list of
// those that differ most shows, so that one experiment's many cells do
// not fill it.
const maxTopPerExperiment = 3

// minNoiseSamples is the fewest samples a side of a cell needs for its
// spread to stand for its noise.
const minNoiseSamples = 3

// apart is how far two cells' samples stand apart, as a ratio in the
// direction of their medians' (the first's time over the second's): the
// smallest of the first's samples over the largest of the second's when
// the first is slower, the largest over the smallest when it is faster.
// Beyond 1 on the medians' side, every sample of one is slower than every
// sample of the other; otherwise their ranges overlap and apart is 1. ok is
// false with fewer than minNoiseSamples samples a side.
func apart(a, b []float64, ratio float64) (float64, bool) {
	if len(a) < minNoiseSamples || len(b) < minNoiseSamples {
		return 0, false
	}
	var r float64
	if ratio >= 1 {
		r = slices.Min(a) / slices.Max(b)
		r = max(r, 1)
	} else {
		r = slices.Max(a) / slices.Min(b)
		r = min(r, 1)
	}
	return r, true
}

// topCells is the table of the cells that differ most beyond their noise
// between the first file and file i, on any side: ranked by how far their
// samples stand apart (apart), at most opt.Top (DefaultTop) of them, none
// whose samples overlap. It reports false when no cell qualifies.
func (c *comparison) topCells(exps []string, i int) (Table, bool) {
	type ranked struct {
		exp  string
		side Side
		p    pairCell
		gap  float64
	}
	var all []ranked
	noisy := 0
	for _, exp := range exps {
		for _, s := range Sides {
			cells, _ := c.sideCells(exp, i, s)
			for _, p := range cells {
				g, ok := apart(p.t[0].samples, p.t[1].samples, p.ratio())
				switch {
				case !ok:
					noisy++
				case g != 1:
					all = append(all, ranked{exp, s, p, g})
				}
			}
		}
	}
	if len(all) == 0 {
		return Table{}, false
	}
	slices.SortStableFunc(all, func(x, y ranked) int {
		return -cmp.Compare(math.Abs(math.Log(x.gap)), math.Abs(math.Log(y.gap)))
	})
	top := c.opt.Top
	if top <= 0 {
		top = DefaultTop
	}
	a, b := c.names[0], c.names[i]
	var shown []ranked
	per := map[string]int{}
	for _, r := range all {
		if len(shown) < top && per[r.exp] < maxTopPerExperiment {
			shown = append(shown, r)
			per[r.exp]++
		}
	}
	t := Table{
		Title:  topTitle(len(shown), a, b),
		Header: []string{"experiment", "impl", "parameters", "side", a + " ms", b + " ms", "ratio", "apart"},
	}
	marked := false
	for _, r := range shown {
		rec := r.p.rec[0]
		impl := rec.Impl
		if r.p.changed {
			impl += "*"
			marked = true
		}
		t.Rows = append(t.Rows, []string{r.exp, impl, paramsText(rec.Params), r.side.String(),
			FormatMS(r.p.t[0].ms), FormatMS(r.p.t[1].ms), FormatRatio(r.p.ratio()), formatApart(r.gap)})
	}
	t.Notes = []string{fmt.Sprintf("apart: how far the two cells' samples stand apart, the nearest samples' ratio "+
		"(%s's fastest over %s's slowest where %s is slower, its slowest over %s's fastest where it is faster); "+
		"at most %d an experiment. Of the cells both measured, %d differ beyond their noise so and %d have fewer than %d samples a side.",
		a, b, a, b, maxTopPerExperiment, len(all), noisy, minNoiseSamples)}
	if marked {
		t.Notes = append(t.Notes, "*: the implementation's code changed between the files' commits.")
	}
	return t, true
}

// paramsText is a cell's parameters for a reader, "n=1024, range=n": a
// long list wraps at its commas.
func paramsText(p bench.Params) string {
	parts := make([]string, len(p))
	for i, q := range p {
		parts[i] = q.Name + "=" + q.Value
	}
	return strings.Join(parts, ", ")
}

// topTitle is the title of the list of cells that differ most.
func topTitle(n int, a, b string) string {
	if n == 1 {
		return fmt.Sprintf("The cell that differs most beyond its noise, %s/%s", a, b)
	}
	return fmt.Sprintf("The %d cells that differ most beyond their noise, %s/%s", n, a, b)
}

// formatApart prints how far apart two cells' samples stand: as a ratio,
// with the digits it takes to tell it from 1 ("1.004x", not "1.00x").
func formatApart(x float64) string {
	if d := math.Abs(x - 1); d > 0 && d < 0.005 {
		return strconv.FormatFloat(x, 'f', 4, 64) + "x"
	}
	return FormatRatio(x)
}
