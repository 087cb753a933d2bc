package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/semibench/semibench/bench"
)

// Figure is a figure that writes itself as PNG and SVG into a folder,
// returning the paths written: a Plot, or one of compare's own figures.
type Figure interface {
	Save(dir string) ([]string, error)
}

// ComparePlots draws a comparison's figures (the options as Compare's):
// per file with a GPU, a roofline of its GPU cells (Roofline); per later
// file, each experiment's ratios to the first file with their spread,
// beside the ratios the GPUs' peaks predict (ratioFigure). A file without
// a GPU cell that has declared work gets no roofline.
func ComparePlots(files []*bench.File, labels []string, opt CompareOptions) ([]Figure, error) {
	c, shown, _, _, err := prepare(files, labels, opt)
	if err != nil {
		return nil, err
	}
	var out []Figure
	for f := range files {
		if p := c.roofline(f, shown); p != nil {
			out = append(out, p)
		}
	}
	for i := 1; i < len(files); i++ {
		if r := c.ratioFigure(shown, i); r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// fileStem makes a label safe as part of a file name.
func fileStem(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r == '#' {
			return '-'
		}
		return r
	}, s)
}

// roofline is file f's GPU cells on its roofline: each cell's achieved
// operation rate (bench.Work.Ops over its device time) against its
// arithmetic intensity (Work.Intensity), one colour per implementation,
// under the GPU's ceilings from its header: the memory roof (peak
// bandwidth × intensity) and a flat roof per kind of operation the cells
// declare. nil when f has no GPU or no GPU cell with declared work.
func (c *comparison) roofline(f int, exps []string) *Plot {
	pk := c.peaks[f]
	if pk == nil || c.opt.Work == nil || pk.BytesPerS <= 0 {
		return nil
	}
	byImpl := map[string]*Series{}
	var order []string
	var kinds bench.Work // which kinds of operation any cell declares
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, exp := range exps {
		for _, k := range c.keys[exp] {
			r := c.index[f][k]
			t, ok := sideTimes(r)[Device]
			if !ok {
				continue
			}
			w, has := c.opt.Work(r)
			x := w.Intensity()
			if !has || w.Ops() == 0 || !finite(x) || x <= 0 {
				continue
			}
			s := byImpl[r.Impl]
			if s == nil {
				s = &Series{Name: r.Impl, Impl: r.Impl, Points: true}
				byImpl[r.Impl] = s
				order = append(order, r.Impl)
			}
			s.X = append(s.X, x)
			s.Y = append(s.Y, w.Ops()/(t.ms/1e3))
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			kinds = kinds.Add(bench.Work{Updates: min(w.Updates, 1), Flops: min(w.Flops, 1), IntOps: min(w.IntOps, 1)})
		}
	}
	if len(order) == 0 {
		return nil
	}
	name := c.names[f]
	p := &Plot{
		Name:   "roofline-" + fileStem(name),
		Title:  fmt.Sprintf("Roofline of %s's GPU cells\n%s", name, pk.GPU),
		XLabel: "operations per DRAM byte",
		YLabel: "operations/s",
		LogX:   true, LogY: true,
		Notes: []string{"Each point is a GPU cell at its arithmetic intensity (declared operations per declared DRAM byte; an update counts two operations), its height the operations over its device time " +
			"(total without the copies inside it). The roofs are the GPU's peaks from its header: " + pk.Describe() + "."},
	}
	for _, roof := range []struct {
		name string
		ops  float64 // peak operations per second
		has  bool
	}{
		{"semiring updates", 2 * pk.UpdatesPerS, kinds.Updates > 0},
		{"flops", pk.FlopsPerS, kinds.Flops > 0},
		{"integer ops", pk.IntOpsPerS, kinds.IntOps > 0},
	} {
		if roof.has && roof.ops > 0 {
			ridge := roof.ops / pk.BytesPerS
			xmin, xmax = math.Min(xmin, ridge), math.Max(xmax, ridge)
			p.Series = append(p.Series, Series{Name: fmt.Sprintf("roof: %s, %.3g T ops/s", roof.name, roof.ops/1e12),
				X: []float64{ridge, 0}, Y: []float64{roof.ops, roof.ops}})
		}
	}
	lo, hi := xmin/4, xmax*4
	top := hi                 // the memory roof rises to the highest flat roof's ridge
	for i := range p.Series { // the flat roofs run from their ridge to the right edge
		p.Series[i].X[1] = hi
		if i == 0 || p.Series[i].X[0] > top {
			top = p.Series[i].X[0]
		}
	}
	p.Series = append([]Series{{Name: fmt.Sprintf("roof: memory, %.3g TB/s", pk.BytesPerS/1e12),
		X: []float64{lo, top}, Y: []float64{pk.BytesPerS * lo, pk.BytesPerS * top}}}, p.Series...)
	for _, impl := range order {
		p.Series = append(p.Series, *byImpl[impl])
	}
	return p
}

// ratioFigure is each experiment's ratios of the first file's time to
// file i's, by side (device, transfers, host): the geometric mean as a
// point, the middle half as an error bar and the range as a thin line,
// beside the ratios the GPUs' peaks predict for a bandwidth-bound and a
// compute-bound cell (dashed lines) and no change (1, dotted).
type ratioFigure struct {
	name, title string
	exps        []string
	rows        [3][]spread // per side, per experiment (n 0: none)
	mem, ops    float64     // predicted ratios, NaN when unknown
	notes       []string
}

