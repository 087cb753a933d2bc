package domination

import (
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestPhasesFor relabels a Table 3 cell's samples (window Algorithms
// 2-5) as Table 2's (window Algorithm 2) and a formula's (no window,
// witnesses) as Table 5's: totals from the spanning phase, breakdowns
// that add up, witnesses dropped.
func TestPhasesFor(t *testing.T) {
	ph := func(name, scope string, s ...float64) bench.Phase {
		return bench.Phase{Name: name, Scope: scope, SamplesMS: s, MedianMS: bench.Median(s), StatMS: bench.Median(s)}
	}
	t3 := []bench.Phase{
		ph("algorithm2", bench.ScopeTotal, 100, 110), ph("algorithm3", bench.ScopeTotal, 1, 1), ph("algorithm4", bench.ScopeTotal, 1, 1),
		ph("algorithm5", bench.ScopeTotal, 1, 1), ph(bench.OtherPhase, bench.ScopeTotal, 0.5, 0.5),
		ph("algorithm1", bench.ScopeEndToEnd, 5, 5), ph(PhaseAlgorithms2to5, bench.ScopeSummary, 103.5, 113.5),
		ph(bench.TotalPhase, bench.ScopeHeadline, 103.5, 113.5), ph(bench.EndToEndPhase, bench.ScopeHeadline, 109, 119),
	}
	got := PhasesFor(t3, WindowAlgorithms2to5, WindowAlgorithm2, bench.StatMedian)
	r := bench.Record{Phases: got}
	if p := r.Phase(bench.TotalPhase); p == nil || p.SamplesMS[0] != 100 || p.SamplesMS[1] != 110 {
		t.Fatalf("Table 2 total = %+v, want algorithm2's samples", p)
	}
	if p := r.Phase("algorithm3"); p == nil || p.Scope != bench.ScopeEndToEnd {
		t.Errorf("algorithm3 = %+v, want outside Table 2's window", p)
	}
	if p := r.Phase(bench.OtherPhase); p == nil || p.SamplesMS[0] != 0 {
		t.Errorf("other = %+v, want 0", p)
	}
	if p := r.Phase(bench.EndToEndPhase); p == nil || p.SamplesMS[1] != 119 {
		t.Errorf("end_to_end = %+v, want the call's", p)
	}
	if p := r.Phase(PhaseAlgorithms2to5); p == nil || p.Scope != bench.ScopeSummary {
		t.Errorf("algorithms2to5 = %+v, want the summary kept", p)
	}

	formula := []bench.Phase{
		ph("algorithm1", bench.ScopeTotal, 5), ph("algorithm2", bench.ScopeTotal, 50), ph("algorithm3", bench.ScopeTotal, 1),
		ph("algorithm4", bench.ScopeTotal, 1), ph("algorithm5", bench.ScopeTotal, 1), ph("witnesses", bench.ScopeTotal, 30),
		ph(bench.OtherPhase, bench.ScopeTotal, 2), ph(PhaseAlgorithms2to5, bench.ScopeSummary, 53),
		ph(bench.TotalPhase, bench.ScopeHeadline, 90), ph(bench.EndToEndPhase, bench.ScopeHeadline, 90),
	}
	got = PhasesFor(formula, NoWindow, WindowAlgorithms2to5, bench.StatMedian)
	r = bench.Record{Phases: got}
	if r.Phase("witnesses") != nil {
		t.Error("the witnesses were kept")
	}
	if p := r.Phase(bench.TotalPhase); p == nil || p.SamplesMS[0] != 53 {
		t.Errorf("Table 5 total = %+v, want algorithms2to5's 53", p)
	}
	if p := r.Phase(bench.EndToEndPhase); p == nil || p.SamplesMS[0] != 60 {
		t.Errorf("end_to_end = %+v, want 90 less the witnesses' 30", p)
	}
	sum := 0.0
	for _, p := range got {
		if p.Scope == bench.ScopeTotal {
			sum += p.SamplesMS[0]
		}
	}
	if sum != 53 {
		t.Errorf("the breakdown adds up to %g, want total 53", sum)
	}
}
