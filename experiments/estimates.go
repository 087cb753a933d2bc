package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
)

// EstimateAccuracy compares, for each cell of a run measured ok, the
// planner's estimate of one run (Record.EstimateRunMS, made before the
// cell ran) with the median run it took: how many lie within a factor of
// 3, and the worst factor with its cell. A top-up's later record of a
// cell is not counted again. n is 0 for files written before estimates
// were recorded.
func EstimateAccuracy(recs []bench.Record) (within3, n int, worst float64, worstCell string) {
	seen := map[string]bool{}
	worst = 1
	for i := range recs {
		r := &recs[i]
		if r.Status != bench.StatusOK || r.EstimateRunMS <= 0 || r.ReusedFrom != "" || seen[r.Key()] {
			continue
		}
		seen[r.Key()] = true
		s := SamplesOf(r, bench.TotalPhase)
		if len(s) == 0 {
			continue
		}
		m := bench.Median(s)
		if m <= 0 {
			continue
		}
		f := math.Max(r.EstimateRunMS/m, m/r.EstimateRunMS)
		n++
		if f <= 3 {
			within3++
		}
		if f > worst {
			worst, worstCell = f, r.Experiment+" "+r.Impl+" "+r.Params.String()
		}
	}
	return within3, n, worst, worstCell
}

// EstimateText states EstimateAccuracy for the report, or "" when the
// file has no estimates to compare.
func EstimateText(recs []bench.Record) string {
	in, n, worst, cell := EstimateAccuracy(recs)
	if n == 0 {
		return ""
	}
	s := fmt.Sprintf("Estimates: %d of %d cells measured (%.0f%%) took within 3x of the planner's estimate of a run, made before each ran", in, n, 100*float64(in)/float64(n))
	if worst > 3 {
		s += fmt.Sprintf("; the worst %.1fx off (%s)", worst, cell)
	}
	return s + "."
}

// SampleText says how many samples the cells took and why they stopped,
// for the report: the counts by stopping reason's kind.
func SampleText(recs []bench.Record) string {
	kinds := map[string]int{}
	var order []string
	latest := map[string]*bench.Record{}
	for i := range recs {
		latest[recs[i].Key()] = &recs[i]
	}
	for _, r := range latest {
		if r.Status != bench.StatusOK || r.Stop == "" {
			continue
		}
		k := stopKind(r.Stop)
		if kinds[k] == 0 {
			order = append(order, k)
		}
		kinds[k]++
	}
	if len(order) == 0 {
		return ""
	}
	slices.Sort(order)
	s := "Samples:"
	for i, k := range order {
		if i > 0 {
			s += ";"
		}
		s += fmt.Sprintf(" %d %s", kinds[k], k)
	}
	return s + "."
}

// SideBySideStop ends the stopping reason of a cell the runner measured
// at once with other one-core cells (runner/batch.go).
const SideBySideStop = "side by side"

// stopKind is the kind of a record's stopping reason.
func stopKind(stop string) string {
	for _, k := range []struct{ word, kind string }{
		{"refined", "refined to --reps once every claim had its turn"},
		{"--reps maximum", "took --reps, their claims still unsettled"},
		{"budget left", "stopped when the budget paid for no more"},
		{"to wait for", "stopped to wait for their claims' other cells"},
		{"settled after", "stopped once their claims were settled"},
		{"no claim reads", "took --reps: no claim reads them"},
		{"A/A cell", "A/A cells, measured in full"},
		{"first pass", "took one sample in the first pass, their claims unsettled"},
		{"fixed repetitions", "took the fixed repetitions"},
		{"maximum of a cheap cell", "took up to 4 x --reps (cheap cells), their claims still unsettled"},
		{"one more run", "one long run and one more"},
		{SideBySideStop, "one long run, side by side with other one-core cells"},
		{"long run", "one long run"},
	} {
		if strings.Contains(stop, k.word) {
			return k.kind
		}
	}
	return "other"
}
