package experiments_test

import (
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// The four claims whose verdicts flipped between runs of one machine kind
// (issue 57), each judged on the records it reads in every committed GPU
// reproduce of --budget 7m on the H100 that measured it at the papers'
// sizes, the two runs of 3393cf4 on one lease among them
// (testdata/flipping; README.md there names each file's source).
var flippingClaims = []string{
	"kleene/table2#growth",
	"treefix/fig4#transfers-same",
	"hungarian/fig4#cpu-paper-fastest",
	"hungarian/fig5#cpu-paper-fastest",
}

// atPapersSizes reports whether a verdict rests on the claim's cells at
// the papers' sizes.
func atPapersSizes(v experiments.Verdict) bool { return v.Scored() || v == experiments.Inconclusive }

// TestFlippingClaims: judged alone, each of the four claims gets more
// than one class over the H100's runs (the defect); judged with the
// kind's history (its figure in each run, this one among them), every
// run gives it one class, and the reason gives the figures' range over
// the runs.
func TestFlippingClaims(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "flipping", "h100-*.jsonl.gz"))
	if err != nil || len(paths) < 17 {
		t.Fatalf("%d fixtures (%v), want the 17 H100 runs", len(paths), err)
	}
	sort.Strings(paths)
	type run struct {
		name  string
		f     *bench.File
		noise float64
		alone map[string]experiments.Claim
	}
	var runs []run
	betweens := map[string]*experiments.Between{}
	for _, p := range paths {
		f, err := bench.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		noise, _ := experiments.NoiseOf(f.Notes)
		r := run{filepath.Base(p), f, noise, map[string]experiments.Claim{}}
		for _, c := range experiments.JudgeNoise(f.Records, experiments.Paper, f.TimingProtocol(), noise) {
			if !slices.Contains(flippingClaims, c.ID) {
				continue
			}
			r.alone[c.ID] = c
			if betweens[c.ID] == nil {
				betweens[c.ID] = &experiments.Between{Claim: c.ID, Kind: "H100"}
			}
			betweens[c.ID].Runs = append(betweens[c.ID].Runs, experiments.RunFigureOf(c, r.name, f.Semibench.Commit, f.Started))
		}
		runs = append(runs, r)
	}
	with := map[string][]experiments.Claim{}
	for _, r := range runs {
		h := &experiments.History{Run: r.name, Commit: r.f.Semibench.Commit, Date: r.f.Started, Kind: "H100", Claims: betweens}
		for _, c := range experiments.JudgeWith(r.f.Records, experiments.Paper, r.f.TimingProtocol(), r.noise, h) {
			if slices.Contains(flippingClaims, c.ID) && atPapersSizes(r.alone[c.ID].Verdict) {
				with[c.ID] = append(with[c.ID], c)
			}
		}
	}
	for _, id := range flippingClaims {
		alone := map[experiments.Verdict]int{}
		for _, r := range runs {
			if v := r.alone[id].Verdict; atPapersSizes(v) {
				alone[v]++
			}
		}
		if len(alone) < 2 {
			t.Errorf("%s judged alone: %v over the runs, want more than one class (the flip the test is for)", id, alone)
		}
		b := betweens[id]
		lo, hi := b.Range()
		n := len(b.Counted(true))
		if n < experiments.MinBetweenRuns || len(with[id]) != n {
			t.Fatalf("%s: %d runs with a figure, %d judged with history", id, n, len(with[id]))
		}
		first := with[id][0]
		spread := first.Band.Text(lo) + "-" + first.Band.Text(hi)
		for _, c := range with[id] {
			if c.Verdict != first.Verdict {
				t.Errorf("%s with history: %s on one run, %s on another: %s", id, first.Verdict, c.Verdict, c.Reason)
			}
			if c.Level != experiments.LevelHistory || !strings.Contains(c.Reason, spread+" over "+strconv.Itoa(n)+" runs on H100") {
				t.Errorf("%s with history: level %q, reason %q, want the runs' spread %s over %d runs", id, c.Level, c.Reason, spread, n)
			}
			crosses := lo < first.Band.Low && hi >= first.Band.Low || lo <= first.Band.High && hi > first.Band.High
			if c.Verdict == experiments.Inconclusive && crosses && !strings.HasPrefix(c.Reason, "varies between runs ("+spread) {
				t.Errorf("%s: inconclusive over figures %s that cross its band %s, reason %q, want 'varies between runs'", id, spread, first.Band.RangeText(), c.Reason)
			}
		}
		t.Logf("%s: alone %v; with history %s on all %d runs: %s", id, alone, first.Verdict, n, first.Reason)
	}
	// The report of the last run (3393cf4's second) says which verdicts
	// history changed.
	last := runs[len(runs)-1]
	h := &experiments.History{Run: last.name, Commit: last.f.Semibench.Commit, Kind: "H100", Claims: betweens}
	var doc strings.Builder
	experiments.WriteSummary(&doc, last.f, 0, nil, time.Time{}, h)
	changed := 0
	for _, c := range experiments.JudgeWith(last.f.Records, experiments.Paper, last.f.TimingProtocol(), last.noise, h) {
		if c.Level == experiments.LevelHistory && c.Alone != c.Verdict {
			changed++
			if !strings.Contains(doc.String(), "("+c.ID+"): "+string(c.Alone)+" alone, "+string(c.Verdict)+" with history") {
				t.Errorf("the report does not list %s (%s alone, %s with history):\n%s", c.ID, c.Alone, c.Verdict, doc.String())
			}
		}
	}
	if changed == 0 || !strings.Contains(doc.String(), "Judged with the history of H100") {
		t.Errorf("%d verdicts changed by history; the report's summary:\n%s", changed, doc.String())
	}
}
