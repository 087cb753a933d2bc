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

// Between is a claim's figures over the runs of one machine kind.
type Between struct {
	Claim string // the claim's ID
	Kind  string // the machine kind (label, CPU, cores, GPU), as history names it
	Runs  []RunFigure
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

// With is b with run r added, or replacing the run of the same name: a
// run judged with history counts among its kind's runs once.
func (b *Between) With(r RunFigure) *Between {
	out := &Between{Runs: []RunFigure{r}}
	if b != nil {
		out.Claim, out.Kind = b.Claim, b.Kind
		out.Runs = append(slices.DeleteFunc(slices.Clone(b.Runs), func(x RunFigure) bool { return x.Run == r.Run && r.Run != "" }), r)
	}
	return out
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