// ratioFigure gathers the summary's ratios against file i; nil when no
// experiment has a ratio.
func (c *comparison) ratioFigure(exps []string, i int) *ratioFigure {
	a, b := c.names[0], c.names[i]
	r := &ratioFigure{
		name:  "ratios-" + fileStem(a) + "-" + fileStem(b),
		title: fmt.Sprintf("Time ratio %s/%s per experiment (above 1: %s is faster)", a, b, b),
		mem:   math.NaN(), ops: math.NaN(),
	}
	var all bench.Work
	any := false
	for _, exp := range exps {
		var row [3]spread
		for si, s := range Sides {
			cells, _ := c.sideCells(exp, i, s)
			var ratios []float64
			for _, p := range cells {
				ratios = append(ratios, p.ratio())
			}
			row[si] = spreadOf(ratios)
			any = any || row[si].n > 0
			if s == Device {
				all = all.Add(c.rowWork(cells))
			}
		}
		if row[0].n+row[1].n+row[2].n == 0 {
			continue
		}
		r.exps = append(r.exps, exp)
		for si := range Sides {
			r.rows[si] = append(r.rows[si], row[si])
		}
	}
	if !any {
		return nil
	}
	if pa, pb := c.peaks[0], c.peaks[i]; pa != nil && pb != nil {
		r.mem, r.ops = PredictedRatios(*pa, *pb, all)
	}
	r.notes = []string{fmt.Sprintf("Per experiment and side, the geometric mean of the cells' ratios of %s's median time to %s's "+
		"(point), their middle half (bar) and range (thin line); dashed: the ratio the GPUs' peaks predict for a cell bound by "+
		"memory bandwidth or by its operations; dotted: no change.", a, b)}
	return r
}

// sideColors colour the sides of a ratio figure.
var sideColors = [3]color.RGBA{{R: 200, G: 30, B: 30, A: 255}, {R: 240, G: 130, B: 0, A: 255}, {R: 31, G: 90, B: 180, A: 255}}

// Save writes the figure as name.png and name.svg into dir.
func (r *ratioFigure) Save(dir string) ([]string, error) {
	return saveFigure(dir, r.name, []string{"png", "svg"}, r.notes, r.build)
}

// build draws the ratio figure and its legend.
func (r *ratioFigure) build() (*plot.Plot, *plot.Legend, error) {
	plt := plot.New()
	plt.Title.Text = r.title
	plt.Y.Label.Text = "time ratio"
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	ymin, ymax := 1.0, 1.0
	for si, side := range Sides {
		var pts plotter.XYs
		var bars plotter.XYs
		var lows, highs []float64
		for e, s := range r.rows[si] {
			if s.n == 0 {
				continue
			}
			x := float64(e) + 0.2*float64(si-1)
			pts = append(pts, plotter.XY{X: x, Y: s.geo})
			bars = append(bars, plotter.XY{X: x, Y: s.geo})
			lows, highs = append(lows, s.geo-s.q1), append(highs, s.q3-s.geo)
			rng, err := plotter.NewLine(plotter.XYs{{X: x, Y: s.min}, {X: x, Y: s.max}})
			if err != nil {
				return nil, nil, err
			}
			rng.LineStyle = draw.LineStyle{Color: sideColors[si], Width: vg.Points(0.6)}
			plt.Add(rng)
			ymin, ymax = math.Min(ymin, s.min), math.Max(ymax, s.max)
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: sideColors[si], Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		eb, err := plotter.NewYErrorBars(errorPoints{bars, lows, highs})
		if err != nil {
			return nil, nil, err
		}
		eb.LineStyle = draw.LineStyle{Color: sideColors[si], Width: vg.Points(2)}
		plt.Add(eb, sc)
		legend.Add(side.String(), sc)
	}
	n := float64(len(r.exps))
	for _, ref := range []struct {
		name string
		v    float64
		dash []vg.Length
	}{
		{"if memory-bound", r.mem, []vg.Length{vg.Points(6), vg.Points(3)}},
		{"if compute-bound", r.ops, []vg.Length{vg.Points(2), vg.Points(3)}},
		{"no change", 1, []vg.Length{vg.Points(1), vg.Points(2)}},
	} {
		if !finite(ref.v) || ref.v <= 0 {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: ref.v}, {X: n - 0.5, Y: ref.v}})
		if err != nil {
			return nil, nil, err
		}
		l.LineStyle = draw.LineStyle{Color: color.RGBA{A: 255}, Width: vg.Points(1), Dashes: ref.dash}
		plt.Add(l)
		legend.Add(fmt.Sprintf("%s (%s)", ref.name, FormatRatio(ref.v)), l)
		ymin, ymax = math.Min(ymin, ref.v), math.Max(ymax, ref.v)
	}
	plt.NominalX(r.exps...)
	plt.X.Min, plt.X.Max = -0.6, n-0.4
	plt.X.Tick.Label.Rotation = math.Pi / 4
	plt.X.Tick.Label.XAlign, plt.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	logAxis(&plt.Y, ymin, ymax)
	return plt, &legend, nil
}

// errorPoints are points with asymmetric vertical error bars.
type errorPoints struct {
	xys       plotter.XYs
	low, high []float64
}

func (e errorPoints) Len() int                        { return len(e.xys) }
func (e errorPoints) XY(i int) (float64, float64)     { return e.xys[i].X, e.xys[i].Y }
func (e errorPoints) YError(i int) (float64, float64) { return e.low[i], e.high[i] }
