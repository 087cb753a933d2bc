package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// testExperiment is a registered experiment (so that its plots render) of
// three cases n = 1, 2, 3 and two CPU implementations returning n; cpu/bad
// returns n+1 and fails its check. onSetup, when set, runs before each
// case's setup with its n.
var onSetup func(n int)

var testExperiment = &experiments.Experiment{
	Name:  "test/cli",
	Impls: []string{"cpu/fast", "cpu/bad"},
	Cases: func(experiments.Scale, experiments.Options) []experiments.Case {
		var cs []experiments.Case
		for n := 1; n <= 3; n++ {
			cs = append(cs, experiments.Case{
				Params: bench.Params{{Name: "n", Value: strconv.Itoa(n)}}, Work: float64(n),
				Setup: func(context.Context) (*experiments.Instance, error) {
					if onSetup != nil {
						onSetup(n)
					}
					return &experiments.Instance{
						Run: func(_ context.Context, impl string, _ *bench.Recorder) (any, error) {
							if impl == "cpu/bad" {
								return n + 1, nil
							}
							return n, nil
						},
						Check: func(_ string, out any) bench.Check { return bench.Check{OK: out == n, Method: "equal to n"} },
					}, nil
				},
			})
		}
		return cs
	},
	Plots: func(run []bench.Record) []report.Plot {
		s := report.Series{Name: "cpu/fast"}
		for _, r := range run {
			if r.Experiment == "test/cli" && r.Impl == "cpu/fast" && r.Status == bench.StatusOK {
				n, _ := strconv.Atoi(r.Params.Get("n"))
				s.X, s.Y = append(s.X, float64(n)), append(s.Y, r.Phase(bench.TotalPhase).MedianMS+1)
			}
		}
		return []report.Plot{{Name: "test-cli", Title: "test", XLabel: "n", YLabel: "ms", Series: []report.Series{s}}}
	},
}

func init() { experiments.Register(testExperiment) }

// TestRunFlagsRefusedBeforeWork: a bad flag is refused with exit 2 before
// the result file exists.
func TestRunFlagsRefusedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	for _, args := range [][]string{
		{"run", "test/cli", "--format", "bogus", "--out", out},
		{"run", "test/cli", "--budget", "-1s", "--out", out},
		{"run", "test/cli", "--impl", "cuda/nothing", "--out", out},
		{"reproduce", "--format", "bogus", "--out", out},
		{"reproduce", "--scale", "huge", "--out", out},
	} {
		code, _, stderr := capture(t, args...)
		if code != 2 || !strings.Contains(stderr, "usage: semibench") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the usage", args, code, stderr)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%v: the result file exists (%v): work started before the flags were checked", args, err)
		}
	}
}

// TestRunExitsOneOnFailedCell: a cell whose check fails makes run exit 1,
// naming the cell, after its records and tables are written.
func TestRunExitsOneOnFailedCell(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.json")
	code, stdout, stderr := capture(t, "run", "test/cli", "--reps", "1", "--out", out)
	if code != 1 || !strings.Contains(stderr, "3 cell(s) failed") || !strings.Contains(stderr, "test/cli cpu/bad n=1 (check-failed)") {
		t.Errorf("exit %d, stderr %q; want 1 naming the failed cells", code, stderr)
	}
	if !strings.Contains(stdout, "cpu/fast") {
		t.Errorf("no table printed before the failure:\n%s", stdout)
	}
	f, err := bench.ReadFile(out)
	if err != nil || len(f.Records) != 6 {
		t.Fatalf("file: %v, want 6 records", err)
	}
	if code, _, stderr := capture(t, "run", "test/cli", "--reps", "1", "--impl", "cpu/fast", "--out", filepath.Join(t.TempDir(), "ok.json")); code != 0 {
		t.Errorf("passing cells: exit %d %s, want 0", code, stderr)
	}
}

