package layout

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/semibench/semibench/"

// rule forbids packages whose path (relative to the module) starts with
// from to depend, directly or not, on a package starting with to.
type rule struct{ from, to, why string }

var rules = []rule{
	{"impls/cpu/", module + "impls/cuda", "a CPU implementation never needs a GPU package"},
	{"generators/", module + "impls/", "generators import no implementation"},
	{"problems/", module + "impls/", "a problem package is what every backend shares"},
	{"problems/", module + "generators/", "a problem owns its definitions; generators import problems, never the reverse"},
	{"impls/", module + "bench/report", "implementations record; they do not render"},
	{"impls/", "gonum.org/v1/plot", "implementations do not pull in plotting"},
	{"impls/", "github.com/olekukonko/tablewriter", "implementations do not pull in tables"},
	{"problems/", module + "bench/report", "problem packages do not render"},
	{"bench", module + "bench/report", "the measuring core does not render"},
	{"kernels", module + "impls/", "kernel sources depend on no implementation or driver package"},
}

// topLevel are the module's top-level folders that may hold packages: a
// problem's own packages (its semirings, matrix types, simulations) go
// under problems/<p>, not beside them.
var topLevel = []string{
	"bench", "cmd", "example", "experiments", "generators", "history", "impls", "internal",
	"kernels", "mtx", "problems", "results", "runner",
}

// importRules forbid packages starting with from to import, directly, a
// package starting with to: experiments reach implementations through the
// impls registries (which do depend on the backends).
var importRules = []rule{
	{"experiments", module + "impls/cpu/", "experiments reach implementations only through the impls registries"},
	{"experiments", module + "impls/cuda/", "experiments reach implementations only through the impls registries (impls.Available probes the GPU)"},
}

// notPapers are the packages under experiments/ that are no paper's: the
// test helpers, the list of the five and the reader of their data.
var notPapers = []string{"experimentstest", "papers", "paperdata"}

// examplePrefix is the folder of the toy paper (example/), whose
// packages mirror the module's own: example/problems/widest is a
// problems/<p>, example/experiments/widest a paper package.
const examplePrefix = "example/"

// mirrored is pkg (relative to the module) as the rules see it: a package
// of the example as the one it mirrors, so it obeys a real paper's rules.
func mirrored(pkg string) string {
	if rest, ok := strings.CutPrefix(pkg, examplePrefix); ok {
		return rest
	}
	return pkg
}

// inExample reports whether pkg (relative to the module) is the toy
// paper's.
func inExample(pkg string) bool {
	return pkg+"/" == examplePrefix || strings.HasPrefix(pkg, examplePrefix)
}

// mirroredDep is mirrored for a full import path.
func mirroredDep(path string) string {
	if rel, ok := strings.CutPrefix(path, module); ok {
		return module + mirrored(rel)
	}
	return path
}

// maxFileLines is the most lines a non-test, non-generated .go file may
// hold (every line counted, blank and comment lines too): a file holds one
// concern, and a package as many files as its meaning needs.
const maxFileLines = 800

// generated marks a file written by a tool (the Go convention's line).
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// paperOf is the paper package that pkg (relative to the module) is, or "".
func paperOf(pkg string) string {
	rest, ok := strings.CutPrefix(pkg, "experiments/")
	if !ok {
		return ""
	}
	p, _, _ := strings.Cut(rest, "/")
	if slices.Contains(notPapers, p) {
		return ""
	}
	return p
}

