package kleene

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// Paper is the paper this package reproduces.
var Paper = experiments.PaperInfo{File: "000_c78fb6cc642483eb.txt", Name: "Kleene", Number: "000",
	Source: "Kleene star of a DAG in max-plus algebra on CUDA"}

// kleenePhases are the paper's rows, in its order.
var kleenePhases = []struct{ name, label string }{
	{"convert_ccs", "Convert CCS"},
	{"topo_sort", "Topological sort"},
	{"init_w", "Initialize W"},
	{"h2d", "Host to device"},
	{"update_w", "Update W"},
	{"d2h", "Device to host"},
	{"other", "Other (in total, no phase)"},
	{"total", "Total"},
	{"end_to_end", "End to end"},
}

// kleeneTotalNote says which figure the Kleene tables show.
const kleeneTotalNote = "Total is the headline: the host clock around the paper's window, X in host memory to W complete (on the CPU: in memory; on the GPU: in device memory, as the paper's Table 3 rows Convert CCS, Topological sort, Initialize W and Update W add up to its total, the transfer of W back not among them). Other is the part of total no phase covers. End to end adds the download of W (X and W in host memory). Every ratio is of totals."

// kleeneSizes are the node counts per scale: the paper's four at paper
// scale.
func kleeneSizes(s experiments.Scale) []int {
	switch s {
	case experiments.Quick:
		return []int{60, 120, 240}
	case experiments.Large:
		return []int{8000, 16000}
	}
	return []int{500, 1000, 2000, 4000}
}

// kleeneCases gives, per size, the timed case on N(0,1) weights (as the
// paper) and, at the smallest size, an integer-weight case on which every
// implementation must agree exactly.
func kleeneCases(s experiments.Scale, opt experiments.Options, implNames []string) []experiments.Case {
	sizes := kleeneSizes(s)
	var cs []experiments.Case
	for _, n := range sizes {
		cs = append(cs, kleeneCase(n, false, opt, implNames))
	}
	cs = append(cs, kleeneCase(sizes[0], true, opt, implNames))
	return cs
}

func kleeneCase(n int, intWeights bool, opt experiments.Options, implNames []string) experiments.Case {
	weights := "normal"
	if intWeights {
		weights = "int"
	}
	seed := opt.Seed
	if seed == 0 {
		seed = 1
	}
	return experiments.Case{
		Params:    bench.Params{{Name: "n", Value: strconv.Itoa(n)}, {Name: "weights", Value: weights}},
		Impls:     implNames,
		Work:      float64(n) * float64(n) * float64(n) / 4, // m·n with m ≈ n²/4
		HostBytes: kleene.MemoryBytes(n), DeviceBytes: maxplus.Bytes(n) * 2,
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			need := kleene.MemoryBytes(n)
			opt.Shared.MakeRoom(need)
			if avail := bench.AvailableMemory(); avail > 0 && need > avail {
				return nil, fmt.Errorf("n=%d needs about %.1f GiB, only %.1f GiB available", n, experiments.GiB(need), experiments.GiB(avail))
			}
			// X, its digest and its reference closure: once per run for
			// Tables 2 and 3 (instances.go).
			d, err := dagInstance(ctx, opt, n, seed, intWeights)
			if err != nil {
				return nil, err
			}
			x, ref := d.x, d.ref
			kopt := kleene.Options{Threads: opt.Threads, GPUs: opt.GPUs}
			var latest *maxplus.Matrix // the last W returned
			var latestBy kleene.Impl   // the implementation that returned it
			return &experiments.Instance{
				Input: &bench.Input{Generator: "dag", Seed: seed, Hash: d.hash,
					Description: fmt.Sprintf("random DAG, n=%d, %s weights, topological order 1..n permuted", n, weights)},
				Metrics: map[string]float64{"arcs": float64(x.Arcs())},
				Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
					im, err := impls.Kleene.Lookup(impl)
					if err != nil {
						return nil, fmt.Errorf("%w: implementation %s is not built into this binary", experiments.ErrUnavailable, impl)
					}
					// The runner checks only a cell's last output, right
					// after its repetitions (runner.go), so the previous
					// repetition's W is given back to the solver that
					// returned it where that solver recycles (the CUDA
					// ones), which writes a later W into its memory (no
					// fresh allocation to fault in). Check refuses a W
					// given back.
					if latestBy.Recycle != nil {
						latestBy.Recycle(latest)
					}
					latest = nil
					w, err := im.Run(ctx, x, kopt, rec)
					latest, latestBy = w, im
					return w, experiments.MarkUnavailable(err)
				},
				Check: func(_ string, out any) bench.Check {
					w, _ := out.(*maxplus.Matrix)
					if w == nil {
						return bench.Check{Method: "output", Detail: "no output matrix"}
					}
					if w != latest {
						return bench.Check{Method: "output", Detail: "internal error: the output checked is not the last one returned (it may have been recycled)"}
					}
					return kleene.Verify(x, w, ref, intWeights)
				},
			}, nil
		},
	}
}

