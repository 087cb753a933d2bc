package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkPlotFiles asserts that Save wrote a decodable PNG and a well-formed
// SVG for the plot.
func checkPlotFiles(t *testing.T, paths []string, dir, name string) {
	t.Helper()
	want := []string{filepath.Join(dir, name+".png"), filepath.Join(dir, name+".svg")}
	if strings.Join(paths, ",") != strings.Join(want, ",") {
		t.Fatalf("paths %q, want %q", paths, want)
	}
	pngData, err := os.ReadFile(want[0])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatalf("%s: %v", want[0], err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		t.Errorf("%s: image %v too small", want[0], b)
	}
	svg, err := os.ReadFile(want[1])
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimSpace(string(svg))
	if !strings.HasPrefix(s, "<?xml") && !strings.HasPrefix(s, "<svg") {
		t.Fatalf("%s does not start like SVG: %.40q", want[1], s)
	}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", want[1], err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("%s: root element %q, want svg", want[1], root)
	}
}

func TestPlotSaveLines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "plots")
	p := Plot{
		Name: "kleene-table2-update_w", Title: "update W vs n", XLabel: "n", YLabel: "ms",
		LogX: true, LogY: true,
		Series: []Series{
			{Name: "paper xeon-e5645", X: []float64{500, 1000, 2000, 4000}, Y: []float64{142, 1067.8, 8424, 66997.8}},
			// A zero and a negative time cannot sit on a log axis: skipped.
			{Name: "cpu/fast", X: []float64{500, 1000, 2000, 4000}, Y: []float64{0, -1, 300, 2000}},
			{Name: "nan", X: []float64{500, math.NaN()}, Y: []float64{1, 2}},
		},
	}
	for i := range 9 { // more series than colours: dashes take over
		p.Series = append(p.Series, Series{Name: "s" + string(rune('a'+i)), X: []float64{1, 2}, Y: []float64{float64(i + 1), float64(i + 2)}})
	}
	paths, err := p.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkPlotFiles(t, paths, dir, p.Name)
	svg, _ := os.ReadFile(paths[1])
	for _, want := range []string{"update W vs n", "paper xeon-e5645", "cpu/fast"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestPlotSaveLinear(t *testing.T) {
	dir := t.TempDir()
	p := Plot{Name: "lin", Series: []Series{{Name: "a", X: []float64{0, 1, 2}, Y: []float64{-1, 0, 5}}}}
	paths, err := p.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkPlotFiles(t, paths, dir, "lin")
}

func TestPlotSaveStacked(t *testing.T) {
	dir := t.TempDir()
	series := []Series{
		{Name: "convert CCS", X: []float64{500, 1000, 2000}, Y: []float64{1.6, 12.3, 47.6}},
		{Name: "update W", X: []float64{500, 1000, 2000}, Y: []float64{142, 1067.8, 8424}},
		{Name: "topo sort", X: []float64{1000, 500}, Y: []float64{1.2, 0.3}}, // no 2000, other order
	}
	p := Plot{Name: "steps", Title: "relative step times", XLabel: "n", YLabel: "share", Stacked: true, LogY: true,
		Series: Relative(series)}
	paths, err := p.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkPlotFiles(t, paths, dir, "steps")
}

func TestRelative(t *testing.T) {
	rel := Relative([]Series{
		{Name: "a", X: []float64{1, 2, 3}, Y: []float64{1, 3, 0}},
		{Name: "b", X: []float64{2, 1}, Y: []float64{1, 3}},
	})
	want := [][]float64{{0.25, 0.75, 0}, {0.25, 0.75}}
	for i, s := range rel {
		for j, y := range s.Y {
			if math.Abs(y-want[i][j]) > 1e-12 {
				t.Errorf("series %d point %d = %v, want %v", i, j, y, want[i][j])
			}
		}
	}
}

func TestPlotSaveErrors(t *testing.T) {
	tests := []struct {
		name string
		p    Plot
		want string
	}{
		{"empty", Plot{Name: "empty"}, "no drawable points"},
		{"empty series", Plot{Name: "e", Series: []Series{{Name: "a"}}}, "no drawable points"},
		{"all non-positive on log", Plot{Name: "l", LogY: true, Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{0, -3}}}}, "no drawable points"},
		{"empty stacked", Plot{Name: "s", Stacked: true}, "no drawable points"},
		{"length mismatch", Plot{Name: "m", Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1}}}}, "2 x values and 1 y values"},
		{"no name", Plot{Series: []Series{{Name: "a", X: []float64{1}, Y: []float64{1}}}}, "file stem"},
		{"path in name", Plot{Name: "../x", Series: []Series{{Name: "a", X: []float64{1}, Y: []float64{1}}}}, "file stem"},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		paths, err := tc.p.Save(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if len(paths) != 0 {
			t.Errorf("%s: paths %q returned with an error", tc.name, paths)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: files written despite the error", tc.name)
		}
	}
}

func TestLogTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		labels string
		n      int
	}{
		{10, 1000, "10,100,1000", 19},         // 10..90, 100..900, 1000
		{400, 5000, "500,1000,2000,5000", 11}, // one power of ten: 2 and 5 labelled too
		{300, 800, "300,400,500,600,700,800", 6},
		{0.05, 20, "0.1,1,10", 0},
	}
	for _, tc := range tests {
		ticks := logTicks{}.Ticks(tc.lo, tc.hi)
		var labels []string
		for _, tk := range ticks {
			if tk.Value < tc.lo || tk.Value > tc.hi {
				t.Errorf("[%v, %v]: tick %v outside the range", tc.lo, tc.hi, tk.Value)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, ","); got != tc.labels {
			t.Errorf("[%v, %v]: labels %q, want %q", tc.lo, tc.hi, got, tc.labels)
		}
		if tc.n > 0 && len(ticks) != tc.n {
			t.Errorf("[%v, %v]: %d ticks, want %d", tc.lo, tc.hi, len(ticks), tc.n)
		}
	}
	if got := (logTicks{}).Ticks(0, 10); got != nil {
		t.Errorf("non-positive range gave ticks %v", got)
	}
}

func TestImplColorStable(t *testing.T) {
	first, again := ImplColor("cpu/paper"), ImplColor("cpu/paper")
	if first != again || first == ImplColor("cuda/paper") || first == ImplColor("cpu/jv") {
		t.Errorf("colours: cpu/paper %v, cuda/paper %v, cpu/jv %v", ImplColor("cpu/paper"), ImplColor("cuda/paper"), ImplColor("cpu/jv"))
	}
	if a, b := ImplColor("some/new-impl"), ImplColor("some/new-impl"); a != b {
		t.Error("an unknown name's colour is not stable")
	}
	// The paper's values take their implementation's colour, hollow, no line.
	own, _ := seriesStyle(Series{Name: "cpu/paper", Impl: "cpu/paper"}, 0)
	pl, pg := seriesStyle(Series{Name: "paper i7", Impl: "cpu/paper", Paper: true}, 0)
	if own.Color != pl.Color || pg.Color != own.Color || pl.Width != 0 {
		t.Errorf("paper style line %v glyph %v, own line %v", pl, pg, own)
	}
	// Groups change the dashes, not the colour.
	g0, _ := seriesStyle(Series{Impl: "cpu/jv"}, 0)
	g1, _ := seriesStyle(Series{Impl: "cpu/jv"}, 1)
	if g0.Color != g1.Color || len(g1.Dashes) == 0 || len(g0.Dashes) != 0 {
		t.Errorf("group styles %v and %v", g0, g1)
	}
}

