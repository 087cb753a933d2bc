package experiments

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/semibench/semibench/internal/stats"
)

// The between-run level: a run is one draw from a machine kind (a
// process, a lease, a host), and a claim's figure moves between runs by
// more than its samples move within one (Kalibera and Jones, ISMM 2013).
// Between holds a claim's figure in every run of one machine kind that
// history knows; the two-level rule (twolevel.go) reads its spread.

// MinBetweenRuns is the fewest runs whose figures give a between-run
// spread: with two, one outlier is half the evidence.
const MinBetweenRuns = 3

// RunFigure is a claim's figure in one run, as the run judged alone gave
// it (JudgeNoise: the within-run verdict).
type RunFigure struct {
	// Run names the run: COMMIT:PATH for a file read from git, else its
	// path.
	Run string
	// Commit is the semibench commit that measured it (the file's
	// Semibench.Commit).
	Commit string
	// Date is when the run started.
	Date time.Time
	// Figure is the claim's figure in the run (Claim.Figure; NaN where its
	// rule gave none).
	Figure float64
	// Verdict is the run's verdict on the claim judged alone.
	Verdict Verdict
}

// RunFigureOf is claim c, judged alone on a run, as a RunFigure.
func RunFigureOf(c Claim, run, commit string, date time.Time) RunFigure {
	return RunFigure{Run: run, Commit: commit, Date: date, Figure: c.Figure, Verdict: c.Verdict}
}

// Between is a claim's figures over the runs of one machine kind, in
// the order of their commits in the repository's history.
type Between struct {
	Claim string // the claim's ID
	Kind  string // the machine kind (label, CPU, cores, GPU), as history names it
	Runs  []RunFigure
	// Part says which part of the kind's runs Runs are, where Stretch cut
	// them at a step of the figure ("from 3393cf4 on, after a step of the
	// figure"); empty for all.
	Part string
}

// atPaperSize reports whether a run's verdict rests on the claim's cells
// at the papers' sizes: a scored verdict, inconclusive (they ran, the
// noise left it open) or a preset class; not a verdict below them
// (indicative), of an old protocol, or of a claim not run.
func atPaperSize(v Verdict) bool {
	switch v {
	case Reproduced, Exceeded, NotReproduced, Inconclusive, NotComparable, ByConstruction:
		return true
	}
	return false
}

