package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/stats"
)

// The two-level rule. A claim's figure moves at two levels: between the
// samples of one process (the settle rule's intervals, settle.go) and
// between processes, allocations and leases (the outer level), by far
// more at the second: the H100's two runs of 3393cf4 on one lease, each
// settled within itself, measured Kleene's update-W growth at 11.6x and
// 8.33x. The outer level is read two ways:
//
//   - In the run: the runner measures the claim's cells again in fresh
//     processes or allocations (bench.Record.Replicates), interleaved. The
//     claim's figure is computed once per draw (the run's own measurement,
//     then each replicate j of every cell) and its typical value gets a
//     t interval from the draws' spread, floored by history's between-run
//     spread where history knows it (stats.OuterInterval). The claim is
//     settled when the band gives the within-run verdict over the whole
//     interval and the within-run rule settles too (SettleTwoLevel). A
//     claim without a figure is settled when every draw gives its verdict.
//     OuterNeed says how many draws more the claim needs.
//   - Over the runs of the machine kind (history, Between): the claim's
//     figure in each run is one draw; their typical value gets a t
//     interval from their spread, and the band's verdict over the whole
//     interval is the claim's class on every run of the kind
//     (judgeHistory). A figure that the runs carry across an edge of its
//     band is "inconclusive: varies between runs". One rule over the kind's
//     runs together gives each of them the same class, where a rule that
//     judged each run's own figure widened by the spread would still split
//     the runs near an edge.

// The levels that decide a verdict (Claim.Level).
const (
	LevelWithin  = "within the run"
	LevelOuter   = "the outer level in this run"
	LevelHistory = "history"
)

// MaxOuterDraws is the most draws of the outer level the rule plans for:
// the run's own measurement and up to 7 replicates. Beyond it a figure is
// too close to its band's edge for the budget of a run.
const MaxOuterDraws = 8

// PriorBetweenLogSD is the between-run spread of a claim's figure (the
// standard deviation of its log) assumed where history knows fewer than
// MinBetweenRuns runs of the machine kind: 0.2, the 90th percentile of
// the 34 spreads of a timed figure over the committed GPU reproduces
// (--budget 7m; 17 H100 and 8 H200 runs, each claim and kind with at
// least 3 runs at the papers' sizes: median 0.125, 90th percentile
// 0.202). Nine claims in ten then move less between runs than the rule
// assumes.
const PriorBetweenLogSD = 0.2

// OuterAlpha is the error rate of the outer level's interval at each
// look: SettleAlpha split over the looks the runner takes (OuterNeed
// plans a claim's draws in at most outerLooks steps: one draw, enough to
// measure their spread, the draws that spread asks for).
const OuterAlpha = SettleAlpha / outerLooks

const outerLooks = 3

// Outer is the outer level of a claim in one run.
type Outer struct {
	// Figures and Verdicts are the claim's figure and verdict at each
	// draw: the run's own measurement first, then each replicate.
	Figures  []float64
	Verdicts []Verdict
	// Lo and Hi bound the claim's typical figure (NaN for a claim without
	// a figure); Verdict is the band's verdict over the whole interval,
	// or Inconclusive where it reaches past an edge (for a claim without a
	// figure: the draws' verdict where they all agree).
	Lo, Hi  float64
	Verdict Verdict
	// Basis says what the interval's spread rests on.
	Basis string
	claim Claim // the claim as the run's own measurement gives it
}

// Draws is the number of draws of the outer level.
func (o *Outer) Draws() int {
	if o == nil {
		return 0
	}
	return len(o.Verdicts)
}

