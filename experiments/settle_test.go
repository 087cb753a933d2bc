package experiments_test

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// The weak verdicts the settle rule exists for, each on the records it
// was first given on (copied into testdata/weak from the committed runs):
// a verdict within the noise of its samples is inconclusive, never a pass
// or a fail.
func TestWeakVerdicts(t *testing.T) {
	cases := []struct {
		file, id string
		want     experiments.Verdict
		why      string // a word the reason must hold
	}{
		// Update W's growth from n = 2000 to 4000, one unwarmed sample
		// each: 9.34x inside the band 6.4x-10x, but one sample a side at
		// this noise reaches past 10x.
		{"kleene-growth-1-sample.jsonl", "kleene/table2#growth", experiments.Inconclusive, "noise"},
		// Steps 4 and 1 of cpu/paper at n = 8192, range n, 1% apart with
		// overlapping samples: the ranking the claim reads is not there.
		{"hungarian-steps-n8192.jsonl", "hungarian/table1#cpu-dominant-steps", experiments.Inconclusive, "within the noise"},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			f, err := bench.ReadFile("testdata/weak/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			var got *experiments.Claim
			for _, c := range experiments.JudgeFile(f) {
				if c.ID == tc.id {
					got = &c
					break
				}
			}
			if got == nil {
				t.Fatalf("no claim %s", tc.id)
			}
			if got.Verdict != tc.want || !strings.Contains(got.Reason+got.Ours, tc.why) {
				t.Errorf("%s: %s (%s; %s), want %s with %q", tc.id, got.Verdict, got.Ours, got.Reason, tc.want, tc.why)
			}
		})
	}
}

// A claim decided far from its band's edges stays decided at any
// plausible noise, and the same claim turns inconclusive when the noise
// is large enough to reach the edge: the rule can fail both ways.
func TestSettleClaimNoise(t *testing.T) {
	f, err := bench.ReadFile("testdata/weak/treefix-transfers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	id := "treefix/fig4#transfers-same"
	verdict := func(noise float64) experiments.Verdict {
		for _, c := range experiments.JudgeNoise(f.Records, experiments.Paper, f.TimingProtocol(), noise) {
			if c.ID == id {
				return c.Verdict
			}
		}
		return ""
	}
	// 0.682x against the band's lower edge of 0.8x: 17% away.
	if v := verdict(0.01); v != experiments.NotReproduced {
		t.Errorf("at 1%% noise: %s, want not reproduced", v)
	}
	if v := verdict(0.3); v != experiments.Inconclusive {
		t.Errorf("at 30%% noise: %s, want inconclusive", v)
	}
}
