package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/stats"
)

// pairCell is one cell both files measured on one side: its key, the two
// records and their times on that side, and whether its implementation
// changed between the files' commits (isChanged).
type pairCell struct {
	key     string
	rec     [2]*bench.Record
	t       [2]sideTime
	changed bool
}

// ratio is the first file's time over the other's.
func (p pairCell) ratio() float64 { return p.t[0].ms / p.t[1].ms }

// allCells lists experiment exp's cells that the first file and file i
// both measured on side s (sideTimes), in the files' order, those of
// changed implementations marked. Files timed under different protocols
// share no cell.
func (c *comparison) allCells(exp string, i int, s Side) []pairCell {
	if c.old[0] != c.old[i] {
		return nil
	}
	var cells []pairCell
	for _, k := range c.keys[exp] {
		ra, rb := c.index[0][k], c.index[i][k]
		ta, oka := sideTimes(ra)[s]
		tb, okb := sideTimes(rb)[s]
		if oka && okb {
			cells = append(cells, pairCell{key: k, rec: [2]*bench.Record{ra, rb}, t: [2]sideTime{ta, tb},
				changed: c.isChanged(i, ra) || c.isChanged(i, rb)})
		}
	}
	return cells
}

// sideCells is allCells without the changed implementations' cells
// (with them under CompareOptions.AcrossCommits), and the count of the
// changed ones.
func (c *comparison) sideCells(exp string, i int, s Side) (cells []pairCell, changed int) {
	for _, p := range c.allCells(exp, i, s) {
		if p.changed {
			changed++
		}
		if !p.changed || c.opt.AcrossCommits {
			cells = append(cells, p)
		}
	}
	return cells, changed
}

// hasSide reports whether any file's record of experiment exp has a time
// on side s.
func (c *comparison) hasSide(exp string, s Side) bool {
	for _, m := range c.index {
		for _, k := range c.keys[exp] {
			if _, ok := sideTimes(m[k])[s]; ok {
				return true
			}
		}
	}
	return false
}

// spread is a set of ratios summarised: their count, geometric mean,
// middle half (25th to 75th percentile, interpolated between order
// statistics) and range.
type spread struct {
	n                int
	geo              float64
	q1, q3, min, max float64
}

// spreadOf summarises ratios (sorting them).
func spreadOf(ratios []float64) spread {
	n := len(ratios)
	if n == 0 {
		return spread{}
	}
	slices.Sort(ratios)
	logSum := 0.0
	for _, r := range ratios {
		logSum += math.Log(r)
	}
	q := func(p float64) float64 {
		i, f := math.Modf(p * float64(n-1))
		if j := int(i); j+1 < n {
			return ratios[j] + f*(ratios[j+1]-ratios[j])
		}
		return ratios[n-1]
	}
	return spread{n: n, geo: math.Exp(logSum / float64(n)), q1: q(0.25), q3: q(0.75), min: ratios[0], max: ratios[n-1]}
}

// cells is the spread's count, ratio, middle half and range as table
// cells; "—" for none. A span prints "lo-hi" with no "x", which the CSV
// splits into two columns.
func (s spread) cells() []string {
	if s.n == 0 {
		return []string{"0", "—", "—", "—"}
	}
	span := func(lo, hi float64) string {
		return strings.TrimSuffix(FormatRatio(lo), "x") + "-" + strings.TrimSuffix(FormatRatio(hi), "x")
	}
	return []string{strconv.Itoa(s.n), FormatRatio(s.geo), span(s.q1, s.q3), span(s.min, s.max)}
}

// rowBound is a summary row's bound on one GPU: the class most of its
// cells have, the median fraction of those cells, and how many of the
// row's cells have that class, of how many with declared work; with the
// windows its cells were called by (windowed cells, their label: one
// window's, or "" when they name several).
type rowBound struct {
	class    string
	fraction float64
	k, n     int
	windowed int
	label    string
}

func (b rowBound) String() string {
	if b.n == 0 {
		return "—"
	}
	s := b.class + " " + formatPercent(b.fraction)
	if b.k < b.n {
		s += fmt.Sprintf(" (%d/%d)", b.k, b.n)
	}
	return s
}

// fields are the bound's class, fraction and counts, one a CSV column.
func (b rowBound) fields() []string {
	if b.n == 0 {
		return []string{"", "", "", "0"}
	}
	return []string{b.class, strconv.FormatFloat(b.fraction, 'g', 4, 64), strconv.Itoa(b.k), strconv.Itoa(b.n)}
}

// joinBounds is a row's two bounds in one cell, "compute 86% · 88%" when
// they are of one class in every cell, else both whole.
func joinBounds(a, b rowBound) string {
	if a.n > 0 && b.n > 0 && a.class == b.class && a.k == a.n && b.k == b.n {
		return a.String() + " · " + formatPercent(b.fraction)
	}
	return a.String() + " · " + b.String()
}

