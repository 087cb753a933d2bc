package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// fake builds an experiment whose implementations behave as named: "ok",
// "bad" (wrong output), "fail" (error), "gone" (unavailable), "slow".
func fake(setups *int) *experiments.Experiment {
	return &experiments.Experiment{
		Name:      "fake/table",
		Impls:     []string{"cpu/ok", "cpu/bad", "cpu/fail", "cuda/gone", "cpu/slow"},
		NsPerWork: map[string]float64{"cpu/slow": 1e12}, // 1000 s per work unit
		Cases: func(experiments.Scale, experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, n := range []int{1, 2} {
				cs = append(cs, experiments.Case{
					Params: bench.Params{{Name: "n", Value: fmt.Sprint(n)}},
					Work:   float64(n),
					Setup: func(context.Context) (*experiments.Instance, error) {
						*setups++
						return &experiments.Instance{
							Input: &bench.Input{Generator: "fake", Seed: uint64(n)},
							Run: func(_ context.Context, impl string, rec *bench.Recorder) (any, error) {
								rec.Start("work")()
								switch impl {
								case "cpu/bad":
									return n + 1, nil
								case "cpu/fail":
									return nil, errors.New("driver fault")
								case "cuda/gone":
									return nil, fmt.Errorf("%w: no GPU", experiments.ErrUnavailable)
								}
								return n, nil
							},
							Check: func(_ string, out any) bench.Check {
								return bench.Check{OK: out == n, Method: "equal to n"}
							},
						}, nil
					},
				})
			}
			return cs
		},
	}
}

func TestRunRecordsEveryCell(t *testing.T) {
	setups := 0
	path := filepath.Join(t.TempDir(), "run.json")
	app, err := bench.NewAppender(path, &bench.File{Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: "quick", Started: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	cfg := Config{Scale: experiments.Quick, Reps: 3, Warmup: 1, Budget: time.Minute, Progress: &progress, Terminal: true, Available: noGPU}
	if err := Run(context.Background(), cfg, []*experiments.Experiment{fake(&setups)}, app); err != nil {
		t.Fatal(err)
	}
	f, err := bench.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 10 {
		t.Fatalf("%d records, want 10", len(f.Records))
	}
	if p := progress.String(); !strings.Contains(p, "the rest · fake/table cpu/ok n=1 · ") || !strings.Contains(p, ": 4 measured, 2 failed, 2 skipped, 2 unavailable; 0 of 0 claims") {
		t.Errorf("progress output %q lacks the first cell or the closing line", p)
	}
	if setups != 2 {
		t.Errorf("setup ran %d times, want once per case (2)", setups)
	}
	want := map[string]string{"cpu/ok": bench.StatusOK, "cpu/bad": bench.StatusCheckFailed, "cpu/fail": bench.StatusFailed,
		"cuda/gone": bench.StatusUnavailable, "cpu/slow": bench.StatusSkipped}
	for _, r := range f.Records {
		if r.Status != want[r.Impl] {
			t.Errorf("%s: status %s, want %s (%s)", r.Key(), r.Status, want[r.Impl], r.Error)
		}
		switch r.Status {
		case bench.StatusOK:
			if p := r.Phase("work"); p == nil || len(p.SamplesMS) != 3 || r.Phase("total") == nil {
				t.Errorf("%s: phases %+v, want work and total with 3 samples", r.Key(), r.Phases)
			}
			if r.Input == nil || r.Check == nil || !r.Check.OK {
				t.Errorf("%s: input or check missing", r.Key())
			}
		case bench.StatusSkipped:
			if r.EstimateMS < 1000 {
				t.Errorf("%s: estimate %v ms, want the prior's seconds", r.Key(), r.EstimateMS)
			}
		case bench.StatusFailed:
			if r.Error != "driver fault" {
				t.Errorf("%s: error %q", r.Key(), r.Error)
			}
		}
	}
}

func TestRunImplPatternAndCancel(t *testing.T) {
	setups := 0
	path := filepath.Join(t.TempDir(), "run.json")
	app, _ := bench.NewAppender(path, &bench.File{Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: "quick", Started: time.Unix(1, 0)})
	ctx, cancel := context.WithCancel(context.Background())
	e := fake(&setups)
	inner := e.Cases
	e.Cases = func(s experiments.Scale, o experiments.Options) []experiments.Case {
		cs := inner(s, o)
		setup := cs[1].Setup
		cs[1].Setup = func(c context.Context) (*experiments.Instance, error) {
			cancel() // interrupted while preparing the second case
			return setup(c)
		}
		return cs
	}
	err := Run(ctx, Config{Scale: experiments.Quick, Impl: "cpu/ok", Reps: 1}, []*experiments.Experiment{e}, app)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	f, _ := bench.ReadFile(path)
	if len(f.Records) != 1 || f.Records[0].Impl != "cpu/ok" || f.Records[0].Status != bench.StatusOK {
		t.Fatalf("records after interrupt: %+v, want the one finished cpu/ok cell", f.Records)
	}
}

// TestUnavailableSkipsSetup: on a machine without a GPU a case whose only
// implementations are CUDA ones is never set up (its input may be costly),
// and its cells are recorded unavailable.
func TestUnavailableSkipsSetup(t *testing.T) {
	if experiments.Available("cuda/any") == nil {
		t.Skip("a CUDA device is present")
	}
	setups := 0
	e := fake(&setups)
	e.Impls = []string{"cuda/gone"}
	path := filepath.Join(t.TempDir(), "run.json")
	app, err := bench.NewAppender(path, &bench.File{Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: "quick", Started: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Scale: experiments.Quick, Reps: 1, Budget: time.Minute}
	if err := Run(context.Background(), cfg, []*experiments.Experiment{e}, app); err != nil {
		t.Fatal(err)
	}
	f, err := bench.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if setups != 0 || len(f.Records) != 2 {
		t.Fatalf("%d setups, %d records; want 0 and 2", setups, len(f.Records))
	}
	for _, r := range f.Records {
		if r.Status != bench.StatusUnavailable || !strings.Contains(r.Error, "cuda/gone") {
			t.Errorf("%s %s: %s %q", r.Impl, r.Params, r.Status, r.Error)
		}
	}
}
