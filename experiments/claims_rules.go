package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/internal/stats"
)

// Helpers of the claim rules beyond claims.go's: a rule states its
// tolerance in its text and gives not run, never a verdict, when a figure
// it reads is missing.

// ToleranceRead, when set (by a test), is told of every claim whose
// tolerance a rule reads.
var ToleranceRead func(id string)

// ClaimTolerance is claim id's tolerance from the catalogue
// (experiments/<paper>/paper/claims.json); the zero one when it has none, whose
// numbers are NaN, so that no rule gives a verdict without it.
func ClaimTolerance(id string) paperdata.Tolerance {
	if ToleranceRead != nil {
		ToleranceRead(id)
	}
	if cc, ok := paperdata.ClaimByID(id); ok && cc.Tolerance != nil {
		return *cc.Tolerance
	}
	return paperdata.Tolerance{}
}

// TolLow and tolHigh are claim id's tolerance bounds (NaN when the
// catalogue gives none: a comparison with NaN fails).
func TolLow(id string) float64  { return paperdata.Num(ClaimTolerance(id).Low) }
func TolHigh(id string) float64 { return paperdata.Num(ClaimTolerance(id).High) }

// RatioJudge compares ours with the paper's figure within claim id's
// tolerance factor (ratioVerdict) and says where ours lies, in format's
// unit: "outside 8x within 1.25x (6.4x-10x)".
func RatioJudge(id string, paper, ours float64, better int, format func(float64) string) (Verdict, string) {
	return RatioJudgeWith(ClaimTolerance(id), paper, ours, better, format)
}

// RatioJudgeWith is RatioJudge within a tolerance the rule holds itself,
// for a claim outside the catalogue (example's toy paper).
func RatioJudgeWith(tol paperdata.Tolerance, paper, ours float64, better int, format func(float64) string) (Verdict, string) {
	f := paperdata.Num(tol.Factor)
	v := ratioVerdict(paper, ours, f, better)
	if v == NotRun {
		return v, "no tolerance factor or no figure to compare"
	}
	where := "outside"
	if v == Reproduced {
		where = "inside"
	}
	return v, fmt.Sprintf("%s %s within %gx %s", where, format(paper), f, report.Band(format, paper/f, paper*f, ours))
}

// RatioText formats a ratio for ratioJudge ("8x", "12.5x").
func RatioText(v float64) string { return report.FormatRatio(v) }

// MsTextOf formats a time in ms for ratioJudge.
func MsTextOf(v float64) string { return report.FormatMS(v) + " ms" }

// NoSamples is compareWithin's sign when a side has no samples: no
// verdict (bySamples gives not run).
const NoSamples = 2

// CompareWithin is stats.CompareSamples (a against b, lower faster) held to
// claim id's margin: a difference the test finds but whose medians lie
// within the tolerance factor of each other is within the noise of
// another machine, so it gives 0 (inconclusive). A side without samples
// gives noSamples.
func CompareWithin(id string, a, b []float64) (int, string) {
	if len(a) == 0 || len(b) == 0 {
		return NoSamples, "a record without samples of the phase compared: no verdict"
	}
	sign, note := stats.CompareSamples(a, b)
	f := paperdata.Num(ClaimTolerance(id).Factor)
	if math.IsNaN(f) {
		return 0, note + "; no margin in the catalogue: no verdict"
	}
	if ma, mb := bench.Median(a), bench.Median(b); sign != 0 && max(ma, mb) < f*min(ma, mb) {
		return 0, note + fmt.Sprintf("; medians %.3gx apart, within the claim's margin of %gx", max(ma, mb)/min(ma, mb), f)
	}
	return sign, note
}

// Holds is Reproduced when the claim holds on the records, else
// NotReproduced.
func Holds(ok bool) Verdict {
	if ok {
		return Reproduced
	}
	return NotReproduced
}

// BySamples turns compareWithin's sign into a verdict on a claim that
// predicts the sign want: Reproduced when the samples show it, Inconclusive
// when the difference lies within their noise or the claim's margin,
// NotRun without samples, NotReproduced otherwise.
func BySamples(sign, want int) Verdict {
	switch sign {
	case want:
		return Reproduced
	case 0:
		return Inconclusive
	case NoSamples:
		return NotRun
	}
	return NotReproduced
}

// WithinFactor reports whether a and b (both positive) are within claim
// id's tolerance factor of each other.
func WithinFactor(id string, a, b float64) bool {
	tol := paperdata.Num(ClaimTolerance(id).Factor)
	return a > 0 && b > 0 && !math.IsNaN(a) && !math.IsNaN(b) && max(a, b) <= tol*min(a, b)
}

// MissingMetric names the first of keys that r lacks, or "".
func MissingMetric(r *bench.Record, keys ...string) string {
	for _, k := range keys {
		if _, ok := r.Metrics[k]; !ok {
			return k
		}
	}
	return ""
}

// NoMetric is c not run because a record lacks a metric the rule reads (a
// record of an older run): missing metrics give no verdict, never 0.
func (c Claim) NoMetric(key, cell string) Claim {
	c = c.withoutFigure()
	c.Verdict, c.Ours, c.Reason = NotRun, "—", fmt.Sprintf("no %s in the record of %s (a record of an older run, or a broken one): no verdict", key, cell)
	return c
}

// OKRecord reports whether r ran and passed its check.
func OKRecord(r *bench.Record) bool { return r != nil && r.Status == bench.StatusOK }

// FirstOf is up to k items of s, joined, with a count of the rest.
func FirstOf(s []string, k int) string {
	if len(s) <= k {
		return strings.Join(s, "; ")
	}
	return strings.Join(s[:k], "; ") + moreText(len(s)-k)
}

// SortedKeys are a map's keys, sorted.
func SortedKeys[V any](m map[int]V) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
