package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette colours the series that are no implementation of the project
// (a tree's profile, a step's share), in order of first appearance in a
// figure, and the series moved off a colour another series of the figure
// already has: twelve colours told apart by eye.
var palette = []color.RGBA{
	{R: 31, G: 119, B: 180, A: 255},
	{R: 255, G: 127, B: 14, A: 255},
	{R: 44, G: 160, B: 44, A: 255},
	{R: 214, G: 39, B: 40, A: 255},
	{R: 148, G: 103, B: 189, A: 255},
	{R: 140, G: 86, B: 75, A: 255},
	{R: 227, G: 119, B: 194, A: 255},
	{R: 127, G: 127, B: 127, A: 255},
	{R: 188, G: 189, B: 34, A: 255},
	{R: 23, G: 190, B: 207, A: 255},
	{R: 0, G: 0, B: 128, A: 255},
	{R: 128, G: 0, B: 0, A: 255},
}

// alike reports whether two colours are too close to tell two series
// apart by colour alone.
func alike(a, b color.RGBA) bool {
	d := func(x, y uint8) int {
		if x > y {
			return int(x - y)
		}
		return int(y - x)
	}
	return d(a.R, b.R)+d(a.G, b.G)+d(a.B, b.B) < 60
}

// Look is what tells a series apart from the others of its figure: its
// colour, its line's dash pattern (-1: no line), its marker (-1: none)
// and whether it is drawn hollow (the paper's values). Two series of one
// figure with different names never share a Look.
type Look struct {
	Color  color.RGBA
	Dashes int
	Marker int
	Hollow bool
}

func (l Look) String() string {
	return fmt.Sprintf("colour #%02x%02x%02x, dashes %d, marker %d, hollow %v", l.Color.R, l.Color.G, l.Color.B, l.Dashes, l.Marker, l.Hollow)
}

// Looks returns the look of each series of the plot, as Save draws it.
func (p *Plot) Looks() []Look {
	st := p.styles()
	out := make([]Look, len(st))
	for i, s := range st {
		out[i] = s.look
	}
	return out
}

// RepeatedLook returns a description of two series of different names
// that the figure would draw alike, or "" when every series reads apart.
func (p *Plot) RepeatedLook() string {
	looks := p.Looks()
	for i := range looks {
		for j := range i {
			a, b := looks[i], looks[j]
			if p.Series[i].Name != p.Series[j].Name && alike(a.Color, b.Color) && a.Dashes == b.Dashes && a.Marker == b.Marker && a.Hollow == b.Hollow {
				return fmt.Sprintf("%q and %q are drawn alike (%v)", p.Series[j].Name, p.Series[i].Name, a)
			}
		}
	}
	return ""
}

// style is how one series is drawn.
type style struct {
	line  draw.LineStyle // Width 0: no line
	glyph draw.GlyphStyle
	fill  color.RGBA // bars
	look  Look
}

// pointShapes tell the point series of one figure apart (accuracy plots
// whose series coincide): the later ones hollow or open and larger, so
// one drawn over another leaves it visible.
var pointShapes = []struct {
	g draw.GlyphDrawer
	r vg.Length
}{
	{draw.CircleGlyph{}, 2.5},
	{draw.RingGlyph{}, 4.5},
	{draw.CrossGlyph{}, 4},
	{draw.PlusGlyph{}, 5.5},
	{draw.TriangleGlyph{}, 6},
	{draw.SquareGlyph{}, 6.5},
	{draw.PyramidGlyph{}, 3},
	{draw.BoxGlyph{}, 2.5},
}

// styles lays out the styles of the plot's series. A series' colour is
// its implementation's (ImplColor), a series of no implementation takes
// the next palette colour; its group picks the dashes and markers (lines)
// or the shade (bars). Then, in order, a series of a new name whose look
// another name already has is moved to the first palette colour (and, when
// those run out, dash pattern) that no other name of the figure has.
func (p *Plot) styles() []style {
	gi, _ := p.groupIndex()
	bars := p.Stacked || len(p.Categories) > 0
	// colours per name, in order of first appearance
	nameColor := map[string]color.RGBA{}
	nameShift := map[string]int{} // extra dash offset
	var names []string
	used := func(c color.RGBA, except string) bool {
		for _, n := range names {
			if n != except && alike(nameColor[n], c) {
				return true
			}
		}
		return false
	}
	free := 0
	pointIdx := map[string]int{}
	keyColor := map[string]color.RGBA{} // series of one implementation share a colour
	for i, s := range p.Series {
		if _, ok := nameColor[s.Name]; ok {
			continue
		}
		c, seen := keyColor[s.colorKey()]
		_, fixed := implColors[s.colorKey()]
		switch {
		case p.Stacked:
			c = palette[i%len(palette)]
		case seen:
		case fixed:
			c = ImplColor(s.colorKey())
		default:
			for free < len(palette) && used(palette[free], "") {
				free++
			}
			c = palette[free%len(palette)]
			free++
		}
		keyColor[s.colorKey()] = c
		nameColor[s.Name] = c
		names = append(names, s.Name)
		if s.Points && !s.Paper {
			pointIdx[s.Name] = len(pointIdx)
		}
	}
	out := make([]style, len(p.Series))
	build := func(i int) style {
		s := p.Series[i]
		c := nameColor[s.Name]
		g := gi[s.Group]
		if bars {
			if !p.Stacked {
				c = shade(c, g)
			}
			return style{fill: c, look: Look{Color: c, Dashes: -1, Marker: -1, Hollow: s.Paper}}
		}
		dash := g + nameShift[s.Name]
		line, glyph := seriesStyle(s, dash)
		line.Color, glyph.Color = c, c
		lk := Look{Color: c, Dashes: dash % len(plotutil.DefaultDashes), Marker: dash % len(glyphs), Hollow: s.Paper}
		if s.Points && !s.Paper {
			k := pointIdx[s.Name] % len(pointShapes)
			glyph.Shape, glyph.Radius = pointShapes[k].g, vg.Points(float64(pointShapes[k].r))
			lk.Marker = len(glyphs) + k
		}
		if line.Width == 0 {
			lk.Dashes = -1
		}
		return style{line: line, glyph: glyph, look: lk}
	}
	for i := range p.Series {
		out[i] = build(i)
	}
	// Move the later of two names drawn alike.
	for i := range p.Series {
		for tries := 0; tries < len(palette)*len(plotutil.DefaultDashes); tries++ {
			clash := false
			for j := range i {
				a, b := out[i].look, out[j].look
				if p.Series[i].Name != p.Series[j].Name && alike(a.Color, b.Color) && a.Dashes == b.Dashes && a.Marker == b.Marker && a.Hollow == b.Hollow {
					clash = true
					break
				}
			}
			if !clash {
				break
			}
			name := p.Series[i].Name
			moved := false
			for _, c := range palette {
				if !used(c, name) {
					nameColor[name], moved = c, true
					break
				}
			}
			if !moved {
				// every palette colour taken: the next dash pattern
				nameShift[name]++
				nameColor[name] = palette[(tries+i)%len(palette)]
			}
			for k := range p.Series {
				if p.Series[k].Name == name {
					out[k] = build(k)
				}
			}
		}
	}
	return out
}
