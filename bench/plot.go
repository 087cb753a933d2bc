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

// Figure size of saved plots.
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
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
	plt, err := p.build()
	if err != nil {
		return nil, fmt.Errorf("plot %s: %w", p.Name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plot %s: %w", p.Name, err)
	}
	for _, ext := range []string{".png", ".svg"} {
		path := filepath.Join(dir, p.Name+ext)
		if err := plt.Save(plotWidth, plotHeight, path); err != nil {
			return paths, fmt.Errorf("plot %s: writing %s: %w", p.Name, path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// build lays the figure out without writing it.
func (p *Plot) build() (*plot.Plot, error) {
	for _, s := range p.Series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("series %q has %d x values and %d y values", s.Name, len(s.X), len(s.Y))
		}
	}
	plt := plot.New()
	plt.Title.Text = p.Title
	plt.X.Label.Text = p.XLabel
	plt.Y.Label.Text = p.YLabel
	plt.Legend.Top = true
	plt.Legend.Left = true
	var err error
	if p.Stacked {
		err = p.addBars(plt)
	} else {
		err = p.addLines(plt)
	}
	if err != nil {
		return nil, err
	}
	return plt, nil
}

// errNoPoints is returned for a plot with nothing to draw.
var errNoPoints = errors.New("no drawable points (empty series, or only non-positive values on a log axis)")

func (p *Plot) addLines(plt *plot.Plot) error {
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
		plt.Legend.Add(s.Name, line, points)
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

// logAxis sets a log scale on a spanning whole decades, so every axis has
// at least two labelled ticks.
func logAxis(a *plot.Axis, lo, hi float64) {
	a.Scale = plot.LogScale{}
	a.Min = math.Pow(10, math.Floor(math.Log10(lo)))
	a.Max = math.Pow(10, math.Ceil(math.Log10(hi)))
	if a.Max <= a.Min {
		a.Max = a.Min * 10
	}
	a.Tick.Marker = decadeTicks{}
}

// decadeTicks labels every power of ten and marks 2..9 times it between.
type decadeTicks struct{}

// Ticks implements plot.Ticker for a positive range.
func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= 0 || !finite(lo) || !finite(hi) {
		return nil
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for k := 1; k < 10; k++ {
			v := base * float64(k)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if k == 1 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

func (p *Plot) addBars(plt *plot.Plot) error {
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
		plt.Legend.Add(s.Name, bars)
	}
	labels := make([]string, len(xs))
	for i, x := range xs {
		labels[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	plt.NominalX(labels...)
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
