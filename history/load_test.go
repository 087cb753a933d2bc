package history

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/gitrepo/gitrepotest"
)

// repo is a throwaway git repository for a test.
type repo struct {
	t   *testing.T
	dir string
	git func(args ...string) string // runs git in dir (gitrepotest.New)
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	dir, git := gitrepotest.New(t)
	return &repo{t, dir, git}
}

// commit commits everything and returns the commit's hash.
func (r *repo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func (r *repo) write(path string, data []byte) {
	r.t.Helper()
	p := filepath.Join(r.dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		r.t.Fatal(err)
	}
}

var testMachine = bench.Machine{Label: "box", CPU: "Test CPU", Cores: 4, GPUs: []bench.GPU{{Name: "Test GPU"}}}

// runFile is a result file of a run made by commit at start on m, one
// record a value: toy/exp cpu/fast n=1, its total the value in ms.
func runFile(t *testing.T, commit string, start time.Time, m bench.Machine, values ...float64) []byte {
	t.Helper()
	f := &bench.File{Schema: bench.SchemaVersion, Protocol: bench.ProtocolVersion, Semibench: bench.Build{Version: "0.1.0", Commit: commit},
		Machine: m, Started: start, Scale: "paper"}
	for i, v := range values {
		f.Records = append(f.Records, bench.Record{Experiment: "toy/exp", Impl: "cpu/fast",
			Params: bench.Params{{Name: "n", Value: fmt.Sprint(i + 1)}}, Status: bench.StatusOK, Statistic: bench.StatMedian,
			Phases: []bench.Phase{{Name: "total", Scope: "headline", SamplesMS: []float64{v}, MedianMS: v, StatMS: v}}})
	}
	data, err := bench.Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func gzipped(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, 9)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLoad: a run appended over two commits, then gzipped and moved, is
// one run at its fullest version, read from the tree; a run that left the
// tree is read from git as COMMIT:PATH; a run whose commit is not in the
// history, and a dirty build's, stand apart; a damaged file is skipped
// with why; the second load reads the cache.
func TestLoad(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	c1 := r.commit("start")
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r.write("results/box/a.jsonl", runFile(t, c1, t0, testMachine, 10))
	c2 := r.commit("run a, one cell")
	r.write("results/box/a.jsonl", runFile(t, c1, t0, testMachine, 10, 20))
	r.commit("run a, two cells")
	r.write("results/box/lab.jsonl", runFile(t, c2, t0.Add(time.Hour), testMachine, 12))
	r.write("results/box/other.jsonl", runFile(t, strings.Repeat("f", 40), t0.Add(2*time.Hour), testMachine, 11))
	r.write("results/box/dirty.jsonl", runFile(t, c2+"+dirty", t0.Add(3*time.Hour), testMachine, 11))
	r.write("results/box/bad.jsonl", []byte("{\"schema\":3}\n"))
	c4 := r.commit("lab runs")
	os.Remove(filepath.Join(r.dir, "results/box/a.jsonl"))
	r.write("results/box/old/a.jsonl.gz", gzipped(t, runFile(t, c1, t0, testMachine, 10, 20)))
	os.Remove(filepath.Join(r.dir, "results/box/lab.jsonl"))
	r.commit("gzip a, lab runs leave the tree")

	cache := t.TempDir()
	h, err := Load(ctx, Options{Dir: r.dir, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Runs) != 2 || len(h.Apart) != 2 {
		t.Fatalf("%d runs, %d apart; want 2 and 2: %+v %+v", len(h.Runs), len(h.Apart), h.Runs, h.Apart)
	}
	a, lab := h.Runs[0], h.Runs[1]
	if a.Where != "results/box/old/a.jsonl.gz" || a.Size != 2 || a.Versions != 3 || a.Commit != c1 || a.Order != 0 {
		t.Errorf("run a: where %s, %d records, %d versions, commit %s order %d; want the gzipped file, 2 records, 3 versions, %s at 0",
			a.Where, a.Size, a.Versions, a.Commit, a.Order, c1)
	}
	if want := c4[:7] + ":results/box/lab.jsonl"; lab.Where != want || lab.Commit != c2 || lab.Order != 1 {
		t.Errorf("lab run: where %s, commit %s order %d; want %s, %s at 1", lab.Where, lab.Commit, lab.Order, want, c2)
	}
	if !strings.Contains(h.Apart[0].Apart, "not in this repository's history") || !strings.Contains(h.Apart[1].Apart, "uncommitted changes") {
		t.Errorf("apart: %q, %q; want a commit not in the history, then a dirty build", h.Apart[0].Apart, h.Apart[1].Apart)
	}
	if len(h.Skipped) != 1 || !strings.Contains(h.Skipped[0], "bad.jsonl") {
		t.Errorf("skipped %q, want bad.jsonl", h.Skipped)
	}
	if h.Read == 0 || h.Cached != 0 || !h.Git || len(h.Notes) != 0 {
		t.Errorf("first load: %d read, %d cached, git %v, notes %q", h.Read, h.Cached, h.Git, h.Notes)
	}
	if err := h.Fill(ctx, h.Runs, nil); err != nil {
		t.Fatal(err)
	}
	if len(a.Records) != 2 || a.Records[1].Phases[0].StatMS != 20 {
		t.Errorf("run a's records %+v: want 2, the second's total 20", a.Records)
	}

	h2, err := Load(ctx, Options{Dir: r.dir, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if h2.Read != 0 || h2.Cached != h.Read {
		t.Errorf("second load: %d read, %d cached; want 0 and %d", h2.Read, h2.Cached, h.Read)
	}
	if err := h2.Fill(ctx, h2.Runs, nil); err != nil || len(h2.Runs[0].Records) != 2 {
		t.Errorf("records from the cache: %v, %d records", err, len(h2.Runs[0].Records))
	}

	// a shallow clone reads the files alone, and says so
	clone := filepath.Join(t.TempDir(), "clone")
	r.git("clone", "-q", "--depth", "1", "file://"+r.dir, clone)
	hs, err := Load(ctx, Options{Dir: clone, CacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if hs.Git || len(hs.Notes) == 0 || !strings.Contains(hs.Notes[0], "shallow") || len(hs.Runs) != 2 || len(hs.Apart) != 1 {
		t.Errorf("shallow clone: git %v, notes %q, %d runs, %d apart; want no git, a note, the two runs in the tree that name a commit (the dirty one apart)",
			hs.Git, hs.Notes, len(hs.Runs), len(hs.Apart))
	}
	// a tree without git too
	plain := t.TempDir()
	os.MkdirAll(filepath.Join(plain, "results"), 0o755)
	os.WriteFile(filepath.Join(plain, "results", "x.jsonl"), runFile(t, c1, t0, testMachine, 1), 0o644)
	hp, err := Load(ctx, Options{Dir: plain, CacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hp.Runs) != 1 || len(hp.Notes) < 2 || !strings.Contains(strings.Join(hp.Notes, " "), "not in a git repository") {
		t.Errorf("no git: %d runs, notes %q", len(hp.Runs), hp.Notes)
	}
}

// TestTimeline: runs over commits with a step, replicates of one commit,
// a run apart; the timeline groups by commit in the repository's order
// (not by date), finds the step between the right commits, and keeps the
// run apart off it.
func TestTimeline(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	var commits []string
	for i := range 8 {
		commits = append(commits, r.commit(fmt.Sprint("c", i)))
	}
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	// the dates run backwards: the order must come from the commits
	levels := []float64{10, 10.2, 9.9, 10.1, 7, 7.1, 6.9, 7}
	for i, c := range commits {
		start := t0.Add(time.Duration(len(commits)-i) * time.Hour)
		r.write(fmt.Sprintf("results/box/r%d.jsonl", i), runFile(t, c, start, testMachine, levels[i]))
		r.write(fmt.Sprintf("results/box/r%db.jsonl", i), runFile(t, c, start.Add(time.Minute), testMachine, levels[i]*1.01))
	}
	r.write("results/box/apart.jsonl", runFile(t, strings.Repeat("e", 40), t0, testMachine, 3))
	other := testMachine
	other.GPUs = nil
	r.write("results/box/nogpu.jsonl", runFile(t, commits[0], t0, other, 50))
	r.commit("runs")
	h, err := Load(ctx, Options{Dir: r.dir, CacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := h.Timelines(ctx, Query{Experiments: []string{"toy/exp"}, Machine: "box"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 {
		t.Fatalf("%d timelines, want 2 (two kinds of machine labelled box)", len(ts))
	}
	tl := ts[0]
	if tl.Kind.GPUs == "" {
		tl = ts[1]
	}
	if len(tl.Groups) != 8 || len(tl.Apart) != 1 || tl.Runs() != 16 {
		t.Fatalf("timeline: %d groups, %d apart, %d runs; want 8, 1, 16", len(tl.Groups), len(tl.Apart), tl.Runs())
	}
	for i, g := range tl.Groups {
		if g.Commit != commits[i] {
			t.Errorf("group %d is commit %s, want %s", i, g.Commit[:7], commits[i][:7])
		}
	}
	if len(tl.Steps) != 1 || tl.Steps[0].Before != commits[3] || tl.Steps[0].After != commits[4] {
		t.Fatalf("steps %+v, want one between %s and %s", tl.Steps, commits[3][:7], commits[4][:7])
	}
	if s := tl.Steps[0]; s.Ratio > 0.72 || s.Ratio < 0.68 || s.Lo > s.Ratio || s.Hi < s.Ratio || s.Hi >= 1 {
		t.Errorf("step ratio %.3f [%.3f, %.3f], want about 0.70 with an interval below 1", s.Ratio, s.Lo, s.Hi)
	}
}
