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
