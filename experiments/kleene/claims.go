package kleene

import (
	"fmt"
	"math"
	"strings"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
)

// The Kleene paper's (000) claims beyond Table 3's speedup and exactness
// and Table 2's growth (kleene.go); the catalogue
// (experiments/kleene/paper/claims.json) places each in the paper.

// kleeneStepPhases are the paper's four steps of the CPU computation.
var kleeneStepPhases = []string{"convert_ccs", "topo_sort", "init_w", "update_w"}

// kleeneBottleneckClaim: updating W is the bottleneck of cpu/paper's
// computation, at every n.
func kleeneBottleneckClaim(run []bench.Record) experiments.Claim {
	const exp = "kleene/table2"
	own, rc, _ := experiments.BesidePaper(run, exp)
	c := experiments.Claim{ID: exp + "#update-bottleneck", Where: "Table 2",
		Text: "Updating W is the bottleneck of the CPU computation: ours is cpu/paper's update W against its other steps (convert CCS, topological sort, initialize W) at every n. Reproduced when update W is the longest step at every n that ran."}
	var bad, shares []string
	var cells []experiments.ClaimCell
	ran := 0
	for _, n := range kleeneRows(own) {
		x := experiments.CellOf(rc, exp, "cpu/paper", kleeneParams(n))
		cells = append(cells, x)
		if !experiments.OKCells(x) {
			continue
		}
		upd := experiments.PhaseMS(x.Rec, "update_w")
		if math.IsNaN(upd) {
			return c.NoMetric("phase update_w", "cpu/paper at n = "+experiments.Itoa(n))
		}
		ran++
		longest := ""
		for _, ph := range kleeneStepPhases {
			if v := experiments.PhaseMS(x.Rec, ph); !math.IsNaN(v) && v > upd {
				longest = ph
			}
		}
		shares = append(shares, fmt.Sprintf("%.0f%% at n = %d", 100*upd/experiments.PhaseMS(x.Rec, bench.TotalPhase), n))
		if longest != "" {
			bad = append(bad, fmt.Sprintf("n = %d: %s takes longer", n, longest))
		}
	}
	if ran == 0 {
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{experiments.CellOf(rc, exp, "cpu/paper", kleeneParams(4000))}
		}
		return c.NotRunFor(cells...)
	}
	c.Ours = "update W's share of the total: " + strings.Join(shares, ", ")
	if len(bad) > 0 {
		c.Ours += "; " + strings.Join(bad, "; ")
	}
	c.Verdict = experiments.Holds(len(bad) == 0)
	return c
}

// kleeneArcsClaim: the DAGs have the paper's arc counts (m ≈ n²/4), each
// within 1% of Table 2's. Our generator follows the paper's construction,
// so the counts follow from it: by construction.
func kleeneArcsClaim(run []bench.Record) experiments.Claim {
	const exp = "kleene/table2"
	own, rc, pc := experiments.BesidePaper(run, exp)
	c := experiments.Claim{ID: exp + "#arcs", Where: "Table 2", Class: experiments.ByConstruction,
		Text: "The random DAGs have m ≈ n²/4 arcs: ours is the arc count of our DAG at each n of Table 2. Reproduced when every one is within the claim's tolerance of the paper's."}
	var parts, bad []string
	var cells []experiments.ClaimCell
	for _, n := range kleeneRows(own) {
		p := kleeneParams(n)
		pr := pc.Get(exp, "cpu/paper", p)
		if pr == nil {
			continue // not a size of Table 2
		}
		x := experiments.CellOf(rc, exp, "cpu/paper", p)
		if y := experiments.CellOf(rc, exp, "cpu/fast", p); !experiments.OKCells(x) && experiments.OKCells(y) {
			x = y
		}
		cells = append(cells, x)
		if !experiments.OKCells(x) {
			continue
		}
		got, ok := x.Rec.Metrics["arcs"]
		if !ok {
			return c.NoMetric("arcs", x.Impl+" at n = "+experiments.Itoa(n))
		}
		want := pr.Metrics["arcs"]
		parts = append(parts, fmt.Sprintf("%s at n = %d (paper %s)", experiments.FormatCount(got), n, experiments.FormatCount(want)))
		if !experiments.WithinFactor(c.ID, got, want) {
			bad = append(bad, experiments.Itoa(n))
		}
	}
	if len(parts) == 0 {
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{experiments.CellOf(rc, exp, "cpu/paper", kleeneParams(500))}
		}
		return c.NotRunFor(cells...)
	}
	c.Ours = strings.Join(parts, ", ")
	if len(bad) > 0 {
		c.Ours += "; beyond " + experiments.ClaimTolerance(c.ID).Text + " at n = " + strings.Join(bad, ", ")
	}
	c.Verdict = experiments.Holds(len(bad) == 0)
	return c
}

