package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/runner"
)

// processSampler samples the outer level of noise in fresh processes
// (runner.OuterSampler): each cell by this binary run again, `semibench
// run` on exactly that cell (its experiment, implementation and
// parameters), at the same scale, seed, threads, GPUs and timing
// protocol, without history, into a temporary result file that it reads
// back and removes. A cancelled context interrupts the child (SIGINT, then
// a kill after outerGrace).
type processSampler struct {
	// command makes the child's command from its arguments (the tests'
	// hook: their binary runs as semibench through an environment
	// variable).
	command func(ctx context.Context, args []string) *exec.Cmd
}

// outerGrace is how long an interrupted child has to stop before it is
// killed.
const outerGrace = 5 * time.Second

// newOuterSampler is the outer level's sampler of run and reproduce:
// fresh processes of this binary where it can run itself again, else
// (nil: the runner's default) fresh allocations in this process. A test
// binary is not semibench: it samples fresh allocations unless a test
// set outerCommand.
func newOuterSampler() runner.OuterSampler {
	if outerCommand != nil {
		return processSampler{command: outerCommand}
	}
	if testing.Testing() {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return processSampler{command: func(ctx context.Context, args []string) *exec.Cmd {
		return exec.CommandContext(ctx, exe, args...)
	}}
}

// outerCommand, when set (by a test), makes the fresh processes'
// commands.
var outerCommand func(ctx context.Context, args []string) *exec.Cmd

func (processSampler) Level() string { return bench.LevelProcess }

// Sample runs each cell in a process of its own, one after another.
func (p processSampler) Sample(ctx context.Context, cells []runner.OuterCell) ([]runner.OuterRecord, error) {
	var out []runner.OuterRecord
	for _, c := range cells {
		rec, err := p.one(ctx, c)
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// outerArgs is the command line that measures exactly c into path.
func outerArgs(c runner.OuterCell, path string) []string {
	var where []string
	for _, p := range c.Case.Params {
		where = append(where, p.Name+"="+p.Value)
	}
	return []string{"run", c.Experiment.Name, "--scale", string(c.Scale), "--impl", c.Impl, "--where", strings.Join(where, ","),
		"--seed", strconv.FormatUint(cmp.Or(c.Options.Seed, 1), 10), "--threads", strconv.Itoa(c.Options.Threads), "--gpus", strconv.Itoa(max(1, c.Options.GPUs)),
		"--reps", strconv.Itoa(c.Protocol.Reps), "--warmup", strconv.Itoa(c.Protocol.Warmup), "--budget", "0", "--no-history", "--out", path}
}

// one measures c in a fresh process.
func (p processSampler) one(ctx context.Context, c runner.OuterCell) (runner.OuterRecord, error) {
	dir, err := os.MkdirTemp("", "semibench-outer-")
	if err != nil {
		return runner.OuterRecord{}, fmt.Errorf("the outer level of %s: %w", c.Key(), err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "cell.jsonl")
	cmd := p.command(ctx, outerArgs(c, path))
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = outerGrace
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	t0 := time.Now()
	runErr := cmd.Run()
	wall := float64(time.Since(t0)) / 1e6
	if ctx.Err() != nil {
		return runner.OuterRecord{}, ctx.Err()
	}
	f, err := bench.ReadFile(path)
	var rec *bench.Record
	if err == nil {
		for i := range f.Records {
			if f.Records[i].Key() == c.Key() {
				rec = &f.Records[i]
			}
		}
	}
	if rec == nil || rec.Status != bench.StatusOK && rec.Status != bench.StatusCheckFailed {
		why := errors.Join(runErr, err)
		if rec != nil {
			why = errors.Join(why, fmt.Errorf("%s: %s", rec.Status, rec.Error))
		}
		return runner.OuterRecord{}, fmt.Errorf("the outer level of %s: `semibench %s` gave no record of it (%v; %s)",
			c.Key(), strings.Join(outerArgs(c, path), " "), why, lastLine(stderr.String()))
	}
	return runner.OuterRecord{Record: *rec, WallMS: wall}, nil
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
