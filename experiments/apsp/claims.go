package apsp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
)

// Rote's (003) claims beyond the systolic arrays' counts (apsp.go).

// apspIdleClaim: at any moment at least two thirds of GJE0's processors
// are idle, read from the simulated arrays' most active step.
func apspIdleClaim(run []bench.Record) experiments.Claim {
	const exp = "apsp/systolic"
	most := experiments.TolHigh(exp + "#two-thirds-idle") // the most that may be active: one third
	c := experiments.Claim{ID: exp + "#two-thirds-idle", Where: "section 6",
		Text: "At any moment at least two thirds of GJE0's processors are idle: ours is the largest share of the simulated array's processors computing in one step, at every n. Reproduced when it is at most a third at every n."}
	var parts, bad []string
	var cells []experiments.ClaimCell
	own := experiments.OfExperiment(run, exp)
	for i := range own {
		r, rr := own[i], &own[i]
		if r.Impl != "cpu/systolic" || r.Params.Get("sweep") != "" {
			continue
		}
		cells = append(cells, experiments.ClaimCell{Rec: rr, Impl: r.Impl, Params: r.Params})
		if !experiments.OKRecord(rr) {
			continue
		}
		v, ok := rr.Metrics["max_active_fraction"]
		if !ok {
			return c.NoMetric("max_active_fraction", "cpu/systolic at "+r.Params.String())
		}
		parts = append(parts, fmt.Sprintf("%.3f at n = %s", v, r.Params.Get("n")))
		if !(v <= most) {
			bad = append(bad, r.Params.Get("n"))
		}
	}
	if len(parts) == 0 {
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{{Rec: nil, Impl: "cpu/systolic", Params: bench.Params{{Name: "n", Value: "64"}}}}
		}
		return c.NotRunFor(cells...)
	}
	c.Ours = "largest active share " + strings.Join(parts, ", ")
	if len(bad) > 0 {
		c.Ours += "; above a third at n = " + strings.Join(bad, ", ")
	}
	c.Verdict = experiments.Holds(len(bad) == 0)
	return c
}