// importViolations checks the lines of `go list -f '{{.ImportPath}} {{join
// .Imports " "}}'` against importRules and the leaves of internal/ (which
// import only each other: none needs a package above it), and, with deps
// the same lines of .Deps, that no paper package depends on another.
func importViolations(imports, deps []string) (bad []string) {
	for _, line := range imports {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok {
			continue
		}
		as := mirrored(pkg)
		for _, r := range importRules {
			if as != r.from && !strings.HasPrefix(as, r.from+"/") {
				continue
			}
			for _, imp := range fields[1:] {
				if strings.HasPrefix(mirroredDep(imp), r.to) {
					bad = append(bad, pkg+" imports "+imp+": "+r.why)
				}
			}
		}
	}
	for _, line := range imports {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], module+"internal/") {
			continue
		}
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, module) && !strings.HasPrefix(imp, module+"internal/") {
				bad = append(bad, strings.TrimPrefix(fields[0], module)+" imports "+imp+": internal/ holds leaves, which import no semibench package above them")
			}
		}
	}
	for _, line := range deps {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok {
			continue
		}
		if own := paperOf(mirrored(pkg)); own != "" {
			for _, imp := range fields[1:] {
				if rel, ok := strings.CutPrefix(mirroredDep(imp), module); ok {
					if other := paperOf(rel); other != "" && other != own {
						bad = append(bad, pkg+" depends on "+rel+": a paper package never depends on another paper's")
					}
				}
			}
		}
	}
	return bad
}

// violations checks the lines of `go list -f '{{.ImportPath}} {{join .Deps " "}}'`
// against the rules and the top-level folders, and that nothing outside
// the toy paper depends on it, and returns what breaks them and the number
// of the module's packages it read.
func violations(lines []string) (bad []string, pkgs int) {
	for _, line := range lines {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok {
			continue
		}
		pkgs++
		if top, _, _ := strings.Cut(pkg, "/"); !slices.Contains(topLevel, top) {
			bad = append(bad, pkg+" is a package outside the top-level folders: a problem's packages go under problems/<p>")
		}
		if !inExample(pkg) {
			for _, dep := range fields[1:] {
				if rel, ok := strings.CutPrefix(dep, module); ok && inExample(rel) {
					bad = append(bad, pkg+" depends on "+dep+": the toy paper stays outside the product's import graph")
				}
			}
		}
		as := mirrored(pkg)
		for _, r := range rules {
			if as != r.from && !strings.HasPrefix(as, r.from) {
				continue
			}
			if r.from == "bench" && as != "bench" {
				continue // bench/report itself renders
			}
			for _, dep := range fields[1:] {
				if strings.HasPrefix(mirroredDep(dep), r.to) {
					bad = append(bad, pkg+" depends on "+dep+": "+r.why)
				}
			}
		}
	}
	return bad, pkgs
}

// TestImportRules lists every package's dependencies and checks the rules.
func TestImportRules(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", module+"...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	bad, pkgs := violations(strings.Split(strings.TrimSpace(string(out)), "\n"))
	for _, b := range bad {
		t.Error(b)
	}
	if pkgs < 20 {
		t.Fatalf("go list found %d packages of the module; want them all", pkgs)
	}
}

// goList runs `go list -f format` over the module and returns its lines.
func goList(t *testing.T, format string) []string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(goTool, "list", "-f", format, module+"...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// TestDirectImports: no experiments package imports a backend, and no
// paper package depends on another paper's.
func TestDirectImports(t *testing.T) {
	imports := goList(t, "{{.ImportPath}} {{join .Imports \" \"}}")
	deps := goList(t, "{{.ImportPath}} {{join .Deps \" \"}}")
	for _, b := range importViolations(imports, deps) {
		t.Error(b)
	}
}

// TestFileSize: no non-test, non-generated .go file of the module holds
// more than maxFileLines lines.
func TestFileSize(t *testing.T) {
	files := 0
	for _, line := range goList(t, "{{.Dir}}") {
		long, n, err := longFiles(line)
		if err != nil {
			t.Fatal(err)
		}
		files += n
		for _, l := range long {
			t.Errorf("%s: split it by concern (at most %d lines of non-test Go a file)", l, maxFileLines)
		}
	}
	if files < 100 {
		t.Fatalf("read %d files of the module; want them all", files)
	}
}

// longFiles lists the non-test, non-generated .go files in dir (every
// build tag's) over maxFileLines lines, as "path: N lines", and counts the
// files it read.
func longFiles(dir string) (long []string, n int, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, 0, err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, n, err
		}
		n++
		if generated.Match(b) {
			continue
		}
		lines := bytes.Count(b, []byte("\n"))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			lines++
		}
		if lines > maxFileLines {
			long = append(long, fmt.Sprintf("%s: %d lines", f, lines))
		}
	}
	return long, n, nil
}

