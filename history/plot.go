package history

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench/report"
)

// plotLines is the most timelines one plot draws: the cells measured by
// the most runs first.
const plotLines = 6

// Plots draws a timeline plot per experiment and machine kind of ts: up
// to plotLines cells each (those with the most runs), every run a marker
// at its commit, each stretch between steps a level with the noise band
// between runs shaded around it.
func Plots(ts []*Timeline) []report.TimelinePlot {
	type key struct {
		exp  string
		kind Kind
	}
	by := map[key][]*Timeline{}
	var order []key
	for _, t := range ts {
		k := key{t.Experiment, t.Kind}
		if by[k] == nil {
			order = append(order, k)
		}
		by[k] = append(by[k], t)
	}
	var out []report.TimelinePlot
	for _, k := range order {
		lines := slices.Clone(by[k])
		slices.SortStableFunc(lines, func(a, b *Timeline) int { return cmp.Compare(b.Runs(), a.Runs()) })
		var notes []string
		if len(lines) > plotLines {
			notes = append(notes, fmt.Sprintf("%d of %d cells drawn, those measured by the most runs; name cells with --where and --impl", plotLines, len(lines)))
			lines = lines[:plotLines]
		}
		out = append(out, timelinePlot(k.exp, k.kind, lines, notes))
	}
	return out
}

// timelinePlot draws timelines of one experiment and kind on shared
// commit slots: the commits any of them measured, in the repository's
// order.
func timelinePlot(exp string, kind Kind, ts []*Timeline, notes []string) report.TimelinePlot {
	orders := map[int]string{}
	for _, t := range ts {
		for _, g := range t.Groups {
			orders[g.Order] = g.Commit
		}
	}
	var keys []int
	for o := range orders {
		keys = append(keys, o)
	}
	slices.Sort(keys)
	slot := map[int]int{}
	commits := make([]string, len(keys))
	for i, o := range keys {
		slot[o] = i
		commits[i] = short(orders[o])
	}
	p := report.TimelinePlot{
		Name:    strings.NewReplacer("/", "-", " ", "_").Replace(exp) + "_" + kind.Label,
		Title:   fmt.Sprintf("%s on %s: each run's time over the commits, with its steps\n%s", exp, kind.Label, kind),
		Commits: commits,
		Notes:   notes,
	}
	for _, t := range ts {
		l := report.TimelineLine{Name: strings.TrimSpace(t.Impl + " " + t.Params), Impl: t.Impl}
		for _, g := range t.Groups {
			for _, pt := range g.Points {
				l.X = append(l.X, float64(slot[g.Order]))
				l.Y = append(l.Y, pt.Value)
			}
		}
		for _, lv := range t.Levels() {
			lo, hi := t.Band(lv)
			l.Levels = append(l.Levels, report.TimelineLevel{From: float64(slot[t.Groups[lv.First].Order]), To: float64(slot[t.Groups[lv.Last].Order]),
				Y: lv.Median, Lo: lo, Hi: hi})
		}
		for _, s := range t.Steps {
			p.Notes = append(p.Notes, l.Name+": step "+stepText(s))
		}
		p.Lines = append(p.Lines, l)
	}
	return p
}

// SavePlots writes the timeline plots of ts (Plots) into dir and returns
// the files written.
func SavePlots(ts []*Timeline, dir string) ([]string, error) {
	var written []string
	for _, p := range Plots(ts) {
		paths, err := p.Save(dir)
		if err != nil {
			return written, err
		}
		written = append(written, paths...)
	}
	return written, nil
}
