package problems

import (
	"slices"
	"strings"
	"testing"
)

type fakeImpl struct{ name string }

func fakeName(f fakeImpl) string { return f.name }

func TestRegistry(t *testing.T) {
	r := NewRegistry(fakeName,
		[]fakeImpl{{"cpu/paper"}, {"cpu/fast"}},
		[]fakeImpl{{"cuda/paper"}})
	if got, want := r.Names(), []string{"cpu/paper", "cpu/fast", "cuda/paper"}; !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	im, err := r.Lookup("cpu/fast")
	if err != nil || im.name != "cpu/fast" {
		t.Errorf("Lookup(cpu/fast) = %v, %v", im, err)
	}
	_, err = r.Lookup("cpu/nope")
	if err == nil || !strings.Contains(err.Error(), `"cpu/nope"`) || !strings.Contains(err.Error(), "cuda/paper") {
		t.Errorf("Lookup(cpu/nope) error %v: want the name and the valid names", err)
	}
	if got := r.Backend("cuda/"); len(got) != 1 || got[0].name != "cuda/paper" {
		t.Errorf("Backend(cuda/) = %v", got)
	}
	all := r.All()
	all[0].name = "changed"
	if r.Names()[0] != "cpu/paper" {
		t.Error("All returned the registry's own slice")
	}
	var zero Registry[fakeImpl]
	if _, err := zero.Lookup("x"); err == nil {
		t.Error("empty registry found an implementation")
	}
}

func TestRegistryRepeatedName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a repeated name did not panic")
		}
	}()
	NewRegistry(fakeName, []fakeImpl{{"cpu/x"}}, []fakeImpl{{"cpu/x"}})
}
