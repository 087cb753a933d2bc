package experiments

import (
	"bytes"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

func TestLookup(t *testing.T) {
	exps, err := Lookup("kleene/")
	if err != nil || len(exps) < 2 {
		t.Fatalf("Lookup(kleene/) = %d experiments, %v", len(exps), err)
	}
	if exps, err := Lookup("kleene/table2", "kleene/*"); err != nil || len(exps) < 2 || exps[0].Name != "kleene/table2" {
		t.Fatalf("duplicates or order wrong: %v %v", exps, err)
	}
	_, err = Lookup("kleene/tabel3")
	if err == nil || !strings.Contains(err.Error(), "did you mean kleene/table3") {
		t.Fatalf("unknown name error %v", err)
	}
	if err := CheckImplPattern(exps, "cuda/*"); err != nil {
		t.Fatal(err)
	}
	if err := CheckImplPattern(exps, "cpu/fats"); err == nil || !strings.Contains(err.Error(), "cpu/fast") {
		t.Fatalf("impl pattern error %v", err)
	}
}

func TestEveryExperimentHasCasesAtEveryScale(t *testing.T) {
	for _, e := range All() {
		if e.Paper == "" || e.Description == "" || len(e.Impls) == 0 {
			t.Errorf("%s: paper, description and implementations are required", e.Name)
		}
		for _, s := range Scales {
			cs := e.Cases(s, Options{})
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

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"table2", "tabel2", 2}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// rec is a measured Kleene record with the given phase times.
func rec(exp, impl, n string, phases map[string]float64) bench.Record {
	r := bench.Record{Experiment: exp, Impl: impl, Params: bench.Params{{Name: "n", Value: n}, {Name: "weights", Value: "normal"}},
		Status: bench.StatusOK, Metrics: map[string]float64{"arcs": 4001234}, Check: &bench.Check{OK: true}}
	for name, v := range phases {
		r.Phases = append(r.Phases, bench.Phase{Name: name, MedianMS: v, StatMS: v})
	}
	return r
}

func TestKleeneTablesBesideThePaper(t *testing.T) {
	run := []bench.Record{
		rec("kleene/table2", "cpu/paper", "4000", map[string]float64{"update_w": 20000, "total": 20500}),
		rec("kleene/table2", "cpu/fast", "4000", map[string]float64{"update_w": 1000, "total": 1100}),
		rec("kleene/table3", "cpu/paper", "4000", map[string]float64{"total": 20500}),
		rec("kleene/table3", "cuda/paper", "4000", map[string]float64{"update_w": 300, "total": 410}),
		rec("kleene/table3", "cuda/fast", "4000", map[string]float64{"update_w": 2, "total": 20.5}),
	}
	var out bytes.Buffer
	for _, tb := range append(kleeneTable2(run), kleeneTable3(run)...) {
		if err := tb.Render(&out, "text"); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"66,997.8",  // the paper's update W at n=4000 (Table 2)
		"3,998,935", // the paper's arcs at n=4000
		"4,001,234", // ours
		"20.0x",     // cpu/paper / cpu/fast update W
		"2,040.9",   // the paper's GPU update W (Table 3)
		"29.3x",     // the paper's Effect
		"1,000.0x",  // cpu/paper / cuda/fast total: 20500 / 20.5
		"cuda/paper total / cuda/fast total = 20.0x",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("tables lack %q:\n%s", want, out.String())
		}
	}
}
