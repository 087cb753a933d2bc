package layout

import (
	"bytes"
	"os/exec"
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
	{"impls/", module + "bench/report", "implementations record; they do not render"},
	{"impls/", "gonum.org/v1/plot", "implementations do not pull in plotting"},
	{"impls/", "github.com/olekukonko/tablewriter", "implementations do not pull in tables"},
	{"problems/", module + "bench/report", "problem packages do not render"},
	{"bench", module + "bench/report", "the measuring core does not render"},
	{"kernels", module + "impls/", "kernel sources depend on no implementation or driver package"},
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
	pkgs := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok {
			continue
		}
		pkgs++
		for _, r := range rules {
			if pkg != r.from && !strings.HasPrefix(pkg, r.from) {
				continue
			}
			if r.from == "bench" && pkg != "bench" {
				continue // bench/report itself renders
			}
			for _, dep := range fields[1:] {
				if strings.HasPrefix(dep, r.to) {
					t.Errorf("%s depends on %s: %s", pkg, dep, r.why)
				}
			}
		}
	}
	if pkgs < 20 {
		t.Fatalf("go list found %d packages of the module; want them all", pkgs)
	}
}