// Register registers the paper and its experiments (experiments.RegisterPaper,
// experiments.Register); experiments/papers calls it for cmd/semibench.
func Register() {
	experiments.RegisterPaper(Paper)
	experiments.Register(&experiments.Experiment{
		Name:        "kleene/table2",
		Paper:       Paper.File,
		Description: "Kleene star of a random DAG on the CPU: phases and arcs m vs n (paper's Table 2)",
		Statistic:   bench.StatMid3,
		Impls:       []string{"cpu/paper", "cpu/fast"},
		NsPerWork:   map[string]float64{"cpu/paper": 2, "cpu/fast": 0.02},
		Cases:       func(s experiments.Scale, o experiments.Options) []experiments.Case { return kleeneCases(s, o, nil) },
		Tables:      kleeneTable2,
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(kleeneTable2Claims(run), kleeneBottleneckClaim(run), kleeneArcsClaim(run))
		},
		Needs:  kleeneTable2Needs,
		Plots:  func(run []bench.Record) []report.Plot { return kleenePlots(run, "kleene/table2") },
		Work:   kleeneWork,
		Window: kleeneWindow,
	})
	experiments.Register(&experiments.Experiment{
		Name: "kleene/table3",
		// Table 3 compares the paper's CUDA kernel with ours.
		Headline:    []string{"cpu/fast", "cuda/fast", "cuda/paper"},
		Paper:       Paper.File,
		Description: "Kleene star of a random DAG on the GPU: phases and speedup over the CPU (paper's Table 3)",
		Statistic:   bench.StatMid3,
		Impls:       []string{"cpu/paper", "cpu/fast", "cuda/paper", "cuda/fast"},
		NsPerWork:   map[string]float64{"cpu/paper": 2, "cpu/fast": 0.02, "cuda/paper": 0.2, "cuda/fast": 0.01},
		Cases:       func(s experiments.Scale, o experiments.Options) []experiments.Case { return kleeneCases(s, o, nil) },
		Tables:      kleeneTable3,
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(kleeneTable3Claims(run), kleeneSpeedupGrowsClaim(run), kleeneHostPhasesClaim(run))
		},
		Needs: kleeneTable3Needs,
		// The CPU cells are Table 2's: the same DAGs, code and statistic.
		SameAs: []experiments.SameAs{{Experiment: "kleene/table2", Impls: []string{"cpu/paper", "cpu/fast"}}},
		Plots:  func(run []bench.Record) []report.Plot { return kleenePlots(run, "kleene/table3") },
		Work:   kleeneWork,
		Window: kleeneWindow,
	})
}

// kleeneRows lists the (n, weights=normal) parameter sets present in the
// run or the paper, in increasing n.
func kleeneRows(recs ...[]bench.Record) []int {
	var ns []int
	for _, rs := range recs {
		for _, r := range rs {
			if r.Params.Get("weights") != "normal" {
				continue
			}
			if n, err := strconv.Atoi(r.Params.Get("n")); err == nil && !slices.Contains(ns, n) {
				ns = append(ns, n)
			}
		}
	}
	slices.Sort(ns)
	return ns
}

func kleeneParams(n int) bench.Params {
	return bench.Params{{Name: "n", Value: strconv.Itoa(n)}, {Name: "weights", Value: "normal"}}
}

func arcsText(r *bench.Record) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	return experiments.FormatCount(r.Metrics["arcs"])
}