// Counted are the runs whose figures the between-run level reads: those
// judged at the papers' sizes, with a positive finite figure when
// numeric is set (a claim with a figure), in the order given.
func (b *Between) Counted(numeric bool) []RunFigure {
	if b == nil {
		return nil
	}
	var out []RunFigure
	for _, r := range b.Runs {
		if !atPaperSize(r.Verdict) {
			continue
		}
		if numeric && !(r.Figure > 0 && !math.IsInf(r.Figure, 0)) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// Usable reports whether enough runs (MinBetweenRuns) measured the claim
// at the papers' sizes for their spread to count; numeric asks for runs
// with a figure.
func (b *Between) Usable(numeric bool) bool { return len(b.Counted(numeric)) >= MinBetweenRuns }

// LogSD is the spread of the claim's figure between runs, the standard
// deviation of its log, with its degrees of freedom and what it rests
// on: pooled over the replicates of one commit (two or more runs of a
// commit) where there are any, so that a change a commit made is not
// taken for noise; else over all the runs with a figure. 0 on 0 degrees
// of freedom with fewer than two runs.
func (b *Between) LogSD() (sd float64, df int, basis string) {
	runs := b.Counted(true)
	byCommit := map[string][]float64{}
	var commits []string
	for _, r := range runs {
		if r.Commit == "" {
			continue
		}
		if _, ok := byCommit[r.Commit]; !ok {
			commits = append(commits, r.Commit)
		}
		byCommit[r.Commit] = append(byCommit[r.Commit], math.Log(r.Figure))
	}
	ss, df, groups, in := 0.0, 0, 0, 0
	for _, c := range commits {
		ys := byCommit[c]
		if len(ys) < 2 {
			continue
		}
		m := mean(ys)
		for _, y := range ys {
			ss += (y - m) * (y - m)
		}
		df += len(ys) - 1
		groups++
		in += len(ys)
	}
	if df > 0 {
		return math.Sqrt(ss / float64(df)), df, fmt.Sprintf("pooled over the replicates of %d commit(s), %d runs", groups, in)
	}
	var figs []float64
	for _, r := range runs {
		figs = append(figs, r.Figure)
	}
	if len(figs) < 2 {
		return 0, 0, "fewer than two runs"
	}
	return stats.LogSD(figs), len(figs) - 1, fmt.Sprintf("over all %d runs (no commit measured twice)", len(figs))
}

// Range is the least and the greatest figure of the counted runs (NaN
// when none).
func (b *Between) Range() (lo, hi float64) {
	runs := b.Counted(true)
	if len(runs) == 0 {
		return math.NaN(), math.NaN()
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range runs {
		lo, hi = min(lo, r.Figure), max(hi, r.Figure)
	}
	return lo, hi
}

// Stretch is b cut to the stretch of the figure's timeline that holds
// run: the runs between the last step before run's commit and the first
// step after it, where steps finds the steps of a timeline (given the
// figures in groups, one a commit in the order of Runs, the index of the
// first group after each step: history's detector). A figure that a
// commit changed is judged over the runs of the code it now has; runs of
// one commit are never split. b itself when there is no step, or fewer
// than MinBetweenRuns runs with a figure.
func (b *Between) Stretch(run string, steps func(groups [][]float64) []int) *Between {
	runs := b.Counted(true)
	if len(runs) < MinBetweenRuns || steps == nil {
		return b
	}
	var commits []string
	var groups [][]float64
	at := -1
	for _, r := range runs {
		k := slices.Index(commits, r.Commit)
		if k < 0 {
			k = len(commits)
			commits, groups = append(commits, r.Commit), append(groups, nil)
		}
		groups[k] = append(groups[k], r.Figure)
		if r.Run == run {
			at = k
		}
	}
	lo, hi := 0, len(commits)
	for _, s := range steps(groups) {
		switch {
		case s <= 0 || s >= len(commits) || at < 0:
		case s <= at:
			lo = max(lo, s)
		default:
			hi = min(hi, s)
		}
	}
	if lo == 0 && hi == len(commits) {
		return b
	}
	out := &Between{Claim: b.Claim, Kind: b.Kind}
	for _, r := range runs {
		if k := slices.Index(commits, r.Commit); k >= lo && k < hi {
			out.Runs = append(out.Runs, r)
		}
	}
	switch {
	case lo > 0 && hi < len(commits):
		out.Part = fmt.Sprintf("from %s to %s, between steps of the figure", short(commits[lo]), short(commits[hi-1]))
	case lo > 0:
		out.Part = fmt.Sprintf("from %s on, after a step of the figure", short(commits[lo]))
	default:
		out.Part = fmt.Sprintf("up to %s, before a step of the figure", short(commits[hi-1]))
	}
	return out
}

// short is a commit's short hash.
func short(c string) string { return c[:min(7, len(c))] }

// With is b with run r in the place of the run of the same name (a run
// judged with history counts among its kind's runs once), else after the
// last run of its commit, else last (a run newer than the kind's): the
// runs stay in their commits' order.
func (b *Between) With(r RunFigure) *Between {
	out := &Between{}
	if b != nil {
		out.Claim, out.Kind, out.Part = b.Claim, b.Kind, b.Part
		out.Runs = slices.Clone(b.Runs)
	}
	if i := slices.IndexFunc(out.Runs, func(x RunFigure) bool { return x.Run == r.Run && r.Run != "" }); i >= 0 {
		out.Runs[i] = r
		return out
	}
	at := len(out.Runs)
	for i, x := range out.Runs {
		if x.Commit == r.Commit && r.Commit != "" {
			at = i + 1
		}
	}
	out.Runs = slices.Insert(out.Runs, at, r)
	return out
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
