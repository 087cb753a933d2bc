package experiments

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
)

// skipReason is why the runner skipped a cell, from its record's error
// (runner's words).
func skipReason(msg string) string {
	switch {
	case strings.Contains(msg, "of host memory") || strings.Contains(msg, "of GPU memory"):
		return "beyond the memory"
	case strings.Contains(msg, " left of the "):
		return "estimated beyond the budget left"
	case strings.Contains(msg, "budget is spent"):
		return "not reached before the budget's end"
	case strings.HasPrefix(msg, "stopped at the end of the"):
		return "stopped by the budget's end"
	}
	return "for another reason"
}

// SkippedText splits a run's skipped cells (recs: each cell's latest
// record) by reason and by experiment, the most first, for the report;
// "" when none was skipped.
func SkippedText(recs []bench.Record) string {
	reasons, exps := map[string]int{}, map[string]int{}
	n := 0
	for _, r := range recs {
		if r.Status != bench.StatusSkipped {
			continue
		}
		n++
		reasons[skipReason(r.Error)]++
		exps[r.Experiment]++
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("Skipped: %d cell(s), %s; by experiment, %s.", n, mostFirst(reasons, 0), mostFirst(exps, 8))
}

// mostFirst words counts the most first (then by name), the first k of
// them when k > 0.
func mostFirst(counts map[string]int, k int) string {
	var names []string
	for name := range counts {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	var parts []string
	for i, name := range names {
		if k > 0 && i == k {
			rest := 0
			for _, other := range names[k:] {
				rest += counts[other]
			}
			parts = append(parts, fmt.Sprintf("%d in %d more", rest, len(names)-k))
			break
		}
		parts = append(parts, fmt.Sprintf("%d %s", counts[name], name))
	}
	return strings.Join(parts, ", ")
}
