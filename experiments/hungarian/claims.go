package hungarian

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/internal/stats"
	"github.com/semibench/semibench/problems/lap"
)

// The Hungarian paper's (001) claims beyond Figs. 4-6 and Table 2's
// speedups (hungarian.go, cuda.go).

// hungarianStepNames are the paper's six steps (lap.PaperSteps without
// init).
var hungarianStepNames = lap.PaperSteps[1:]

// hungarianLargestBoth is the largest n at range r where every impl's cell
// is ok in recs (experiment exp), or 0.
func hungarianLargestBoth(recs []bench.Record, exp, r string, impls ...string) int {
	rc := experiments.IndexRecords(recs)
	best := 0
	for _, hc := range hungarianCells(recs) {
		if hc.r != r {
			continue
		}
		ok := true
		for _, im := range impls {
			ok = ok && experiments.OKRecord(rc.Get(exp, im, hungarianParams(hc.n, r)))
		}
		if ok {
			best = max(best, hc.n)
		}
	}
	return best
}

// hungarianMissing names the cells of impls at the paper's largest n, for
// the reason of a claim not run.
func hungarianMissing(recs []bench.Record, exp string, ranges []string, impls ...string) []experiments.ClaimCell {
	rc := experiments.IndexRecords(recs)
	var out []experiments.ClaimCell
	for _, r := range ranges {
		for _, im := range impls {
			out = append(out, experiments.CellOf(rc, exp, im, hungarianParams(8192, r)))
		}
	}
	return out
}

// hungarianWorstClaim: at large cost ranges the O(n^4) CPU Hungarian is
// the slowest CPU algorithm (Fig. 5, n = 2048).
func hungarianWorstClaim(run []bench.Record) experiments.Claim {
	const exp = "hungarian/fig5"
	own := hungarianOwn(run, exp)
	rc := experiments.IndexRecords(own)
	c := experiments.Claim{ID: exp + "#cpu-paper-worst", Where: "Fig. 5",
		Text: "As the cost range grows the O(n^4) CPU Hungarian becomes the slowest CPU algorithm: ours is cpu/paper against the slowest other CPU algorithm at the largest range where they ran (n = 2048). Reproduced when cpu/paper is slower by the samples' test and the claim's margin; inconclusive within them."}
	cells := hungarianCells(own)
	sort.SliceStable(cells, func(i, j int) bool {
		fi, _ := lapcost.RangeFactor(cells[i].r)
		fj, _ := lapcost.RangeFactor(cells[j].r)
		return fi > fj
	})
	var missing []experiments.ClaimCell
	for _, hc := range cells {
		p := hungarianParams(hc.n, hc.r)
		base := experiments.CellOf(rc, exp, "cpu/paper", p)
		missing = append(missing, base)
		if !experiments.OKCells(base) {
			continue
		}
		var rival *bench.Record
		for _, im := range hungarianCPU[1:] {
			if x := experiments.CellOf(rc, exp, im, p); experiments.OKCells(x) && (rival == nil || hungarianMS(x.Rec) > hungarianMS(rival)) {
				rival = x.Rec
			}
		}
		if rival == nil {
			continue
		}
		sign, note := experiments.CompareWithin(c.ID, experiments.SamplesOf(rival, bench.TotalPhase), experiments.SamplesOf(base.Rec, bench.TotalPhase))
		c.Ours = fmt.Sprintf("at n = %d, range %s: cpu/paper takes %s the time of the slowest other, %s (%s)", hc.n, hc.r,
			experiments.Ratio(hungarianMS(base.Rec), hungarianMS(rival)), rival.Impl, note)
		c.Verdict = experiments.BySamples(sign, -1)
		// ours: cpu/paper / the slowest other, above the margin when cpu/paper is the slower
		return c.WithFigure(hungarianMS(base.Rec)/hungarianMS(rival), experiments.MarginBand(c.ID, experiments.NotReproduced, experiments.Inconclusive, experiments.Reproduced))
	}
	if len(missing) == 0 {
		missing = []experiments.ClaimCell{{Rec: nil, Impl: "cpu/paper", Params: hungarianParams(2048, hungarianFig5Ranges[len(hungarianFig5Ranges)-1])}}
	}
	return c.NotRunFor(missing...)
}