func kleeneTable2(run []bench.Record) []report.Table {
	const exp = "kleene/table2"
	own, rc, pc := experiments.BesidePaper(run, exp)
	if len(own) == 0 {
		return nil
	}
	t := report.Table{
		Title:  "kleene/table2 — Kleene star on the CPU, ms, headline: total (paper: Table 2, Xeon E5645, mean of the middle three of five)",
		Header: []string{"n", "phase", "paper (Xeon E5645)", "cpu/paper", "cpu/fast", "paper / cpu/paper", "cpu/paper / cpu/fast"},
	}
	for _, n := range kleeneRows(own) {
		p := kleeneParams(n)
		pr, slow, fast := pc.Get(exp, "cpu/paper", p), rc.Get(exp, "cpu/paper", p), rc.Get(exp, "cpu/fast", p)
		ours := slow
		if ours == nil {
			ours = fast
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(n), "arcs m", arcsText(pr), arcsText(ours), arcsText(fast), "", ""})
		for _, ph := range kleenePhases {
			if ph.name == "h2d" || ph.name == "d2h" || ph.name == "end_to_end" {
				continue // the CPU implementations mark no window: end to end is total
			}
			t.Rows = append(t.Rows, []string{strconv.Itoa(n), ph.label, experiments.CellText(pr, ph.name), experiments.CellText(slow, ph.name), experiments.CellText(fast, ph.name),
				experiments.Ratio(experiments.PhaseMS(pr, ph.name), experiments.PhaseMS(slow, ph.name)), experiments.Ratio(experiments.PhaseMS(slow, ph.name), experiments.PhaseMS(fast, ph.name))})
		}
	}
	if ns := kleeneRows(own); len(ns) > 0 {
		n := ns[len(ns)-1]
		p := kleeneParams(n)
		t.Notes = append(t.Notes, fmt.Sprintf("Update W at n=%d: cpu/paper / cpu/fast = %s (target at n=4000 on a 2-core machine: at least 10x).",
			n, experiments.Ratio(experiments.PhaseMS(rc.Get(exp, "cpu/paper", p), "update_w"), experiments.PhaseMS(rc.Get(exp, "cpu/fast", p), "update_w"))))
	}
	t.Notes = append(t.Notes, "Total is the headline: the host clock around the whole solve, X in memory to W in memory (end to end is the same on the CPU). Other is the part of total no phase covers. Every ratio is of the phase named in its row.")
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

