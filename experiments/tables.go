package experiments

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/paperdata"
)

// BesidePaper returns the run's records of one experiment and, indexed, both
// them and the paper's transcribed records of the same experiment: what a
// table laid out beside the paper needs.
func BesidePaper(run []bench.Record, exp string) (own []bench.Record, rc, pc Cells) {
	paper, _ := paperdata.PaperRecords(exp)
	own = OfExperiment(run, exp)
	return own, IndexRecords(own), IndexRecords(paper)
}

// PhaseMS returns a phase's statistic, or NaN when the record is missing,
// not ok, or lacks the phase.
func PhaseMS(r *bench.Record, phase string) float64 {
	if r == nil || (r.Status != bench.StatusOK && r.Status != bench.StatusCheckFailed) {
		return math.NaN()
	}
	p := r.Phase(phase)
	if p == nil {
		return math.NaN()
	}
	return p.StatMS
}

// CellText renders a record's phase for a table: the time, or the reason
// there is none ("skipped (est. 3 min)", "unavailable", "—").
func CellText(r *bench.Record, phase string) string {
	if r == nil {
		return "—"
	}
	return report.PhaseText(r, phase)
}

// Ran reports whether a record has timings.
func Ran(r *bench.Record) bool {
	return r != nil && (r.Status == bench.StatusOK || r.Status == bench.StatusCheckFailed)
}

// MsText is a phase's time with its unit ("2.3 ms"), or the reason there
// is none.
func MsText(r *bench.Record, phase string) string {
	if v := PhaseMS(r, phase); !math.IsNaN(v) {
		return report.FormatMS(v) + " ms"
	}
	return CellText(r, phase)
}

// StatusNotes are table notes giving, once per implementation and reason,
// why an experiment's cells did not run (unavailable, failed, skipped).
func StatusNotes(recs []bench.Record, experiment string) []string {
	var notes []string
	seen := map[string]bool{}
	for _, r := range recs {
		if r.Experiment != experiment || Ran(&r) || r.Error == "" {
			continue
		}
		key := r.Impl + "|" + r.Status + "|" + r.Error
		if r.Status == bench.StatusSkipped {
			key = r.Impl + "|" + r.Status + "|" + r.Params.String()
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		where := ""
		if r.Status != bench.StatusUnavailable {
			where = " at " + r.Params.String()
		}
		if r.Status == bench.StatusUnavailable {
			notes = append(notes, UnavailableNote(r.Impl, r.Error))
			continue
		}
		notes = append(notes, fmt.Sprintf("%s %s%s: %s", r.Impl, r.Status, where, r.Error))
	}
	return notes
}

// Ratio renders a/b as "12.3x", or "—" when either side is missing.
func Ratio(a, b float64) string {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return "—"
	}
	return report.FormatRatio(a / b)
}

// CheckSummary is a table note counting the check verdicts of an
// experiment's records and naming the failures.
func CheckSummary(recs []bench.Record, experiment string) string {
	ok, bad, other := 0, []string{}, 0
	for _, r := range recs {
		if r.Experiment != experiment {
			continue
		}
		switch {
		case r.Check != nil && r.Check.OK:
			ok++
		case r.Check != nil:
			bad = append(bad, fmt.Sprintf("%s %s: %s", r.Impl, r.Params, r.Check.Detail))
		default:
			other++
		}
	}
	s := fmt.Sprintf("Checks: %d ok, %d failed, %d not run (skipped, unavailable or failed).", ok, len(bad), other)
	for _, b := range bad {
		s += "\nCHECK FAILED: " + b
	}
	return s
}

// Itoa is strconv.Itoa, kept short for parameter lists.
func Itoa(n int) string { return strconv.Itoa(n) }

// FormatCount prints an integer count with thousands separators, as the
// papers print them: 3998935 becomes "3,998,935".
func FormatCount(x float64) string {
	s := strconv.FormatInt(int64(math.Round(x)), 10)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// OfExperiment keeps the records of one experiment.
func OfExperiment(recs []bench.Record, exp string) []bench.Record {
	var out []bench.Record
	for _, r := range recs {
		if r.Experiment == exp {
			out = append(out, r)
		}
	}
	return out
}

func GiB(b uint64) float64 { return float64(b) / (1 << 30) }

func MsSince(t time.Time) float64 { return float64(time.Since(t).Nanoseconds()) / 1e6 }
