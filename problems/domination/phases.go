package domination

import (
	"slices"

	"github.com/semibench/semibench/bench"
)

// PhasesFor relabels the phases of a run whose window of total was
// from as those of a run with window to, sample by sample: the same
// durations, measured once, with total read from the phase that spans the
// target window exactly (algorithm2 for WindowAlgorithm2, the summary
// algorithms2to5 for WindowAlgorithms2to5, the call for NoWindow) and
// each phase's scope as that window puts it (bench.Measure's order). The
// witnesses, which no figure experiment does, are dropped, and end_to_end
// (and a NoWindow total) less them.
func PhasesFor(src []bench.Phase, from, to Window, stat string) []bench.Phase {
	get := func(name string) []float64 {
		for _, p := range src {
			if p.Name == name {
				return p.SamplesMS
			}
		}
		return nil
	}
	reps := len(get(bench.EndToEndPhase))
	minus := func(a, b []float64) []float64 {
		out := slices.Clone(a)
		for i := range out {
			if i < len(b) {
				out[i] -= b[i]
			}
		}
		return out
	}
	const dropped = "witnesses"
	e2e := minus(get(bench.EndToEndPhase), get(dropped))
	var total []float64
	inTotal := map[string]bool{}
	switch to {
	case WindowAlgorithm2:
		total = get("algorithm2")
		inTotal["algorithm2"] = true
	case WindowAlgorithms2to5:
		total = get(PhaseAlgorithms2to5)
		for _, n := range []string{"algorithm2", "algorithm3", "algorithm4", "recheck", "algorithm5"} {
			inTotal[n] = true
		}
	default:
		total = e2e
	}
	if len(total) != reps {
		total = e2e // a source without the phase (none in practice)
	}
	phase := func(name, scope string, s []float64) bench.Phase {
		return bench.Phase{Name: name, Scope: scope, SamplesMS: s, MedianMS: bench.Median(s), StatMS: bench.Summarize(stat, s)}
	}
	var breakdown, outside []bench.Phase
	covered := make([]float64, reps)
	for _, p := range src {
		switch p.Name {
		case bench.TotalPhase, bench.EndToEndPhase, bench.OtherPhase, dropped:
			continue
		}
		s := slices.Clone(p.SamplesMS)
		switch {
		case p.Scope == bench.ScopeSummary:
			outside = append(outside, phase(p.Name, bench.ScopeSummary, s))
		case to == NoWindow || inTotal[p.Name]:
			breakdown = append(breakdown, phase(p.Name, bench.ScopeTotal, s))
			for i := range covered {
				if i < len(s) {
					covered[i] += s[i]
				}
			}
		default:
			outside = append(outside, phase(p.Name, bench.ScopeEndToEnd, s))
		}
	}
	other := make([]float64, reps)
	for i := range other {
		other[i] = max(0, total[i]-covered[i])
	}
	out := append(breakdown, phase(bench.OtherPhase, bench.ScopeTotal, other))
	out = append(out, outside...)
	return append(out, phase(bench.TotalPhase, bench.ScopeHeadline, slices.Clone(total)), phase(bench.EndToEndPhase, bench.ScopeHeadline, e2e))
}