func kleeneTable3(run []bench.Record) []report.Table {
	const exp = "kleene/table3"
	own, rc, pc := experiments.BesidePaper(run, exp)
	if len(own) == 0 {
		return nil
	}
	phases := report.Table{
		Title:  "kleene/table3 — Kleene star on the GPU, ms, headline: total (paper: Table 3, Tesla C2075)",
		Header: []string{"n", "phase", "paper (Tesla C2075)", "cuda/paper", "cuda/fast", "cuda/paper / cuda/fast"},
	}
	speed := report.Table{
		Title: "kleene/table3 — speedup of the total (paper's 'Effect': CPU total / GPU total)",
		Header: []string{"n", "paper Effect", "cpu/paper / cuda/paper", "cpu/paper / cuda/fast", "cpu/fast / cuda/fast",
			"paper GPU / cuda/paper", "paper GPU / cuda/fast", "cpu/fast / cuda/fast (end to end)"},
	}
	for _, n := range kleeneRows(own) {
		p := kleeneParams(n)
		pr := pc.Get(exp, "cuda/paper", p)
		cp, cf := rc.Get(exp, "cuda/paper", p), rc.Get(exp, "cuda/fast", p)
		for _, ph := range kleenePhases {
			if !experiments.Ran(cp) && !experiments.Ran(cf) && ph.name != "total" {
				continue // neither GPU implementation ran: the total row says why
			}
			phases.Rows = append(phases.Rows, []string{strconv.Itoa(n), ph.label, experiments.CellText(pr, ph.name), experiments.CellText(cp, ph.name), experiments.CellText(cf, ph.name),
				experiments.Ratio(experiments.PhaseMS(cp, ph.name), experiments.PhaseMS(cf, ph.name))})
		}
		effect := "—"
		if pr != nil && pr.Metrics != nil {
			effect = report.FormatRatio(pr.Metrics["speedup"])
		}
		slow, fast := experiments.PhaseMS(rc.Get(exp, "cpu/paper", p), "total"), experiments.PhaseMS(rc.Get(exp, "cpu/fast", p), "total")
		paperGPU := experiments.PhaseMS(pr, "total")
		speed.Rows = append(speed.Rows, []string{strconv.Itoa(n), effect,
			experiments.Ratio(slow, experiments.PhaseMS(cp, "total")), experiments.Ratio(slow, experiments.PhaseMS(cf, "total")), experiments.Ratio(fast, experiments.PhaseMS(cf, "total")),
			experiments.Ratio(paperGPU, experiments.PhaseMS(cp, "total")), experiments.Ratio(paperGPU, experiments.PhaseMS(cf, "total")),
			experiments.Ratio(experiments.PhaseMS(rc.Get(exp, "cpu/fast", p), "end_to_end"), experiments.PhaseMS(cf, "end_to_end"))})
	}
	if ns := kleeneRows(own); len(ns) > 0 {
		n := ns[len(ns)-1]
		p := kleeneParams(n)
		cp, cf, pr := rc.Get(exp, "cuda/paper", p), rc.Get(exp, "cuda/fast", p), pc.Get(exp, "cuda/paper", p)
		speed.Notes = append(speed.Notes,
			fmt.Sprintf("At n=%d: cuda/fast update W = %s (target at n=4000 on an H100: within 3 ms); cuda/paper total / cuda/fast total = %s (target: at least 20x).",
				n, experiments.MsText(cf, "update_w"), experiments.Ratio(experiments.PhaseMS(cp, "total"), experiments.PhaseMS(cf, "total"))),
			fmt.Sprintf("At n=%d: cuda/paper update W = %s beside the paper's %s on the Tesla C2075.",
				n, experiments.MsText(cp, "update_w"), experiments.MsText(pr, "update_w")))
	}
	phases.Notes = append(phases.Notes, kleeneTotalNote)
	speed.Notes = append(speed.Notes, kleeneTotalNote)
	speed.Notes = append(speed.Notes, experiments.CheckSummary(run, exp))
	speed.Notes = append(speed.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{phases, speed}
}

// kleenePlots draws update W and total vs n, log-log: table2 the CPU
// implementations beside the paper's Xeon, table3 the CUDA ones beside its
// Tesla C2075.
func kleenePlots(run []bench.Record, exp string) []report.Plot {
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	impls, what, table := []string{"cpu/paper", "cpu/fast"}, "CPU", "Table 2"
	if exp == "kleene/table3" {
		impls, what, table = []string{"cuda/paper", "cuda/fast"}, "CUDA", "Table 3"
	}
	notes := experiments.AvailabilityNotes(own, exp, impls...)
	var out []report.Plot
	for _, phase := range []string{"update_w", "total"} {
		label := map[string]string{"update_w": "the update-W step's time", "total": "total time"}[phase]
		pl := report.Plot{
			Name:   "kleene-" + exp[len("kleene/"):] + "-" + phase,
			Title:  experiments.PlotTitle(fmt.Sprintf("%s Kleene star of a random DAG: %s vs nodes", what, label), Paper.Source+", "+table),
			XLabel: "nodes n", YLabel: label + " (ms)", LogX: true, LogY: true,
			Notes: notes,
		}
		addSeries := func(name string, recs []bench.Record, impl string, paper bool) {
			s := report.Series{Name: name, Impl: impl, Paper: paper}
			rc := experiments.IndexRecords(recs)
			for _, n := range kleeneRows(recs) {
				if v := experiments.PhaseMS(rc.Get(recs[0].Experiment, impl, kleeneParams(n)), phase); !math.IsNaN(v) {
					s.X, s.Y = append(s.X, float64(n)), append(s.Y, v)
				}
			}
			if len(s.X) > 0 {
				pl.Series = append(pl.Series, s)
			}
		}
		if recs, files := paperdata.PaperRecords(exp); len(recs) > 0 {
			addSeries("paper's "+files[0].Machine.Label+" ("+recs[0].Impl+")", recs, recs[0].Impl, true)
		}
		for _, impl := range impls {
			addSeries(impl, own, impl, false)
		}
		out = append(out, experiments.PlotsWithNotes(pl)...)
	}
	return out
}

// kleeneTable2Claims gives the paper's growth claim (section 5, beside
// Table 2): update W takes about 8 times as long when n doubles, m ≈ n²/4
// and the update being O(m·n).
func kleeneTable2Claims(run []bench.Record) []experiments.Claim {
	const exp = "kleene/table2"
	own, rc, pc := experiments.BesidePaper(run, exp)
	fold := experiments.PaperValue("kleene/table2#growth") // experiments/kleene/paper/claims.json
	c := experiments.Claim{ID: "kleene/table2#growth", Where: "Table 2, section 5",
		Text: fmt.Sprintf("Update W's time grows about %g-fold when n doubles (O(m·n), m ≈ n²/4): ours is cpu/paper's (the paper's algorithm) update W at the largest n over n/2. ", fold) + experiments.RatioRule(experiments.Neither)}
	growth := func(cells experiments.Cells, impl string, ns []int) (float64, int) {
		for i := len(ns) - 1; i >= 0; i-- {
			n := ns[i]
			if !slices.Contains(ns, n/2) || n%2 != 0 {
				continue
			}
			a, b := experiments.PhaseMS(cells.Get(exp, impl, kleeneParams(n)), "update_w"), experiments.PhaseMS(cells.Get(exp, impl, kleeneParams(n/2)), "update_w")
			if !math.IsNaN(a) && !math.IsNaN(b) && b > 0 {
				return a / b, n
			}
		}
		return math.NaN(), 0
	}
	paper, _ := paperdata.PaperRecords(exp)
	c.PaperFigure = fmt.Sprintf("%gx", fold)
	if g, n := growth(pc, "cpu/paper", kleeneRows(paper)); n > 0 {
		c.PaperFigure += fmt.Sprintf(" (Table 2: %s from n = %d to %d)", report.FormatRatio(g), n/2, n)
	}
	if g, n := growth(rc, "cpu/paper", kleeneRows(own)); n > 0 {
		c, band := c.JudgeRatio(fold, g, experiments.Neither, experiments.UnitRatio)
		c.Ours = fmt.Sprintf("%s (n = %d to %d), %s", report.FormatRatio(g), n/2, n, band)
		return []experiments.Claim{c}
	}
	ns := kleeneRows(own)
	if len(ns) == 0 {
		ns = []int{2000, 4000}
	}
	n := ns[len(ns)-1]
	return []experiments.Claim{c.NotRunFor(experiments.CellOf(rc, exp, "cpu/paper", kleeneParams(n/2)), experiments.CellOf(rc, exp, "cpu/paper", kleeneParams(n)))}
}

// kleeneTable3Claims gives Table 3's speedup at n = 4000 and the paper's
// "the results using the GPU matched those using the CPU exactly".
func kleeneTable3Claims(run []bench.Record) []experiments.Claim {
	const exp = "kleene/table3"
	own, rc, pc := experiments.BesidePaper(run, exp)
	const n = 4000
	p := kleeneParams(n)
	speed := experiments.Claim{ID: "kleene/table3#speedup", Where: "Table 3",
		Text: "The GPU's speedup (Effect: CPU total / GPU total) is about 30x at n = 4000: ours is cpu/paper / cuda/paper, the paper's algorithm on both sides of this machine. " + experiments.RatioRule(experiments.HigherBetter)}
	paper := math.NaN()
	if pr := pc.Get(exp, "cuda/paper", p); pr != nil && pr.Metrics != nil {
		paper = pr.Metrics["speedup"]
	}
	speed.PaperFigure = experiments.Ratio(paper, 1)
	cpu, gpu := experiments.CellOf(rc, exp, "cpu/paper", p), experiments.CellOf(rc, exp, "cuda/paper", p)
	if experiments.OKCells(cpu, gpu) {
		ours := experiments.PhaseMS(cpu.Rec, bench.TotalPhase) / experiments.PhaseMS(gpu.Rec, bench.TotalPhase)
		var band string
		speed, band = speed.JudgeRatio(paper, ours, experiments.HigherBetter, experiments.UnitRatio)
		speed.Ours = report.FormatRatio(ours) + ", " + band
	} else {
		speed = speed.NotRunFor(gpu, cpu)
	}

	match := experiments.Claim{ID: "kleene/table3#exact", Where: "section 5",
		Text:        "The GPU's results match the CPU's exactly. Ours: every CUDA cell's check; reproduced when none fails and the integer-weight cells (where float32 is exact) equal the reference exactly; on N(0,1) weights the check bounds the rounding error, bit equality with the CPU is not compared.",
		PaperFigure: "exact match (N(0,1) weights, single precision)"}
	exact, bounded, maxErr := 0, 0, 0.0
	var bad []string
	var cells []experiments.ClaimCell
	for i := range own {
		r := &own[i]
		if !strings.HasPrefix(r.Impl, "cuda/") {
			continue
		}
		cells = append(cells, experiments.ClaimCell{Rec: r, Impl: r.Impl, Params: r.Params})
		switch {
		case r.Status == bench.StatusCheckFailed:
			bad = append(bad, r.Impl+" "+r.Params.String())
		case r.Status != bench.StatusOK || r.Check == nil:
		case r.Params.Get("weights") == "int":
			exact++
		default:
			bounded++
			maxErr = max(maxErr, r.Check.MaxErr)
		}
	}
	switch {
	case len(bad) > 0:
		match.Verdict, match.Ours = experiments.NotReproduced, "check failed: "+strings.Join(bad, ", ")
	case exact == 0:
		if len(cells) == 0 {
			cells = []experiments.ClaimCell{experiments.CellOf(rc, exp, "cuda/paper", bench.Params{{Name: "n", Value: "500"}, {Name: "weights", Value: "int"}})}
		}
		match = match.NotRunFor(cells...)
	default:
		match.Verdict = experiments.Reproduced
		match.Ours = fmt.Sprintf("%d integer-weight cells exact; %d N(0,1) cells within the rounding bound (max error %.2g)", exact, bounded, maxErr)
	}
	return []experiments.Claim{speed, match}
}