// TestInterruptedReproduceWritesReport: a reproduce interrupted while
// setting up its second case still writes the report and the plots of the
// finished cells, in a plots folder of its own beside the result file,
// linked relative to the report; the interruption is the error.
func TestInterruptedReproduceWritesReport(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	onSetup = func(n int) {
		if n == 2 {
			cancel()
		}
	}
	defer func() { onSetup = nil }()
	out := filepath.Join(dir, "res", "run1.json")
	stdout := os.Stdout
	os.Stdout, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	err := reproduce(ctx, []string{"--scale", "quick", "--reps", "1", "--impl", "cpu/fast", "--out", out}, []*experiments.Experiment{testExperiment})
	os.Stdout = stdout
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v, want the interruption", err)
	}
	report, rerr := os.ReadFile(filepath.Join(dir, "res", "run1.md"))
	if rerr != nil {
		t.Fatalf("no report: %v", rerr)
	}
	if !strings.Contains(string(report), "](run1.plots/test-cli.png)") {
		t.Errorf("report does not link its own plots relative to itself:\n%s", report)
	}
	if _, err := os.Stat(filepath.Join(dir, "res", "run1.plots", "test-cli.png")); err != nil {
		t.Errorf("plot: %v", err)
	}
	f, err := bench.ReadFile(out)
	if err != nil || len(f.Records) != 1 {
		t.Fatalf("file: %v, %d records; want the one finished cell", err, len(f.Records))
	}
	// A second run writes its own plots, leaving the first run's alone.
	onSetup = nil
	out2 := filepath.Join(dir, "res", "run2.json")
	os.Stdout, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	err = reproduce(context.Background(), []string{"--scale", "quick", "--reps", "1", "--impl", "cpu/fast", "--out", out2}, []*experiments.Experiment{testExperiment})
	os.Stdout = stdout
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"run1.plots/test-cli.png", "run2.plots/test-cli.png", "run2.md"} {
		if _, err := os.Stat(filepath.Join(dir, "res", p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if r2, _ := os.ReadFile(filepath.Join(dir, "res", "run2.md")); strings.Contains(string(r2), "run1.plots") {
		t.Error("run2's report links run1's plots")
	}
}

// TestResumeAfterTornLine: a run whose last line was torn (a crash mid
// write) is resumed: the torn line is cut off, the cells already ok are
// kept as they were, the torn cell runs again; a schema-2 file is refused
// with the conversion to run.
func TestResumeAfterTornLine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.jsonl")
	args := []string{"run", "kleene/table2", "--scale", "quick", "--reps", "1", "--warmup", "0", "--impl", "cpu/fast", "--out", out}
	if code, _, stderr := capture(t, args...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	first, err := bench.ReadFile(out)
	if err != nil || len(first.Records) < 2 {
		t.Fatalf("first run: %v, %d records", err, len(first.Records))
	}
	data, _ := os.ReadFile(out)
	cut := data[:len(data)-10]
	if err := os.WriteFile(out, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := capture(t, append(args, "--resume")...); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	f, err := bench.ReadFile(out)
	if err != nil || f.Torn != nil {
		t.Fatalf("after resuming: %v (torn %v)", err, f.Torn)
	}
	kept := len(first.Records) - 1
	after, _ := os.ReadFile(out)
	if whole := cut[:bytes.LastIndexByte(cut, '\n')+1]; !bytes.HasPrefix(after, whole) {
		t.Error("resuming changed the whole lines before the torn one")
	}
	if len(f.Records) != len(first.Records) || f.Records[kept].Key() != first.Records[kept].Key() || f.Records[kept].Status != bench.StatusOK {
		t.Errorf("after resuming: %d records (want %d), the last %s %s", len(f.Records), len(first.Records), f.Records[len(f.Records)-1].Key(), f.Records[len(f.Records)-1].Status)
	}

	old := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(old, mustRead(t, "testdata/good/run.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := capture(t, "run", "kleene/table2", "--scale", "quick", "--impl", "cpu/fast", "--out", old)
	if code != 2 || !strings.Contains(stderr, "semibench convert "+old) {
		t.Errorf("appending to a schema-2 file: exit %d, %s; want 2 and the conversion to run", code, stderr)
	}
}

// TestReproduceTwiceWithResume: the same reproduce run again with --resume
// measures nothing: every cell is already ok in the file, so it appends
// no record.
func TestReproduceTwiceWithResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.jsonl")
	args := []string{"reproduce", "--scale", "quick", "--budget", "0", "--impl", "cpu/fast", "--reps", "1", "--warmup", "0", "--out", out}
	if code, _, stderr := capture(t, args...); code != 0 {
		t.Fatalf("reproduce: exit %d: %s", code, stderr)
	}
	first, err := bench.ReadFile(out)
	if err != nil || len(first.Records) == 0 {
		t.Fatalf("first run: %v, %d records", err, len(first.Records))
	}
	if code, _, stderr := capture(t, append(args, "--resume")...); code != 0 {
		t.Fatalf("reproduce --resume: exit %d: %s", code, stderr)
	}
	second, err := bench.ReadFile(out) // a measured cell would be a record more
	if err != nil || len(second.Records) != len(first.Records) {
		t.Errorf("after resuming: %v, %d records, want %d", err, len(second.Records), len(first.Records))
	}
}