// hungarianSpeedupGrowsClaim: the CUDA time grows more slowly with n than
// the CPU's, so that the speedup rises from the smallest n to the largest
// at every range.
func hungarianSpeedupGrowsClaim(run []bench.Record) experiments.Claim {
	const exp = "hungarian/table2"
	own := hungarianView(run, exp)
	rc := experiments.IndexRecords(own)
	c := experiments.Claim{ID: exp + "#speedup-grows", Where: "Table 2",
		Text: "The CUDA time grows much more slowly with n than the CPU's: ours is cpu/paper / cuda/paper at the smallest and the largest n where both ran, per range. Reproduced when it rises at every range and exceeds 1 at the largest n."}
	var parts, bad []string
	for _, r := range lapcost.PaperRanges {
		var ns []int
		for _, hc := range hungarianCells(own) {
			p := hungarianParams(hc.n, r)
			if hc.r == r && experiments.OKRecord(rc.Get(exp, "cpu/paper", p)) && experiments.OKRecord(rc.Get(exp, "cuda/paper", p)) {
				ns = append(ns, hc.n)
			}
		}
		if len(ns) < 2 {
			continue
		}
		sp := func(n int) float64 {
			p := hungarianParams(n, r)
			return hungarianMS(rc.Get(exp, "cpu/paper", p)) / hungarianMS(rc.Get(exp, "cuda/paper", p))
		}
		lo, hi := sp(ns[0]), sp(ns[len(ns)-1])
		parts = append(parts, fmt.Sprintf("range %s: %s at n = %d, %s at n = %d", r, report.FormatRatio(lo), ns[0], report.FormatRatio(hi), ns[len(ns)-1]))
		if hi <= lo || hi <= 1 {
			bad = append(bad, r)
		}
	}
	if len(parts) == 0 {
		return c.NotRunFor(hungarianMissing(own, exp, lapcost.PaperRanges, "cpu/paper", "cuda/paper")...)
	}
	c.Ours = strings.Join(parts, "; ")
	if len(bad) > 0 {
		c.Ours += "; no rise at range " + strings.Join(bad, ", ")
	}
	c.Verdict = experiments.Holds(len(bad) == 0)
	return c
}

// hungarianTopSteps ranks the steps of a record by a value per step
// (NaN values last), highest first.
func hungarianTopSteps(val map[string]float64) []string {
	steps := slices.Clone(hungarianStepNames)
	sort.SliceStable(steps, func(i, j int) bool {
		a, b := val[steps[i]], val[steps[j]]
		if math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		return a > b
	})
	return steps
}

// hungarianCPUStepsClaim: in the CPU version step 1 dominates at range
// 0.1n, steps 1 and 6 at range n, step 6 at range 10n.
func hungarianCPUStepsClaim(run []bench.Record) experiments.Claim {
	const exp = "hungarian/table1"
	own := hungarianOwn(run, exp)
	rc := experiments.IndexRecords(own)
	c := experiments.Claim{ID: exp + "#cpu-dominant-steps", Where: "section 5",
		Text: "In the CPU version step 1 dominates the time at range 0.1n, steps 1 and 6 at range n, step 6 at range 10n: ours is cpu/paper's steps at the largest n that ran per range. Reproduced when step 1 is the longest at 0.1n, steps 1 and 6 the two longest at n, step 6 the longest at 10n."}
	want := map[string][]string{"0.1n": {"step1"}, "n": {"step1", "step6"}, "10n": {"step6"}}
	var parts, bad, noisy []string
	for _, r := range lapcost.PaperRanges {
		n := hungarianLargestBoth(own, exp, r, "cpu/paper")
		if n == 0 {
			continue
		}
		rec := rc.Get(exp, "cpu/paper", hungarianParams(n, r))
		if math.IsNaN(experiments.PhaseMS(rec, bench.TotalPhase)) || rec.Phase("step1") == nil {
			return c.NoMetric("phases total and step1", fmt.Sprintf("cpu/paper at n = %d, range %s", n, r))
		}
		// A step the solve never entered records no phase: it took no
		// time (step 6 at range 0.1n in the 2-core run of 1196362).
		val := map[string]float64{}
		for _, s := range hungarianStepNames {
			val[s] = experiments.PhaseMS(rec, s)
			if rec.Phase(s) == nil {
				val[s] = 0
			}
		}
		ranked := hungarianTopSteps(val)
		k := len(want[r])
		top := slices.Clone(ranked[:k])
		part := fmt.Sprintf("range %s, n = %d: %s", r, n, strings.Join(top, ", "))
		// The ranking holds only where the last step in it is told apart
		// from the next by their samples (Mann-Whitney U over 6 or more,
		// a 25% margin between medians below that).
		if len(ranked) > k {
			a, b := experiments.SamplesOf(rec, ranked[k-1]), experiments.SamplesOf(rec, ranked[k])
			if sign, _ := stats.CompareSamples(a, b); len(a) > 0 && len(b) > 0 && sign == 0 {
				part += fmt.Sprintf(" (%s and %s within the noise: %s and %s ms)", ranked[k-1], ranked[k],
					report.FormatMS(bench.Median(a)), report.FormatMS(bench.Median(b)))
				noisy = append(noisy, r)
			}
		}
		parts = append(parts, part)
		slices.Sort(top)
		if !slices.Equal(top, want[r]) {
			bad = append(bad, r)
		}
	}
	if len(parts) == 0 {
		return c.NotRunFor(hungarianMissing(own, exp, lapcost.PaperRanges, "cpu/paper")...)
	}
	c.Ours = "the longest steps: " + strings.Join(parts, "; ")
	if len(bad) > 0 {
		c.Ours += "; not the paper's at range " + strings.Join(bad, ", ")
	}
	c.Verdict = experiments.Holds(len(bad) == 0)
	// A miss only where the ranking is within the noise decides nothing.
	if len(bad) > 0 && !slices.ContainsFunc(bad, func(r string) bool { return !slices.Contains(noisy, r) }) {
		c.Verdict = experiments.Inconclusive
	}
	return c
}

