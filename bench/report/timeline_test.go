package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTimelinePlotSave: a timeline with two levels is drawn to PNG and
// SVG; one without a point is refused, as is a name with a slash.
func TestTimelinePlotSave(t *testing.T) {
	dir := t.TempDir()
	p := TimelinePlot{Name: "tl", Title: "a cell", Commits: []string{"a", "b", "c"},
		Lines: []TimelineLine{{Name: "cuda/fast n=1", Impl: "cuda/fast", X: []float64{0, 0, 1, 2}, Y: []float64{10, 10.3, 7, 7.1},
			Levels: []TimelineLevel{{From: 0, To: 0, Y: 10.1, Lo: 9.5, Hi: 10.7}, {From: 1, To: 2, Y: 7.05, Lo: 6.6, Hi: 7.5}}}}}
	paths, err := p.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Fatalf("wrote %v, want a PNG and an SVG", paths)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "tl.svg"))
	if err != nil || !strings.Contains(string(svg), "cuda/fast n=1") {
		t.Errorf("the SVG lacks the line's name (err %v)", err)
	}
	empty := TimelinePlot{Name: "empty", Commits: []string{"a"}, Lines: []TimelineLine{{Name: "x"}}}
	if _, err := empty.Save(dir); err == nil {
		t.Error("a plot without a point was drawn")
	}
	bad := p
	bad.Name = "a/b"
	if _, err := bad.Save(dir); err == nil {
		t.Error("a name with a slash was accepted")
	}
}
