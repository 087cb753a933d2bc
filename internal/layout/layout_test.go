package layout

import (
	"bytes"
	"os/exec"
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
	"bench", "cmd", "experiments", "generators", "impls", "internal",
	"kernels", "mtx", "problems", "results", "runner",
}

// violations checks the lines of `go list -f '{{.ImportPath}} {{join .Deps " "}}'`
// against the rules and the top-level folders, and returns what breaks
// them and the number of the module's packages it read.
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
		for _, r := range rules {
			if pkg != r.from && !strings.HasPrefix(pkg, r.from) {
				continue
			}
			if r.from == "bench" && pkg != "bench" {
				continue // bench/report itself renders
			}
			for _, dep := range fields[1:] {
				if strings.HasPrefix(dep, r.to) {
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
