package cli

import (
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDescriptors: every problem of the five papers has its solve, every
// input its gen; each names itself in its usage, says what it does, and
// its default implementation is one --impl takes.
func TestDescriptors(t *testing.T) {
	var names []string
	for _, s := range Solvers() {
		names = append(names, s.Name)
		if !strings.HasPrefix(s.Usage, "solve "+s.Name+" ") || s.Summary == "" || s.Out == "" || s.Flags == nil {
			t.Errorf("solve %s: usage %q, summary %q, out %q", s.Name, s.Usage, s.Summary, s.Out)
		}
		if impls := s.Impls(); len(impls) == 0 || (s.DefaultImpl != "" && !slices.Contains(impls, s.DefaultImpl)) {
			t.Errorf("solve %s: default %q not among %v", s.Name, s.DefaultImpl, impls)
		}
		// Its flags declare on a fresh set without clashing with the common ones.
		fs := flag.NewFlagSet(s.Name, flag.ContinueOnError)
		fs.String("in", "", "")
		fs.String("impl", "", "")
		fs.String("out", "", "")
		s.Flags(fs, &Common{})
	}
	if want := []string{"apsp", "domination", "kleene", "lap", "treefix"}; !slices.Equal(names, want) {
		t.Errorf("solvers %v, want %v", names, want)
	}
	names = nil
	for _, g := range Generators() {
		names = append(names, g.Name)
		if !strings.HasPrefix(g.Usage, "gen "+g.Name+" ") || g.Summary == "" || g.Out == "" {
			t.Errorf("gen %s: usage %q, summary %q, out %q", g.Name, g.Usage, g.Summary, g.Out)
		}
	}
	if want := []string{"apsp", "dag", "domination", "lap", "tree"}; !slices.Equal(names, want) {
		t.Errorf("generators %v, want %v", names, want)
	}
}

// TestSummary: the line of the output convention, a check's failure in
// place of ok.
func TestSummary(t *testing.T) {
	a := &Answer{Size: "n=3, 2 arcs", Time: 1234567 * time.Nanosecond}
	if got, want := a.Summary("kleene", "cpu/fast"), "kleene cpu/fast: n=3, 2 arcs, 1.235 ms, check: ok"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	a.Check = errors.New("X*[1,2] above FLT_MAX")
	if got := a.Summary("kleene", "cpu/fast"); !strings.HasSuffix(got, "check: X*[1,2] above FLT_MAX") {
		t.Errorf("failed check: %q", got)
	}
}

// TestDeclaredTwice: a second descriptor of one name panics at start-up.
func TestDeclaredTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("a repeated name was accepted")
		}
	}()
	list := []*Generator{{Name: "a"}, {Name: "b"}}
	insertSorted(list, &Generator{Name: "a"}, func(g *Generator) string { return g.Name })
}
