//go:build unix

package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestShardsAsProcesses runs a quick plan whole, then as N shards in N
// processes at once: between them the shards record every cell of the
// whole run exactly once, and `claims` over their files decides what the
// whole run's file decides.
func TestShardsAsProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the plan four times")
	}
	dir := t.TempDir()
	exps := []string{"kleene/table2", "hungarian/fig5", "apsp/systolic"}
	args := func(out string, extra ...string) []string {
		return append(append(slices.Clone(exps), "--scale", "quick", "--reps", "1", "--out", out), extra...)
	}
	whole := filepath.Join(dir, "whole.json")
	if code, _, stderr := capture(t, append([]string{"run"}, args(whole)...)...); code != 0 {
		t.Fatalf("whole run: exit %d: %s", code, stderr)
	}
	const n = 3
	var paths []string
	for k := 1; k <= n; k++ {
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
		paths = append(paths, p)
	}
	var cmds []func() error
	for k := 1; k <= n; k++ {
		cmd, stderr := startCLI(t, false, append([]string{"run"}, args(paths[k-1], "--shard", fmt.Sprintf("%d/%d", k, n))...)...)
		cmds = append(cmds, func() error {
			if err := cmd.Wait(); err != nil {
				return fmt.Errorf("%v: %s", err, stderr)
			}
			return nil
		})
	}
	for k, wait := range cmds {
		if err := wait(); err != nil {
			t.Fatalf("shard %d/%d: %v", k+1, n, err)
		}
	}
	keys := func(path string) []string {
		f, err := bench.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range f.Records {
			out = append(out, r.Key())
		}
		return out
	}
	var union []string
	for k, p := range paths {
		ks := keys(p)
		if len(ks) == 0 {
			t.Errorf("shard %d/%d recorded nothing", k+1, n)
		}
		union = append(union, ks...)
	}
	want := keys(whole)
	slices.Sort(union)
	slices.Sort(want)
	if !slices.Equal(union, want) {
		t.Fatalf("the shards recorded %d cells (%d distinct), the whole run %d", len(union), len(slices.Compact(slices.Clone(union))), len(want))
	}
	decided := func(files ...string) int {
		code, out, stderr := capture(t, append([]string{"claims", "--format", "json"}, files...)...)
		if code != 0 {
			t.Fatalf("claims: exit %d: %s", code, stderr)
		}
		return countNotRun(t, out)
	}
	if a, b := decided(whole), decided(paths...); a != b {
		t.Errorf("claims not run: %d from the whole run, %d from the shards together", a, b)
	}
}
