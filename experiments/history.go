package experiments

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/stats"
)

// History is what history knows of the machine kind of the run being
// judged: each claim's figure in every run of the kind (Between, filled by
// the history package from the result files in git and in results/).
type History struct {
	// Run names the run being judged as its kind's runs name it
	// (RunFigure.Run), so that it counts once among them; Commit and Date
	// are its commit and start.
	Run    string
	Commit string
	Date   time.Time
	// Kind names the machine kind, for the reasons.
	Kind string
	// Claims holds each claim's figures over the kind's runs, by claim ID,
	// in the order of their commits.
	Claims map[string]*Between
	// Steps, where set, finds the steps of a figure's timeline (see
	// Between.Stretch): a claim is then judged over the runs of its
	// stretch, the code the judged run measured.
	Steps func(groups [][]float64) []int
}

// JudgeWith is JudgeNoise at every level: within the run (the settle
// rule), the outer level in the run (SettleTwoLevel, in a run that
// sampled it: a record with replicates, or a file whose notes say so,
// JudgeFileWith; a run made before the runner sampled it is judged within
// the run, as it was) and, with h (nil: the
// run alone), the runs of its machine kind. A claim that
// history knows in at least MinBetweenRuns runs measured at the papers'
// sizes (this one among them) gets the class the kind's runs give
// together (judgeHistory), on this run and on each of them alike; its
// Alone keeps the verdict the run gave alone. Level says which level
// decided each verdict at the papers' sizes.
func JudgeWith(recs []bench.Record, scale Scale, schema int, noise float64, h *History) []Claim {
	return JudgeAtLevels(recs, scale, schema, noise, h, sampledOuter(recs))
}

// OuterNotePrefix starts the notes a run writes of the outer level: one
// when it starts, saying that it samples claims there (OuterAware), and
// one for each claim it considered.
const OuterNotePrefix = "outer level: "

// OuterAware reports whether a run's notes say that it sampled the outer
// level where the two-level rule asked for it: every claim of such a run
// is judged at both levels, one it did not sample from its one draw and
// the spread between runs (history's, or the prior), so that a verdict
// the next run could flip is inconclusive rather than decided.
func OuterAware(notes []string) bool {
	for _, n := range notes {
		if strings.HasPrefix(n, OuterNotePrefix) {
			return true
		}
	}
	return false
}

// JudgeAtLevels is JudgeWith with the outer level read where outer is
// set: a run whose notes say it sampled the outer level (OuterAware), or
// whose records carry replicates. A command that judges several files of
// one run together (shards) sets it when any of them is so.
func JudgeAtLevels(recs []bench.Record, scale Scale, schema int, noise float64, h *History, outer bool) []Claim {
	needs := map[string]Need{}
	for _, n := range Needs(All(), scale, Options{}) {
		needs[n.Claim] = n
	}
	idx := IndexRecords(recs)
	out := AllClaims(recs)
	for i := range out {
		n, ok := needs[out[i].ID]
		var np *Need
		if ok {
			np = &n
		}
		var between *Between
		if h != nil {
			between = h.Claims[out[i].ID]
		}
		level := LevelWithin
		if np != nil && out[i].Verdict.Scored() && out[i].Class == "" && len(n.Paper) > 0 && allRan(n.Paper, idx) {
			var st Settle
			if outer {
				st = SettleTwoLevel(claimHost(out[i].ID), out[i].ID, recs, n.Paper, noise, MaxLooks, between)
			} else {
				st = SettleClaim(out[i].ID, recs, n.Paper, noise, MaxLooks)
				st.Level = LevelWithin
			}
			switch {
			case !st.Settled && st.Claim.Verdict == out[i].Verdict:
				out[i].Reason = joinReason(st.Why+"; the samples give "+string(out[i].Verdict), out[i].Reason)
				out[i].Verdict = Inconclusive
				if st.Outer.Draws() > 1 {
					level = LevelOuter
				}
			case st.Settled:
				level = st.Level
			}
		}
		out[i] = classify(out[i], np, idx, scale, schema)
		if out[i].Class != "" {
			continue
		}
		if atPaperSize(out[i].Verdict) {
			out[i].Level = level
		}
		out[i] = h.Apply(out[i]) // an indicative verdict too: the kind's runs may have measured it at the papers' sizes
	}
	return out
}

// Apply is claim c of the run h judges, as the run judged it alone at the
// papers' sizes, with the runs of its machine kind: the class they give
// together (judgeHistory), the verdict alone kept in Alone; c unchanged
// where history does not apply (no history, a preset class, a claim not
// run, fewer than MinBetweenRuns runs that measured it at the papers'
// sizes; see historyApplies). JudgeWith
// applies it to every claim; history applies it to each run's claims
// judged alone, to show them with history beside alone.
func (h *History) Apply(c Claim) Claim {
	if h == nil || !historyApplies(c.Verdict) || c.Class != "" {
		return c
	}
	b := h.Claims[c.ID].With(RunFigureOf(c, h.Run, h.Commit, h.Date)).Stretch(h.Run, h.Steps)
	if v, why, ok := judgeHistory(c, b, h.Kind); ok {
		alone := "this run alone: " + c.VerdictText()
		c.Alone = c.Verdict
		c.Verdict, c.Level = v, LevelHistory
		c.Reason = why + "; " + alone
	}
	return c
}