// SettleTwoLevel is SettleClaimOf at both levels: the within-run rule on
// the cells' samples, and, where the claim's cells carry replicates, the
// outer level over the draws, with between's spread (history's, for the
// run's machine kind; nil when unknown) as the floor of theirs. Settled
// only when both give the claim's verdict; Level says which level decided.
func SettleTwoLevel(e *Experiment, id string, recs []bench.Record, refs []CellRef, noise float64, looks int, between *Between) Settle {
	st := SettleClaimOf(e, id, recs, refs, noise, looks)
	st.Level = LevelWithin
	if e == nil || st.Claim.Verdict == NotRun || st.Claim.Class != "" {
		return st
	}
	o := outerOf(e, id, recs, refs, noise, between)
	if o.Draws() == 0 {
		return st
	}
	st.Outer = o
	if !st.Settled {
		return st
	}
	if o.Verdict != st.Claim.Verdict {
		st.Settled = false
		st.Why = "at the outer level: " + o.text(st.Claim)
		return st
	}
	if o.Draws() > 1 {
		st.Level = LevelOuter
	}
	return st
}

// OuterNeed is how many more draws of the outer level (replicates of the
// claim's cells in fresh processes or allocations) claim id needs now: 0
// when the between-run spread (between's where it is usable, else
// PriorBetweenLogSD; never below the run's noise) cannot carry the
// figure across its band's edge, when the draws taken settle it, or when
// no number of draws up to MaxOuterDraws could (why says which). For a
// claim without a figure: 0 unless history's runs disagree on its
// verdict, then up to three draws that must agree. The runner calls it
// once the claim settles within the run, measures that many replicates of
// each cell, and calls it again.
func OuterNeed(e *Experiment, id string, recs []bench.Record, refs []CellRef, noise float64, between *Between) (int, string) {
	if e == nil {
		return 0, "no experiment computes " + id
	}
	o := outerOf(e, id, recs, refs, noise, between)
	if o.Draws() == 0 {
		if o.Basis != "" {
			return 0, o.Basis
		}
		return 0, "not run yet"
	}
	nominal := o.Verdicts[0]
	m := o.Draws()
	claim := o.claim
	if o.Verdict == nominal {
		if m == 1 {
			return 0, "the between-run spread cannot move it: " + o.text(claim)
		}
		return 0, fmt.Sprintf("settled at the outer level over %d draws: %s", m, o.text(claim))
	}
	if math.IsNaN(o.Figures[0]) {
		if !allEqual(o.Verdicts) {
			return 0, "the draws disagree: " + verdictCounts(o.Verdicts)
		}
		return minAgree - m, fmt.Sprintf("the runs of this machine kind disagree on it (%s): %d draws must agree", runCounts(between.Counted(false)), minAgree)
	}
	edges := claim.Band.Edges()
	if len(edges) == 0 {
		return 0, "no edge in its band"
	}
	sd, df, basis := betweenSpread(between, noise)
	c, _ := stats.OuterInterval(logs(o.Figures), 0, 0, SettleAlpha)
	d := math.Inf(1)
	for _, e := range edges {
		d = min(d, math.Abs(c-math.Log(e)))
	}
	// The draws the interval needs at the spread it will use: the larger
	// of the draws' own and history's where history knows the kind; the
	// draws' own from minAgree draws on without history (fewer give no
	// measure of it: the between-run spread, or the prior, stands in).
	s := 0.0
	if m >= 2 {
		s = stats.LogSD(o.Figures)
	}
	sigma := max(s, sd)
	if df == 0 && m >= minAgree {
		sigma, basis = s, fmt.Sprintf("the %d draws' own", m)
	}
	for n := m + 1; n <= MaxOuterDraws; n++ {
		q := stats.TQuantile(max(n-1, df), 1-OuterAlpha/2)
		if q*sigma/math.Sqrt(float64(n)) < d {
			return n - m, fmt.Sprintf("%d draws in all: ours, %s, lies %.1f%% from its band's edge, within the spread between runs (%.1f%%, %s)",
				n, claim.Band.Text(math.Exp(c)), 100*(math.Exp(d)-1), 100*sigma, basis)
		}
	}
	if df == 0 && m < minAgree {
		// the prior may overstate this claim's spread: draws enough to
		// measure its own
		return minAgree - m, fmt.Sprintf("%d draws in all, to measure the spread between them: at the prior's (%.1f%%) no number of draws up to %d separates ours, %s, from its band's edge (%.1f%% away)",
			minAgree, 100*sigma, MaxOuterDraws, claim.Band.Text(math.Exp(c)), 100*(math.Exp(d)-1))
	}
	return 0, fmt.Sprintf("no number of draws up to %d separates ours, %s, from its band's edge (%.1f%% away) at the spread between runs (%.1f%%, %s)",
		MaxOuterDraws, claim.Band.Text(math.Exp(c)), 100*(math.Exp(d)-1), 100*sigma, basis)
}

