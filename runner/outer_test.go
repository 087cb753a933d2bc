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

// fakeOuter is an OuterSampler that measures nothing: each cell's
// replicate holds one sample of ms, after sleeping sleep; rounds keeps
// the cells of every round, in order.
type fakeOuter struct {
	ms     float64
	sleep  time.Duration
	rounds [][]string
}

func (f *fakeOuter) Level() string { return "fake" }

func (f *fakeOuter) Sample(_ context.Context, cells []OuterCell) ([]OuterRecord, error) {
	var keys []string
	var out []OuterRecord
	for _, c := range cells {
		time.Sleep(f.sleep)
		keys = append(keys, c.Impl)
		rec := bench.Record{Experiment: c.Experiment.Name, Impl: c.Impl, Params: c.Case.Params, Status: bench.StatusOK,
			Phases: []bench.Phase{{Name: bench.TotalPhase, SamplesMS: []float64{f.ms}, MedianMS: f.ms, StatMS: f.ms}},
			Wall:   &bench.CellWall{MeasureMS: f.ms}}
		out = append(out, OuterRecord{Record: rec, WallMS: float64(f.sleep) / 1e6})
	}
	f.rounds = append(f.rounds, keys)
	return out, nil
}

// outerToy has three implementations of one case: claim #ab reads cpu/a
// and cpu/b, claim #c reads cpu/c; each settles at once (a verdict read
// from no time).
func outerToy(tr *trace) *experiments.Experiment {
	const name = "toy/outer"
	e := toy(tr, name, []string{"cpu/a", "cpu/b", "cpu/c"}, nil, 1)
	e.Needs = needs(experiments.Need{Claim: name + "#ab", Paper: []experiments.CellRef{ref(name, "cpu/a", 1), ref(name, "cpu/b", 1)}},
		experiments.Need{Claim: name + "#c", Paper: []experiments.CellRef{ref(name, "cpu/c", 1)}})
	e.Claims = func([]bench.Record) []experiments.Claim {
		return []experiments.Claim{{ID: name + "#ab", Verdict: experiments.Reproduced}, {ID: name + "#c", Verdict: experiments.Reproduced}}
	}
	return e
}

// TestOuterLevel: the runner samples the outer level exactly where
// OuterNeed asks (claim #ab: two rounds, then one, then none; claim #c:
// none), interleaving the claim's cells (a b a b a b), adds each
// replicate to its cell's record, appends the records again, and notes
// which level decided the claim.
func TestOuterLevel(t *testing.T) {
	saved := outerNeed
	defer func() { outerNeed = saved }()
	asks := map[string][]int{"toy/outer#ab": {2, 1}}
	var calls []string
	outerNeed = func(_ *experiments.Experiment, id string, recs []bench.Record, _ []experiments.CellRef, _ float64, _ *experiments.Between) (int, string) {
		calls = append(calls, id)
		if a := asks[id]; len(a) > 0 {
			asks[id] = a[1:]
			return a[0], fmt.Sprintf("asked %d", a[0])
		}
		return 0, "settled at the outer level"
	}
	fake := &fakeOuter{ms: 1}
	f := runToysFile(t, Config{Budget: time.Minute, Reps: 2, Outer: fake}, outerToy(newTrace()))
	var rounds []string
	for _, r := range fake.rounds {
		rounds = append(rounds, strings.Join(r, " "))
	}
	if want := []string{"cpu/a cpu/b", "cpu/a cpu/b", "cpu/a cpu/b"}; !slices.Equal(rounds, want) {
		t.Errorf("rounds %q, want %q", rounds, want)
	}
	if n := strings.Count(strings.Join(calls, " "), "toy/outer#ab"); n != 3 {
		t.Errorf("OuterNeed asked of #ab %d times (%v), want 3: after the in-run settle and after each batch of rounds", n, calls)
	}
	last := map[string]bench.Record{}
	for _, r := range f.Records {
		last[r.Impl] = r
	}
	for _, impl := range []string{"cpu/a", "cpu/b"} {
		r := last[impl]
		if len(r.Replicates) != 3 || r.Replicates[0].Level != "fake" || !strings.Contains(r.Stop, "3 replicate(s) at the outer level") {
			t.Errorf("%s: %d replicate(s), stop %q: want 3 of level fake, said", impl, len(r.Replicates), r.Stop)
		}
	}
	if r := last["cpu/c"]; len(r.Replicates) != 0 {
		t.Errorf("cpu/c: %d replicate(s), want none (OuterNeed asked none)", len(r.Replicates))
	}
	notes := strings.Join(f.Notes, "\n")
	if !strings.Contains(notes, "outer level: toy/outer#ab: 3 round(s) of its 2 cell(s) in fresh allocations; decided by the outer level in this run: settled at the outer level") {
		t.Errorf("notes %q: want the outer level's note on #ab", notes)
	}
}

// TestOuterLevelWithinBudget: rounds that OuterNeed asks beyond the budget
// are not all measured: the run ends within its budget, the note says
// how many of those asked were.
func TestOuterLevelWithinBudget(t *testing.T) {
	saved := outerNeed
	defer func() { outerNeed = saved }()
	outerNeed = func(_ *experiments.Experiment, id string, _ []bench.Record, _ []experiments.CellRef, _ float64, _ *experiments.Between) (int, string) {
		if id == "toy/outer#ab" {
			return 1000, "asked 1000"
		}
		return 0, "none"
	}
	fake := &fakeOuter{ms: 1, sleep: 50 * time.Millisecond}
	start := time.Now()
	f := runToysFile(t, Config{Budget: 2 * time.Second, Reps: 2, Outer: fake}, outerToy(newTrace()))
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the run took %s against a budget of 2s", took)
	}
	if n := len(fake.rounds); n < 3 || n > 20 {
		t.Errorf("%d rounds of 100 ms in a 2 s budget", n)
	}
	if notes := strings.Join(f.Notes, "\n"); !strings.Contains(notes, "round(s) asked") {
		t.Errorf("notes %q: want how many of the rounds asked were measured", notes)
	}
}

// TestAllocationSampler: a fresh allocation sets the case up again,
// measures the cell with the protocol given and checks it.
func TestAllocationSampler(t *testing.T) {
	tr := newTrace()
	e := toy(tr, "toy/alloc", []string{"cpu/a"}, nil, 1)
	cs := e.Cases(experiments.Quick, experiments.Options{})
	c := OuterCell{Experiment: e, Case: &cs[0], Impl: "cpu/a", Scale: experiments.Quick, Protocol: bench.Protocol{Warmup: 1, Reps: 3, Statistic: bench.StatMedian}}
	s := NewAllocationSampler()
	for range 2 {
		got, err := s.Sample(context.Background(), []OuterCell{c})
		if err != nil || len(got) != 1 {
			t.Fatalf("Sample: %v, %d records", err, len(got))
		}
		if r := got[0]; r.Status != bench.StatusOK || len(experiments.SamplesOf(&r.Record, bench.TotalPhase)) != 3 || r.WallMS <= 0 || r.Key() != c.Key() {
			t.Errorf("replicate %+v, wall %v: want ok, 3 samples, a wall", r.Record, r.WallMS)
		}
	}
	if s.Level() != bench.LevelAllocation || tr.setups["toy/alloc n=1"] != 2 || len(tr.ran) != 8 {
		t.Errorf("level %s, %d setups, %d runs: want allocation, a setup per replicate, 8 runs", s.Level(), tr.setups["toy/alloc n=1"], len(tr.ran))
	}
}