// sampledOuter reports whether a run sampled the outer level: a record
// carries replicates.
func sampledOuter(recs []bench.Record) bool {
	for i := range recs {
		if len(recs[i].Replicates) > 0 {
			return true
		}
	}
	return false
}

// historyApplies reports whether a verdict is one history may decide: a
// scored one or inconclusive at the papers' sizes, or indicative (this
// run measured the claim below them only, its cells at them skipped by
// the budget): the class is then the one the kind's runs that measured it
// at the papers' sizes give together (at least MinBetweenRuns of them;
// never a run's own figure below those sizes, which Counted leaves out),
// the same on every run of the kind, and the reason says that this run
// alone was indicative and why. Not a preset class, not a claim not run.
func historyApplies(v Verdict) bool { return v.Scored() || v == Inconclusive || v == Indicative }

// judgeHistory is the class the runs of a machine kind give claim c
// together (b: c's figure in each, this run's among them), and why; false
// when fewer than MinBetweenRuns of them measured it at the papers' sizes.
//
// A claim with a figure: the runs' figures are draws of the kind's
// typical figure, whose interval (stats.OuterInterval: a t interval on
// their log, from their own spread) the band reads; where it reaches past
// an edge the claim is inconclusive, and the reason gives the runs'
// range. The rule reads the kind's runs together, so it gives each of
// them the same class. A claim without a figure: the verdict the runs
// decided, where more than half of them decided it and all that did
// agree; else inconclusive, with the runs' verdicts counted.
func judgeHistory(c Claim, b *Between, kind string) (Verdict, string, bool) {
	on := "on this machine kind"
	if kind != "" {
		on = "on " + kind
	}
	if b.Part != "" {
		on += " " + b.Part
	}
	if c.Band.Valid() && c.Figure > 0 && !math.IsInf(c.Figure, 0) {
		runs := b.Counted(true)
		if len(runs) < MinBetweenRuns {
			return "", "", false
		}
		var figs []float64
		for _, r := range runs {
			figs = append(figs, r.Figure)
		}
		center, half := stats.OuterInterval(logs(figs), 0, 0, SettleAlpha)
		lo, hi := math.Exp(center-half), math.Exp(center+half)
		rlo, rhi := b.Range()
		v := bandOver(c.Band, lo, hi)
		typical := fmt.Sprintf("typical %s, %.0f%% interval %s-%s, against %s", c.Band.Text(math.Exp(center)), 100*(1-SettleAlpha), c.Band.Text(lo), c.Band.Text(hi), c.Band.RangeText())
		if v != Inconclusive {
			return v, fmt.Sprintf("decided by history: %s-%s over %d runs %s (%s)", c.Band.Text(rlo), c.Band.Text(rhi), len(runs), on, typical), true
		}
		if crosses(c.Band, rlo, rhi) {
			return Inconclusive, fmt.Sprintf("varies between runs (%s-%s over %d runs %s; %s)", c.Band.Text(rlo), c.Band.Text(rhi), len(runs), on, typical), true
		}
		return Inconclusive, fmt.Sprintf("at its band's edge over the runs (%s-%s over %d runs %s; %s)", c.Band.Text(rlo), c.Band.Text(rhi), len(runs), on, typical), true
	}
	runs := b.Counted(false)
	if len(runs) < MinBetweenRuns {
		return "", "", false
	}
	var decided []RunFigure
	for _, r := range runs {
		if r.Verdict.Scored() {
			decided = append(decided, r)
		}
	}
	switch {
	case 2*len(decided) > len(runs) && agree(decided):
		return decided[0].Verdict, fmt.Sprintf("decided by history: %s in %d of %d runs %s, the rest inconclusive", decided[0].Verdict, len(decided), len(runs), on), true
	case len(decided) == 0:
		return Inconclusive, fmt.Sprintf("inconclusive in every one of %d runs %s", len(runs), on), true
	}
	return Inconclusive, fmt.Sprintf("varies between runs (%s, of %d runs %s)", runCounts(runs), len(runs), on), true
}

// crosses reports whether figures from lo to hi lie on both sides of an
// edge of the band.
func crosses(b Band, lo, hi float64) bool {
	return lo < b.Low && hi >= b.Low || lo <= b.High && hi > b.High
}

// agree reports whether the runs give one verdict.
func agree(runs []RunFigure) bool {
	for _, r := range runs {
		if r.Verdict != runs[0].Verdict {
			return false
		}
	}
	return true
}

// runCounts says in how many runs each verdict came ("reproduced in 10,
// inconclusive in 3").
func runCounts(runs []RunFigure) string {
	n := map[Verdict]int{}
	for _, r := range runs {
		n[r.Verdict]++
	}
	var parts []string
	for _, v := range Verdicts {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s in %d", v, n[v]))
		}
	}
	return strings.Join(parts, ", ")
}

// HistoryChanged lists the claims whose verdict history changed from the
// run's alone (Claim.Alone), one line each, for the report.
func HistoryChanged(claims []Claim) []string {
	var out []string
	for _, c := range claims {
		if c.Level == LevelHistory && c.Alone != "" && c.Alone != c.Verdict {
			out = append(out, fmt.Sprintf("%s %s (%s): %s alone, %s with history: %s", c.Paper, c.Where, c.ID, c.Alone, c.Verdict, c.Reason))
		}
	}
	return out
}
