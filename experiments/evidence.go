package experiments

import (
	"fmt"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
)

// The evidence classes beside the three scored verdicts. Only a verdict
// read from the cells at the paper's sizes (or the size the claim names),
// on a comparable setting, from files of the current protocol, is scored:
// every other is shown with its class and counted apart.
const (
	// Indicative: the rule's outcome below the paper's sizes (at quick
	// scale, or where the paper's cells did not run).
	Indicative Verdict = "indicative"
	// NotComparable: a time on another class of machine (the authors'
	// V100, a 48-core EPYC) or a construction of ours the paper does not
	// give: ours is shown beside the paper's, without pass or fail.
	NotComparable Verdict = "not comparable"
	// ByConstruction: a property our code guarantees (a generator's own
	// definition, an array built with the paper's count): shown, never
	// counted.
	ByConstruction Verdict = "by construction"
	// Inconclusive: the difference the claim is about lies within the
	// run-to-run noise of the samples.
	Inconclusive Verdict = "inconclusive"
	// OldProtocol: read from a file of schema 1's protocol, whose totals are not
	// today's timing protocol: no verdict.
	OldProtocol Verdict = "old protocol"
	// NotTestable: a claim no cell can decide (a statement about the
	// authors' hardware, another paper's result, a conjecture); its
	// reason, from the catalogue (experiments/<paper>/paper/claims.json), says why.
	// Never scored, never counted as not run.
	NotTestable Verdict = "not testable"
)

// Verdicts lists every verdict in the order summaries count them.
var Verdicts = []Verdict{Reproduced, Exceeded, NotReproduced, Indicative, NotComparable, ByConstruction, Inconclusive, OldProtocol, NotRun, NotTestable}

// Scored reports whether the verdict counts in the reproduced / not
// reproduced tally.
func (v Verdict) Scored() bool { return v == Reproduced || v == Exceeded || v == NotReproduced }

// Decided reports whether the run said anything of the claim: every
// verdict but not run and not testable.
func (v Verdict) Decided() bool { return v != NotRun && v != NotTestable }

// Judge returns the verdict on every claim of the papers from records
// measured at scale, under the given timing protocol (bench.File's
// TimingProtocol, the lowest of the files read): each claim's rule on the
// records, then its evidence class (see the classes above), the reason a
// claim was not run naming what it would need, and the command that
// re-runs the cells it reads.
func Judge(recs []bench.Record, scale Scale, schema int) []Claim {
	return JudgeNoise(recs, scale, schema, DefaultNoise)
}

// JudgeNoise is Judge with the machine's noise the file measured (NoiseOf):
// a claim whose paper-size cells all ran but whose verdict the settle rule
// does not find settled at that noise is inconclusive.
// Where the cells carry replicates, the outer level must settle it too
// (SettleTwoLevel). JudgeWith adds the machine kind's history.
func JudgeNoise(recs []bench.Record, scale Scale, schema int, noise float64) []Claim {
	return JudgeWith(recs, scale, schema, noise, nil)
}

// classify gives a claim computed by its rule its evidence class.
func classify(c Claim, n *Need, idx Cells, scale Scale, schema int) Claim {
	if c.Verdict == NotTestable {
		return c // no cell decides it, whatever the run
	}
	if n != nil {
		c.Rerun = rerunCommand(*n, scale)
	}
	if c.Verdict == NotRun {
		if n != nil {
			c.Reason = needText(*n, idx, c.Reason)
		}
		return c
	}
	if n != nil {
		c.Reason = joinReason(c.Reason, throttled(*n, idx))
	}
	if schema < 2 {
		c.Reason = joinReason("read from a file of the old protocol (schema 1's, whose totals are not today's): no verdict; the rule gave "+string(c.Verdict), c.Reason)
		c.Verdict = OldProtocol
		return c
	}
	if c.Class != "" {
		c.Reason = joinReason(classText(c.Class)+"; the rule gave "+string(c.Verdict), c.Reason)
		c.Verdict = c.Class
		return c
	}
	if c.Verdict == NotReproduced && n != nil && anyCheckFailed(n.Paper, idx) {
		return c // a wrong answer at the paper's size contradicts the claim whatever else ran
	}
	if scale != Paper || n == nil || len(n.Paper) == 0 || !allRan(n.Paper, idx) {
		where := "below the paper's sizes"
		if scale != Paper {
			where = "at " + string(scale) + " scale, below the paper's sizes"
		} else if n != nil && len(n.Paper) > 0 {
			// what the paper's sizes would take: a GPU, memory, or the
			// budget's estimate of the cells left
			if why := needText(Need{Claim: n.Claim, Paper: n.Paper}, idx, ""); why != "" {
				where += " (at them: " + why + ")"
			}
		}
		c.Reason = joinReason(where+": the rule gave "+string(c.Verdict), c.Reason)
		c.Verdict = Indicative
	}
	return c
}