func TestPlotSaveGroupedAndNotes(t *testing.T) {
	dir := t.TempDir()
	p := Plot{Name: "bars", Title: "speedup per tree\nsome paper, Fig. 5", YLabel: "speedup (x)", LogY: true,
		Categories: []string{"af_shell9", "ldoor", "cage15"},
		Series: []Series{
			{Name: "cpu/vectorial", Impl: "cpu/vectorial", X: []float64{0, 1, 2}, Y: []float64{4, 1.5, 1.2}},
			{Name: "cpu/parallel", Impl: "cpu/parallel", X: []float64{0, 2, 7, 0.5}, Y: []float64{0.7, 1.1, 3, 3}}, // 7 and 0.5 are no category
		},
		Notes: []string{"cuda/vectorial: unavailable on this machine (no GPU), not drawn"}}
	paths, err := p.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkPlotFiles(t, paths, dir, "bars")
	svg, _ := os.ReadFile(paths[1])
	for _, want := range []string{"af_shell9", "cage15", "unavailable on this machine", "cpu/parallel", "Fig. 5"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// Nothing drawable, even with notes saying why: no figure, an error.
	empty := Plot{Name: "none", Title: "CUDA", Series: []Series{{Name: "x", X: []float64{math.NaN()}, Y: []float64{1}}},
		Notes: []string{"cuda/paper: unavailable on this machine (no GPU), not drawn"}}
	if !empty.Empty() {
		t.Error("a plot of one NaN point is not Empty")
	}
	if paths, err = empty.Save(dir); err == nil || len(paths) != 0 {
		t.Errorf("an empty plot with notes was written: %q, %v", paths, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.png")); err == nil {
		t.Error("none.png written")
	}
}

func TestPlotEmpty(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     Plot
		empty bool
	}{
		{"no series", Plot{}, true},
		{"no points", Plot{Series: []Series{{Name: "a"}}}, true},
		{"NaN", Plot{Series: []Series{{Name: "a", X: []float64{1}, Y: []float64{math.NaN()}}}}, true},
		{"zero on log y", Plot{LogY: true, Series: []Series{{Name: "a", X: []float64{1}, Y: []float64{0}}}}, true},
		{"no category", Plot{Categories: []string{"a"}, Series: []Series{{Name: "a", X: []float64{1}, Y: []float64{1}}}}, true},
		{"a point", Plot{Series: []Series{{Name: "a", X: []float64{1}, Y: []float64{0}}}}, false},
		{"a bar", Plot{Categories: []string{"a"}, Series: []Series{{Name: "a", X: []float64{0}, Y: []float64{1}}}}, false},
		{"a stacked segment", Plot{Stacked: true, Series: []Series{{Name: "a", X: []float64{3}, Y: []float64{1}}}}, false},
	} {
		if got := tc.p.Empty(); got != tc.empty {
			t.Errorf("%s: Empty() = %v", tc.name, got)
		}
	}
}

func TestFactoredLegend(t *testing.T) {
	p := Plot{Name: "f", LogX: true, LogY: true}
	for _, r := range []string{"range 0.1n", "range n"} {
		p.Series = append(p.Series,
			Series{Name: "paper i7", Impl: "cpu/paper", Group: r, Paper: true, X: []float64{500, 1000}, Y: []float64{1, 4}},
			Series{Name: "cpu/paper", Impl: "cpu/paper", Group: r, X: []float64{500, 1000}, Y: []float64{2, 8}})
	}
	paths, err := p.Save(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := os.ReadFile(paths[1])
	// One entry per name, one per group.
	for want, n := range map[string]int{">paper i7<": 1, ">cpu/paper<": 1, ">range 0.1n<": 1, ">range n<": 1} {
		if got := bytes.Count(svg, []byte(want)); got != n {
			t.Errorf("SVG holds %q %d times, want %d", want, got, n)
		}
	}
}

func TestWrapNotes(t *testing.T) {
	long := strings.Repeat("word ", 60)
	lines := wrapNotes([]string{"short", long})
	if len(lines) < 3 || lines[0] != "short" {
		t.Fatalf("lines %q", lines)
	}
	for _, l := range lines {
		if len(l) > noteWidth {
			t.Errorf("line of %d characters", len(l))
		}
	}
}

// TestNoRepeatedLook: ten series of no implementation (a profile per tree)
// take ten colours; two implementations of one fixed colour in one figure
// are told apart; point series coincide visibly (distinct markers).
func TestNoRepeatedLook(t *testing.T) {
	var p Plot
	for i := range 10 {
		p.Series = append(p.Series, Series{Name: "tree" + string(rune('a'+i)), X: []float64{1, 2}, Y: []float64{1, 2}})
	}
	if r := p.RepeatedLook(); r != "" {
		t.Error(r)
	}
	colors := map[string]bool{}
	for _, l := range p.Looks() {
		colors[l.String()] = true
	}
	if len(colors) != 10 {
		t.Errorf("%d distinct looks for 10 series", len(colors))
	}
	same := Plot{Series: []Series{
		{Name: "cpu/paper", Impl: "cpu/paper", X: []float64{1}, Y: []float64{1}},
		{Name: "cpu/parallel", Impl: "cpu/parallel", X: []float64{1}, Y: []float64{1}}, // the same fixed colour
		{Name: "paper", Impl: "cpu/paper", Paper: true, X: []float64{1}, Y: []float64{1}},
	}}
	if r := same.RepeatedLook(); r != "" {
		t.Error(r)
	}
	if l := same.Looks(); l[0].Color != ImplColor("cpu/paper") || l[2].Color != l[0].Color {
		t.Errorf("the first implementation and the paper's values lost their colour: %v", l)
	}
	pts := Plot{Series: []Series{
		{Name: "a", Impl: "cpu/sequential", Points: true, X: []float64{1}, Y: []float64{1}},
		{Name: "b", Impl: "cpu/parallel", Points: true, X: []float64{1}, Y: []float64{1}},
	}}
	if l := pts.Looks(); l[0].Marker == l[1].Marker {
		t.Errorf("coinciding point series share a marker: %v", l)
	}
	// Bars, grouped and stacked, likewise.
	bars := Plot{Name: "bars", Categories: []string{"x"}}
	stacked := Plot{Name: "stacked", Stacked: true}
	for i := range 9 {
		s := Series{Name: "s" + string(rune('a'+i)), X: []float64{0}, Y: []float64{1}}
		bars.Series, stacked.Series = append(bars.Series, s), append(stacked.Series, s)
	}
	for _, q := range []Plot{bars, stacked} {
		if r := q.RepeatedLook(); r != "" {
			t.Error(r)
		}
		if _, err := q.Save(t.TempDir()); err != nil {
			t.Error(err)
		}
	}
}