// hungarianStepSpeedups are cpu/paper / cuda/paper per step at (n, r) in
// recs, NaN where a step is missing or took no time on the GPU.
func hungarianStepSpeedups(rc experiments.Cells, exp string, n int, r string) map[string]float64 {
	p := hungarianParams(n, r)
	cpu, gpu := rc.Get(exp, "cpu/paper", p), rc.Get(exp, "cuda/paper", p)
	out := map[string]float64{}
	for _, s := range hungarianStepNames {
		a, b := experiments.PhaseMS(cpu, s), experiments.PhaseMS(gpu, s)
		out[s] = math.NaN()
		if b > 0 {
			out[s] = a / b
		}
	}
	return out
}

func speedupList(sp map[string]float64) string {
	var parts []string
	for _, s := range hungarianStepNames {
		parts = append(parts, s+" "+experiments.Ratio(sp[s], 1))
	}
	return strings.Join(parts, ", ")
}

// hungarianTable3Claims are Table 3's claims on the steps' speedups at
// range n and the largest n where both programs ran: steps 1 and 6 gain
// the most, step 4 gains, step 3 loses the most; and the ranking is
// similar at the other ranges.
func hungarianTable3Claims(run []bench.Record) []experiments.Claim {
	const exp = "hungarian/table3"
	own := hungarianView(run, exp)
	rc := experiments.IndexRecords(own)
	paper, _ := paperdata.PaperRecords(exp)
	pc := experiments.IndexRecords(paper)
	top := experiments.Claim{ID: exp + "#steps-1-6", Where: "Table 3",
		Text: "Steps 1 and 6 gain the most from the GPU: ours is each step's cpu/paper / cuda/paper at range n and the largest n where both ran. Reproduced when steps 1 and 6 have the two highest speedups."}
	four := experiments.Claim{ID: exp + "#step4", Where: "Table 3",
		Text: "The GPU speeds up step 4 for the largest sizes: ours is step 4's cpu/paper / cuda/paper at range n and the largest n where both ran. Reproduced when above 1."}
	three := experiments.Claim{ID: exp + "#step3-worst", Where: "Table 3",
		Text: "Step 3 has the worst speedup, below 1: ours is each step's cpu/paper / cuda/paper at range n and the largest n where both ran. Reproduced when step 3's is the lowest and below 1."}
	n := hungarianLargestBoth(own, exp, "n", "cpu/paper", "cuda/paper")
	if n == 0 {
		miss := hungarianMissing(own, exp, []string{"n"}, "cuda/paper", "cpu/paper")
		return []experiments.Claim{top.NotRunFor(miss...), four.NotRunFor(miss...), three.NotRunFor(miss...), hungarianOtherRangesClaim(run)}
	}
	sp := hungarianStepSpeedups(rc, exp, n, "n")
	for _, s := range []string{"step1", "step3", "step4", "step6"} {
		if math.IsNaN(sp[s]) {
			cell := fmt.Sprintf("cpu/paper and cuda/paper at n = %d, range n", n)
			return []experiments.Claim{top.NoMetric("phase "+s, cell), four.NoMetric("phase "+s, cell), three.NoMetric("phase "+s, cell), hungarianOtherRangesClaim(run)}
		}
	}
	if pr := pc.Get(exp, "cuda/paper", hungarianParams(n, "n")); pr != nil {
		ps := map[string]float64{}
		for _, s := range hungarianStepNames {
			ps[s] = pr.Metrics["speedup_"+s]
		}
		top.PaperFigure = fmt.Sprintf("at n = %d: %s", n, speedupList(ps))
		four.PaperFigure, three.PaperFigure = top.PaperFigure, top.PaperFigure
	}
	ours := fmt.Sprintf("at n = %d: %s", n, speedupList(sp))
	rank := hungarianTopSteps(sp)
	first := slices.Clone(rank[:2])
	slices.Sort(first)
	top.Ours, top.Verdict = ours, experiments.Holds(slices.Equal(first, []string{"step1", "step6"}))
	four.Ours, four.Verdict = ours, experiments.Holds(sp["step4"] > 1)
	three.Ours, three.Verdict = ours, experiments.Holds(rank[len(rank)-1] == "step3" && sp["step3"] < 1)
	return []experiments.Claim{top, four, three, hungarianOtherRangesClaim(run)}
}

