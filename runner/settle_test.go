package runner

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// ratioToy is an experiment of one case whose cpu/fast takes fast and
// cpu/slow slow a run (sleeping; each times the jitter factors in turn,
// when there are any), with one claim: slow / fast lies in [low, high];
// and cpu/aa, of 25 ms a run, which a second claim reads alone: the run's
// A/A cell.
func ratioToy(fast, slow time.Duration, jitter []float64, low, high float64) *experiments.Experiment {
	const name, id = "toy/ratio", "toy/ratio#band"
	p := bench.Params{{Name: "n", Value: "1"}}
	sleep := map[string]time.Duration{"cpu/fast": fast, "cpu/slow": slow, "cpu/aa": 25 * time.Millisecond}
	runs := 0
	return &experiments.Experiment{
		Name: name, Paper: name, Impls: []string{"cpu/fast", "cpu/slow", "cpu/aa"},
		NsPerWork: map[string]float64{"cpu/fast": float64(fast), "cpu/slow": float64(slow), "cpu/aa": float64(25 * time.Millisecond)},
		Cases: func(experiments.Scale, experiments.Options) []experiments.Case {
			return []experiments.Case{{Params: p, Work: 1, Setup: func(context.Context) (*experiments.Instance, error) {
				return &experiments.Instance{
					Run: func(_ context.Context, impl string, _ *bench.Recorder) (any, error) {
						d := sleep[impl]
						if len(jitter) > 0 {
							d = time.Duration(float64(d) * jitter[runs%len(jitter)])
							runs++
						}
						time.Sleep(d)
						return 1, nil
					},
					Check: func(string, any) bench.Check { return bench.Check{OK: true, Method: "none"} },
				}, nil
			}}}
		},
		Needs: func(experiments.Scale, experiments.Options) []experiments.Need {
			return []experiments.Need{{Claim: id, Paper: experiments.CellRefs(name, []string{"cpu/fast", "cpu/slow"}, p)},
				{Claim: name + "#aa", Paper: experiments.CellRefs(name, []string{"cpu/aa"}, p)}}
		},
		Claims: func(run []bench.Record) []experiments.Claim {
			aa := experiments.Claim{ID: name + "#aa", Verdict: experiments.ByConstruction}
			c := experiments.Claim{ID: id, Verdict: experiments.NotRun}
			idx := experiments.IndexRecords(run)
			f, s := idx.Get(name, "cpu/fast", p), idx.Get(name, "cpu/slow", p)
			if f == nil || s == nil || f.Phase(bench.TotalPhase) == nil || s.Phase(bench.TotalPhase) == nil {
				return []experiments.Claim{c, aa}
			}
			ratio := s.Phase(bench.TotalPhase).StatMS / f.Phase(bench.TotalPhase).StatMS
			c.Ours = fmt.Sprintf("%.3gx", ratio)
			c.Verdict = experiments.Holds(ratio >= low && ratio <= high)
			return []experiments.Claim{c, aa}
		},
	}
}

// A budgeted run samples the costlier cell of a claim as its verdict
// needs: far outside the band one sample settles it, and the rest of the
// budget refines it to --reps; when its samples spread too widely to put
// it inside the band or out of it, the first pass takes one sample and
// the cell ends with --reps (the A/A pairs measured again after the first
// pass may unsettle a claim one sample had settled). Without a budget
// every cell takes --reps at once.
func TestSamplesAsTheVerdictNeeds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		low, high float64
		budget    time.Duration
		jitter    []float64
		slow      time.Duration // cpu/fast takes a fiftieth, or a tenth with jitter
		// The samples and stopping reason of cpu/slow's records, first
		// to last.
		want []int
		stop []string
	}{
		{"far", 2, 3, time.Minute, nil, 200 * time.Millisecond, // 50x against 2x-3x
			[]int{1, 6}, []string{"settled after 1", "refined"}},
		// About 10x, spread 30%: one sample in the first pass, --reps at
		// the end. Whether the top-up or the refine brings them (and
		// whether a top-up stops on the way) depends on the jitter factors
		// the A/A cell drew, which the order of the sleeps decides: the
		// first and last records are asserted (the settle rule's error
		// rate near a band is internal/stats' simulation test).
		{"near", 9, 11, 30 * time.Second, []float64{0.6, 1.4, 0.8, 1.2, 1, 0.7, 1.3}, 40 * time.Millisecond,
			[]int{1, 6}, []string{"after 1 sample", "--reps"}},
		// The same with a budget of which 18 more samples cost less
		// than a hundredth: a cheap cell, which goes on past --reps
		// (CheapFactor) until its claim settles; the first record and
		// the last record's count beyond --reps are asserted.
		{"cheap near", 9, 11, 2 * time.Minute, []float64{0.6, 1.4, 0.8, 1.2, 1, 0.7, 1.3}, 30 * time.Millisecond,
			[]int{1, 7}, []string{"after 1 sample", ""}},
		{"no budget", 2, 3, 0, nil, 20 * time.Millisecond,
			[]int{6}, []string{"fixed repetitions"}},
		// The same near the band, cpu/slow a long cell (LongRun 10 ms):
		// one run, one more when its claim is unsettled (not --reps at
		// once), then --reps.
		{"long near", 9, 11, time.Minute, []float64{0.6, 1.4, 0.8, 1.2, 1, 0.7, 1.3}, 40 * time.Millisecond,
			[]int{1, 2, 6}, []string{"one long run", "one more run of a long cell", "refined"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast := tc.slow / 50
			if tc.jitter != nil {
				fast = tc.slow / 10
			}
			e := ratioToy(fast, tc.slow, tc.jitter, tc.low, tc.high)
			cfg := Config{Reps: 6, Warmup: 1, Budget: tc.budget}
			if tc.name == "long near" {
				cfg.LongRun = 10 * time.Millisecond
			}
			recs := runToys(t, cfg, e)
			var got []int
			var stops []string
			for i := range recs {
				if r := &recs[i]; r.Impl == "cpu/slow" {
					got = append(got, len(r.Phase(bench.TotalPhase).SamplesMS))
					stops = append(stops, r.Stop)
					if tc.budget > 0 && (r.EstimateMS <= 0 || r.Basis == "") {
						t.Errorf("estimate %v ms, basis %q: every record carries the planner's estimate", r.EstimateMS, r.Basis)
					}
				}
			}
			if strings.HasSuffix(tc.name, "near") && tc.name != "long near" && len(got) > 2 { // the first and the last record
				got, stops = []int{got[0], got[len(got)-1]}, []string{stops[0], stops[len(stops)-1]}
			}
			if tc.name == "cheap near" && len(got) == 2 && got[1] > 6 {
				got[1] = 7 // more than --reps
			}
			ok := slices.Equal(got, tc.want)
			for i := range stops {
				ok = ok && i < len(tc.stop) && strings.Contains(stops[i], tc.stop[i])
			}
			if !ok {
				t.Errorf("cpu/slow's records took %v sample(s), stopping %q; want %v, %q", got, stops, tc.want, tc.stop)
			}
		})
	}
}