// classText says why a claim is of its preset class.
func classText(v Verdict) string {
	switch v {
	case NotComparable:
		return "another class of machine or a construction of ours, so no pass or fail"
	case ByConstruction:
		return "our construction guarantees it, so it is never counted"
	}
	return string(v)
}

func joinReason(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + "; " + b
}

// lookup finds the record of a cell reference: through alternatives
// ("a|b": an ok one first) and, for an experiment measured by another,
// under the other's name.
func lookup(ref CellRef, idx Cells) *bench.Record {
	var found *bench.Record
	for _, impl := range strings.Split(ref.Impl, "|") {
		for _, exp := range []string{ref.Experiment, measuredBy(ref.Experiment)} {
			if exp == "" {
				continue
			}
			if r := idx.Get(exp, impl, ref.Params); r != nil && (found == nil || statusRank(r.Status) > statusRank(found.Status)) {
				found = r
			}
		}
	}
	return found
}

// statusRank orders the records of a cell's alternatives: the one that
// ran, then one that failed its check, then one the budget skipped (it
// could run here), then the rest (unavailable here).
func statusRank(s string) int {
	switch s {
	case bench.StatusOK:
		return 3
	case bench.StatusCheckFailed:
		return 2
	case bench.StatusSkipped:
		return 1
	}
	return 0
}

// measuredBy is the experiment whose cells exp's tables read, or "".
func measuredBy(exp string) string {
	if e := registry[exp]; e != nil {
		return e.MeasuredBy
	}
	return ""
}

// allRan reports whether every cell ran: its record ok, or failing its
// check (a wrong answer at the paper's size is evidence too).
func allRan(refs []CellRef, idx Cells) bool {
	for _, ref := range refs {
		if r := lookup(ref, idx); r == nil || r.Status != bench.StatusOK && r.Status != bench.StatusCheckFailed {
			return false
		}
	}
	return true
}

// throttled says which of the claim's cells (at the paper's sizes and
// below) ran on a throttled GPU, and how (report.ThrottledNote); empty when
// none did.
func throttled(n Need, idx Cells) string {
	var recs []bench.Record
	for _, ref := range append(slices.Clone(n.Least), n.Paper...) {
		if r := lookup(ref, idx); r != nil {
			recs = append(recs, *r)
		}
	}
	return report.ThrottledNote(recs...)
}

// anyCheckFailed reports whether a cell's answer failed its check.
func anyCheckFailed(refs []CellRef, idx Cells) bool {
	for _, ref := range refs {
		if r := lookup(ref, idx); r != nil && r.Status == bench.StatusCheckFailed {
			return true
		}
	}
	return false
}