// apspSemiringClaims: sGJE's operation counts (section 3) and its
// solutions of the algebraic path problem in each semiring (sections 2-4),
// from apsp/semirings' checked cells.
func apspSemiringClaims(run []bench.Record) []experiments.Claim {
	const exp = "apsp/semirings"
	own := experiments.OfExperiment(run, exp)
	counts := experiments.Claim{ID: exp + "#op-counts", Where: "section 3",
		Text: "sGJE executes n star operations, n³ − n multiplications and n(n − 1)² additions: ours is the operations cpu/sgje counted in every semiring and n that ran. Reproduced when every count equals the formula."}
	solves := experiments.Claim{ID: exp + "#instances", Where: "sections 2-4",
		Text: "sGJE solves the algebraic path problem in each semiring, (I − A)⁻¹ of a real matrix, shortest distances and the transitive closure: ours is every cell's check against an independent reference (Gauss-Jordan with pivoting, Bellman-Ford, breadth-first search). Reproduced when every cell that ran passes and each of the paper's three semirings has one."}
	okCounts := 0
	var badCounts, failed []string
	perSemiring := map[string]int{}
	var cells []experiments.ClaimCell
	for i := range own {
		r := &own[i]
		cells = append(cells, experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params})
		switch r.Status {
		case bench.StatusCheckFailed:
			failed = append(failed, r.Impl+" "+r.Params.String())
		case bench.StatusOK:
			perSemiring[r.Params.Get("semiring")]++
		default:
			continue
		}
		if r.Impl != "cpu/sgje" {
			continue
		}
		n, err := strconv.ParseFloat(r.Params.Get("n"), 64)
		if err != nil {
			continue
		}
		if key := experiments.MissingMetric(r, "stars", "mults", "adds"); key != "" {
			counts = counts.NoMetric(key, "cpu/sgje at "+r.Params.String())
			okCounts = -1
			break
		}
		want := map[string]float64{"stars": n, "mults": n*n*n - n, "adds": n * (n - 1) * (n - 1)}
		same := true
		for k, v := range want {
			same = same && r.Metrics[k] == v
		}
		if same {
			okCounts++
		} else {
			badCounts = append(badCounts, r.Params.String())
		}
	}
	if len(cells) == 0 {
		cells = []experiments.ClaimCell{{Rec: nil, Impl: "cpu/sgje", Params: bench.Params{{Name: "semiring", Value: "min-plus"}, {Name: "n", Value: "256"}}}}
	}
	switch {
	case okCounts < 0: // a record without its counts
	case len(badCounts) > 0:
		counts.Verdict, counts.Ours = experiments.NotReproduced, fmt.Sprintf("%d cells off the formulas: %s", len(badCounts), experiments.FirstOf(badCounts, 3))
	case okCounts == 0:
		counts = counts.NotRunFor(cells...)
	default:
		counts.Verdict, counts.Ours = experiments.Reproduced, fmt.Sprintf("%d cells, every count the formula's", okCounts)
	}
	var absent []string
	for _, sr := range []string{"real", "min-plus", "boolean"} {
		if perSemiring[sr]+perSemiring[sr+"-inverse"] == 0 {
			absent = append(absent, sr)
		}
	}
	switch {
	case len(failed) > 0:
		solves.Verdict, solves.Ours = experiments.NotReproduced, fmt.Sprintf("%d cells failed their check: %s", len(failed), experiments.FirstOf(failed, 3))
	case len(absent) > 0:
		solves = solves.NotRunFor(cells...)
		if solves.Reason == "no cell of it in this run" || solves.Reason == "" {
			solves.Reason = "no passing cell of " + strings.Join(absent, ", ")
		}
	default:
		var parts []string
		for _, sr := range apspSemiringNames {
			if perSemiring[sr] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", sr, perSemiring[sr]))
			}
		}
		solves.Verdict, solves.Ours = experiments.Reproduced, "cells passing their check: "+strings.Join(parts, ", ")
	}
	return []experiments.Claim{counts, solves}
}

// apspBlockedClaim: Gauß-Jordan on blocks (Remark 2.2) computes the
// closure: every blocked cell's check.
func apspBlockedClaim(run []bench.Record) experiments.Claim {
	const exp = "apsp/blocked"
	c := experiments.Claim{ID: exp + "#decomposition", Where: "Remark 2.2, section 6",
		Text: "Gauß-Jordan elimination on blocks, the star taken on the diagonal blocks, computes the closure (the decomposability principle): ours is every blocked implementation's (cpu/fast, cuda/fast) certificate, D = I ⊕ A ⊗ D exactly in min-plus (the closure its unique solution: positive cycles, integer weights). Reproduced when every cell that ran passes."}
	ok := 0
	var failed []string
	var cells []experiments.ClaimCell
	own := experiments.OfExperiment(run, exp)
	for i := range own {
		r, rr := own[i], &own[i]
		if r.Impl == "cpu/sgje" {
			continue
		}
		cells = append(cells, experiments.ClaimCell{Rec: rr, Impl: r.Impl, Params: r.Params})
		switch r.Status {
		case bench.StatusOK:
			ok++
		case bench.StatusCheckFailed:
			failed = append(failed, r.Impl+" "+r.Params.String())
		}
	}
	switch {
	case len(failed) > 0:
		c.Verdict, c.Ours = experiments.NotReproduced, fmt.Sprintf("%d cells failed their check: %s", len(failed), experiments.FirstOf(failed, 3))
	case ok == 0:
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{{Rec: nil, Impl: "cpu/fast", Params: nil}}
		}
		return c.NotRunFor(cells...)
	default:
		c.Verdict, c.Ours = experiments.Reproduced, fmt.Sprintf("%d blocked cells, each passing its check", ok)
	}
	return c
}
