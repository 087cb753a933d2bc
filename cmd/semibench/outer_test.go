//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/runner"
)

// testOuterCommand runs this test binary as semibench (TestMain's
// cliEnv).
func testOuterCommand(ctx context.Context, args []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), cliEnv+"="+strings.Join(args, cliSep))
	return cmd
}

// TestProcessSampler: a fresh process measures exactly the cell asked
// (its experiment, implementation and parameters, at the run's scale and
// protocol) and the record comes back with its samples and the process's
// wall; a cancelled context stops the child at once.
func TestProcessSampler(t *testing.T) {
	e := experiments.ByName("kleene/table2")
	var cs *experiments.Case
	all := e.Cases(experiments.Quick, experiments.Options{})
	for i := range all {
		if all[i].Params.String() == "n=60,weights=normal" {
			cs = &all[i]
		}
	}
	if cs == nil {
		t.Fatal("no kleene/table2 case n=60,weights=normal at quick scale")
	}
	c := runner.OuterCell{Experiment: e, Case: cs, Impl: "cpu/paper", Scale: experiments.Quick, Options: experiments.Options{Seed: 1},
		Protocol: bench.Protocol{Warmup: 1, Reps: 3, Statistic: bench.StatMedian}}
	s := processSampler{command: testOuterCommand}
	got, err := s.Sample(context.Background(), []runner.OuterCell{c})
	if err != nil || len(got) != 1 {
		t.Fatalf("Sample: %v, %d records", err, len(got))
	}
	r := got[0]
	if r.Key() != c.Key() || r.Status != bench.StatusOK || len(experiments.SamplesOf(&r.Record, bench.TotalPhase)) != 3 || len(r.WarmupMS) != 1 || r.Wall == nil ||
		r.WallMS < r.Wall.SetupMS+r.Wall.MeasureMS+r.Wall.CheckMS {
		t.Errorf("replicate %s %s, %d samples, %d warm-ups, wall %v within %v ms: want the cell, ok, 3 and 1, the process's wall around it",
			r.Key(), r.Status, len(experiments.SamplesOf(&r.Record, bench.TotalPhase)), len(r.WarmupMS), r.Wall, r.WallMS)
	}
	ctx, cancel := context.WithCancel(context.Background())
	slow := c // the CPU program at n = 4000 takes seconds a run
	slow.Scale = experiments.Paper
	for _, x := range e.Cases(experiments.Paper, experiments.Options{}) {
		if x.Params.String() == "n=4000,weights=normal" {
			slow.Case = &x
		}
	}
	go func() { time.Sleep(500 * time.Millisecond); cancel() }()
	t0 := time.Now()
	if _, err := s.Sample(ctx, []runner.OuterCell{slow}); err == nil || time.Since(t0) > 5*time.Second {
		t.Errorf("a cancelled round: %v after %s, want the context's error within a few seconds", err, time.Since(t0))
	}
}
