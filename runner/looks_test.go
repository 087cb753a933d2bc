package runner

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// manyToy is an experiment of n cases whose one implementation returns at
// once, with one claim over all its cells (an accuracy study's hundreds of
// cells, treefix/accuracy's on the GPU machines): the claim is decided
// once every cell has its record.
func manyToy(n int, impls ...string) *experiments.Experiment {
	const name, id = "toy/many", "toy/many#all"
	if len(impls) == 0 {
		impls = []string{"cpu/a"}
	}
	var refs []experiments.CellRef
	prior := map[string]float64{}
	for _, impl := range impls {
		prior[impl] = 1e3
	}
	for i := 1; i <= n; i++ {
		refs = append(refs, experiments.CellRefs(name, impls, bench.Params{{Name: "n", Value: fmt.Sprint(i)}})...)
	}
	return &experiments.Experiment{
		Name: name, Paper: name, Impls: impls, NsPerWork: prior,
		Cases: func(experiments.Scale, experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for i := 1; i <= n; i++ {
				cs = append(cs, experiments.Case{Params: bench.Params{{Name: "n", Value: fmt.Sprint(i)}}, Work: float64(i),
					Setup: func(context.Context) (*experiments.Instance, error) {
						return &experiments.Instance{
							Run:   func(context.Context, string, *bench.Recorder) (any, error) { return 1, nil },
							Check: func(string, any) bench.Check { return bench.Check{OK: true, Method: "none"} },
						}, nil
					}})
			}
			return cs
		},
		Needs: func(experiments.Scale, experiments.Options) []experiments.Need {
			return []experiments.Need{{Claim: id, Paper: refs}}
		},
		Claims: func(run []bench.Record) []experiments.Claim {
			if len(run) < n*len(impls) {
				return []experiments.Claim{{ID: id, Verdict: experiments.NotRun}}
			}
			return []experiments.Claim{{ID: id, Verdict: experiments.Holds(true), Ours: "all"}}
		},
	}
}

// The settle rule's looks at a claim over hundreds of cells cost the run
// little: a look while the claim waits for its other cells reads the
// claim's cells once, not once per cell priced (the H200's runs of
// 9b86b0f spent 16 s of their 7 minutes in the looks of
// treefix/accuracy's cells, 0.1-0.7 s for a cell of a few milliseconds),
// alone and with every cell's history.
func TestLooksCheapOverManyCells(t *testing.T) {
	const n = 300
	var past filePast
	for _, with := range []string{"alone", "with history"} {
		cfg := Config{Budget: 10 * time.Minute, Reps: 6, Warmup: 1}
		if past != nil {
			cfg.Past = past
		}
		f := runToysFile(t, cfg, manyToy(n))
		looks, worst := 0.0, 0.0
		cells := 0
		for _, r := range f.Records {
			if r.Wall == nil || r.Experiment != "toy/many" {
				continue
			}
			cells++
			looks += r.Wall.LooksMS
			worst = max(worst, r.Wall.LooksMS)
		}
		if cells < n {
			t.Fatalf("%s: %d cells measured, want %d", with, cells, n)
		}
		t.Logf("%s: looks %.0f ms over %d records, the most %.1f ms", with, looks, cells, worst)
		if looks > 1000 || worst > 20 {
			t.Errorf("%s: looks took %.0f ms over %d records (the most %.1f ms); want under 1 s (20 ms a cell)", with, looks, cells, worst)
		}
		past = newFilePast([]*bench.File{f})
	}
}

// A look is priced as the settle rule spends it: the claims unsettled at
// their last look (and the claim a top-up is for) judged first, the first
// of them ends the look; a claim still waiting for its other cells is not
// judged.
func TestLookPricedAsSpent(t *testing.T) {
	exp := &experiments.Experiment{Name: "toy/look", Paper: "toy"}
	cs := &experiments.Case{Params: bench.Params{{Name: "n", Value: "1"}}, Work: 1}
	c := &cell{exp: exp, cs: cs, impl: "cpu/a", key: "c", measured: true}
	other := &cell{exp: exp, cs: cs, impl: "cpu/b", key: "o", measured: true}
	waiting := &cell{exp: exp, cs: cs, impl: "cpu/c", key: "w"}
	a := &claimPlan{id: "a", lookMS: 17}
	b := &claimPlan{id: "b", lookMS: 100}
	d := &claimPlan{id: "d", lookMS: 200}
	w := &claimPlan{id: "w", lookMS: 400}
	a.levels[levelPaper] = []*cell{c, other}
	b.levels[levelPaper] = []*cell{c, other}
	d.levels[levelPaper] = []*cell{c}
	w.levels[levelPaper] = []*cell{c, waiting}
	pl := &plan{cells: []*cell{c, other, waiting}, claims: []*claimPlan{b, d, w, a}}
	pl.indexReaders()
	p := newPricer(&Config{Reps: 6}, newBudget(0, 0, time.Now()), newAAPairs(), &hand{})
	p.setPlan(pl)
	for _, tc := range []struct {
		name      string
		unsettled *claimPlan
		topped    *claimPlan
		want      float64
	}{
		{"all settled: every claim judged but the waiting one", nil, nil, 317},
		{"a top-up of a: a judged first, unsettled, ends the look", nil, a, 17},
		{"d unsettled at its last look: judged first, ends the look", d, nil, 200},
		{"d unsettled, a topped up: both first, the first in the plan's order ends it", d, a, 200},
	} {
		for _, cp := range pl.claims {
			cp.unsettled = cp == tc.unsettled
		}
		if got := p.lookMS(c, tc.topped); got != tc.want {
			t.Errorf("%s: a look priced %g ms, want %g", tc.name, got, tc.want)
		}
	}
}