// minAgree is the draws (or runs) that must agree on the verdict of a
// claim without a figure.
const minAgree = MinBetweenRuns

// betweenSpread is the between-run spread the outer level assumes: the
// kind's (Between.LogSD) where history knows enough runs, else
// PriorBetweenLogSD; never below the run's noise. df is its degrees of
// freedom (0 for the prior, which is a guess and not an estimate).
func betweenSpread(b *Between, noise float64) (sd float64, df int, basis string) {
	if b.Usable(true) {
		if sd, df, basis = b.LogSD(); df > 0 {
			return max(sd, noise), df, "history: " + basis
		}
	}
	return max(PriorBetweenLogSD, noise), 0, "the prior of the committed runs"
}

// outerOf computes claim id at every draw of the outer level over recs:
// the run's own measurement, then replicate j of every cell the claim
// reads, as many as every cell has. between's spread floors the draws'
// where history knows it.
func outerOf(e *Experiment, id string, recs []bench.Record, refs []CellRef, noise float64, between *Between) *Outer {
	recs = recordsOf(recs, e, refs)
	nominal, ok := claimOf(e, id, recs)
	if !ok || nominal.Verdict == NotRun {
		return &Outer{}
	}
	idx := IndexRecords(recs)
	var at []int
	k := -1
	for _, ref := range refs {
		r := lookup(ref, idx)
		if r == nil || r.Status != bench.StatusOK {
			continue
		}
		i := recordIndex(recs, r)
		if i < 0 || slices.Contains(at, i) {
			continue
		}
		at = append(at, i)
		if k < 0 || len(r.Replicates) < k {
			k = len(r.Replicates)
		}
	}
	if !timedFigure(e, id, recs, at, nominal) {
		return &Outer{Basis: untimed} // a count or an exact result: no level of timing noise moves it
	}
	o := &Outer{Figures: []float64{nominal.Figure}, Verdicts: []Verdict{nominal.Verdict}, Lo: math.NaN(), Hi: math.NaN(), claim: nominal}
	for j := 0; j < k; j++ {
		moved := slices.Clone(recs)
		for _, i := range at {
			moved[i] = replicateRecord(recs[i], recs[i].Replicates[j])
		}
		c, _ := claimOf(e, id, moved)
		o.Figures = append(o.Figures, c.Figure)
		o.Verdicts = append(o.Verdicts, c.Verdict)
	}
	o.judge(nominal.Band, between, noise)
	return o
}

// timedFigure reports whether the claim's figure or verdict moves with
// the times of the cells at (recs' indices), scaled apart as readsTime
// probes the settle rule (scaledApart). A figure that no timing moves (a count of processors,
// a number of levels, an exact answer) has no outer level of noise.
func timedFigure(e *Experiment, id string, recs []bench.Record, at []int, nominal Claim) bool {
	for _, moved := range scaledApart(recs, at) {
		c, _ := claimOf(e, id, moved)
		if c.Verdict != nominal.Verdict || c.Figure != nominal.Figure && !(math.IsNaN(c.Figure) && math.IsNaN(nominal.Figure)) {
			return true
		}
	}
	return false
}

// untimed says why a claim has no outer level.
const untimed = "its figure moves with no timing (a count or an exact result): no outer level"

