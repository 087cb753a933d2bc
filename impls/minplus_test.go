package impls

import (
	"slices"
	"testing"
)

// TestMinplusNames holds the registry to the names experiments expect, in
// display order, and refuses an unknown name.
func TestMinplusNames(t *testing.T) {
	want := []string{"cpu/paper", "cpu/fast", "cpu/sparse", "cuda/paper", "cuda/fast", "cuda/sparse"}
	if got := Minplus.Names(); !slices.Equal(got, want) {
		t.Errorf("Minplus.Names() = %v, want %v", got, want)
	}
	if _, err := Minplus.Lookup("cpu/nope"); err == nil {
		t.Error("unknown name accepted")
	}
}
