package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
)

// Helpers of the claim rules beyond claims.go's: a rule states its
// tolerance in its text and gives not run, never a verdict, when a figure
// it reads is missing.

// holds is Reproduced when the claim holds on the records, else
// NotReproduced.
func holds(ok bool) Verdict {
	if ok {
		return Reproduced
	}
	return NotReproduced
}

// bySamples turns compareSamples' sign into a verdict on a claim that
// predicts the sign want: Reproduced when the samples show it, Inconclusive
// when the difference lies within their noise, NotReproduced otherwise.
func bySamples(sign, want int) Verdict {
	switch sign {
	case want:
		return Reproduced
	case 0:
		return Inconclusive
	}
	return NotReproduced
}

// withinFactor reports whether a and b are within a factor tol of each
// other (both positive).
func withinFactor(a, b, tol float64) bool {
	return a > 0 && b > 0 && !math.IsNaN(a) && !math.IsNaN(b) && max(a, b) <= tol*min(a, b)
}

// missingMetric names the first of keys that r lacks, or "".
func missingMetric(r *bench.Record, keys ...string) string {
	for _, k := range keys {
		if _, ok := r.Metrics[k]; !ok {
			return k
		}
	}
	return ""
}

// noMetric is c not run because a record lacks a metric the rule reads (a
// record of an older run): missing metrics give no verdict, never 0.
func (c Claim) noMetric(key, cell string) Claim {
	c.Verdict, c.Ours, c.Reason = NotRun, "—", fmt.Sprintf("no %s in the record of %s (a record of an older run, or a broken one): no verdict", key, cell)
	return c
}

// okRecord reports whether r ran and passed its check.
func okRecord(r *bench.Record) bool { return r != nil && r.Status == bench.StatusOK }

// firstOf is up to k items of s, joined, with a count of the rest.
func firstOf(s []string, k int) string {
	if len(s) <= k {
		return strings.Join(s, "; ")
	}
	return strings.Join(s[:k], "; ") + moreText(len(s)-k)
}

// sortedKeys are a map's keys, sorted.
func sortedKeys[V any](m map[int]V) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
