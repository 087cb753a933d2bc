package bench

import (
	"fmt"
	"math"
)

// MaxSampleMS is the largest time a phase may record, in milliseconds
// (about 31 years): anything beyond is a damaged or invented number.
const MaxSampleMS = 1e12

// statSlack is the relative difference allowed between a statistic as
// written and as recomputed from its samples (both are float64 decimals
// that round-trip, so only a changed number differs by more).
const statSlack = 1e-9

// validateRecord checks the times of record i: every sample, median and
// statistic a number of milliseconds in [0, MaxSampleMS]; the median and
// the statistic those of the samples; and, sample by sample, the breakdown
// of total (the phases of scope total, other included) adding up to total
// as the timing protocol makes it (never less; at most its 1% slack more).
func validateRecord(i int, r *Record) error {
	where := func(format string, a ...any) error {
		return fmt.Errorf("record %d (%s): %s", i, r.Key(), fmt.Sprintf(format, a...))
	}
	for _, p := range r.Phases {
		if err := checkTime(p.MedianMS); err != nil {
			return where("phase %s: median_ms %v %v", p.Name, p.MedianMS, err)
		}
		if err := checkTime(p.StatMS); err != nil {
			return where("phase %s: stat_ms %v %v", p.Name, p.StatMS, err)
		}
		for k, x := range p.SamplesMS {
			if err := checkTime(x); err != nil {
				return where("phase %s: sample %d, %v ms, %v", p.Name, k+1, x, err)
			}
		}
		if len(p.SamplesMS) == 0 {
			continue
		}
		if m := Median(p.SamplesMS); !near(m, p.MedianMS) {
			return where("phase %s: median_ms %v, but the median of its %d samples is %v", p.Name, p.MedianMS, len(p.SamplesMS), m)
		}
		if s := Summarize(r.Statistic, p.SamplesMS); r.Statistic != StatPaper && !near(s, p.StatMS) {
			return where("phase %s: stat_ms %v, but the %s of its samples is %v", p.Name, p.StatMS, statName(r.Statistic), s)
		}
	}
	return checkBreakdown(r, where)
}

// checkTime says what is wrong with x as a time in milliseconds.
func checkTime(x float64) error {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return fmt.Errorf("is not a finite number")
	case x < 0:
		return fmt.Errorf("is negative")
	case x > MaxSampleMS:
		return fmt.Errorf("exceeds %g ms (31 years)", MaxSampleMS)
	}
	return nil
}

// near reports whether a and b agree within statSlack (relative) or
// 1e-9 ms.
func near(a, b float64) bool {
	return math.Abs(a-b) <= statSlack*math.Max(math.Abs(a), math.Abs(b))+1e-9
}

// statName names a statistic in messages.
func statName(s string) string {
	if s == "" {
		return StatMedian
	}
	return s
}

// checkBreakdown checks, sample by sample, that the breakdown of total
// adds up to total: Measure makes other the part no phase covers, so the
// sum is total, or up to breakdownSlack more when the phases overran it.
func checkBreakdown(r *Record, where func(string, ...any) error) error {
	total := r.Phase(TotalPhase)
	if total == nil || len(total.SamplesMS) == 0 || r.Phase(OtherPhase) == nil {
		return nil // no breakdown recorded (papers, peers, skipped cells)
	}
	n := len(total.SamplesMS)
	sums := make([]float64, n)
	for _, p := range r.Phases {
		if p.Scope != ScopeTotal {
			continue
		}
		if len(p.SamplesMS) != n {
			return where("phase %s has %d samples and total %d: the breakdown cannot add up sample by sample", p.Name, len(p.SamplesMS), n)
		}
		for k, x := range p.SamplesMS {
			sums[k] += x
		}
	}
	for k, t := range total.SamplesMS {
		lo, hi := t-1e-6*t-0.002, t+breakdownSlack*t+0.01
		if sums[k] < lo || sums[k] > hi {
			return where("sample %d: the breakdown of total sums to %.6g ms, but total is %.6g ms", k+1, sums[k], t)
		}
	}
	return nil
}
