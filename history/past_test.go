package history

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// TestPast: Records gives a cell's records newest run first; Between a
// claim's figures over the runs on the timeline in commit order (the run
// apart left out), nil under three; a digest written and read back holds
// the same.
func TestPast(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var commits []string
	for i := range 4 {
		commits = append(commits, r.commit("c"))
		r.write("results/box/r"+string(rune('a'+i))+".jsonl", runFile(t, commits[i], t0.Add(time.Duration(i)*time.Hour), testMachine, float64(10+i)))
	}
	r.write("results/box/dirty.jsonl", runFile(t, commits[0]+"+dirty", t0.Add(10*time.Hour), testMachine, 99))
	r.commit("runs")
	h, err := Load(ctx, Options{Dir: r.dir, CacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	kind := KindOf(testMachine)
	var runs []*Run
	for _, run := range append(h.Runs, h.Apart...) {
		runs = append(runs, run)
	}
	if err := h.Fill(ctx, runs, nil); err != nil {
		t.Fatal(err)
	}
	// claims judged as a run would: a figure per run, none for the third
	for i, run := range h.Runs {
		fig := float64(8 + i)
		if i == 2 {
			fig = math.NaN()
		}
		run.Claims = []Judged{{ID: "toy/exp#x", Verdict: experiments.Reproduced, Figure: fig}, {ID: "toy/exp#few", Verdict: experiments.NotRun}}
	}
	h.Apart[0].Claims = []Judged{{ID: "toy/exp#x", Verdict: experiments.NotReproduced, Figure: 50}}
	p := pastOf(kind, "paper", runs)
	recs := p.Records("toy/exp|cpu/fast|n=1")
	if len(recs) != 5 || recs[0].Phases[0].StatMS != 99 || recs[4].Phases[0].StatMS != 10 {
		t.Fatalf("Records: %d, first %v; want 5, the dirty run's 99 first (newest), 10 last", len(recs), recs)
	}
	b := p.Between("toy/exp#x")
	if b == nil || len(b.Runs) != 4 || b.Runs[0].Commit != commits[0] || b.Runs[3].Figure != 11 || !math.IsNaN(b.Runs[2].Figure) {
		t.Fatalf("Between: %+v; want the 4 runs on the timeline in commit order", b)
	}
	if p.Between("toy/exp#few") != nil {
		t.Error("Between of a claim no run decided is not nil")
	}
	d := &Digest{Schema: DigestSchema}
	dp := digestPast{Kind: kindJSON(kind), Scale: "paper", Runs: p.Runs, Cells: p.cells, Between: digestBetweens(p.between)}
	d.Pasts = append(d.Pasts, dp)
	var buf bytes.Buffer
	if err := d.Write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "digest.json.gz")
	os.WriteFile(path, buf.Bytes(), 0o644)
	back, err := ReadDigest(path)
	if err != nil {
		t.Fatal(err)
	}
	q, err := back.Past(kind, "paper")
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Records("toy/exp|cpu/fast|n=1"); len(got) != 5 || got[0].Phases[0].StatMS != 99 {
		t.Errorf("digest's Records: %v", got)
	}
	if qb := q.Between("toy/exp#x"); qb == nil || len(qb.Runs) != 4 || !math.IsNaN(qb.Runs[2].Figure) || qb.Runs[3].Figure != 11 {
		t.Errorf("digest's Between: %+v", qb)
	}
	if _, err := back.Past(kind, "quick"); err == nil {
		t.Error("a digest without the scale asked gave a Past")
	}
	os.WriteFile(path, []byte("{}"), 0o644)
	if _, err := ReadDigest(path); err == nil {
		t.Error("a file that is no digest was read")
	}
}

// TestNewestRuns keeps the records of the newest runs of a cell.
func TestNewestRuns(t *testing.T) {
	at := func(h int) bench.Record { return bench.Record{Finished: time.Date(2026, 1, 1, h, 0, 0, 0, time.UTC)} }
	recs := []bench.Record{at(10), at(11), at(5), at(3), at(4), at(1)} // runs: [10 11] [5] [3 4] [1]
	if got := newestRuns(recs, 2); len(got) != 3 {
		t.Errorf("newestRuns(2) kept %d records, want 3", len(got))
	}
	if got := newestRuns(recs, 9); len(got) != 6 {
		t.Errorf("newestRuns(9) kept %d records, want all 6", len(got))
	}
	// the runs that skipped the cell do not count: the newest two that
	// measured it are kept
	for i := range recs {
		recs[i].Status = bench.StatusOK
	}
	recs[0].Status, recs[1].Status, recs[2].Status = bench.StatusSkipped, bench.StatusSkipped, bench.StatusUnavailable
	if got := newestRuns(measured(recs), 2); len(got) != 3 || got[0].Finished.Hour() != 3 || got[2].Finished.Hour() != 1 {
		t.Errorf("newestRuns(measured, 2) kept %v, want the runs of 3-4 h and 1 h", got)
	}
}

// TestClaimsWithHistory: each run's claim judged with its kind's runs
// (History.Apply): figures of 5.9x-13.2x against a band of 6.4x-10x,
// each run reproduced or not alone, are inconclusive with history in
// every run; the counts say so.
func TestClaimsWithHistory(t *testing.T) {
	band := experiments.Band{Low: 6.4, High: 10, Below: experiments.NotReproduced, Inside: experiments.Reproduced, Above: experiments.NotReproduced, Unit: experiments.UnitRatio}
	h := &History{}
	kind := KindOf(testMachine)
	for i, x := range []float64{5.9, 13.2, 8.0, 11.6, 9.0} {
		v := band.Of(x)
		start := time.Date(2026, 12, 1, i, 0, 0, 0, time.UTC)
		r := &Run{Where: fmt.Sprintf("r%d", i), Header: &bench.File{Started: start, Scale: "paper", Semibench: bench.Build{Commit: strings.Repeat(string(rune('a'+i)), 40)}},
			Kind: kind, Commit: strings.Repeat(string(rune('a'+i)), 40), Order: i, Experiments: []string{"kleene/table2"},
			Claims: []Judged{{ID: "kleene/table2#growth", Experiment: "kleene/table2", Verdict: v, Figure: x, Band: band}}}
		h.Runs = append(h.Runs, r)
	}
	cs, err := h.Claims(context.Background(), ClaimQuery{IDs: []string{"kleene/table2#growth"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || len(cs[0].Runs) != 5 {
		t.Fatalf("claims %+v, want one over 5 runs", cs)
	}
	for _, r := range cs[0].Runs {
		if r.WithHistory != experiments.Inconclusive || r.HistoryWhy == "" {
			t.Errorf("run %s: %s alone, %s with history (%q); want inconclusive with a reason", r.Run.Where, r.Verdict, r.WithHistory, r.HistoryWhy)
		}
	}
	if got := countsText(cs[0].WithHistory()); got != "5 inconclusive" {
		t.Errorf("with history: %s, want 5 inconclusive", got)
	}
	if got := countsText(cs[0].Classes()); !strings.Contains(got, "reproduced") {
		t.Errorf("alone: %s, want the runs' own classes", got)
	}
}