// TestImportViolations holds the direct-import and paper checks to lines
// that break them and lines that keep them.
func TestImportViolations(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // a substring of the one violation; "" for none
	}{
		{module + "experiments/treefix " + module + "impls/cuda/treefix", "only through the impls registries"},
		{module + "experiments " + module + "impls/cuda/driver", "impls.Available"},
		{module + "experiments/kleene " + module + "impls/cpu/kleene", "only through the impls registries"},
		{module + "experiments/kleene " + module + "impls " + module + "experiments", ""},
		{module + "experiments/kleene " + module + "experiments/hungarian", "never depends on another paper"},
		{module + "experiments/papers " + module + "experiments/kleene " + module + "experiments/hungarian", ""},
		{module + "experiments/kleene " + module + "experiments/experimentstest", ""},
		{module + "impls " + module + "impls/cuda/driver", ""},
		{module + "example/experiments/widest " + module + "example/impls/cpu/widest", "only through the impls registries"},
		{module + "example/experiments/widest " + module + "experiments/kleene", "never depends on another paper"},
		{module + "example/experiments/widest " + module + "example/impls " + module + "experiments", ""},
		{module + "internal/stats fmt " + module + "internal/suggest", ""},
		{module + "internal/current " + module + "experiments", "internal/ holds leaves"},
	} {
		bad := importViolations([]string{tc.line}, []string{tc.line})
		switch {
		case tc.want == "" && len(bad) > 0:
			t.Errorf("%q: %v, want no violation", tc.line, bad)
		case tc.want != "" && (len(bad) != 1 || !strings.Contains(bad[0], tc.want)):
			t.Errorf("%q: %v, want one violation naming %q", tc.line, bad, tc.want)
		}
	}
}

// TestLongFiles counts a file with and without a final newline, and
// skips test files and generated ones.
func TestLongFiles(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("\n", maxFileLines)
	for name, text := range map[string]string{
		"short.go":  "package a\n",
		"exact.go":  long,
		"over.go":   long + "x",
		"a_test.go": long + long,
		"gen.go":    "// Code generated by a tool. DO NOT EDIT.\n" + long,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, n, err := longFiles(dir)
	want := fmt.Sprintf("%s: %d lines", filepath.Join(dir, "over.go"), maxFileLines+1)
	if err != nil || n != 4 || len(got) != 1 || got[0] != want {
		t.Errorf("longFiles = %q, %d files, %v; want [%q], 4 files", got, n, err, want)
	}
}

// TestViolations holds the checker to lines that break each kind of rule,
// and to lines that keep them.
func TestViolations(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // a substring of the one violation; "" for none
	}{
		{module + "problems/treefix " + module + "generators/trees", "generators import problems"},
		{module + "problems/apsp/systolic " + module + "generators/apspgraph", "generators import problems"},
		{module + "generators/trees " + module + "problems/treefix", ""},
		{module + "semiring fmt", "under problems/<p>"},
		{module + "problems/apsp/semiring fmt", ""},
		{module + "impls/cpu/lap " + module + "impls/cuda/driver", "never needs a GPU"},
		{module + "bench " + module + "bench/report", "does not render"},
		{module + "bench/report " + module + "bench", ""},
		{"example.com/other " + module + "impls/cuda", ""},
		{module + "example/generators/widestgraph " + module + "example/impls/cpu/widest", "generators import no implementation"},
		{module + "example/problems/widest " + module + "example/generators/widestgraph", "generators import problems"},
		{module + "example/impls/cpu/widest " + module + "bench/report", "do not render"},
		{module + "example/impls/cpu/widest " + module + "example/problems/widest", ""},
		{module + "cmd/semibench " + module + "example/experiments/widest", "outside the product's import graph"},
		{module + "example " + module + "example/experiments/widest", ""},
	} {
		bad, _ := violations([]string{tc.line})
		switch {
		case tc.want == "" && len(bad) > 0:
			t.Errorf("%q: %v, want no violation", tc.line, bad)
		case tc.want != "" && (len(bad) != 1 || !strings.Contains(bad[0], tc.want)):
			t.Errorf("%q: %v, want one violation naming %q", tc.line, bad, tc.want)
		}
	}
}
