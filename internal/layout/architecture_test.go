package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the module's folder, from this package's.
const root = "../.."

// docPackages are the package names ARCHITECTURE.md qualifies identifiers
// with (`experiments.Judge`) and the folders of the packages of that name
// (the toy paper's mirror the module's): a name passes if one declares it.
var docPackages = map[string][]string{
	"experiments": {"experiments"}, "experimentstest": {"experiments/experimentstest"}, "bench": {"bench"},
	"report": {"bench/report"}, "results": {"results"}, "runner": {"runner"},
	"impls": {"impls", "example/impls"}, "problems": {"problems"}, "driver": {"impls/cuda/driver"},
	"minplus": {"problems/minplus"}, "domination": {"problems/domination"}, "papers": {"experiments/papers"},
	"cli":    {"cmd/semibench/internal/cli"},
	"widest": {"example/problems/widest", "example/impls/cpu/widest", "example/experiments/widest"},
}

var (
	fence     = regexp.MustCompile("(?ms)^[ \t]*```.*?^[ \t]*```")
	codeSpan  = regexp.MustCompile("`([^`]+)`")
	pathLike  = regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/?$`)
	qualified = regexp.MustCompile(`^([a-z]+)\.([A-Z][A-Za-z0-9_]*)`)
)

// docSpans are the inline code spans of a Markdown text, outside fenced
// blocks, with their line breaks made spaces.
func docSpans(doc string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(fence.ReplaceAllString(doc, ""), -1) {
		out = append(out, strings.Join(strings.Fields(m[1]), " "))
	}
	return out
}

// TestArchitectureNames: every module path ARCHITECTURE.md quotes
// (`example/...`, `experiments/...`) exists, and every
// identifier it qualifies by a package (`experiments.Judge`) is declared
// there, so the map cannot drift from the code unseen.
func TestArchitectureNames(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	decls := map[string][]string{}
	paths, names := 0, 0
	for _, span := range docSpans(string(doc)) {
		if pathLike.MatchString(span) && strings.Contains(span, "/") {
			top, _, _ := strings.Cut(span, "/")
			if !slices.Contains(topLevel, top) {
				continue // an implementation name (cpu/fast), a pattern
			}
			paths++
			if _, err := os.Stat(filepath.Join(root, span)); err != nil {
				t.Errorf("ARCHITECTURE.md names %s, which does not exist", span)
			}
			continue
		}
		m := qualified.FindStringSubmatch(span)
		if m == nil || docPackages[m[1]] == nil {
			continue
		}
		names++
		found := false
		for _, dir := range docPackages[m[1]] {
			if decls[dir] == nil {
				decls[dir] = declared(t, filepath.Join(root, dir))
			}
			found = found || slices.Contains(decls[dir], m[2])
		}
		if !found {
			t.Errorf("ARCHITECTURE.md names %s.%s, which no package %s (%s) declares", m[1], m[2], m[1], strings.Join(docPackages[m[1]], ", "))
		}
	}
	if paths < 10 || names < 10 {
		t.Errorf("checked %d paths and %d names in ARCHITECTURE.md; want at least 10 of each", paths, names)
	}
}

// declared lists the top-level names the non-test files in dir declare.
func declared(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					out = append(out, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						out = append(out, s.Name.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// TestDocSpans: spans outside fences, a span broken over lines joined.
func TestDocSpans(t *testing.T) {
	got := docSpans("a `x/y` b\n```\n`not/this`\n```\n`semibench\nreproduce`")
	if want := []string{"x/y", "semibench reproduce"}; !slices.Equal(got, want) {
		t.Errorf("docSpans = %q, want %q", got, want)
	}
}

// arrowBlock is the fenced block after the sentence that opens
// ARCHITECTURE.md's diagram of the imports.
var arrowBlock = regexp.MustCompile("(?s)The direction of the arrows.*?```\n(.*?)```")

// arrows reads the diagram: each line "A, B -> C -> D" gives the pairs
// (A, C), (B, C), (C, D), a node's own commas (inside parentheses) kept.
func arrows(block string) (pairs [][2]string) {
	for _, line := range strings.Split(block, "\n") {
		var prev []string
		for _, seg := range strings.Split(line, "->") {
			nodes := splitTop(seg)
			for _, a := range prev {
				for _, b := range nodes {
					pairs = append(pairs, [2]string{a, b})
				}
			}
			prev = nodes
		}
	}
	return pairs
}

// splitTop splits s at the commas outside parentheses, trimming each part.
func splitTop(s string) (out []string) {
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" {
		out = append(out, last)
	}
	return out
}

// nodeMatches reports whether the package pkg (relative to the module) is
// one of a diagram's node: "experiments (core)" is experiments itself,
// "internal/ (a, b)" internal/a or internal/b, "<p>" (or any "<name>") any
// one folder, "<paper>" a paper's, and "example/..." the folder and below.
func nodeMatches(node, pkg string) bool {
	name, note, _ := strings.Cut(node, " (")
	if name == "internal/" {
		for _, leaf := range strings.Split(strings.TrimSuffix(note, ")"), ",") {
			if pkg == "internal/"+strings.TrimSpace(leaf) {
				return true
			}
		}
		return false
	}
	if base, ok := strings.CutSuffix(name, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	want, got := strings.Split(name, "/"), strings.Split(pkg, "/")
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		switch {
		case want[i] == "<paper>":
			if paperOf(pkg) == "" {
				return false
			}
		case strings.HasPrefix(want[i], "<") && strings.HasSuffix(want[i], ">"):
		case want[i] != got[i]:
			return false
		}
	}
	return true
}

// arrowHolds reports whether some package of node a imports, directly,
// some package of node b, by the import lines of `go list`.
func arrowHolds(a, b string, imports map[string][]string) bool {
	for pkg, imps := range imports {
		if !nodeMatches(a, pkg) {
			continue
		}
		for _, imp := range imps {
			if nodeMatches(b, imp) {
				return true
			}
		}
	}
	return false
}

// TestArchitectureArrows: every arrow of ARCHITECTURE.md's diagram is a
// direct import of the module.
func TestArchitectureArrows(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := arrowBlock.FindSubmatch(doc)
	if m == nil {
		t.Fatal("ARCHITECTURE.md has no diagram after \"The direction of the arrows\"")
	}
	imports := map[string][]string{}
	for _, line := range goList(t, "{{.ImportPath}} {{join .Imports \" \"}}") {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok {
			continue
		}
		for _, imp := range fields[1:] {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				imports[pkg] = append(imports[pkg], rel)
			}
		}
	}
	pairs := arrows(string(m[1]))
	for _, p := range pairs {
		if !arrowHolds(p[0], p[1], imports) {
			t.Errorf("ARCHITECTURE.md draws %s -> %s, but no package of the first imports one of the second", p[0], p[1])
		}
	}
	if len(pairs) < 20 {
		t.Errorf("read %d arrows from ARCHITECTURE.md's diagram; want at least 20", len(pairs))
	}
}

// TestArrows holds the diagram's reader and matcher to a line of each kind.
func TestArrows(t *testing.T) {
	got := arrows("a, b (x, y) -> c\n")
	if want := [][2]string{{"a", "c"}, {"b (x, y)", "c"}}; !slices.Equal(got, want) {
		t.Errorf("arrows = %q, want %q", got, want)
	}
	for _, c := range []struct {
		node, pkg string
		want      bool
	}{
		{"experiments (core)", "experiments", true},
		{"experiments (core)", "experiments/kleene", false},
		{"experiments/<paper>", "experiments/kleene", true},
		{"experiments/<paper>", "experiments/papers", false},
		{"problems/<p>", "problems/lap", true},
		{"problems/<p>", "problems", false},
		{"generators/<g>", "generators/trees", true},
		{"internal/ (outfile, stats)", "internal/stats", true},
		{"internal/ (outfile, stats)", "internal/digest", false},
		{"example/...", "example/impls/cpu/widest", true},
		{"example/...", "examples", false},
	} {
		if got := nodeMatches(c.node, c.pkg); got != c.want {
			t.Errorf("nodeMatches(%q, %q) = %v", c.node, c.pkg, got)
		}
	}
}