// judge sets o's interval and verdict from its draws: the band's verdict
// over the interval of the typical figure, or, for a claim without a
// figure (or a draw without one), the draws' verdict where all agree.
func (o *Outer) judge(b Band, between *Between, noise float64) {
	numeric := b.Valid()
	for _, f := range o.Figures {
		numeric = numeric && f > 0 && !math.IsInf(f, 0)
	}
	n := len(o.Verdicts)
	if !numeric {
		o.Verdict, o.Basis = Inconclusive, "the draws' verdicts: "+verdictCounts(o.Verdicts)
		switch {
		case !allEqual(o.Verdicts):
		case between.Usable(false) && !agree(between.Counted(false)) && n < minAgree:
			o.Basis = fmt.Sprintf("the runs of this machine kind disagree on it (%s), and %d draw(s) of %d agree", runCounts(between.Counted(false)), n, minAgree)
		default:
			o.Verdict = o.Verdicts[0]
		}
		return
	}
	// One draw: the between-run spread, history's or the prior, is the
	// only measure of how far the typical figure may lie from it. More:
	// their own spread, floored by history's where it is known.
	floor, df, basis := 0.0, 0, fmt.Sprintf("the %d draws' own spread", n)
	switch {
	case n == 1:
		floor, df, basis = betweenSpread(between, noise)
		basis = fmt.Sprintf("one draw, and the between-run spread %.1f%% (%s)", 100*floor, basis)
	case between.Usable(true):
		if sd, bdf, bb := between.LogSD(); bdf > 0 {
			floor, df = max(sd, noise), bdf
			basis = fmt.Sprintf("the %d draws' spread, floored by history's %.1f%% (%s)", n, 100*floor, bb)
		}
	}
	c, h := stats.OuterInterval(logs(o.Figures), floor, df, OuterAlpha)
	o.Lo, o.Hi, o.Basis = math.Exp(c-h), math.Exp(c+h), basis
	o.Verdict = bandOver(b, o.Lo, o.Hi)
}

// text says where the outer level puts the claim's figure.
func (o *Outer) text(c Claim) string {
	if math.IsNaN(o.Lo) {
		return o.Basis
	}
	return fmt.Sprintf("over %d draws (%s) the typical figure lies in %s-%s (%s), against %s: %s",
		len(o.Figures), figuresText(c.Band, o.Figures), c.Band.Text(o.Lo), c.Band.Text(o.Hi), o.Basis, c.Band.RangeText(), o.Verdict)
}

// bandOver is the band's verdict over the interval [lo, hi]: the verdict
// of the one zone (below, inside, above) that holds it whole, else
// Inconclusive.
func bandOver(b Band, lo, hi float64) Verdict {
	switch {
	case !b.Valid() || math.IsNaN(lo) || math.IsNaN(hi):
		return Inconclusive
	case hi < b.Low:
		return b.Below
	case lo > b.High:
		return b.Above
	case lo >= b.Low && hi <= b.High:
		return b.Inside
	}
	return Inconclusive
}

// replicateRecord is r with its phases those of replicate rep: the claim
// as that draw measured it.
func replicateRecord(r bench.Record, rep bench.Replicate) bench.Record {
	out := r
	out.Replicates = nil
	out.Phases = make([]bench.Phase, len(rep.Phases))
	for i, p := range rep.Phases {
		q := p
		if len(p.SamplesMS) > 0 {
			q.MedianMS, q.StatMS = bench.Median(p.SamplesMS), bench.Summarize(r.Statistic, p.SamplesMS)
		}
		out.Phases[i] = q
	}
	return out
}

func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}

func allEqual(vs []Verdict) bool {
	for _, v := range vs {
		if v != vs[0] {
			return false
		}
	}
	return len(vs) > 0
}

// verdictCounts says how many draws gave each verdict ("reproduced 3,
// inconclusive 1").
func verdictCounts(vs []Verdict) string {
	n := map[Verdict]int{}
	for _, v := range vs {
		n[v]++
	}
	var parts []string
	for _, v := range Verdicts {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, n[v]))
		}
	}
	return strings.Join(parts, ", ")
}

// figuresText lists figures in the band's unit, at most six.
func figuresText(b Band, xs []float64) string {
	var parts []string
	for _, x := range xs[:min(6, len(xs))] {
		parts = append(parts, b.Text(x))
	}
	if len(xs) > 6 {
		parts = append(parts, fmt.Sprintf("and %d more", len(xs)-6))
	}
	return strings.Join(parts, ", ")
}
