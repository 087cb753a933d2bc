package impls_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/lap"
)

// TestLAPNames: the registry holds the names the Hungarian experiments and
// `semibench solve lap` expect, in display order, each with an integer
// solver, float and batch solvers where they exist, and resolves the default implementation.
func TestLAPNames(t *testing.T) {
	want := []string{"cpu/paper", "cpu/hungarian-n3", "cpu/jv", "cpu/auction", "cuda/paper", "cuda/hungarian-n3", "cuda/fast"}
	if got := impls.LAP.Names(); !slices.Equal(got, want) {
		t.Errorf("impls.LAP.Names() = %v, want %v", got, want)
	}
	var cpu []string
	for _, im := range impls.LAP.Backend("cpu/") {
		cpu = append(cpu, im.Name)
	}
	if !slices.Equal(cpu, want[:4]) {
		t.Errorf("CPU backend %v, want %v", cpu, want[:4])
	}
	for _, im := range impls.LAP.All() {
		if im.Solve == nil {
			t.Errorf("%s has no Solve", im.Name)
		}
		if (im.SolveFloat == nil) != (im.Name == "cpu/auction" || im.Name == "cuda/paper") {
			t.Errorf("%s: SolveFloat set = %v", im.Name, im.SolveFloat != nil)
		}
		if (im.SolveBatch != nil) != (im.Name == "cpu/jv" || im.Name == "cuda/fast") {
			t.Errorf("%s: SolveBatch set = %v", im.Name, im.SolveBatch != nil)
		}
	}
	if im, err := impls.LAP.Lookup(lap.DefaultImpl); err != nil || im.Name != lap.DefaultImpl {
		t.Errorf("default %s: %+v, %v", lap.DefaultImpl, im.Name, err)
	}
	if _, err := impls.LAP.Lookup("cpu/nope"); err == nil || !strings.Contains(err.Error(), "cpu/jv") {
		t.Errorf("unknown implementation: %v", err)
	}
}

// The whole of `semibench solve lap --in FILE [--impl NAME] [--maximize]`:
// read, look the implementation up, solve (the answer is certified before
// it is returned), print JSON.
func Example_solveLAP() {
	in := "4,1,3\n2,0,5\n3,2,2\n" // lap.ReadCostsFile(path) for a file
	costs, err := lap.ReadCosts(strings.NewReader(in), "costs.csv")
	if err != nil {
		fmt.Println(err) // e.g. "costs.csv:2: not a number: "x" in column 3"
		return
	}
	im, err := impls.LAP.Lookup("cpu/jv")
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := lap.Solve(context.Background(), costs, im, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	sol.MS = 0 // the time varies: left out, as solve lap does without --ms
	json.NewEncoder(os.Stdout).Encode(sol)
	// Output: {"cost":5,"assignment":[1,0,2],"impl":"cpu/jv"}
}
