package report

import (
	"errors"
	"fmt"
	"hash/fnv"
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

// Series is one named line of a plot (or one stacked segment per bar, or
// one bar per category).
type Series struct {
	Name string
	X, Y []float64
	// Impl is the implementation the series measures, or whose published
	// figures it holds (with Paper): it picks the series' colour, the same
	// in every plot (ImplColor). Empty: Name picks it.
	Impl string
	// Group is the variant the series belongs to (a cost range, a size, a
	// numbering): series of one group share a line style and marker shape,
	// and when a plot has several groups the legend lists the
	// implementations (colours) and the groups (styles) apart, so Name
	// should then not repeat the group.
	Group string
	// Paper marks a paper's published values: drawn as hollow markers in
	// the colour of Impl, without a line.
	Paper bool
	// Points draws markers without a line: for x values that are not one
	// quantity varied along a series (independent cases sorted by a metric).
	Points bool
}

// Plot describes a figure. Save draws it with gonum/plot.
type Plot struct {
	// Name is the file stem: Save writes Name.png and Name.svg.
	Name string
	// Title may hold a line break: what is plotted, then its source.
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
	// Categories makes the x axis categorical: each X is an index into
	// Categories, and every series is drawn as a bar beside the others at
	// its category (a grouped bar chart).
	Categories []string
	// Notes are lines printed under the axes: what the plot cannot show
	// and why ("cuda/paper: unavailable on this machine (no GPU)").
	Notes []string
}

// Figure geometry: the axes take plotWidth x plotHeight, the legend a
// column to their right as wide as its longest entry.
const (
	plotWidth  = 7 * vg.Inch
	plotHeight = 4 * vg.Inch
	legendGap  = 8  // points between the axes and the legend, and after it
	legendTop  = 24 // points from the top edge to the first entry (below the title line)
)

// Save writes the plot to dir/Name.png and dir/Name.svg, creating dir, and
// returns the paths written. A plot with no drawable point (see Empty:
// no empty figure is written, its absence belongs in the report), a series whose
// X and Y differ in length, or a Name that is empty or holds a path
// separator is an error.
func (p *Plot) Save(dir string) (paths []string, err error) {
	return saveFigure(dir, p.Name, []string{"png", "svg"}, p.Notes, p.build)
}

// saveFigure builds a figure and writes it as dir/name.<ext> for each
// extension, creating dir, and returns the paths written: the one place
// where every figure of the package is checked, drawn and written. A name
// that is empty or holds a path separator, or a build that fails, is an
// error, and so is a panic of gonum/plot's on a degenerate input (kept
// inside).
func saveFigure(dir, name string, exts, notes []string, build func() (*plot.Plot, *plot.Legend, error)) (paths []string, err error) {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return nil, fmt.Errorf("plot %q: the name must be a plain file stem", name)
	}
	defer func() {
		if v := recover(); v != nil {
			paths, err = nil, fmt.Errorf("plot %s: drawing failed: %v", name, v)
		}
	}()
	plt, legend, err := build()
	if err != nil {
		return nil, fmt.Errorf("plot %s: %w", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plot %s: %w", name, err)
	}
	for _, ext := range exts {
		path := filepath.Join(dir, name+"."+ext)
		if err := writeFigure(path, ext, plt, legend, notes); err != nil {
			return paths, fmt.Errorf("plot %s: writing %s: %w", name, path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// writeFigure draws the plot with its legend in a column to the right of
// the axes (gonum would draw it over the data) and its notes in lines
// under both, and writes it to path.
func writeFigure(path, format string, plt *plot.Plot, legend *plot.Legend, notes []string) error {
	r := legend.Rectangle(draw.Canvas{})
	legendW := r.Max.X - r.Min.X + 2*legendGap
	lines := wrapNotes(notes)
	sty := noteStyle()
	footH := vg.Length(0)
	if len(lines) > 0 {
		footH = vg.Length(len(lines))*sty.Font.Size*1.3 + legendGap
	}
	c, err := draw.NewFormattedCanvas(plotWidth+legendW, plotHeight+footH, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	plt.Draw(draw.Crop(dc, 0, -legendW, footH, 0))
	legend.Draw(draw.Crop(dc, plotWidth+legendGap, 0, footH, -legendTop))
	for i, l := range lines {
		y := footH - legendGap/2 - vg.Length(i+1)*sty.Font.Size*1.3
		dc.FillText(sty, vg.Point{X: legendGap, Y: y}, l)
	}
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

// noteStyle is the text style of a plot's notes.
func noteStyle() draw.TextStyle {
	sty := plot.New().X.Label.TextStyle
	sty.Font.Size = vg.Points(10)
	sty.Color = color.RGBA{R: 150, G: 20, B: 20, A: 255}
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	return sty
}

// noteWidth is the most characters a note line holds before it wraps.
const noteWidth = 130

// wrapNotes breaks the notes into lines of at most noteWidth characters
// at spaces; a continued note's lines are indented.
func wrapNotes(notes []string) []string {
	var out []string
	for _, n := range notes {
		line := ""
		for _, w := range strings.Fields(n) {
			if line != "" && len(line)+1+len(w) > noteWidth {
				out = append(out, line)
				line = "   "
			}
			if line != "" && line != "   " {
				line += " "
			}
			line += w
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return out
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
	switch {
	case p.Stacked:
		err = p.addBars(plt, &legend)
	case len(p.Categories) > 0:
		err = p.addGroupedBars(plt, &legend)
	default:
		err = p.addLines(plt, &legend)
	}
	if err != nil {
		return nil, nil, err
	}
	return plt, &legend, nil
}

// Empty reports whether the plot has no point it would draw: no series,
// or only points that are not finite, non-positive on a log axis, or (for
// categories) no category's index. Such a plot is not drawn (Save refuses
// it); the caller says in the report's notes why it is missing.
func (p *Plot) Empty() bool {
	for _, s := range p.Series {
		for j := range s.X {
			if j >= len(s.Y) {
				break
			}
			x, y := s.X[j], s.Y[j]
			if !finite(x) || !finite(y) {
				continue
			}
			switch {
			case p.Stacked:
				return false
			case len(p.Categories) > 0:
				if k := int(x); float64(k) == x && k >= 0 && k < len(p.Categories) && (!p.LogY || y > 0) {
					return false
				}
			default:
				if (!p.LogX || x > 0) && (!p.LogY || y > 0) {
					return false
				}
			}
		}
	}
	return true
}

// errNoPoints is returned for a plot with nothing to draw.
var errNoPoints = errors.New("no drawable points (empty series, or only non-positive values on a log axis)")

// implColors fixes the colour of each implementation of the project, so
// that one implementation looks the same in every plot: CPU ones in blues
// and greens, CUDA ones in reds, oranges and purples, the published
// code's port ("paper") darkest. Others hash into fallbackColors.
var implColors = map[string]color.RGBA{
	"cpu/paper":                  {R: 31, G: 90, B: 180, A: 255},
	"cpu/fast":                   {R: 23, G: 160, B: 190, A: 255},
	"cpu/jv":                     {R: 44, G: 150, B: 44, A: 255},
	"cpu/sparse":                 {R: 120, G: 150, B: 30, A: 255},
	"cpu/sgje":                   {R: 90, G: 60, B: 160, A: 255},
	"cpu/sequential":             {R: 90, G: 90, B: 90, A: 255},
	"cpu/parallel":               {R: 31, G: 90, B: 180, A: 255},
	"cpu/vectorial":              {R: 44, G: 150, B: 44, A: 255},
	"cpu/vectorial-compensated":  {R: 23, G: 160, B: 190, A: 255},
	"cpu/hungarian-n3":           {R: 120, G: 150, B: 30, A: 255},
	"cpu/auction":                {R: 140, G: 86, B: 75, A: 255},
	"cpu/systolic":               {R: 31, G: 90, B: 180, A: 255},
	"cpu/build":                  {R: 31, G: 90, B: 180, A: 255},
	"cuda/paper":                 {R: 200, G: 30, B: 30, A: 255},
	"cuda/fast":                  {R: 240, G: 130, B: 0, A: 255},
	"cuda/sparse":                {R: 200, G: 60, B: 150, A: 255},
	"cuda/hungarian-n3":          {R: 150, G: 50, B: 190, A: 255},
	"cuda/parallel":              {R: 200, G: 30, B: 30, A: 255},
	"cuda/vectorial":             {R: 240, G: 130, B: 0, A: 255},
	"cuda/vectorial-compensated": {R: 200, G: 60, B: 150, A: 255},
	"cuda/systolic":              {R: 200, G: 30, B: 30, A: 255},
	"cuda/build":                 {R: 200, G: 30, B: 30, A: 255},
	"reference":                  {R: 0, G: 0, B: 0, A: 255},
}

// fallbackColors colour the series of names outside implColors.
var fallbackColors = []color.RGBA{
	{R: 70, G: 70, B: 70, A: 255},
	{R: 140, G: 86, B: 75, A: 255},
	{R: 188, G: 189, B: 34, A: 255},
	{R: 23, G: 190, B: 207, A: 255},
	{R: 227, G: 119, B: 194, A: 255},
	{R: 148, G: 103, B: 189, A: 255},
}

// ImplColor is the colour of an implementation's series in every plot:
// fixed for the project's implementations, otherwise picked by a hash of
// the name (the same name, the same colour).
func ImplColor(impl string) color.RGBA {
	if c, ok := implColors[impl]; ok {
		return c
	}
	h := fnv.New32a()
	h.Write([]byte(impl))
	return fallbackColors[h.Sum32()%uint32(len(fallbackColors))]
}

// colorKey is the name that picks a series' colour.
func (s Series) colorKey() string {
	if s.Impl != "" {
		return s.Impl
	}
	return s.Name
}

// glyphs pairs a hollow marker (the paper's values) with a filled one
// (measured values) per group.
var glyphs = [][2]draw.GlyphDrawer{
	{draw.RingGlyph{}, draw.CircleGlyph{}},
	{draw.TriangleGlyph{}, draw.PyramidGlyph{}},
	{draw.SquareGlyph{}, draw.BoxGlyph{}},
	{draw.CrossGlyph{}, draw.CrossGlyph{}},
	{draw.PlusGlyph{}, draw.PlusGlyph{}},
}

// groupIndex numbers the series' groups in order of first appearance.
func (p *Plot) groupIndex() (idx map[string]int, order []string) {
	idx = map[string]int{}
	for _, s := range p.Series {
		if _, ok := idx[s.Group]; !ok {
			idx[s.Group] = len(order)
			order = append(order, s.Group)
		}
	}
	return idx, order
}

// seriesStyle is how a series is drawn: its line (zero width: none) and
// its markers.
func seriesStyle(s Series, group int) (draw.LineStyle, draw.GlyphStyle) {
	c := ImplColor(s.colorKey())
	line := draw.LineStyle{Color: c, Width: vg.Points(1.5), Dashes: plotutil.Dashes(group)}
	g := glyphs[group%len(glyphs)]
	glyph := draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: g[1]}
	if s.Points {
		line.Width, glyph.Radius = 0, vg.Points(2)
	}
	if s.Paper {
		line.Width = 0
		glyph.Shape, glyph.Radius = g[0], vg.Points(4.5)
	}
	return line, glyph
}

// styleThumb draws a legend entry from a line and glyph style.
type styleThumb struct {
	line  draw.LineStyle
	glyph *draw.GlyphStyle
}

// Thumbnail implements plot.Thumbnailer.
func (t styleThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	if t.line.Width > 0 {
		c.StrokeLine2(t.line, c.Min.X, y, c.Max.X, y)
	}
	if t.glyph != nil {
		c.DrawGlyph(*t.glyph, c.Center())
	}
}

// legendGray draws the group entries of a factored legend.
var legendGray = color.Gray{Y: 60}

// addLegend lists the series. With several groups it is factored: one
// entry per series name in its colour (line for measured, hollow marker
// for the paper's values), then one gray entry per group in its style.
func (p *Plot) addLegend(legend *plot.Legend, drawn []bool, st []style) {
	_, order := p.groupIndex()
	factored := len(order) > 1
	seen := map[string]bool{}
	for i, s := range p.Series {
		if !drawn[i] || seen[s.Name] {
			continue
		}
		seen[s.Name] = true
		line, glyph := st[i].line, st[i].glyph
		if factored && !s.Points {
			// the group's entry shows the dashes and markers
			line.Dashes = nil
			if !s.Paper {
				glyph.Shape = glyphs[0][1]
			} else {
				glyph.Shape = glyphs[0][0]
			}
		}
		if factored && !s.Paper && !s.Points {
			legend.Add(s.Name, styleThumb{line: line})
			continue
		}
		legend.Add(s.Name, styleThumb{line: line, glyph: &glyph})
	}
	if !factored {
		return
	}
	for k, g := range order {
		if g == "" {
			continue
		}
		line, glyph := seriesStyle(Series{Name: "group"}, k)
		line.Color, glyph.Color = legendGray, legendGray
		legend.Add(g, styleThumb{line: line, glyph: &glyph})
	}
}

func (p *Plot) addLines(plt *plot.Plot, legend *plot.Legend) error {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	st := p.styles()
	drawn := make([]bool, len(p.Series))
	drewAny := false
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
		line.LineStyle, points.GlyphStyle = st[i].line, st[i].glyph
		if line.Width > 0 {
			plt.Add(line)
		}
		plt.Add(points)
		drawn[i], drewAny = true, true
	}
	if !drewAny {
		return errNoPoints
	}
	p.addLegend(legend, drawn, st)
	if p.LogX {
		logAxis(&plt.X, xmin, xmax)
	}
	if p.LogY {
		logAxis(&plt.Y, ymin, ymax)
	}
	return nil
}

// groupedBars draws one series as bars beside the other series' bars at
// each category (X is the category's index). Bars rise from the bottom of
// the axis, so they also stand on a log axis.
type groupedBars struct {
	vals       []float64 // per category; NaN: no bar
	offset, w  vg.Length
	fill, edge color.Color
	hollow     bool // the paper's values: outlined, lightly filled
}

// Plot implements plot.Plotter.
func (b *groupedBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	base := trY(math.Max(plt.Y.Min, 0))
	if _, ok := plt.Y.Scale.(plot.LogScale); ok {
		base = trY(plt.Y.Min)
	}
	for i, v := range b.vals {
		if !finite(v) {
			continue
		}
		x := trX(float64(i)) + b.offset - b.w/2
		pts := []vg.Point{{X: x, Y: base}, {X: x, Y: trY(v)}, {X: x + b.w, Y: trY(v)}, {X: x + b.w, Y: base}}
		poly := c.ClipPolygonY(pts)
		c.FillPolygon(b.fillColor(), poly)
		c.StrokeLines(draw.LineStyle{Color: b.edge, Width: vg.Points(0.7)}, c.ClipLinesY(append(pts, pts[0]))...)
	}
}

func (b *groupedBars) fillColor() color.Color {
	if !b.hollow {
		return b.fill
	}
	r, g, bl, _ := b.fill.RGBA()
	tint := func(v uint32) uint8 { return uint8(255 - (255-v>>8)/4) }
	return color.RGBA{R: tint(r), G: tint(g), B: tint(bl), A: 255}
}

// DataRange implements plot.DataRanger.
func (b *groupedBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, v := range b.vals {
		if finite(v) {
			ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		}
	}
	return -0.5, float64(len(b.vals)) - 0.5, math.Min(ymin, 0), ymax
}

// Thumbnail implements plot.Thumbnailer.
func (b *groupedBars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(b.fillColor(), c.ClipPolygonY(pts))
	c.StrokeLines(draw.LineStyle{Color: b.edge, Width: vg.Points(0.7)}, append(pts, pts[0]))
}

// addGroupedBars draws a bar per series at each category, the series of
// a category side by side in the order given; a series' colour is its
// implementation's, a group (if several) darkens or lightens it, and the
// paper's values are lightly filled outlines.
func (p *Plot) addGroupedBars(plt *plot.Plot, legend *plot.Legend) error {
	n := len(p.Categories)
	var bars []*groupedBars
	var names []string
	ymin, ymax := math.Inf(1), math.Inf(-1)
	st := p.styles()
	for i, s := range p.Series {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = math.NaN()
		}
		drawn := false
		for j, x := range s.X {
			k, y := int(x), s.Y[j]
			if float64(k) != x || k < 0 || k >= n || !finite(y) || (p.LogY && y <= 0) {
				continue
			}
			vals[k], drawn = y, true
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
		if !drawn {
			continue
		}
		c := st[i].fill
		bars = append(bars, &groupedBars{vals: vals, fill: c, edge: color.Gray{Y: 40}, hollow: s.Paper})
		names = append(names, s.Name)
	}
	if len(bars) == 0 {
		return errNoPoints
	}
	slot := math.Min(float64(plotWidth.Points())*0.8/float64(n), 80)
	w := vg.Points(slot / float64(len(bars)))
	for i, b := range bars {
		b.w = w
		b.offset = vg.Points((float64(i) - float64(len(bars)-1)/2) * w.Points())
		plt.Add(b)
		legend.Add(names[i], b)
	}
	plt.NominalX(p.Categories...)
	plt.X.Min, plt.X.Max = -0.6, float64(n)-0.4
	if n > 6 {
		plt.X.Tick.Label.Rotation = math.Pi / 5
		plt.X.Tick.Label.XAlign = draw.XRight
		plt.X.Tick.Label.YAlign = draw.YCenter
	}
	if p.LogY {
		logAxis(&plt.Y, ymin, ymax)
	} else {
		plt.Y.Min = math.Min(0, ymin)
	}
	return nil
}

// shade lightens c for the groups after the first, so the groups of one
// implementation read as one colour family.
func shade(c color.RGBA, group int) color.RGBA {
	f := [...]float64{0, 0.35, 0.6, 0.75}[min(group, 3)]
	mix := func(v uint8) uint8 { return uint8(float64(v) + (255-float64(v))*f) }
	return color.RGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255}
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
	st := p.styles()
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
		bars.Color = st[i].fill
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
