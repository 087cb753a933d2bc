package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
)

// cellBounds are one cell's bounds on file f's GPU in its device time ms,
// as a row of one cell has them (rowBound): by the window its paper times
// where it declares one, else by its whole work (paper), and by its whole
// work (whole); n 0 without declared work or peaks. The CSV fields: the
// whole cell's class and fraction, the window's label, class and fraction.
func (c *comparison) cellBounds(f int, r *bench.Record, ms float64) (paper, whole rowBound, csv []string) {
	csv = []string{"", "", "", "", ""}
	if class, frac, ok := c.cellBound(f, r, ms); ok {
		whole = rowBound{class: class, fraction: frac, k: 1, n: 1}
		csv[0], csv[1] = class, strconv.FormatFloat(frac, 'g', 4, 64)
	}
	paper = whole
	if label, class, frac, ok := c.windowBound(f, r); ok {
		paper = rowBound{class: class, fraction: frac, k: 1, n: 1, windowed: 1, label: label}
		csv[2], csv[3], csv[4] = label, class, strconv.FormatFloat(frac, 'g', 4, 64)
	}
	return paper, whole, csv
}

// largestPhase names the phase of total's breakdown (the copies aside)
// that takes the most of a GPU cell's device time ms, with its share:
// where the device's time goes when the cell is far from every ceiling;
// and the two as CSV fields.
func largestPhase(r *bench.Record, ms float64) (string, []string) {
	var best *bench.Phase
	for i := range r.Phases {
		p := &r.Phases[i]
		if p.Scope != bench.ScopeTotal || copyPhase(p.Name) {
			continue
		}
		if best == nil || median(p) > median(best) {
			best = p
		}
	}
	if best == nil || ms <= 0 {
		return "—", []string{"", ""}
	}
	share := median(best) / ms
	return best.Name + " " + formatPercent(share), []string{best.Name, strconv.FormatFloat(share, 'g', 4, 64)}
}

// gpuCellsTables are, with CompareOptions.Cells, one table per experiment
// of the GPU cells the first file and file i both measured: each cell's
// device times, their ratio, its bound on each GPU and the phase that
// takes most of its device time there, so that a row's bound can be read
// cell by cell (a cell whose time goes to one latency-bound phase is far
// from both ceilings however its other phases fare).
func (c *comparison) gpuCellsTables(exps []string, i int) []Table {
	a, b := c.names[0], c.names[i]
	var out []Table
	for _, exp := range exps {
		cells := c.allCells(exp, i, Device)
		if len(cells) == 0 {
			continue
		}
		t := Table{
			Title:  fmt.Sprintf("%s: GPU cells, device time, %s/%s", exp, a, b),
			Header: []string{"impl", "parameters", a + " ms", b + " ms", "ratio", "bound " + a + " · " + b, "most time " + a + " · " + b},
		}
		t.CSV = &Table{Header: append(slices.Clone(t.Header[:5]), "bound "+a, a+" fraction", "window "+a, "window bound "+a, a+" window fraction",
			"bound "+b, b+" fraction", "window "+b, "window bound "+b, b+" window fraction",
			"most time "+a, a+" share", "most time "+b, b+" share")}
		marked := false
		for _, p := range cells {
			impl := p.rec[0].Impl
			if p.changed {
				impl += "*"
				marked = true
			}
			row := []string{impl, paramsText(p.rec[0].Params), FormatMS(p.t[0].ms), FormatMS(p.t[1].ms), FormatRatio(p.ratio())}
			csv := slices.Clone(row)
			pa, wa, fa := c.cellBounds(0, p.rec[0], p.t[0].ms)
			pb, wb, fb := c.cellBounds(i, p.rec[1], p.t[1].ms)
			la, ga := largestPhase(p.rec[0], p.t[0].ms)
			lb, gb := largestPhase(p.rec[1], p.t[1].ms)
			if ga[0] != "" && ga[0] == gb[0] { // one phase on both: its name once
				lb = strings.TrimPrefix(lb, gb[0]+" ")
			}
			t.Rows = append(t.Rows, append(row, rowBoundText([2]rowBound{pa, pb}, [2]rowBound{wa, wb}), la+" · "+lb))
			t.CSV.Rows = append(t.CSV.Rows, slices.Concat(csv, fa, fb, ga, gb))
		}
		t.Notes = append(t.Notes, fmt.Sprintf("bound: the cell's declared work over its device time, as a fraction of that GPU's peak "+
			"bandwidth or issue rate (compute or memory from %.0f%%, else neither); where the cell declares the window its paper times "+
			"(write+scan+read: ...), that window's declared work over the sum of its phases' medians, and the whole cell's after it "+
			"(whole: ...) where its class differs; most time: the phase of the device window that takes the largest share of it.", 100*BoundFraction))
		if marked {
			t.Notes = append(t.Notes, "*: the implementation's code changed between the files' commits.")
		}
		out = append(out, t)
	}
	return out
}