// windowLabel names the windows a row's bounds were called by on both
// GPUs: the one window's label ("write+scan+read"), "paper's windows" for
// several, with " where declared" when some of the row's cells with
// declared work have none; "" when no cell was called by a window.
func windowLabel(a, b rowBound) string {
	if a.windowed == 0 && b.windowed == 0 {
		return ""
	}
	label := a.label
	if a.windowed == 0 || (b.windowed > 0 && b.label != label) {
		label = b.label
		if a.windowed > 0 {
			label = ""
		}
	}
	if label == "" {
		label = "paper's windows"
	}
	if a.windowed < a.n || b.windowed < b.n {
		label += " where declared"
	}
	return label
}

// rowBoundText is a device row's bound column: by the windows its papers
// time where its cells declare them ("write+scan+read: memory 78% · 61%"),
// then the whole cells' bound where its class differs on either GPU
// ("; whole: neither 8.4% · 7.5%"); the whole cells' alone when no cell
// has a window.
func rowBoundText(paper, whole [2]rowBound) string {
	label := windowLabel(paper[0], paper[1])
	if label == "" {
		return joinBounds(whole[0], whole[1])
	}
	s := label + ": " + joinBounds(paper[0], paper[1])
	if paper[0].class != whole[0].class || paper[1].class != whole[1].class {
		s += "; whole: " + joinBounds(whole[0], whole[1])
	}
	return s
}

// formatPercent prints a fraction as a whole percentage, with two
// significant digits below 10%, and as "<0.1%" below a thousandth (a cell
// that far from every ceiling is bound by something else, whatever the
// digits): "86%", "3.1%", "0.45%", "<0.1%".
func formatPercent(f float64) string {
	p := 100 * f
	switch {
	case p >= 9.5:
		return strconv.FormatFloat(math.Round(p), 'f', 0, 64) + "%"
	case p < 0.1:
		return "<0.1%"
	}
	return strconv.FormatFloat(p, 'g', 2, 64) + "%"
}

// cellBound is one cell's bound on the GPU of file f: its class and the
// fraction of the binding peak its declared work reached in its device
// time ms; ok false without declared work, a GPU or a peak.
func (c *comparison) cellBound(f int, r *bench.Record, ms float64) (class string, fraction float64, ok bool) {
	if c.opt.Work == nil || c.peaks[f] == nil {
		return "", 0, false
	}
	w, has := c.opt.Work(r)
	if !has {
		return "", 0, false
	}
	class, fraction = Bound(c.peaks[f].Fractions(w, ms))
	return class, fraction, class != ""
}

// windowBound is one cell's bound on the GPU of file f by the window its
// paper times, where the cell declares one (CompareOptions.Window): the
// window's work over the sum of its phases' medians (bench.Window.WindowMS),
// as a fraction of that GPU's peak, and the window's label; ok false
// without a declared window, one of its phases, a GPU or a peak.
func (c *comparison) windowBound(f int, r *bench.Record) (label, class string, fraction float64, ok bool) {
	if c.opt.Window == nil || c.peaks[f] == nil {
		return "", "", 0, false
	}
	w, has := c.opt.Window(r)
	if !has {
		return "", "", 0, false
	}
	ms, has := w.WindowMS(r)
	if !has {
		return "", "", 0, false
	}
	class, fraction = Bound(c.peaks[f].Fractions(w.Work, ms))
	return w.Label(), class, fraction, class != ""
}

// boundOf is the bound of a device row's cells on file f's GPU (side f:
// 0 the first file, 1 the other): with windows, each cell's by the window
// its paper times where it declares one (windowBound), its whole bound
// otherwise; without, every cell's whole bound.
func (c *comparison) boundOf(cells []pairCell, f, side int, windows bool) rowBound {
	byClass := map[string][]float64{}
	var b rowBound
	labels := map[string]bool{}
	for _, p := range cells {
		r, ms := p.rec[side], p.t[side].ms
		if windows {
			if label, class, frac, ok := c.windowBound(f, r); ok {
				byClass[class] = append(byClass[class], frac)
				b.n++
				b.windowed++
				labels[label] = true
				b.label = label
				continue
			}
		}
		if class, frac, ok := c.cellBound(f, r, ms); ok {
			byClass[class] = append(byClass[class], frac)
			b.n++
		}
	}
	if len(labels) > 1 {
		b.label = ""
	}
	for _, class := range []string{BoundCompute, BoundMemory, BoundNeither} { // ties: the first
		if fr := byClass[class]; len(fr) > b.k {
			b.class, b.fraction, b.k = class, stats.Median(fr), len(fr)
		}
	}
	return b
}

// rowWork is the declared work of a row's cells, summed over the first
// file's records: the mix of operation kinds that the compute ratio is
// predicted for.
func (c *comparison) rowWork(cells []pairCell) bench.Work {
	var w bench.Work
	if c.opt.Work == nil {
		return w
	}
	for _, p := range cells {
		if cw, ok := c.opt.Work(p.rec[0]); ok {
			w = w.Add(cw)
		}
	}
	return w
}

