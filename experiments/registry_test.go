package experiments_test

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
)

func TestLookup(t *testing.T) {
	exps, err := experiments.Lookup("kleene/")
	if err != nil || len(exps) < 2 {
		t.Fatalf("Lookup(kleene/) = %d experiments, %v", len(exps), err)
	}
	if exps, err := experiments.Lookup("kleene/table2", "kleene/*"); err != nil || len(exps) < 2 || exps[0].Name != "kleene/table2" {
		t.Fatalf("duplicates or order wrong: %v %v", exps, err)
	}
	_, err = experiments.Lookup("kleene/tabel3")
	if err == nil || !strings.Contains(err.Error(), "did you mean kleene/table3") {
		t.Fatalf("unknown name error %v", err)
	}
	if err := experiments.CheckImplPattern(exps, "cuda/*"); err != nil {
		t.Fatal(err)
	}
	if err := experiments.CheckImplPattern(exps, "cpu/fats"); err == nil || !strings.Contains(err.Error(), "cpu/fast") {
		t.Fatalf("impl pattern error %v", err)
	}
}

func TestEveryExperimentHasCasesAtEveryScale(t *testing.T) {
	for _, e := range experiments.All() {
		if e.Paper == "" || e.Description == "" || len(e.Impls) == 0 {
			t.Errorf("%s: paper, description and implementations are required", e.Name)
		}
		for _, s := range experiments.Scales {
			cs := e.Cases(s, experiments.Options{})
			if len(cs) == 0 {
				t.Errorf("%s: no cases at scale %s", e.Name, s)
			}
			for _, c := range cs {
				if c.Setup == nil || len(c.Params) == 0 {
					t.Errorf("%s %s: case without setup or parameters", e.Name, s)
				}
			}
		}
	}
}