// needText says what a claim not run would need: a GPU before memory
// before time, from the records of its cells at the paper's sizes (or
// its cheaper cells when it has none there).
func needText(n Need, idx Cells, reason string) string {
	refs := n.Paper
	if len(refs) == 0 {
		refs = n.Least
	}
	var gpu, mem, absent []string
	est := 0.0
	skipped := 0
	var basis []string
	for _, ref := range refs {
		r := lookup(ref, idx)
		switch {
		case r == nil:
			absent = append(absent, ref.Impl+" "+ref.Params.String())
		case r.Status == bench.StatusUnavailable:
			gpu = append(gpu, ref.Impl)
		case r.Status == bench.StatusSkipped && strings.Contains(r.Error, "memory"):
			mem = append(mem, ref.Impl+" "+ref.Params.String()+": "+r.Error)
		case r.Status == bench.StatusSkipped:
			skipped++
			est += r.EstimateMS
			if r.Basis != "" && !slices.Contains(basis, r.Basis) {
				basis = append(basis, r.Basis)
			}
		}
	}
	switch {
	case len(gpu) > 0:
		return "needs a GPU: " + strings.Join(uniq(gpu), ", ") + " cannot run on this machine"
	case len(mem) > 0:
		return mem[0]
	case skipped > 0:
		s := fmt.Sprintf("skipped by the budget: %d of its cells, about %s more", skipped, msDuration(est))
		if len(basis) > 0 {
			s += " (estimated by " + FirstOf(basis, 2) + ")"
		}
		return s
	case len(absent) > 0:
		return "not in this run: " + strings.Join(absent[:min(3, len(absent))], "; ") + moreText(len(absent)-3)
	}
	return reason
}

func moreText(k int) string {
	if k <= 0 {
		return ""
	}
	return fmt.Sprintf("; and %d more", k)
}

func uniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// msDuration renders milliseconds as a short duration.
func msDuration(ms float64) string {
	switch {
	case ms >= 3600e3:
		return fmt.Sprintf("%.1f h", ms/3600e3)
	case ms >= 60e3:
		return fmt.Sprintf("%.1f min", ms/60e3)
	}
	return fmt.Sprintf("%.1f s", ms/1e3)
}

// rerunCommand is the command that re-runs a claim's cells (at the
// paper's sizes when it has them): one run per experiment, its
// implementations and the parameter values of its cells.
func rerunCommand(n Need, scale Scale) string {
	refs := n.Paper
	if len(refs) == 0 {
		refs = n.Least
	}
	type group struct {
		impls  []string
		values map[string][]string
		names  []string
	}
	var exps []string
	groups := map[string]*group{}
	for _, ref := range refs {
		exp := ref.Experiment
		if m := measuredBy(exp); m != "" {
			exp = m
		}
		g := groups[exp]
		if g == nil {
			g = &group{values: map[string][]string{}}
			groups[exp] = g
			exps = append(exps, exp)
		}
		for _, impl := range strings.Split(ref.Impl, "|") {
			if !slices.Contains(g.impls, impl) {
				g.impls = append(g.impls, impl)
			}
		}
		for _, p := range ref.Params {
			if !slices.Contains(g.names, p.Name) {
				g.names = append(g.names, p.Name)
			}
			if !slices.Contains(g.values[p.Name], p.Value) {
				g.values[p.Name] = append(g.values[p.Name], p.Value)
			}
		}
	}
	var cmds []string
	for _, exp := range exps {
		g := groups[exp]
		var where []string
		for _, name := range g.names {
			where = append(where, name+"="+strings.Join(g.values[name], "|"))
		}
		cmd := fmt.Sprintf("semibench run %s --scale %s --impl '%s'", exp, scale, strings.Join(g.impls, ","))
		if len(where) > 0 {
			cmd += " --where '" + strings.Join(where, ",") + "'"
		}
		cmds = append(cmds, cmd)
	}
	return strings.Join(cmds, "; ")
}

// SamplesOf is a record's timed samples of a phase (nil when none).
func SamplesOf(r *bench.Record, phase string) []float64 {
	if r == nil {
		return nil
	}
	p := r.Phase(phase)
	switch {
	case p == nil:
		return nil
	case len(p.SamplesMS) == 0 && p.MedianMS > 0:
		return []float64{p.MedianMS} // a record without its samples: its median alone
	}
	return p.SamplesMS
}
