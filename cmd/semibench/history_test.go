package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/gitrepo/gitrepotest"
)

// lapRun is a result file of one cell, hungarian/table1 cuda/fast at
// n = 8192, range n, its total ms, made by commit at start on "box".
func lapRun(t *testing.T, commit string, start time.Time, ms float64) []byte {
	t.Helper()
	f := &bench.File{Schema: bench.SchemaVersion, Protocol: bench.ProtocolVersion, Semibench: bench.Build{Version: bench.Version, Commit: commit},
		Machine: bench.Machine{Label: "box", CPU: "Test CPU", Cores: 16, GPUs: []bench.GPU{{Name: "Test GPU"}}}, Started: start, Scale: "paper",
		Records: []bench.Record{{Experiment: "hungarian/table1", Impl: "cuda/fast", Params: bench.Params{{Name: "n", Value: "8192"}, {Name: "range", Value: "n"}},
			Status: bench.StatusOK, Statistic: bench.StatMedian,
			Phases: []bench.Phase{{Name: "total", Scope: "headline", SamplesMS: []float64{ms}, MedianMS: ms, StatMS: ms}}}}}
	data, err := bench.Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestHistoryFindsStep: runs of a cell over commits, two a commit, 18 ms
// for three commits and 11.6 ms after; history's JSON names the step by
// the last commit before it and the first after (full hashes), with its
// ratio inside its interval, and no step between the replicates; the runs
// that left the tree are read from git.
func TestHistoryFindsStep(t *testing.T) {
	dir, git := gitrepotest.New(t)
	var commits []string
	t0 := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	levels := []float64{18.0, 18.1, 17.7, 11.6, 11.5, 11.7}
	for i, ms := range levels {
		git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("c", i))
		c := git("rev-parse", "HEAD")
		commits = append(commits, c)
		for k, f := range []float64{1, 1.02} {
			p := filepath.Join(dir, "results", "box", fmt.Sprintf("run-%d-%d.jsonl", i, k))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, lapRun(t, c, t0.Add(time.Duration(2*i+k)*time.Minute), ms*f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprint("runs of c", i))
	}
	git("rm", "-q", "-r", "results/box/run-0-0.jsonl", "results/box/run-0-1.jsonl")
	git("commit", "-q", "-m", "lab runs leave the tree")

	code, stdout, stderr := capture(t, "history", "hungarian/table1", "--where", "n=8192,range=n", "--impl", "cuda/fast",
		"--machine", "box", "--repo", dir, "--format", "json", "--no-cache")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Runs      int `json:"runs"`
		Timelines []struct {
			Commits []struct {
				Commit string `json:"commit"`
				Runs   []struct {
					Where string `json:"where"`
				} `json:"runs"`
			} `json:"commits"`
			Steps []struct {
				Before, After string
				Ratio         float64
				Interval      [2]float64
			} `json:"steps"`
		} `json:"timelines"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if out.Runs != 12 || len(out.Timelines) != 1 {
		t.Fatalf("%d runs, %d timelines; want 12 and 1:\n%s", out.Runs, len(out.Timelines), stdout)
	}
	tl := out.Timelines[0]
	if len(tl.Commits) != 6 || !strings.Contains(tl.Commits[0].Runs[0].Where, ":results/box/run-0-") {
		t.Errorf("commits %+v: want 6, the first read from git as COMMIT:PATH", tl.Commits)
	}
	if len(tl.Steps) != 1 {
		t.Fatalf("steps %+v, want one", tl.Steps)
	}
	s := tl.Steps[0]
	if s.Before != commits[2] || s.After != commits[3] {
		t.Errorf("step from %s to %s, want %s to %s", s.Before, s.After, commits[2], commits[3])
	}
	if s.Ratio < 0.6 || s.Ratio > 0.7 || s.Interval[0] > s.Ratio || s.Interval[1] < s.Ratio {
		t.Errorf("step ratio %.3f %v, want about 0.65 inside its interval", s.Ratio, s.Interval)
	}

	code, stdout, _ = capture(t, "history", "hungarian/table1", "--where", "n=8192,range=n", "--repo", dir, "--no-cache")
	if code != 0 || !strings.Contains(stdout, "step "+commits[2][:7]+" → "+commits[3][:7]) {
		t.Errorf("text: exit %d, want the step %s → %s:\n%s", code, commits[2][:7], commits[3][:7], stdout)
	}
}

func TestHistoryUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history", "hungarian/tabel1"}, "did you mean hungarian/table1"},
		{[]string{"history", "kleene/table2#grwoth"}, "unknown claim"},
		{[]string{"history", "--format", "csv"}, "--format"},
		{[]string{"history", "--where", "n"}, "--where"},
		{[]string{"history", "--repo", filepath.Join(t.TempDir(), "nowhere")}, "--repo"},
	} {
		code, _, stderr := capture(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestHistoryMachineUnknown: a --machine label no run has is bad usage,
// and the message names the labels there are.
func TestHistoryMachineUnknown(t *testing.T) {
	dir, git := gitrepotest.New(t)
	git("commit", "-q", "--allow-empty", "-m", "c")
	c := git("rev-parse", "HEAD")
	p := filepath.Join(dir, "results", "box", "run.jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, lapRun(t, c, time.Now(), 10), 0o644)
	code, _, stderr := capture(t, "history", "--machine", "bxo", "--repo", dir, "--no-cache", "hungarian/table1")
	if code != 2 || !strings.Contains(stderr, "did you mean box") {
		t.Errorf("exit %d, stderr %q; want 2 and the label box suggested", code, stderr)
	}
}

// TestPastFor: a digest written by history --digest in one repository
// gives run and reproduce this machine kind's history elsewhere
// (--history FILE); --no-history gives none; a file that is no digest is
// bad usage.
func TestPastFor(t *testing.T) {
	dir, git := gitrepotest.New(t)
	git("commit", "-q", "--allow-empty", "-m", "c")
	c := git("rev-parse", "HEAD")
	machine := currentMachine()
	f := &bench.File{Schema: bench.SchemaVersion, Protocol: bench.ProtocolVersion, Semibench: bench.Build{Version: bench.Version, Commit: c},
		Machine: machine, Started: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Scale: "quick",
		Records: []bench.Record{{Experiment: "kleene/table2", Impl: "cpu/fast", Params: bench.Params{{Name: "n", Value: "100"}},
			Status: bench.StatusOK, Statistic: bench.StatMedian, Wall: &bench.CellWall{MeasureMS: 30, TimedMS: 20},
			Phases: []bench.Phase{{Name: "total", Scope: "headline", SamplesMS: []float64{2, 2.1}, MedianMS: 2.05, StatMS: 2.05}}}}}
	data, err := bench.Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "results", machine.Label, "run.jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, data, 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "a run")
	digest := filepath.Join(t.TempDir(), "history.json.gz")
	if code, _, stderr := capture(t, "history", "--repo", dir, "--digest", digest, "--no-cache"); code != 0 {
		t.Fatalf("history --digest: exit %d: %s", code, stderr)
	}
	ctx := t.Context()
	past, err := pastFor(ctx, &runFlags{historyFile: digest}, machine, "quick")
	if err != nil || past == nil {
		t.Fatalf("pastFor(--history): %v, %v", past, err)
	}
	if recs := past.Records("kleene/table2|cpu/fast|n=100"); len(recs) != 1 || recs[0].Wall == nil || recs[0].Wall.MeasureMS != 30 {
		t.Errorf("the digest's records of the cell: %+v", recs)
	}
	if past, err := pastFor(ctx, &runFlags{historyFile: digest}, machine, "paper"); err != nil || past != nil {
		t.Errorf("pastFor(a scale the digest lacks) = %v, %v; want none, no error", past, err)
	}
	if past, err := pastFor(ctx, &runFlags{historyFile: digest, noHistory: true}, machine, "quick"); err != nil || past != nil {
		t.Errorf("pastFor(--no-history) = %v, %v; want none", past, err)
	}
	if _, err := pastFor(ctx, &runFlags{historyFile: p}, machine, "quick"); err == nil {
		t.Error("a result file taken for a digest")
	}
}

// TestClaimsHistoryFlags: claims reads --history FILE (a digest; one
// without the run's kind judges it alone), refuses a file that is no
// digest, and takes --no-history.
func TestClaimsHistoryFlags(t *testing.T) {
	run := filepath.Join("testdata", "runs", "amd-epyc-kleene-paper.jsonl")
	dir, git := gitrepotest.New(t)
	git("commit", "-q", "--allow-empty", "-m", "c")
	digest := filepath.Join(t.TempDir(), "d.json.gz")
	if code, _, stderr := capture(t, "history", "--repo", dir, "--digest", digest, "--claims-only", "--no-cache"); code != 0 {
		t.Fatalf("history --digest of an empty repository: exit %d: %s", code, stderr)
	}
	alone, _, _ := capture(t, "claims", run, "--format", "json", "--no-history")
	code, stdout, stderr := capture(t, "claims", run, "--format", "json", "--history", digest)
	if alone != 0 || code != 0 || strings.Contains(stdout, `"alone"`) {
		t.Errorf("claims --history with a digest of no such kind: exit %d (alone %d), %s", code, alone, stderr)
	}
	if code, _, stderr := capture(t, "claims", run, "--history", run); code != 2 || !strings.Contains(stderr, "--history") {
		t.Errorf("claims --history RESULTFILE: exit %d, %q; want 2 naming --history", code, stderr)
	}
}
