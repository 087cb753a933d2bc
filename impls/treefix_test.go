package impls

import (
	"slices"
	"testing"
)

// TestTreefix: the registry holds the implementations the treefix
// experiments time (Figs. 4, 5 and 7 and the accuracy study), in their
// display order, each with a run for every element type.
func TestTreefix(t *testing.T) {
	want := []string{"cpu/sequential", "cpu/parallel", "cpu/vectorial", "cpu/vectorial-compensated",
		"cuda/parallel", "cuda/vectorial", "cuda/vectorial-compensated"}
	if got := Treefix.Names(); !slices.Equal(got, want) {
		t.Errorf("Treefix.Names() = %v, want %v", got, want)
	}
	for _, im := range Treefix.All() {
		if im.Int64 == nil || im.Float32 == nil || im.Float64 == nil {
			t.Errorf("%s: a nil run", im.Name)
		}
	}
}
