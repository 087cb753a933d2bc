package widest

import (
	"fmt"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/example/impls"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/paperdata"
)

// SpeedupID is the toy paper's one claim.
const SpeedupID = Exp + "#fast-over-squaring"

// speedupTolerance is the claim's margin. A real paper's is its entry in
// its catalogue, experiments/<paper>/paper/claims.json, which its rule reads with
// experiments.RatioJudge; the toy's stays here, out of the catalogue.
var speedupTolerance = paperdata.Tolerance{
	Text:   "a factor of 3 either way",
	Reason: "the ratio counts products, ⌈log2(n-1)⌉ squarings against one sweep, and the machine moves it by less than 3x",
	Factor: new(3.0),
}

// speedupClaim: one Floyd–Warshall sweep beats repeated squaring by about
// log2 n, 9x at n = 512 (the paper's Table 1).
func speedupClaim(run []bench.Record) experiments.Claim {
	c := experiments.Claim{ID: SpeedupID, Where: "Table 1",
		Text: "One Floyd–Warshall sweep beats repeated squaring by about log2 n, 9x at n = 512: ours is cpu/paper / cpu/fast (totals) at the largest n where both ran. " +
			experiments.RatioRule(experiments.Neither)}
	c = c.WithTolerance(speedupTolerance)
	pc := experiments.IndexRecords(paperRecords())
	paper := experiments.PhaseMS(pc.Get(Exp, "cpu/paper", params(512)), bench.TotalPhase) /
		experiments.PhaseMS(pc.Get(Exp, "cpu/fast", params(512)), bench.TotalPhase)
	c.PaperFigure = report.FormatRatio(paper) + " at n = 512"
	own := experiments.OfExperiment(run, Exp)
	rc := experiments.IndexRecords(own)
	ns := rows(own)
	for i := len(ns) - 1; i >= 0; i-- {
		slow, fast := experiments.CellOf(rc, Exp, "cpu/paper", params(ns[i])), experiments.CellOf(rc, Exp, "cpu/fast", params(ns[i]))
		if !experiments.OKCells(slow, fast) {
			continue
		}
		ours := experiments.PhaseMS(slow.Rec, bench.TotalPhase) / experiments.PhaseMS(fast.Rec, bench.TotalPhase)
		v, band := experiments.RatioJudgeWith(speedupTolerance, paper, ours, experiments.Neither, experiments.RatioText)
		c.Ours, c.Verdict = fmt.Sprintf("%s at n = %d, %s", report.FormatRatio(ours), ns[i], band), v
		return c
	}
	return c.NotRunFor(experiments.CellOf(rc, Exp, "cpu/paper", params(512)), experiments.CellOf(rc, Exp, "cpu/fast", params(512)))
}

// needs: the claim's cells are both implementations at n = 512 at paper
// scale (below it, at 256), and at the largest size of any other scale.
func needs(s experiments.Scale, _ experiments.Options) []experiments.Need {
	ns := sizes(s)
	at := func(n int) []experiments.CellRef {
		return experiments.CellRefs(Exp, impls.Widest.Names(), params(n))
	}
	least := at(ns[len(ns)-1])
	if s == experiments.Paper {
		least = at(ns[len(ns)-2])
	}
	return []experiments.Need{experiments.ByScale(SpeedupID, s, at(512), least)}
}
