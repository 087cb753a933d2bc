package experiments_test

import (
	"path"
	"testing"

	"github.com/semibench/semibench/experiments"
)

// TestEveryExperimentHasHeadlines: every experiment marks at least one of
// its implementations as headline, and every pattern of its Headline
// matches one of its implementations.
func TestEveryExperimentHasHeadlines(t *testing.T) {
	for _, e := range experiments.All() {
		n := 0
		for _, impl := range e.Impls {
			if e.IsHeadline(impl) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: none of %v is a headline implementation", e.Name, e.Impls)
		}
		for _, p := range e.HeadlinePatterns() {
			found := false
			for _, impl := range e.Impls {
				if ok, _ := path.Match(p, impl); ok {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: headline pattern %q matches none of %v", e.Name, p, e.Impls)
			}
		}
	}
	if e := experiments.ByName("kleene/table3"); !e.IsHeadline("cuda/paper") || e.IsHeadline("cpu/paper") {
		t.Error("kleene/table3: want cuda/paper headline and cpu/paper not")
	}
}
