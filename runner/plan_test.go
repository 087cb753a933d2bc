package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// ref names toy cell exp impl n=n.
func ref(exp, impl string, n float64) experiments.CellRef {
	return experiments.CellRef{Experiment: exp, Impl: impl, Params: bench.Params{{Name: "n", Value: fmt.Sprint(n)}}}
}

// needs returns a Needs function giving fixed needs at every scale.
func needs(ns ...experiments.Need) func(experiments.Scale, experiments.Options) []experiments.Need {
	return func(experiments.Scale, experiments.Options) []experiments.Need { return ns }
}

// TestClaimsFirst: the cells claims read run before any other, the
// cheapest claim first, and a claim's cheaper (Least) cells before any
// claim's cells at the paper's size; the other cells come last, even the
// cheaper ones and the headline ones.
func TestClaimsFirst(t *testing.T) {
	tr := newTrace()
	prior := map[string]float64{"cpu/fast": 1, "cpu/paper": 100}
	e := toy(tr, "toy/claims", []string{"cpu/paper", "cpu/fast"}, prior, 1, 2, 3, 4)
	e.Needs = needs(
		experiments.Need{Claim: "big", Paper: []experiments.CellRef{ref("toy/claims", "cpu/paper", 4)}, Least: []experiments.CellRef{ref("toy/claims", "cpu/paper", 2)}},
		experiments.Need{Claim: "small", Paper: []experiments.CellRef{ref("toy/claims", "cpu/paper", 1)}},
	)
	runToys(t, Config{}, e)
	want := []string{
		"toy/claims cpu/paper n=1", // small's only level (Paper, no Least): cheaper than big's Least
		"toy/claims cpu/paper n=2", // big's Least
		"toy/claims cpu/paper n=4", // big at the paper's size
	}
	if got := tr.ran[:3]; !slices.Equal(got, want) {
		t.Fatalf("first cells %v, want %v", got, want)
	}
	if len(tr.ran) != 8 {
		t.Fatalf("%d cells ran, want 8", len(tr.ran))
	}
}

// TestClaimNeedingAGPU: a claim one of whose cells cannot run here pulls
// none of its cells in; they run with the rest of the tables.
func TestClaimNeedingAGPU(t *testing.T) {
	tr := newTrace()
	prior := map[string]float64{"cpu/paper": 1, "cpu/fast": 1000, "cuda/paper": 1}
	e := toy(tr, "toy/gpu-claim", []string{"cpu/paper", "cpu/fast", "cuda/paper"}, prior, 1, 2)
	e.Headline = []string{"none"}
	e.Needs = needs(
		experiments.Need{Claim: "speedup", Paper: []experiments.CellRef{ref("toy/gpu-claim", "cpu/paper", 1), ref("toy/gpu-claim", "cuda/paper", 1)}},
		experiments.Need{Claim: "fast", Paper: []experiments.CellRef{ref("toy/gpu-claim", "cpu/fast", 2)}},
	)
	runToys(t, Config{}, e)
	if tr.ran[0] != "toy/gpu-claim cpu/fast n=2" {
		t.Fatalf("first cell %s, want the one claim that can run here (cpu/fast n=2); order %v", tr.ran[0], tr.ran)
	}
}

// TestAlternatives: a cell named "a|b" is measured by the alternative that
// can run here.
func TestAlternatives(t *testing.T) {
	tr := newTrace()
	e := toy(tr, "toy/alt", []string{"cpu/sparse", "cuda/sparse"}, nil, 1)
	e.Needs = needs(experiments.Need{Claim: "values", Paper: []experiments.CellRef{ref("toy/alt", "cuda/sparse|cpu/sparse", 1)}})
	runToys(t, Config{}, e)
	if len(tr.ran) != 1 || tr.ran[0] != "toy/alt cpu/sparse n=1" {
		t.Fatalf("ran %v, want the CPU alternative only", tr.ran)
	}
}

