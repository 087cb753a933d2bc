package widest

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strconv"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/example/generators/widestgraph"
	"github.com/semibench/semibench/example/impls"
	"github.com/semibench/semibench/example/problems/widest"
	"github.com/semibench/semibench/experiments"
)

// Paper is the toy paper: it has no file in shared/papers.
var Paper = experiments.PaperInfo{File: "toy_widest.txt", Name: "Widest", Number: "toy",
	Source: "a toy paper (example/), widest paths by (max,min) closure"}

// Exp is the experiment's name.
const Exp = "widest/table1"

// Register registers the paper and its experiment. A real paper's
// Register is called from experiments/papers; this one only from
// the example package's test.
func Register() {
	experiments.RegisterPaper(Paper)
	experiments.Register(&experiments.Experiment{
		Name:        Exp,
		Paper:       Paper.File,
		Description: "widest-path closure of a random digraph: repeated squaring vs Floyd–Warshall (toy paper's Table 1)",
		Statistic:   bench.StatMedian,
		Impls:       impls.Widest.Names(),
		// Work is n³; squaring does about log2 n times as much.
		NsPerWork: map[string]float64{"cpu/paper": 20, "cpu/fast": 2},
		Cases:     cases,
		Tables:    table1,
		Claims:    func(run []bench.Record) []experiments.Claim { return []experiments.Claim{speedupClaim(run)} },
		Needs:     needs,
	})
}

// sizes are the node counts per scale: the paper's three at paper scale.
func sizes(s experiments.Scale) []int {
	switch s {
	case experiments.Quick:
		return []int{24, 48, 96}
	case experiments.Large:
		return []int{1024}
	}
	return []int{128, 256, 512}
}

func params(n int) bench.Params { return bench.Params{{Name: "n", Value: strconv.Itoa(n)}} }

// cases gives one case per size: the graph and its reference closure are
// made once, in Setup, for both implementations.
func cases(s experiments.Scale, o experiments.Options) []experiments.Case {
	seed := max(o.Seed, 1)
	var out []experiments.Case
	for _, n := range sizes(s) {
		out = append(out, experiments.Case{
			Params: params(n),
			Work:   float64(n) * float64(n) * float64(n),
			Setup: func(context.Context) (*experiments.Instance, error) {
				g, err := widestgraph.Generate(n, seed)
				if err != nil {
					return nil, err
				}
				ref := widest.Reference(g)
				return &experiments.Instance{
					Input: &bench.Input{Generator: "widestgraph", Seed: seed, Hash: g.Hash(),
						Description: fmt.Sprintf("random digraph, n=%d, about 4 arcs a node, capacities 1..%d", n, widestgraph.MaxCapacity)},
					Metrics: map[string]float64{"arcs": float64(g.Arcs())},
					Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
						im, err := impls.Widest.Lookup(impl)
						if err != nil {
							return nil, fmt.Errorf("%w: %v", experiments.ErrUnavailable, err)
						}
						return im.Solve(ctx, g, rec)
					},
					Check: func(_ string, out any) bench.Check {
						w, _ := out.(*widest.Widths)
						return widest.Verify(w, ref)
					},
				}, nil
			},
		})
	}
	return out
}

//go:embed paper.jsonl
var paperJSONL []byte

// paperRecords are the toy paper's Table 1 as a result file (a real
// paper's are its paper/*.jsonl, embedded and registered with
// experiments/paperdata, and read by experiments.BesidePaper).
func paperRecords() []bench.Record {
	f, err := bench.Decode(paperJSONL)
	if err != nil {
		panic("widest: paper.jsonl: " + err.Error()) // embedded, and decoded by every test
	}
	return f.Records
}

// rows are the sizes in the run or the paper, in increasing order.
func rows(recs ...[]bench.Record) []int {
	var ns []int
	for _, rs := range recs {
		for _, r := range rs {
			if n := experiments.IntOf(r.Params, "n"); n > 0 && !slices.Contains(ns, n) {
				ns = append(ns, n)
			}
		}
	}
	slices.Sort(ns)
	return ns
}

// table1 puts the run's totals beside the paper's, with the speedup of
// Floyd–Warshall over squaring on each side.
func table1(run []bench.Record) []report.Table {
	own := experiments.OfExperiment(run, Exp)
	if len(own) == 0 {
		return nil
	}
	paper := paperRecords()
	rc, pc := experiments.IndexRecords(own), experiments.IndexRecords(paper)
	t := report.Table{
		Title: Exp + " — widest-path closure on the CPU, total ms (toy paper: Table 1, invented figures)",
		Header: []string{"n", "arcs m", "paper cpu/paper", "cpu/paper", "paper cpu/fast", "cpu/fast",
			"paper: cpu/paper / cpu/fast", "ours: cpu/paper / cpu/fast"},
	}
	for _, n := range rows(own, paper) {
		p := params(n)
		ps, pf := pc.Get(Exp, "cpu/paper", p), pc.Get(Exp, "cpu/fast", p)
		slow, fast := rc.Get(Exp, "cpu/paper", p), rc.Get(Exp, "cpu/fast", p)
		arcs := "—"
		if experiments.Ran(fast) {
			arcs = experiments.FormatCount(fast.Metrics["arcs"])
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(n), arcs,
			experiments.CellText(ps, bench.TotalPhase), experiments.CellText(slow, bench.TotalPhase),
			experiments.CellText(pf, bench.TotalPhase), experiments.CellText(fast, bench.TotalPhase),
			experiments.Ratio(experiments.PhaseMS(ps, bench.TotalPhase), experiments.PhaseMS(pf, bench.TotalPhase)),
			experiments.Ratio(experiments.PhaseMS(slow, bench.TotalPhase), experiments.PhaseMS(fast, bench.TotalPhase))})
	}
	t.Notes = append(t.Notes, experiments.CheckSummary(run, Exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, Exp)...)
	return []report.Table{t}
}