// hungarianOtherRangesClaim: the per-step speedups at ranges 0.1n and 10n
// are similar to those at range n, read as: the same two steps gain the
// most and the same step the least.
func hungarianOtherRangesClaim(run []bench.Record) experiments.Claim {
	const exp = "hungarian/table3"
	const src = "hungarian/table1" // every range; Table 3's own cells are at range n
	own := hungarianView(run, src)
	rc := experiments.IndexRecords(own)
	c := experiments.Claim{ID: exp + "#other-ranges", Where: "Table 3",
		Text: "Table 3 is similar for the other ranges: ours is each step's cpu/paper / cuda/paper at ranges 0.1n, n and 10n at the largest n where all ran. Reproduced when the two steps that gain the most and the step that gains the least are the same at every range."}
	n := math.MaxInt
	for _, r := range lapcost.PaperRanges {
		n = min(n, hungarianLargestBoth(own, src, r, "cpu/paper", "cuda/paper"))
	}
	if n == 0 || n == math.MaxInt {
		return c.NotRunFor(hungarianMissing(own, src, lapcost.PaperRanges, "cuda/paper", "cpu/paper")...)
	}
	var parts []string
	var shapes []string
	for _, r := range lapcost.PaperRanges {
		sp := hungarianStepSpeedups(rc, src, n, r)
		if math.IsNaN(sp["step1"]) { // step 1 runs in every solve: a record without it lacks its steps
			return c.NoMetric("phase step1", fmt.Sprintf("cpu/paper and cuda/paper at n = %d, range %s", n, r))
		}
		rank := hungarianTopSteps(sp)
		first := slices.Clone(rank[:2])
		slices.Sort(first)
		shape := strings.Join(first, "+") + ", least " + rank[len(rank)-1]
		parts = append(parts, "range "+r+": most "+shape)
		shapes = append(shapes, shape)
	}
	c.Ours = fmt.Sprintf("at n = %d: %s", n, strings.Join(parts, "; "))
	c.Verdict = experiments.Holds(shapes[0] == shapes[1] && shapes[1] == shapes[2])
	return c
}