// TestSameAsMeasuredOnce: a cell another experiment shares (SameAs) is
// measured once, and both experiments get a record, the copy naming the
// cell it reuses.
func TestSameAsMeasuredOnce(t *testing.T) {
	tr := newTrace()
	a := toy(tr, "toy/a", []string{"cpu/paper", "cpu/fast"}, nil, 1, 2)
	b := toy(tr, "toy/b", []string{"cpu/paper", "cpu/x"}, nil, 1, 2, 3)
	b.SameAs = []experiments.SameAs{{Experiment: "toy/a", Impls: []string{"cpu/paper"}}}
	recs := runToys(t, Config{}, a, b)
	for _, n := range []string{"1", "2"} {
		if slices.Contains(tr.ran, "toy/b cpu/paper n="+n) {
			t.Errorf("toy/b cpu/paper n=%s measured again", n)
		}
		r := find(t, recs, "toy/b", "cpu/paper", n)
		if r.ReusedFrom != "toy/a|cpu/paper|n="+n || r.Status != bench.StatusOK || len(r.Phases) == 0 {
			t.Errorf("toy/b cpu/paper n=%s: reused from %q, status %s, %d phases", n, r.ReusedFrom, r.Status, len(r.Phases))
		}
	}
	// n = 3 has no counterpart in toy/a: measured for itself.
	if !slices.Contains(tr.ran, "toy/b cpu/paper n=3") {
		t.Errorf("toy/b cpu/paper n=3, absent from toy/a, not measured")
	}
	if len(recs) != 4+6 {
		t.Errorf("%d records, want 10", len(recs))
	}
}

// TestMemoryPlanned: a case that would not fit in memory is skipped before
// its Setup, its record saying what it needs and what is available.
func TestMemoryPlanned(t *testing.T) {
	tr := newTrace()
	e := toy(tr, "toy/mem", []string{"cpu/paper"}, nil, 1, 2)
	cases := e.Cases
	e.Cases = func(s experiments.Scale, o experiments.Options) []experiments.Case {
		cs := cases(s, o)
		cs[1].HostBytes = 1 << 62
		return cs
	}
	recs := runToys(t, Config{}, e)
	r := find(t, recs, "toy/mem", "cpu/paper", "2")
	if r.Status != bench.StatusSkipped || !strings.Contains(r.Error, "needs 4294967296.0 GiB of host memory") || !strings.Contains(r.Error, "available") {
		t.Fatalf("record %s: %s", r.Status, r.Error)
	}
	if tr.setups["toy/mem n=2"] != 0 {
		t.Fatal("the case that does not fit was set up")
	}
}

// TestShardsPartitionThePlan: N shards of one plan run every cell of the
// unsharded run exactly once between them, a claim's cells in one shard.
func TestShardsPartitionThePlan(t *testing.T) {
	mk := func(tr *trace) []*experiments.Experiment {
		prior := map[string]float64{"cpu/paper": 10, "cpu/fast": 1}
		a := toy(tr, "toy/s1", []string{"cpu/paper", "cpu/fast"}, prior, 1, 2, 3, 4, 5)
		b := toy(tr, "toy/s2", []string{"cpu/paper", "cpu/fast"}, prior, 1, 2, 3)
		a.Needs = needs(experiments.Need{Claim: "pair", Paper: []experiments.CellRef{ref("toy/s1", "cpu/paper", 5), ref("toy/s1", "cpu/fast", 1)}})
		return []*experiments.Experiment{a, b}
	}
	whole := newTrace()
	runToys(t, Config{}, mk(whole)...)
	for _, n := range []int{2, 3, 5} {
		var union []string
		for k := 1; k <= n; k++ {
			tr := newTrace()
			recs := runToys(t, Config{Shard: Shard{k, n}}, mk(tr)...)
			if len(recs) != len(tr.ran) {
				t.Errorf("shard %d/%d: %d records for %d cells", k, n, len(recs), len(tr.ran))
			}
			if slices.Contains(tr.ran, "toy/s1 cpu/paper n=5") != slices.Contains(tr.ran, "toy/s1 cpu/fast n=1") {
				t.Errorf("shard %d/%d splits the claim's cells: %v", k, n, tr.ran)
			}
			union = append(union, tr.ran...)
		}
		slices.Sort(union)
		want := slices.Clone(whole.ran)
		slices.Sort(want)
		if !slices.Equal(union, want) {
			t.Errorf("%d shards ran %v, the whole run %v", n, union, want)
		}
	}
	if _, err := ParseShard("3/2"); err == nil {
		t.Error("ParseShard accepts 3/2")
	}
	if s, err := ParseShard("2/4"); err != nil || s != (Shard{2, 4}) {
		t.Errorf("ParseShard(2/4) = %v, %v", s, err)
	}
}

// TestResumeSkipsDone: cells named in Done are neither measured nor
// recorded again.
func TestResumeSkipsDone(t *testing.T) {
	tr := newTrace()
	e := toy(tr, "toy/resume", []string{"cpu/paper"}, nil, 1, 2)
	recs := runToys(t, Config{Done: map[string]bool{"toy/resume|cpu/paper|n=1": true}}, e)
	if len(tr.ran) != 1 || len(recs) != 1 || recs[0].Params.String() != "n=2" {
		t.Fatalf("ran %v, records %d", tr.ran, len(recs))
	}
}

