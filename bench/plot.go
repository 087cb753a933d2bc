package bench

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one named line of a plot (or one stacked segment per bar).
type Series struct {
	Name string
	X, Y []float64
}

// Plot describes a figure. Save draws it with gonum/plot.
type Plot struct {
	// Name is the file stem: Save writes Name.png and Name.svg.
	Name                  string
	Title, XLabel, YLabel string
	// LogX and LogY ask for logarithmic axes; points with a non-positive
	// coordinate on a log axis are left out. Ignored for stacked bars.
	LogX, LogY bool
	Series     []Series
	// Stacked draws stacked bars instead of lines: one bar per distinct X,
	// each series a segment of it, so a bar's height is the sum of the
	// series at that X (a series without that X adds nothing). Pass
	// relative values (see Relative) for bars of shares that sum to 1.
	Stacked bool
}

// Figure geometry: the axes take plotWidth x plotHeight, the legend a
// column to their right as wide as its longest entry.
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
	legendGap  = 8  // points between the axes and the legend, and after it
	legendTop  = 24 // points from the top edge to the first entry (below the title line)
)

// Save writes the plot to dir/Name.png and dir/Name.svg, creating dir, and
// returns the paths written. A plot with no drawable point, a series whose
// X and Y differ in length, or a Name that is empty or holds a path
// separator is an error.
func (p *Plot) Save(dir string) (paths []string, err error) {
	if p.Name == "" || strings.ContainsAny(p.Name, `/\`) || p.Name == "." || p.Name == ".." {
		return nil, fmt.Errorf("plot %q: the name must be a plain file stem", p.Name)
	}
	// gonum/plot panics on some degenerate inputs; keep that inside.
	defer func() {
		if v := recover(); v != nil {
			paths, err = nil, fmt.Errorf("plot %s: drawing failed: %v", p.Name, v)
		}
	}()
	plt, legend, err := p.build()
	if err != nil {
		return nil, fmt.Errorf("plot %s: %w", p.Name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plot %s: %w", p.Name, err)
	}
	for _, ext := range []string{"png", "svg"} {
		path := filepath.Join(dir, p.Name+"."+ext)
		if err := writeFigure(path, ext, plt, legend); err != nil {
			return paths, fmt.Errorf("plot %s: writing %s: %w", p.Name, path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// writeFigure draws the plot with its legend in a column to the right of
// the axes (gonum would draw it over the data) and writes it to path.
func writeFigure(path, format string, plt *plot.Plot, legend *plot.Legend) error {
	r := legend.Rectangle(draw.Canvas{})
	legendW := r.Max.X - r.Min.X + 2*legendGap
	c, err := draw.NewFormattedCanvas(plotWidth+legendW, plotHeight, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	plt.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	legend.Draw(draw.Crop(dc, plotWidth+legendGap, 0, 0, -legendTop))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// build lays the figure and its legend out without writing them.
func (p *Plot) build() (*plot.Plot, *plot.Legend, error) {
	for _, s := range p.Series {
		if len(s.X) != len(s.Y) {
			return nil, nil, fmt.Errorf("series %q has %d x values and %d y values", s.Name, len(s.X), len(s.Y))
		}
	}
	plt := plot.New()
	plt.Title.Text = p.Title
	plt.X.Label.Text = p.XLabel
	plt.Y.Label.Text = p.YLabel
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	var err error
	if p.Stacked {
		err = p.addBars(plt, &legend)
	} else {
		err = p.addLines(plt, &legend)
	}
	if err != nil {
		return nil, nil, err
	}
	return plt, &legend, nil
}

// errNoPoints is returned for a plot with nothing to draw.
var errNoPoints = errors.New("no drawable points (empty series, or only non-positive values on a log axis)")

func (p *Plot) addLines(plt *plot.Plot, legend *plot.Legend) error {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	drawn := 0
	for i, s := range p.Series {
		var pts plotter.XYs
		for j := range s.X {
			x, y := s.X[j], s.Y[j]
			if !finite(x) || !finite(y) || (p.LogX && x <= 0) || (p.LogY && y <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: x, Y: y})
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("series %q: %w", s.Name, err)
		}
		c := plotutil.DarkColors[i%len(plotutil.DarkColors)]
		line.Color = c
		line.Width = vg.Points(1.5)
		// Past the palette, series repeat a colour with a new dash pattern.
		line.Dashes = plotutil.Dashes(i / len(plotutil.DarkColors))
		points.Color = c
		points.Shape = plotutil.Shape(i)
		points.Radius = vg.Points(3)
		plt.Add(line, points)
		legend.Add(s.Name, line, points)
		drawn++
	}
	if drawn == 0 {
		return errNoPoints
	}
	if p.LogX {
		logAxis(&plt.X, xmin, xmax)
	}
	if p.LogY {
		logAxis(&plt.Y, ymin, ymax)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// logAxis sets a log scale on a, spanning the data with a little margin.
func logAxis(a *plot.Axis, lo, hi float64) {
	a.Scale = plot.LogScale{}
	a.Min, a.Max = lo/1.25, hi*1.25
	a.Tick.Marker = logTicks{}
}

// logTicks labels the powers of ten of a log axis and marks 2..9 times
// them. A range that holds fewer than two powers of ten also labels the
// 2 and 5 multiples, and, if still short, every mark, so each axis reads.
type logTicks struct{}

// Ticks implements plot.Ticker for a positive range.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= lo || !finite(lo) || !finite(hi) {
		return nil
	}
	type mark struct {
		v float64
		k int
	}
	var marks []mark
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for k := 1; k < 10; k++ {
			if v := base * float64(k); v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				marks = append(marks, mark{v, k})
			}
		}
	}
	labelled := func(k, level int) bool {
		switch level {
		case 0:
			return k == 1
		case 1:
			return k == 1 || k == 2 || k == 5
		}
		return true
	}
	level := 0
	for ; level < 2; level++ {
		n := 0
		for _, m := range marks {
			if labelled(m.k, level) {
				n++
			}
		}
		if n >= 2 {
			break
		}
	}
	ticks := make([]plot.Tick, len(marks))
	for i, m := range marks {
		ticks[i].Value = m.v
		if labelled(m.k, level) {
			ticks[i].Label = strconv.FormatFloat(m.v, 'g', -1, 64)
		}
	}
	return ticks
}

func (p *Plot) addBars(plt *plot.Plot, legend *plot.Legend) error {
	var xs []float64
	for _, s := range p.Series {
		for j, x := range s.X {
			if finite(x) && finite(s.Y[j]) && !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
		}
	}
	if len(xs) == 0 {
		return errNoPoints
	}
	slices.Sort(xs)
	width := vg.Points(math.Min(40, 300/float64(len(xs))))
	var below *plotter.BarChart
	var all []*plotter.BarChart
	for i, s := range p.Series {
		vals := make(plotter.Values, len(xs))
		for j, x := range s.X {
			if y := s.Y[j]; finite(x) && finite(y) {
				vals[slices.Index(xs, x)] += y
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return fmt.Errorf("series %q: %w", s.Name, err)
		}
		bars.Color = plotutil.SoftColors[i%len(plotutil.SoftColors)]
		bars.LineStyle = draw.LineStyle{Width: vg.Points(0.5), Color: color.Gray{Y: 64}}
		if below != nil {
			bars.StackOn(below)
		}
		below = bars
		plt.Add(bars)
		all = append(all, bars)
	}
	// The legend lists the top segment first, as the bars stack them.
	for i := len(all) - 1; i >= 0; i-- {
		legend.Add(p.Series[i].Name, all[i])
	}
	labels := make([]string, len(xs))
	for i, x := range xs {
		labels[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	plt.NominalX(labels...)
	plt.X.Min, plt.X.Max = -0.6, float64(len(xs))-0.4
	plt.Y.Min = math.Min(plt.Y.Min, 0)
	return nil
}

// Relative returns copies of the series with every Y divided by the sum of
// all series' Y at the same X, for stacked bars of shares (each bar sums to
// 1). X values where the sum is zero keep zeros.
func Relative(series []Series) []Series {
	sum := map[float64]float64{}
	for _, s := range series {
		for j, x := range s.X {
			if j < len(s.Y) && finite(s.Y[j]) {
				sum[x] += s.Y[j]
			}
		}
	}
	out := make([]Series, len(series))
	for i, s := range series {
		out[i] = Series{Name: s.Name, X: slices.Clone(s.X), Y: make([]float64, len(s.Y))}
		for j, y := range s.Y {
			if j < len(s.X) && sum[s.X[j]] != 0 {
				out[i].Y[j] = y / sum[s.X[j]]
			}
		}
	}
	return out
}