// whereSummary is the comparison's first table against file i: per
// experiment and side, the cells both files measured there, their
// ratios' geometric mean, middle half and range, and for the device the
// ratios the two GPUs' peaks predict and each GPU's bound.
func (c *comparison) whereSummary(exps []string, i int) Table {
	a, b := c.names[0], c.names[i]
	t := Table{
		Title: fmt.Sprintf("Summary: where the time goes, %s/%s (above 1: %s is faster)", a, b, b),
		Header: []string{"experiment", "side", "cells", "ratio", "middle half", "range",
			"if bw", "if ops", "bound " + a + " · " + b},
	}
	t.CSV = &Table{Header: append(slices.Clone(t.Header[:8]), "bound "+a, a+" fraction", a+" cells of that class", a+" cells with work",
		"bound "+b, b+" fraction", b+" cells of that class", b+" cells with work", "window",
		"window bound "+a, a+" window fraction", a+" cells of that class by window", a+" cells with work by window",
		"window bound "+b, b+" window fraction", b+" cells of that class by window", b+" cells with work by window")}
	pa, pb := c.peaks[0], c.peaks[i]
	left, windowed := 0, false
	for _, exp := range exps {
		for _, s := range Sides {
			if !c.hasSide(exp, s) {
				continue
			}
			cells, changed := c.sideCells(exp, i, s)
			left += changed
			name := exp
			if changed > 0 {
				name += "*"
			}
			var ratios []float64
			for _, p := range cells {
				ratios = append(ratios, p.ratio())
			}
			row := append([]string{name, s.String()}, spreadOf(ratios).cells()...)
			csv := slices.Clone(row)
			// A bound is each GPU's own: it reads the row's cells whether or
			// not their code changed between the commits.
			if all := c.allCells(exp, i, s); s == Device && pa != nil && pb != nil && len(all) > 0 {
				mem, comp := PredictedRatios(*pa, *pb, c.rowWork(all))
				whole := [2]rowBound{c.boundOf(all, 0, 0, false), c.boundOf(all, i, 1, false)}
				paper := [2]rowBound{c.boundOf(all, 0, 0, true), c.boundOf(all, i, 1, true)}
				label := windowLabel(paper[0], paper[1])
				windowed = windowed || label != ""
				row = append(row, FormatRatio(mem), FormatRatio(comp), rowBoundText(paper, whole))
				csv = append(csv, FormatRatio(mem), FormatRatio(comp))
				csv = append(append(csv, whole[0].fields()...), whole[1].fields()...)
				if label == "" {
					paper = [2]rowBound{}
				}
				csv = append(append(append(csv, label), paper[0].fields()...), paper[1].fields()...)
			} else {
				row = append(row, "", "", "")
			}
			t.Rows = append(t.Rows, row)
			t.CSV.Rows = append(t.CSV.Rows, csv)
		}
	}
	t.Notes = append(t.Notes, c.summaryNotes(i, left, windowed)...)
	if c.peaks[0] == nil && c.peaks[i] == nil { // two CPUs: no GPU columns
		t.Header = t.Header[:6]
		for j := range t.Rows {
			t.Rows[j] = t.Rows[j][:6]
		}
		t.CSV = nil
	}
	return t
}

// summaryNotes say how to read the summary against file i; left counts
// the cells left out as changed between the commits, and windowed says
// whether a row's bound was called by the windows its papers time.
func (c *comparison) summaryNotes(i, left int, windowed bool) []string {
	a, b := c.names[0], c.names[i]
	notes := []string{
		fmt.Sprintf("ratio: per cell both files measured, %s's median time over %s's; per row the geometric mean of those ratios, "+
			"their middle half (25th to 75th percentile) and range. device: a GPU cell's total without the copies inside it; "+
			"transfers: its h2d and d2h copies; host: the CPU cells' totals and a GPU cell's end to end outside its total and copies.", a, b),
	}
	if pa, pb := c.peaks[0], c.peaks[i]; pa != nil && pb != nil {
		notes = append(notes, fmt.Sprintf("if bw, if ops: the ratio the GPUs' peaks predict for a cell bound by memory bandwidth "+
			"or by its operations (%s: %s; %s: %s). bound, on each GPU: of the row's cells with declared work (those left out as changed too), the class most have "+
			"and their median fraction of its peak; compute or memory from %.0f%% of that peak, else neither "+
			"(latency, launches or synchronisation); (k/n) when only k of n cells have that class.",
			a, pa.Describe(), b, pb.Describe(), 100*BoundFraction))
		if windowed {
			notes = append(notes, windowNote)
		}
	}
	switch {
	case left > 0 && c.opt.AcrossCommits:
		notes = append(notes, fmt.Sprintf("*: the row holds cells of implementations whose code changed between the commits "+
			"(%d cell times in all, a cell counted once per side), kept by --across-commits.", left))
	case left > 0:
		notes = append(notes, fmt.Sprintf("*: the cells of implementations whose code changed between the commits are left out of the row "+
			"(%d cell times in all, a cell counted once per side; --across-commits puts them in).", left))
	}
	return notes
}

// windowNote says how a bound is called by the window a paper times.
const windowNote = "A bound headed by a window (write+scan+read: ...) is called, for each cell that declares the window its paper times, " +
	"by that window alone: its declared work over the sum of its phases' medians (the cells without one by their whole work); " +
	"whole: the cells' bound by their whole work and device time, where its class differs."
