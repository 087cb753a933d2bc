package experiments

import (
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

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

// TestClassifyThrottled: a verdict read from a cell whose GPU was slowed
// by temperature says so, naming the cell; one read from cool cells says
// nothing of throttling.
func TestClassifyThrottled(t *testing.T) {
	ref := CellRef{"kleene/table3", "cuda/paper", cellAt(4000)}
	need := &Need{Claim: "x", Paper: []CellRef{ref}}
	hot := bench.ClockEventHWThermalSlowdown
	rec := bench.Record{Experiment: ref.Experiment, Impl: ref.Impl, Params: ref.Params, Status: bench.StatusOK,
		GPU: &bench.GPUCellState{End: []bench.GPUState{{SMClockMHz: 1400, MaxSMClockMHz: 1980, ClockEvents: &hot}}}}
	got := classify(Claim{ID: "x", Verdict: Reproduced}, need, IndexRecords([]bench.Record{rec}), Paper, 2)
	if got.Verdict != Reproduced || !strings.Contains(got.Reason, "slowed by temperature") || !strings.Contains(got.Reason, "cuda/paper at n=4000") {
		t.Errorf("throttled cell: %s (%q)", got.Verdict, got.Reason)
	}
	rec.GPU = nil
	if got := classify(Claim{ID: "x", Verdict: Reproduced}, need, IndexRecords([]bench.Record{rec}), Paper, 2); got.Reason != "" {
		t.Errorf("a cell with no throttling: reason %q", got.Reason)
	}
}

// TestClaimAnchor: a claim's row links to the table it reads: the GPU or
// CPU half of a split table by its ID, an experiment's notes, or a table
// that another experiment renders.
func TestClaimAnchor(t *testing.T) {
	tables := map[string]string{
		"domination/table2": "cpu-half", "domination/table2 (GPU)": "gpu-half",
		"hungarian/table1": "t1", "hungarian/table2": "t2", "hungarian/fig6": "f6",
	}
	anchors := map[string]string{"domination/table2": "gpu-half", "hungarian/table1": "f6"}
	for _, tc := range []struct{ id, exp, want string }{
		{"domination/table2#gpu-time", "domination/table2", "gpu-half"},
		{"domination/table2#seq-time", "domination/table2", "cpu-half"},
		{"hungarian/table2#speedup-n", "hungarian/table1", "t2"},
		{"hungarian/table1#correct", "hungarian/table1", "f6"},
		{"hungarian/fig9#x", "hungarian/table1", "f6"},
	} {
		if got := claimAnchor(Claim{ID: tc.id, Experiment: tc.exp}, tables, anchors); got != tc.want {
			t.Errorf("%s: links to %q, want %q", tc.id, got, tc.want)
		}
	}
}
