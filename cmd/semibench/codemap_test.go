package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
)

// TestChangedImpls maps changed files to implementations: a problem's
// package to its backend's implementations, a kernel source to its
// problem's GPU ones, minplus's code to domination's too (which imports
// it), the device layer to every GPU implementation, and tests and
// documents to none.
func TestChangedImpls(t *testing.T) {
	for _, tc := range []struct {
		files  []string
		groups string // the groups as the reader sees them
		has    []string
		hasNot []string
	}{
		{[]string{"impls/cuda/lap/forest.go", "kernels/lap_forest.cu", "kernels/ptx/lap_forest.ptx"},
			"lap: cuda/paper, cuda/hungarian-n3, cuda/fast (impls/cuda/lap, kernels/lap_forest.cu, kernels/ptx)",
			[]string{"lap cuda/fast"}, []string{"lap cpu/jv", "apsp cuda/fast"}},
		{[]string{"impls/cpu/minplus/fast.go"},
			"domination: cpu/paper, cpu/fast, cpu/sparse, cpu/whole-seq, cpu/whole-par, cpu/v1-seq, cpu/v2-par (impls/cpu/minplus); " +
				"minplus: cpu/paper, cpu/fast, cpu/sparse (impls/cpu/minplus)",
			[]string{"minplus cpu/fast", "domination cpu/fast"}, []string{"domination cuda/fast"}},
		{[]string{"impls/cuda/device.go", "kernels/semiring.cuh", "impls/cuda/apsp/fast.go"},
			"every cuda/* (impls/cuda, impls/cuda/apsp, kernels/semiring.cuh)",
			[]string{"treefix cuda/vectorial", "apsp cuda/fast"}, []string{"treefix cpu/vectorial"}},
		{[]string{"impls/cuda/lap/lap_test.go", "impls/cuda/lap/NOTES.md", "impls/doc.go", "impls/cuda/lap/testdata/x.txt"}, "", nil, []string{"lap cuda/fast"}},
	} {
		groups, changed := changedImpls(tc.files)
		var got []string
		for _, g := range groups {
			got = append(got, g.Impls+" ("+strings.Join(g.Paths, ", ")+")")
		}
		if strings.Join(got, "; ") != tc.groups {
			t.Errorf("%q: groups\n%s\nwant\n%s", tc.files, strings.Join(got, "; "), tc.groups)
		}
		for _, k := range tc.has {
			if !changed[k] {
				t.Errorf("%q: %s not changed", tc.files, k)
			}
		}
		for _, k := range tc.hasNot {
			if changed[k] {
				t.Errorf("%q: %s changed", tc.files, k)
			}
		}
	}
}

// TestPaperProblems: every implementation an experiment names is in one of
// its paper's problems' registries (or is one of the harness's own
// builders, whose code no registry holds), so a changed package reaches
// every cell that runs its code.
func TestPaperProblems(t *testing.T) {
	harness := []string{"cpu/build", "cuda/build", "cpu/levels", "cpu/bad"}
	for _, e := range experiments.All() {
		paper, _, _ := strings.Cut(e.Name, "/")
		if paper == "test" {
			continue
		}
		problems, ok := paperProblems[paper]
		if !ok {
			t.Errorf("%s: paper %q has no problems in paperProblems", e.Name, paper)
			continue
		}
		for _, impl := range e.Impls {
			if strings.HasPrefix(impl, "peer/") || slices.Contains(harness, impl) {
				continue
			}
			found := false
			for _, p := range problems {
				found = found || slices.Contains(problemImpls[p](), impl)
			}
			if !found {
				t.Errorf("%s: %s is in none of %v's registries", e.Name, impl, problems)
			}
		}
	}
}

// TestProblemUses holds problemUses to the imports: where a problem's
// implementation package imports another problem's, of the same backend,
// problemUses says so.
func TestProblemUses(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	const module = "github.com/semibench/semibench/"
	for _, b := range backends {
		for p := range problemImpls {
			out, err := exec.Command("go", "list", "-deps", module+"impls/"+b+"/"+p).Output()
			if err != nil {
				continue // no such package on this backend
			}
			for _, dep := range strings.Fields(string(out)) {
				rest, ok := strings.CutPrefix(dep, module+"impls/"+b+"/")
				q, _, _ := strings.Cut(rest, "/")
				if ok && q != p && problemImpls[q] != nil && !slices.Contains(problemUses[p], q) {
					t.Errorf("impls/%s/%s imports impls/%s/%s: problemUses[%q] lacks %q", b, p, b, q, p, q)
				}
			}
		}
	}
}