// hungarianRangeSharesClaim: step 6 weighs more at large ranges, steps 1
// and 2 at small ranges (cuda/paper, Figs. 10-12).
func hungarianRangeSharesClaim(run []bench.Record) experiments.Claim {
	const exp = "hungarian/table1"
	own := hungarianOwn(run, exp)
	rc := experiments.IndexRecords(own)
	c := experiments.Claim{ID: exp + "#range-shares", Where: "section 5, Figs. 10-12",
		Text: "Step 6 weighs more at large cost ranges, steps 1 and 2 at small ones: ours is each step's share of cuda/paper's six steps at ranges 0.1n and 10n, at the largest n where both ran. Reproduced when step 6's share is larger at 10n and steps 1 and 2's larger at 0.1n."}
	n := min(hungarianLargestBoth(own, exp, "0.1n", "cuda/paper"), hungarianLargestBoth(own, exp, "10n", "cuda/paper"))
	if n == 0 {
		return c.NotRunFor(hungarianMissing(own, exp, []string{"0.1n", "10n"}, "cuda/paper")...)
	}
	share := func(r string, steps ...string) float64 {
		rec := rc.Get(exp, "cuda/paper", hungarianParams(n, r))
		sum, part := 0.0, 0.0
		for _, s := range hungarianStepNames {
			v := experiments.PhaseMS(rec, s)
			if math.IsNaN(v) {
				v = 0 // a step that never ran
			}
			sum += v
			if slices.Contains(steps, s) {
				part += v
			}
		}
		return part / sum
	}
	s6lo, s6hi, s12lo, s12hi := share("0.1n", "step6"), share("10n", "step6"), share("0.1n", "step1", "step2"), share("10n", "step1", "step2")
	if math.IsNaN(s6lo + s6hi) {
		return c.NoMetric("step phases", fmt.Sprintf("cuda/paper at n = %d", n))
	}
	c.Ours = fmt.Sprintf("at n = %d: step 6 %.0f%% at 0.1n, %.0f%% at 10n; steps 1 and 2 %.0f%% at 0.1n, %.0f%% at 10n", n, 100*s6lo, 100*s6hi, 100*s12lo, 100*s12hi)
	c.Verdict = experiments.Holds(s6hi > s6lo && s12lo > s12hi)
	return c
}

// hungarianCorrectClaim: the block-split step 4 (Appendix A) still solves
// the problem: every cuda/paper cell's assignment passes its optimality
// check.
func hungarianCorrectClaim(run []bench.Record) experiments.Claim {
	const exp = "hungarian/table1"
	own := hungarianOwn(run, exp)
	c := experiments.Claim{ID: exp + "#cuda-correct", Where: "Appendix A",
		Text: "The CUDA implementation, its step 4 split over blocks, solves the assignment problem: ours is every cuda/paper cell's check (dual feasibility and complementary slackness: an optimality certificate). Reproduced when every cell that ran passes and none fails."}
	ok := 0
	var bad []string
	var cells []experiments.ClaimCell
	for i := range own {
		r := &own[i]
		if r.Impl != "cuda/paper" {
			continue
		}
		cells = append(cells, experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params})
		switch r.Status {
		case bench.StatusOK:
			ok++
		case bench.StatusCheckFailed:
			bad = append(bad, r.Params.String())
		}
	}
	switch {
	case len(bad) > 0:
		c.Verdict, c.Ours = experiments.NotReproduced, fmt.Sprintf("%d cells failed their check: %s", len(bad), experiments.FirstOf(bad, 3))
	case ok == 0:
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{{Rec: nil, Impl: "cuda/paper", Params: hungarianParams(8192, "n")}}
		}
		return c.NotRunFor(cells...)
	default:
		c.Verdict, c.Ours = experiments.Reproduced, fmt.Sprintf("%d cells, each an optimal assignment", ok)
	}
	return c
}

// hungarianK20cClaim sets ours beside Table 4's Tesla K20c at range n:
// another GPU, so never scored.
func hungarianK20cClaim(run []bench.Record) experiments.Claim {
	const exp = "hungarian/table4"
	own := hungarianView(run, exp)
	rc := experiments.IndexRecords(own)
	paper, _ := paperdata.PaperRecords(exp)
	pc := experiments.IndexRecords(paper)
	c := experiments.Claim{ID: exp + "#k20c", Where: "Table 4", Class: experiments.NotComparable,
		Text: "The CUDA implementation's run times on a Tesla K20c: ours is cuda/paper's total at range n and the largest n where it ran, beside the paper's K20c at that n (another GPU: shown, not scored). " + experiments.RatioRule(experiments.LowerBetter)}
	n := hungarianLargestBoth(own, exp, "n", "cuda/paper")
	pr := pc.Get(exp, "cuda/paper", hungarianParams(n, "n"))
	if n == 0 || pr == nil {
		return c.NotRunFor(hungarianMissing(own, exp, []string{"n"}, "cuda/paper")...)
	}
	pv, ov := experiments.PhaseMS(pr, bench.TotalPhase), hungarianMS(rc.Get(exp, "cuda/paper", hungarianParams(n, "n")))
	c.PaperFigure = fmt.Sprintf("%s ms at n = %d", report.FormatMS(pv), n)
	c, band := c.JudgeRatio(pv, ov, experiments.LowerBetter, experiments.UnitMS)
	c.Ours = fmt.Sprintf("%s ms at n = %d (paper / ours %s; %s)", report.FormatMS(ov), n, experiments.Ratio(pv, ov), band)
	return c
}