// TestProgressInALog: off a terminal the progress is plain lines, one per
// finished cell (at the shortest interval), with the claims decided.
func TestProgressInALog(t *testing.T) {
	old := logEvery
	logEvery = 0
	defer func() { logEvery = old }()
	tr := newTrace()
	e := toy(tr, "toy/log", []string{"cpu/paper"}, nil, 1, 2)
	e.Needs = needs(experiments.Need{Claim: "c", Paper: []experiments.CellRef{ref("toy/log", "cpu/paper", 1)}})
	var progress strings.Builder
	runToys(t, Config{Progress: &progress, Budget: time.Minute}, e)
	out := progress.String()
	if strings.Contains(out, "\r") || strings.Contains(out, "\033[") {
		t.Errorf("terminal control codes in a log: %q", out)
	}
	if !strings.Contains(out, "semibench: settling: toy/log cpu/paper n=1 ok in") || !strings.Contains(out, "claims measured 1 of 1; cells 1 measured;") ||
		!strings.Contains(out, "done in ") || !strings.Contains(out, ": 2 measured; 1 of 1 claims measured at the papers' sizes") {
		t.Errorf("progress log %q", out)
	}
}

// TestWallAccounted: every measured record says where its wall time went.
func TestWallAccounted(t *testing.T) {
	tr := newTrace()
	recs := runToys(t, Config{}, toy(tr, "toy/wall", []string{"cpu/paper", "cpu/fast"}, nil, 1))
	for _, r := range recs {
		if r.Wall == nil || r.Wall.MeasureMS <= 0 || r.Wall.TimedMS <= 0 {
			t.Errorf("%s: wall %+v", r.Key(), r.Wall)
		}
	}
}

// TestWallOfReusedSamples: a cell that reports samples another cell
// measured (Finish sets ReusedFrom and copies them) counts no more timed
// wall than its own measurement took, so a run's wall breakdown adds up.
func TestWallOfReusedSamples(t *testing.T) {
	tr := newTrace()
	e := toy(tr, "toy/reuse", []string{"cpu/paper"}, nil, 1)
	setup := e.Cases(experiments.Quick, experiments.Options{})[0].Setup
	e.Cases = func(experiments.Scale, experiments.Options) []experiments.Case {
		c := experiments.Case{Params: bench.Params{{Name: "n", Value: "1"}}, Work: 1}
		c.Setup = func(ctx context.Context) (*experiments.Instance, error) {
			inst, err := setup(ctx)
			if err == nil {
				inst.Finish = func(_ string, r *bench.Record) {
					r.ReusedFrom = "toy/other|cpu/paper|n=1"
					r.Phases = []bench.Phase{{Name: bench.TotalPhase, SamplesMS: []float64{3.6e6}, MedianMS: 3.6e6, StatMS: 3.6e6}}
				}
			}
			return inst, err
		}
		return []experiments.Case{c}
	}
	r := runToys(t, Config{}, e)[0]
	if r.Wall == nil || r.Wall.TimedMS > r.Wall.MeasureMS {
		t.Errorf("wall %+v: a reused hour counted as this cell's timed wall", r.Wall)
	}
}

// TestCostPerClaim: a cell that decides several claims at once goes before
// a cheaper cell that decides one, by its cost per claim decided.
func TestCostPerClaim(t *testing.T) {
	tr := newTrace()
	prior := map[string]float64{"cpu/paper": 1}
	e := toy(tr, "toy/per-claim", []string{"cpu/paper"}, prior, 10, 30)
	shared := []experiments.CellRef{ref("toy/per-claim", "cpu/paper", 30)}
	e.Needs = needs(
		experiments.Need{Claim: "one", Paper: []experiments.CellRef{ref("toy/per-claim", "cpu/paper", 10)}},
		experiments.Need{Claim: "a", Paper: shared}, experiments.Need{Claim: "b", Paper: shared},
		experiments.Need{Claim: "c", Paper: shared}, experiments.Need{Claim: "d", Paper: shared},
	)
	runToys(t, Config{}, e)
	if tr.ran[0] != "toy/per-claim cpu/paper n=30" {
		t.Fatalf("order %v: want the cell of four claims (30 units, 7.5 a claim) before the cell of one (10)", tr.ran)
	}
}