// kleeneSpeedupGrowsClaim: the speedup cpu/paper / cuda/paper rises with n.
func kleeneSpeedupGrowsClaim(run []bench.Record) experiments.Claim {
	const exp = "kleene/table3"
	own, rc, _ := experiments.BesidePaper(run, exp)
	c := experiments.Claim{ID: exp + "#speedup-grows", Where: "Table 3",
		Text: "The GPU's speedup grows with n: ours is cpu/paper / cuda/paper (totals) at each n where both ran. Reproduced when it rises from each n to the next."}
	var parts []string
	prev, falls := math.NaN(), ""
	var cells []experiments.ClaimCell
	for _, n := range kleeneRows(own) {
		p := kleeneParams(n)
		cpu, gpu := experiments.CellOf(rc, exp, "cpu/paper", p), experiments.CellOf(rc, exp, "cuda/paper", p)
		cells = append(cells, gpu, cpu)
		if !experiments.OKCells(cpu, gpu) {
			continue
		}
		s := experiments.PhaseMS(cpu.Rec, bench.TotalPhase) / experiments.PhaseMS(gpu.Rec, bench.TotalPhase)
		parts = append(parts, fmt.Sprintf("%s at n = %d", report.FormatRatio(s), n))
		if s <= prev && falls == "" {
			falls = fmt.Sprintf("no rise to n = %d", n)
		}
		prev = s
	}
	if len(parts) < 2 {
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{experiments.CellOf(rc, exp, "cuda/paper", kleeneParams(4000))}
		}
		c = c.NotRunFor(cells...)
		if len(parts) == 1 {
			c.Reason = "one n only (" + parts[0] + "); " + c.Reason
		}
		return c
	}
	c.Ours = strings.Join(parts, ", ")
	if falls != "" {
		c.Ours += "; " + falls
	}
	c.Verdict = experiments.Holds(falls == "")
	return c
}

// kleeneHostPhasesClaim: the steps the paper's GPU program runs on the
// host take about the time they take in the CPU program.
func kleeneHostPhasesClaim(run []bench.Record) experiments.Claim {
	const exp = "kleene/table3"
	own, rc, _ := experiments.BesidePaper(run, exp)
	c := experiments.Claim{ID: exp + "#host-phases-same", Where: "section 5, Tables 2 and 3",
		Text: "The steps before the update, on the host in the paper's GPU program, take almost their CPU time: ours is cuda/paper's convert CCS plus topological sort over cpu/paper's, at the largest n where both ran (our cuda/paper initializes W on the device, so that step is left out). Reproduced when within the claim's tolerance."}
	ns := kleeneRows(own)
	for i := len(ns) - 1; i >= 0; i-- {
		p := kleeneParams(ns[i])
		cpu, gpu := experiments.CellOf(rc, exp, "cpu/paper", p), experiments.CellOf(rc, exp, "cuda/paper", p)
		if !experiments.OKCells(cpu, gpu) {
			continue
		}
		host := func(r *bench.Record) float64 {
			return experiments.PhaseMS(r, "convert_ccs") + experiments.PhaseMS(r, "topo_sort")
		}
		a, b := host(gpu.Rec), host(cpu.Rec)
		if math.IsNaN(a) || math.IsNaN(b) {
			return c.NoMetric("phase convert_ccs or topo_sort", "cpu/paper and cuda/paper at n = "+experiments.Itoa(ns[i]))
		}
		c.Ours = fmt.Sprintf("%s ms on the GPU program, %s ms on the CPU one at n = %d (%s; tolerance %s)", report.FormatMS(a), report.FormatMS(b), ns[i], experiments.Ratio(a, b), experiments.ClaimTolerance(c.ID).Text)
		c.Verdict = experiments.Holds(experiments.WithinFactor(c.ID, a, b))
		return c.WithFigure(a/b, experiments.MarginBand(c.ID, experiments.NotReproduced, experiments.Reproduced, experiments.NotReproduced))
	}
	n := 4000
	if len(ns) > 0 {
		n = ns[len(ns)-1]
	}
	return c.NotRunFor(experiments.CellOf(rc, exp, "cuda/paper", kleeneParams(n)), experiments.CellOf(rc, exp, "cpu/paper", kleeneParams(n)))
}
