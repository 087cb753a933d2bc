package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TimelinePlot is a figure of cells' times over a repository's commits:
// a marker a run at its commit's slot, the fitted level of each stretch
// between steps as a line, and the noise band between runs around each
// level shaded, on a log time axis.
type TimelinePlot struct {
	// Name is the file stem: Save writes Name.png and Name.svg.
	Name  string
	Title string
	// Commits label the x axis's slots (0, 1, ...) in the repository's
	// order: short hashes; "" leaves a slot unlabelled.
	Commits []string
	Lines   []TimelineLine
	// Notes are lines printed under the axes.
	Notes []string
	// PNGOnly writes the PNG alone (a page that shows it), not its SVG.
	PNGOnly bool
}

// TimelineLine is one cell's timeline.
type TimelineLine struct {
	Name string
	// Impl picks the colour (ImplColor); empty: Name does.
	Impl string
	// X are the runs' slots (Commits' indexes), Y their times in ms.
	X, Y []float64
	// Levels are the fitted stretches between steps.
	Levels []TimelineLevel
}

// TimelineLevel is a stretch of a timeline between steps: from slot From
// to slot To at level Y, its noise band [Lo, Hi].
type TimelineLevel struct {
	From, To  float64
	Y, Lo, Hi float64
}

// Save writes the plot to dir/Name.png and dir/Name.svg (the PNG alone
// with PNGOnly), creating dir,
// and returns the paths written. A plot without a drawable point, or
// whose Name is no plain file stem, is an error.
func (p *TimelinePlot) Save(dir string) ([]string, error) {
	exts := []string{"png", "svg"}
	if p.PNGOnly {
		exts = exts[:1]
	}
	return saveFigure(dir, p.Name, exts, p.Notes, p.build)
}

// lineColors are the timelines' colours: each implementation's own
// (ImplColor) for its first line, and for a later line of an
// implementation already drawn the fallback colours in turn.
func (p *TimelinePlot) lineColors() []color.RGBA {
	out := make([]color.RGBA, len(p.Lines))
	seen := map[string]bool{}
	next := 0
	for i, l := range p.Lines {
		key := l.Impl
		if key == "" {
			key = l.Name
		}
		if seen[key] {
			out[i] = fallbackColors[next%len(fallbackColors)]
			next++
			continue
		}
		seen[key] = true
		out[i] = ImplColor(key)
	}
	return out
}

func (p *TimelinePlot) build() (*plot.Plot, *plot.Legend, error) {
	plt := plot.New()
	plt.Title.Text = p.Title
	plt.X.Label.Text = "commit (the repository's order; a slot per commit that measured a cell)"
	plt.Y.Label.Text = "time (ms)"
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	ymin, ymax := math.Inf(1), math.Inf(-1)
	drew := false
	colors := p.lineColors()
	for i, l := range p.Lines {
		if len(l.X) != len(l.Y) {
			return nil, nil, fmt.Errorf("line %q has %d x values and %d y values", l.Name, len(l.X), len(l.Y))
		}
		c := colors[i]
		band := color.NRGBA{R: c.R, G: c.G, B: c.B, A: 60}
		for _, lv := range l.Levels {
			if !(lv.Lo > 0) || !(lv.Hi > 0) || !(lv.Y > 0) {
				continue
			}
			x0, x1 := lv.From-0.4, lv.To+0.4
			poly, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: lv.Lo}, {X: x1, Y: lv.Lo}, {X: x1, Y: lv.Hi}, {X: x0, Y: lv.Hi}})
			if err != nil {
				return nil, nil, err
			}
			poly.Color, poly.LineStyle.Width, poly.LineStyle.Color = band, 0, color.Transparent
			plt.Add(poly)
			level, err := plotter.NewLine(plotter.XYs{{X: x0, Y: lv.Y}, {X: x1, Y: lv.Y}})
			if err != nil {
				return nil, nil, err
			}
			level.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(1.5)}
			plt.Add(level)
			ymin, ymax = math.Min(ymin, lv.Lo), math.Max(ymax, lv.Hi)
		}
		var pts plotter.XYs
		for j := range l.X {
			if finite(l.X[j]) && finite(l.Y[j]) && l.Y[j] > 0 {
				pts = append(pts, plotter.XY{X: l.X[j], Y: l.Y[j]})
				ymin, ymax = math.Min(ymin, l.Y[j]), math.Max(ymax, l.Y[j])
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, nil, err
		}
		glyph := draw.GlyphStyle{Color: c, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		sc.GlyphStyle = glyph
		plt.Add(sc)
		legend.Add(l.Name, styleThumb{line: draw.LineStyle{Color: c, Width: vg.Points(1.5)}, glyph: &glyph})
		drew = true
	}
	if !drew {
		return nil, nil, errNoPoints
	}
	logAxis(&plt.Y, ymin, ymax)
	plt.X.Min, plt.X.Max = -0.6, float64(max(len(p.Commits), 1))-0.4
	plt.X.Tick.Marker = commitTicks(p.Commits)
	plt.X.Tick.Label.Rotation = math.Pi / 2
	plt.X.Tick.Label.XAlign, plt.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	plt.X.Tick.Label.Font.Size = vg.Points(8)
	band := draw.GlyphStyle{Color: color.NRGBA{R: 120, G: 120, B: 120, A: 90}, Radius: vg.Points(5), Shape: draw.BoxGlyph{}}
	legend.Add("noise band (2 sigma between runs)", styleThumb{glyph: &band})
	return plt, &legend, nil
}

// commitTicks labels each slot with its commit.
type commitTicks []string

// Ticks implements plot.Ticker.
func (t commitTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for i, c := range t {
		if x := float64(i); x >= lo && x <= hi {
			out = append(out, plot.Tick{Value: x, Label: c})
		}
	}
	return out
}
