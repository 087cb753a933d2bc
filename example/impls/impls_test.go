package impls

import (
	"slices"
	"testing"
)

// TestWidestNames pins the registry's names and order, which the
// experiment's tables and claim read.
func TestWidestNames(t *testing.T) {
	if got, want := Widest.Names(), []string{"cpu/paper", "cpu/fast"}; !slices.Equal(got, want) {
		t.Errorf("Widest.Names() = %v, want %v", got, want)
	}
	if _, err := Widest.Lookup("cpu/none"); err == nil {
		t.Error("an unknown name resolved")
	}
}
