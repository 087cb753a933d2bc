package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// ratioToy is an experiment of one case whose cpu/fast takes fast and
// cpu/slow slow a run (sleeping; each times the jitter factors in turn,
// when there are any), with one claim: slow / fast lies in [low, high].
func ratioToy(fast, slow time.Duration, jitter []float64, low, high float64) *experiments.Experiment {
	const name, id = "toy/ratio", "toy/ratio#band"
	p := bench.Params{{Name: "n", Value: "1"}}
	sleep := map[string]time.Duration{"cpu/fast": fast, "cpu/slow": slow}
	runs := 0
	return &experiments.Experiment{
		Name: name, Paper: name, Impls: []string{"cpu/fast", "cpu/slow"},
		NsPerWork: map[string]float64{"cpu/fast": float64(fast), "cpu/slow": float64(slow)},
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
			return []experiments.Need{{Claim: id, Paper: experiments.CellRefs(name, []string{"cpu/fast", "cpu/slow"}, p)}}
		},
		Claims: func(run []bench.Record) []experiments.Claim {
			c := experiments.Claim{ID: id, Verdict: experiments.NotRun}
			idx := experiments.IndexRecords(run)
			f, s := idx.Get(name, "cpu/fast", p), idx.Get(name, "cpu/slow", p)
			if f == nil || s == nil || f.Phase(bench.TotalPhase) == nil || s.Phase(bench.TotalPhase) == nil {
				return []experiments.Claim{c}
			}
			ratio := s.Phase(bench.TotalPhase).StatMS / f.Phase(bench.TotalPhase).StatMS
			c.Ours = fmt.Sprintf("%.3gx", ratio)
			c.Verdict = experiments.Holds(ratio >= low && ratio <= high)
			return []experiments.Claim{c}
		},
	}
}

// A budgeted run samples the costlier cell of a claim until the claim is
// settled: once when the ratio lies far outside the band, the --reps
// maximum when its samples spread too widely to put it inside the band or
// out of it. Without a budget every cell takes --reps.
func TestSamplesAsTheVerdictNeeds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		low, high float64
		budget    time.Duration
		want      int
		stop      string
		jitter    []float64
		slow      time.Duration // cpu/fast takes a fiftieth, or a tenth with jitter
	}{
		{"far", 2, 3, time.Minute, 1, "settled", nil, 200 * time.Millisecond},                                                // 50x against 2x-3x
		{"near", 9, 11, time.Minute, 6, "--reps maximum", []float64{0.6, 1.4, 0.8, 1.2, 1, 0.7, 1.3}, 20 * time.Millisecond}, // about 10x, spread 30%
		{"no budget", 2, 3, 0, 6, "fixed repetitions", nil, 20 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast := tc.slow / 50
			if tc.jitter != nil {
				fast = tc.slow / 10
			}
			e := ratioToy(fast, tc.slow, tc.jitter, tc.low, tc.high)
			recs := runToys(t, Config{Reps: 6, Warmup: 1, Budget: tc.budget}, e)
			var slows []*bench.Record
			for i := range recs {
				if recs[i].Impl == "cpu/slow" {
					slows = append(slows, &recs[i])
				}
			}
			if len(slows) == 0 {
				t.Fatal("no record of cpu/slow")
			}
			// The first record decides; a later one (refine: the budget
			// left brings the claims' cells up to --reps) holds them all.
			slow, last := slows[0], slows[len(slows)-1]
			if n := len(last.Phase(bench.TotalPhase).SamplesMS); n != 6 {
				t.Errorf("cpu/slow's last record holds %d samples, want the --reps 6 (stop %q)", n, last.Stop)
			}
			n := len(slow.Phase(bench.TotalPhase).SamplesMS)
			if n != tc.want || !strings.Contains(slow.Stop, tc.stop) {
				t.Errorf("cpu/slow took %d sample(s) (stop %q), want %d (%q)", n, slow.Stop, tc.want, tc.stop)
			}
			if tc.budget > 0 && (slow.EstimateMS <= 0 || slow.Basis == "") {
				t.Errorf("estimate %v ms, basis %q: every record carries the planner's estimate", slow.EstimateMS, slow.Basis)
			}
		})
	}
}
