package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
)

// cellBoundText is one cell's bound on file f's GPU, "compute 85%", "—"
// without declared work or peaks, and its class and fraction as CSV
// fields.
func (c *comparison) cellBoundText(f int, r *bench.Record, ms float64) (string, []string) {
	class, frac, ok := c.cellBound(f, r, ms)
	if !ok {
		return "—", []string{"", ""}
	}
	return class + " " + formatPercent(frac), []string{class, strconv.FormatFloat(frac, 'g', 4, 64)}
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
			Header: []string{"impl", "parameters", a + " ms", b + " ms", "ratio", "bound " + a, "bound " + b, "most time " + a + " · " + b},
		}
		t.CSV = &Table{Header: append(slices.Clone(t.Header[:5]), "bound "+a, a+" fraction", "bound "+b, b+" fraction",
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
			ba, fa := c.cellBoundText(0, p.rec[0], p.t[0].ms)
			bb, fb := c.cellBoundText(i, p.rec[1], p.t[1].ms)
			la, ga := largestPhase(p.rec[0], p.t[0].ms)
			lb, gb := largestPhase(p.rec[1], p.t[1].ms)
			if ga[0] != "" && ga[0] == gb[0] { // one phase on both: its name once
				lb = strings.TrimPrefix(lb, gb[0]+" ")
			}
			t.Rows = append(t.Rows, append(row, ba, bb, la+" · "+lb))
			t.CSV.Rows = append(t.CSV.Rows, slices.Concat(csv, fa, fb, ga, gb))
		}
		t.Notes = append(t.Notes, fmt.Sprintf("bound: the cell's declared work over its device time, as a fraction of that GPU's peak "+
			"bandwidth or issue rate (compute or memory from %.0f%%, else neither); most time: the phase of the device window that takes "+
			"the largest share of it.", 100*BoundFraction))
		if marked {
			t.Notes = append(t.Notes, "*: the implementation's code changed between the files' commits.")
		}
		out = append(out, t)
	}
	return out
}