// TestSkippedDecidesNothing: a claim whose cell was skipped (here by the
// memory plan) is not counted as decided, though the cell has its record.
func TestSkippedDecidesNothing(t *testing.T) {
	tr := newTrace()
	e := toy(tr, "toy/skip-claim", []string{"cpu/paper"}, nil, 1, 2)
	cases := e.Cases
	e.Cases = func(s experiments.Scale, o experiments.Options) []experiments.Case {
		cs := cases(s, o)
		cs[1].HostBytes = 1 << 62
		return cs
	}
	e.Needs = needs(
		experiments.Need{Claim: "measured", Paper: []experiments.CellRef{ref("toy/skip-claim", "cpu/paper", 1)}},
		experiments.Need{Claim: "skipped", Paper: []experiments.CellRef{ref("toy/skip-claim", "cpu/paper", 2)}})
	var progress strings.Builder
	runToys(t, Config{Progress: &progress}, e)
	if out := progress.String(); !strings.Contains(out, ": 1 measured, 1 skipped; 1 of 2 claims measured at the papers' sizes") {
		t.Errorf("progress %q: want 1 cell measured, 1 skipped, and 1 claim of 2 measured", out)
	}
}

// TestReadsSharedIsCheap: a cell that will read work another cell of the
// run has computed (Case.ReadsShared) is estimated at the experiment's
// fixed cost, and its claims run in a budget its own work would not fit.
func TestReadsSharedIsCheap(t *testing.T) {
	tr := newTrace()
	computed := false
	a := toy(tr, "toy/computes", []string{"cpu/paper", "cpu/fast"}, map[string]float64{"cpu/paper": 4e9, "cpu/fast": 1}, 1, 2)
	run := a.Cases
	a.Cases = func(s experiments.Scale, o experiments.Options) []experiments.Case {
		cs := run(s, o)
		setup := cs[0].Setup
		cs[0].Setup = func(ctx context.Context) (*experiments.Instance, error) {
			inst, err := setup(ctx)
			computed = true
			return inst, err
		}
		return cs
	}
	// Three claims on one cell estimated at 10 s: the budget is 6 s. Once
	// the 4 s claim above has set its case up, the cell reads its work.
	b := toy(tr, "toy/reads", []string{"cpu/paper"}, map[string]float64{"cpu/paper": 1e8}, 100)
	cases := b.Cases
	b.Cases = func(s experiments.Scale, o experiments.Options) []experiments.Case {
		cs := cases(s, o)
		cs[0].ReadsShared = func(string) bool { return computed }
		return cs
	}
	reads := []experiments.CellRef{ref("toy/reads", "cpu/paper", 100)}
	// Each claim has a cheap first level (Least, in an experiment of its
	// own: its time says nothing of toy/reads'), so that all are weighed
	// in one pass at the papers' sizes.
	c := toy(tr, "toy/least", []string{"cpu/paper"}, map[string]float64{"cpu/paper": 1}, 1)
	least := []experiments.CellRef{ref("toy/least", "cpu/paper", 1)}
	b.Needs = needs(experiments.Need{Claim: "x", Paper: reads, Least: least}, experiments.Need{Claim: "y", Paper: reads, Least: least},
		experiments.Need{Claim: "z", Paper: reads, Least: least})
	a.Needs = needs(experiments.Need{Claim: "computes", Paper: []experiments.CellRef{ref("toy/computes", "cpu/paper", 1)},
		Least: []experiments.CellRef{ref("toy/computes", "cpu/fast", 2)}})
	// A claim of 5 s, weighed after the one of 4 s.
	d := toy(tr, "toy/later", []string{"cpu/paper"}, map[string]float64{"cpu/paper": 5e9}, 1)
	d.Needs = needs(experiments.Need{Claim: "later", Paper: []experiments.CellRef{ref("toy/later", "cpu/paper", 1)}, Least: least})
	recs := runToys(t, Config{Budget: 6 * time.Second}, a, b, c, d)
	// The order of the cells' first runs (top-ups come back to a cell).
	var first []string
	for _, x := range tr.ran {
		if !slices.Contains(first, x) {
			first = append(first, x)
		}
	}
	want := []string{"toy/computes cpu/paper n=1", "toy/reads cpu/paper n=100", "toy/later cpu/paper n=1"}
	if len(first) < 5 || !slices.Equal(first[2:5], want) {
		t.Fatalf("order %v: want %v after the Least cells", first, want)
	}
	if r := find(t, recs, "toy/reads", "cpu/paper", "100"); r.EstimateRunMS > 1 || !strings.Contains(r.Basis, "another cell") {
		t.Errorf("toy/reads estimated %.3g ms (%s): want the fixed cost of a cell reading shared work", r.EstimateRunMS, r.Basis)
	}
}