// TestAANotOnSharedWork: a cell of a case whose work the run's store may
// share (Case.ReadsShared) is never an A/A cell, though its estimate
// makes it the cheapest candidate; the same cell without it is one.
func TestAANotOnSharedWork(t *testing.T) {
	for _, shared := range []bool{false, true} {
		tr := newTrace()
		e := toy(tr, "toy/aa-shared", []string{"cpu/paper"}, map[string]float64{"cpu/paper": 25e6}, 1)
		cases := e.Cases
		e.Cases = func(s experiments.Scale, o experiments.Options) []experiments.Case {
			cs := cases(s, o)
			if shared {
				cs[0].ReadsShared = func(string) bool { return false }
			}
			return cs
		}
		e.Needs = needs(experiments.Need{Claim: "c", Paper: []experiments.CellRef{ref("toy/aa-shared", "cpu/paper", 1)}})
		recs := runToys(t, Config{Budget: time.Minute}, e)
		aa := slices.ContainsFunc(recs, func(r bench.Record) bool { return strings.Contains(r.Stop, "A/A") })
		if aa == shared {
			t.Errorf("ReadsShared set %v: an A/A cell %v, want %v", shared, aa, !shared)
		}
	}
}

// TestCheapTopUpFirst: a claim measured in the first pass and left
// unsettled on cheap cells is topped up before a claim that costs a good
// part of the budget left starts, not after it.
func TestCheapTopUpFirst(t *testing.T) {
	near := ratioToy(4*time.Millisecond, 40*time.Millisecond, []float64{0.6, 1.4, 0.8, 1.2, 1, 0.7, 1.3}, 9, 11)
	tr := newTrace()
	// Its paper cell estimated at 2 s by the prior (it returns at once):
	// its cheaper level is another implementation's, which teaches the
	// estimator nothing of it.
	costly := toy(tr, "toy/costly", []string{"cpu/paper", "cpu/least"}, map[string]float64{"cpu/paper": 2e8, "cpu/least": 1}, 1, 10)
	costly.Needs = needs(experiments.Need{Claim: "costly", Paper: []experiments.CellRef{ref("toy/costly", "cpu/paper", 10)},
		Least: []experiments.CellRef{ref("toy/costly", "cpu/least", 1)}})
	recs := runToys(t, Config{Reps: 6, Warmup: 1, Budget: 8 * time.Second}, near, costly)
	topped, big := -1, -1
	for i, r := range recs {
		switch {
		case r.Impl == "cpu/slow" && len(experiments.SamplesOf(&r, bench.TotalPhase)) > 1 && topped < 0:
			topped = i
		case r.Experiment == "toy/costly" && r.Params.String() == "n=10" && big < 0:
			big = i
		}
	}
	if topped < 0 || big < 0 || topped > big {
		t.Errorf("cpu/slow first topped up at record %d, toy/costly's 2 s cell at %d: want the top-up first", topped, big)
	}
}

// TestRefineSamples: the refine takes as many samples as the budget left
// pays for, after its fixed costs; none when those alone exceed it.
func TestRefineSamples(t *testing.T) {
	for _, c := range []struct {
		want             int
		per, fixed, left float64
		got              int
	}{
		{5, 16_400, 9_343, 64_000, 3}, // the H200's m = 12: its check, then three samples
		{5, 1_000, 0, 60_000, 5},      // all of them
		{5, 1_000, 0, 4_999, 4},
		{5, 1_000, 70_000, 60_000, 0}, // the check alone is more than is left
		{3, 0, 0, 0, 3},               // nothing measured to price it by
		{3, 1_000, 0, math.Inf(1), 3}, // no end to the budget
	} {
		if got := refineSamples(c.want, c.per, c.fixed, c.left); got != c.got {
			t.Errorf("refineSamples(%d, per %g, fixed %g, left %g) = %d, want %d", c.want, c.per, c.fixed, c.left, got, c.got)
		}
	}
}
