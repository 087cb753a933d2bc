package impls

import (
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/problems/apsp"
)

// TestAPSPNames: the apsp experiments and `semibench solve apsp` name these
// implementations, in this display order, and each covers the cases they
// run it on.
func TestAPSPNames(t *testing.T) {
	want := []string{"cpu/sgje", "cpu/fast", "cpu/systolic", "cuda/fast", "cuda/systolic"}
	if got := APSP.Names(); !slices.Equal(got, want) {
		t.Fatalf("APSP.Names() = %v, want %v", got, want)
	}
	if got, want := apsp.Solvers(APSP), []string{"cpu/sgje", "cpu/fast", "cuda/fast"}; !slices.Equal(got, want) {
		t.Errorf("solvers %v, want %v", got, want)
	}
	for _, name := range []string{"cpu/sgje", "cpu/fast", "cuda/fast"} {
		im, _ := APSP.Lookup(name)
		if im.Float == nil || im.Bool == nil || im.MinPlus32 == nil {
			t.Errorf("%s lacks a closure", name)
		}
	}
	for _, name := range []string{"cpu/sgje", "cuda/fast"} {
		if im, _ := APSP.Lookup(name); im.Inverse == nil {
			t.Errorf("%s lacks --inverse", name)
		}
	}
	for _, name := range []string{"cpu/systolic", "cuda/systolic"} {
		if im, _ := APSP.Lookup(name); im.SystolicFloat == nil || im.SystolicBool == nil {
			t.Errorf("%s lacks a simulation", name)
		}
	}
	if im, _ := APSP.Lookup("cpu/sgje"); !im.Counted {
		t.Error("cpu/sgje does not count its operations")
	}
	for _, im := range APSP.All() {
		if cuda := strings.HasPrefix(im.Name, "cuda/"); im.MarksWindow != cuda {
			t.Errorf("%s: MarksWindow %v", im.Name, im.MarksWindow)
		}
	}
}
