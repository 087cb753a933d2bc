package runner

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// fakeCPU is the process CPU time the side tests' runner reads: each
// run of the toy adds its threads times its duration, so that the cores
// a cell kept busy do not depend on the test machine's load.
var fakeCPU atomic.Int64

// work sleeps for d and counts threads times the time the sleep took as
// CPU time: on a loaded machine a sleep can overrun d by more than d (CI
// once measured a one-core toy at 0.44 cores), and the runner's window
// around the run holds the overrun.
func work(d time.Duration, threads int) {
	start := time.Now()
	time.Sleep(d)
	fakeCPU.Add(int64(threads) * int64(time.Since(start)))
}

// sideToy has three implementations at n = 1 (the claims' cheaper level,
// 150 ms a run) and n = 4 (the paper's, 600 ms): cpu/one-a and cpu/one-b
// keep one core busy, cpu/par two (fakeCPU). Each claim reads one
// implementation, and a fourth both one-core ones (reading their phases
// when phases is set).
func sideToy(phases bool) *experiments.Experiment {
	const name = "toy/side"
	impls := []string{"cpu/one-a", "cpu/one-b", "cpu/par"}
	threads := map[string]int{"cpu/one-a": 1, "cpu/one-b": 1, "cpu/par": 2}
	least, paper := bench.Params{{Name: "n", Value: "1"}}, bench.Params{{Name: "n", Value: "4"}}
	cs := func(p bench.Params, units float64) experiments.Case {
		return experiments.Case{Params: p, Work: units, Setup: func(context.Context) (*experiments.Instance, error) {
			return &experiments.Instance{
				Run: func(_ context.Context, impl string, _ *bench.Recorder) (any, error) {
					work(time.Duration(units)*150*time.Millisecond, threads[impl])
					return 1, nil
				},
				Check: func(string, any) bench.Check { return bench.Check{OK: true, Method: "none"} },
			}, nil
		}}
	}
	ns := map[string]float64{}
	for _, impl := range impls {
		ns[impl] = float64(150 * time.Millisecond)
	}
	return &experiments.Experiment{
		Name: name, Paper: name, Impls: impls, NsPerWork: ns,
		Cases: func(experiments.Scale, experiments.Options) []experiments.Case {
			return []experiments.Case{cs(least, 1), cs(paper, 4)}
		},
		Needs: func(experiments.Scale, experiments.Options) []experiments.Need {
			var out []experiments.Need
			for _, impl := range impls {
				out = append(out, experiments.Need{Claim: name + "#" + impl,
					Paper: experiments.CellRefs(name, []string{impl}, paper), Least: experiments.CellRefs(name, []string{impl}, least)})
			}
			// A second claim of the one-core cells: a cell held for one
			// claim is held, not run, for the other.
			return append(out, experiments.Need{Claim: name + "#both", Paper: experiments.CellRefs(name, impls[:2], paper), Phases: phases})
		},
		Claims: func([]bench.Record) []experiments.Claim {
			var out []experiments.Claim
			for _, id := range append(slices.Clone(impls), "both") {
				out = append(out, experiments.Claim{ID: name + "#" + id, Verdict: experiments.ByConstruction})
			}
			return out
		},
	}
}

// TestSideBySide: in a budgeted run with two slots, the long paper-size
// cells of the two one-core implementations (one core each at n = 1, as
// their records' CPU time shows) are measured at once, their records
// saying so and naming each other; the two-goroutine implementation's
// long cell runs alone. Without slots, without a budget, or when a claim
// reads the cells' phases, none does.
func TestSideBySide(t *testing.T) {
	savedSlots, savedCPU := sideSlots, cpuTime
	defer func() { sideSlots, cpuTime = savedSlots, savedCPU }()
	cpuTime = func() time.Duration { return time.Duration(fakeCPU.Load()) }
	for _, tc := range []struct {
		name   string
		slots  int
		budget time.Duration
		side   []string
		phases bool
	}{
		{"two slots", 2, time.Minute, []string{"cpu/one-a", "cpu/one-b"}, false},
		// Slots to spare: the two wait for the pass's end, held for
		// both their claims.
		{"three slots", 3, time.Minute, []string{"cpu/one-a", "cpu/one-b"}, false},
		// A claim reads their phases: each runs alone.
		{"phases", 2, time.Minute, nil, true},
		{"one slot", 1, time.Minute, nil, false},
		{"no budget", 2, 0, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sideSlots = func() int { return tc.slots }
			recs := runToys(t, Config{Reps: 1, Warmup: 0, Budget: tc.budget, LongRun: 300 * time.Millisecond}, sideToy(tc.phases))
			var side []string
			count := map[string]int{}
			for _, r := range recs {
				count[r.Impl+" "+r.Params.String()]++
				if r.Params.String() == "n=1" && r.Wall != nil && r.Wall.CPUMS > 0 {
					cores := r.Wall.CPUMS / r.Wall.MeasureMS
					if want := map[string]float64{"cpu/one-a": 1, "cpu/one-b": 1, "cpu/par": 2}[r.Impl]; cores < 0.7*want || cores > 1.3*want {
						t.Errorf("%s at n = 1 kept %.2f cores busy, want about %g", r.Impl, cores, want)
					}
				}
				if r.Params.String() != "n=4" || !strings.Contains(r.Stop, "side by side") {
					continue
				}
				side = append(side, r.Impl)
				if r.Wall == nil || r.Wall.CPUMS != 0 {
					t.Errorf("%s: a side-by-side record carries the CPU time of all: %+v", r.Impl, r.Wall)
				}
				for _, other := range tc.side {
					if other != r.Impl && !strings.Contains(r.Note, other) {
						t.Errorf("%s's note does not name %s beside it: %q", r.Impl, other, r.Note)
					}
				}
			}
			for k, n := range count {
				if n != 1 {
					t.Errorf("%s has %d records, want 1", k, n)
				}
			}
			slices.Sort(side) // the longest first: the two take the same time
			if strings.Join(side, ",") != strings.Join(tc.side, ",") {
				t.Errorf("measured side by side: %v, want %v", side, tc.side)
			}
		})
	}
}

// TestCoreUse: a kind of cell is one-core when its longest measurement of
// 100 ms or more kept at most oneCoreMax cores busy; cells of other
// parameters (Rote's parallel sweep beside its one-core cells of one n)
// are another kind, and short measurements do not count.
func TestCoreUse(t *testing.T) {
	e := &experiments.Experiment{Name: "toy/x", Paper: "toy"}
	one := &cell{exp: e, impl: "cpu/paper", cs: &experiments.Case{Params: bench.Params{{Name: "n", Value: "64"}}}}
	sweep := &cell{exp: e, impl: "cpu/paper", cs: &experiments.Case{Params: bench.Params{{Name: "sweep", Value: "n=1..128"}}}}
	u := coreUse{}
	u.observe(one, 13, 10)     // 1.3 cores, too short to count
	u.observe(one, 1010, 1000) // 1.01 cores over a second
	u.observe(one, 260, 200)   // 1.3 cores, shorter than the longest
	u.observe(sweep, 16000, 1000)
	if !u.oneCore(one) {
		t.Errorf("the cells of one n: %v, want one-core", u[coreKey(one)])
	}
	if u.oneCore(sweep) {
		t.Errorf("the sweep: %v, want not one-core", u[coreKey(sweep)])
	}
	if other := (&cell{exp: e, impl: "cpu/fast", cs: one.cs}); u.oneCore(other) {
		t.Error("an implementation never measured counts as one-core")
	}
}
