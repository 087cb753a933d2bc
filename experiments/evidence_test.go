package experiments

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

func TestMannWhitneyP(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6}
	b := []float64{7, 8, 9, 10, 11, 12}
	// Fully separated, 6 and 6: 2 of the C(12,6) = 924 orderings are as
	// extreme.
	if p := mannWhitneyP(a, b); math.Abs(p-2.0/924) > 1e-12 {
		t.Errorf("separated: p = %g, want %g", p, 2.0/924)
	}
	if p := mannWhitneyP(a, a); p != 1 {
		t.Errorf("identical: p = %g, want 1", p)
	}
	interleaved := []float64{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}
	if p := mannWhitneyP(a, interleaved); p < 0.5 {
		t.Errorf("interleaved: p = %g, want large", p)
	}
}

func TestCompareSamples(t *testing.T) {
	fast := []float64{10, 11, 10, 12, 11, 10}
	slow := []float64{20, 21, 22, 20, 21, 23}
	if got, _ := compareSamples(fast, slow); got != -1 {
		t.Errorf("fast vs slow: %d, want -1", got)
	}
	if got, _ := compareSamples(slow, fast); got != 1 {
		t.Errorf("slow vs fast: %d, want 1", got)
	}
	noisy := []float64{10, 12, 11, 10.5, 11.5, 12.5}
	if got, note := compareSamples(fast, noisy); got != 0 || !strings.Contains(note, "within the noise") {
		t.Errorf("within the noise: %d (%s), want 0", got, note)
	}
	// One sample each: only a difference beyond 25% counts.
	if got, _ := compareSamples([]float64{100}, []float64{110}); got != 0 {
		t.Errorf("one sample, 10%% apart: %d, want 0", got)
	}
	if got, _ := compareSamples([]float64{100}, []float64{200}); got != -1 {
		t.Errorf("one sample, 2x apart: %d, want -1", got)
	}
}

// TestClassify holds each evidence class to its rule: the same outcome is
// scored only at paper scale with every paper cell ok, in a current file,
// for a claim of a comparable setting.
func TestClassify(t *testing.T) {
	ref := CellRef{"kleene/table2", "cpu/paper", cellAt(4000)}
	low := CellRef{"kleene/table2", "cpu/paper", cellAt(1000)}
	need := &Need{Claim: "x", Paper: []CellRef{ref}, Least: []CellRef{low}}
	ok := bench.Record{Experiment: ref.Experiment, Impl: ref.Impl, Params: ref.Params, Status: bench.StatusOK}
	okLow := bench.Record{Experiment: low.Experiment, Impl: low.Impl, Params: low.Params, Status: bench.StatusOK}
	base := Claim{ID: "x", Verdict: Reproduced}
	cases := []struct {
		name   string
		c      Claim
		recs   []bench.Record
		scale  Scale
		schema int
		want   Verdict
	}{
		{"paper size", base, []bench.Record{ok}, Paper, 2, Reproduced},
		{"below the paper's size", base, []bench.Record{okLow}, Paper, 2, Indicative},
		{"quick scale", base, []bench.Record{ok}, Quick, 2, Indicative},
		{"schema 1", base, []bench.Record{ok}, Paper, 1, OldProtocol},
		{"not comparable", Claim{ID: "x", Verdict: NotReproduced, Class: NotComparable}, []bench.Record{ok}, Paper, 2, NotComparable},
		{"by construction", Claim{ID: "x", Verdict: Reproduced, Class: ByConstruction}, []bench.Record{ok}, Paper, 2, ByConstruction},
		{"inconclusive stays", Claim{ID: "x", Verdict: Inconclusive}, []bench.Record{ok}, Paper, 2, Inconclusive},
		{"not run stays", Claim{ID: "x", Verdict: NotRun}, nil, Paper, 2, NotRun},
	}
	for _, tc := range cases {
		got := classify(tc.c, need, IndexRecords(tc.recs), tc.scale, tc.schema)
		if got.Verdict != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, got.Verdict, got.Reason, tc.want)
		}
		if got.Verdict.Scored() && tc.want != got.Verdict {
			t.Errorf("%s: scored %s", tc.name, got.Verdict)
		}
	}
}

// TestNeedText: a claim not run names the blocker that matters first: a
// GPU, then memory, then the budget with what it would need.
func TestNeedText(t *testing.T) {
	gpu := CellRef{"kleene/table3", "cuda/paper", cellAt(4000)}
	cpu := CellRef{"kleene/table3", "cpu/paper", cellAt(4000)}
	n := Need{Claim: "x", Paper: []CellRef{cpu, gpu}}
	recs := []bench.Record{
		{Experiment: cpu.Experiment, Impl: cpu.Impl, Params: cpu.Params, Status: bench.StatusSkipped, EstimateMS: 120e3},
		{Experiment: gpu.Experiment, Impl: gpu.Impl, Params: gpu.Params, Status: bench.StatusUnavailable},
	}
	if got := needText(n, IndexRecords(recs), ""); !strings.HasPrefix(got, "needs a GPU") {
		t.Errorf("GPU first: %q", got)
	}
	if got := needText(n, IndexRecords(recs[:1]), ""); !strings.Contains(got, "budget") || !strings.Contains(got, "2.0 min") {
		t.Errorf("budget: %q", got)
	}
	if got := rerunCommand(n, Paper); got != "semibench run kleene/table3 --scale paper --impl 'cpu/paper,cuda/paper' --where 'n=4000,weights=normal'" {
		t.Errorf("rerun: %q", got)
	}
}

// cellAt is a Kleene cell's parameters at n (N(0,1) weights).
func cellAt(n int) bench.Params {
	return bench.Params{{Name: "n", Value: strconv.Itoa(n)}, {Name: "weights", Value: "normal"}}
}
