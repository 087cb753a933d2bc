package impls

import (
	"slices"
	"testing"
)

// TestKleene checks the names experiments kleene/table2 and kleene/table3
// use, in display order, and that every implementation can run.
func TestKleene(t *testing.T) {
	want := []string{"cpu/paper", "cpu/fast", "cuda/paper", "cuda/fast"}
	if got := Kleene.Names(); !slices.Equal(got, want) {
		t.Fatalf("Kleene.Names() = %v, want %v", got, want)
	}
	for _, im := range Kleene.All() {
		if im.Run == nil {
			t.Errorf("%s has no Run", im.Name)
		}
	}
	if got := len(Kleene.Backend("cuda/")); got != 2 {
		t.Errorf("Kleene.Backend(cuda/) has %d implementations, want 2", got)
	}
}
