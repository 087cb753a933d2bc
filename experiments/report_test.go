package experiments_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"

	"github.com/semibench/semibench/bench"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// summaryFile is a small synthetic run: Kleene's Table 3 at n = 4000 with
// one GPU cell skipped and one unavailable, on a machine with one GPU.
func summaryFile() *bench.File {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cpu := experimentstest.KleeneRecord("kleene/table3", "cpu/paper", "4000", map[string]float64{"total": 20500})
	gpu := experimentstest.KleeneRecord("kleene/table3", "cuda/paper", "4000", map[string]float64{"total": 410, "update_w": 300})
	fast := experimentstest.KleeneRecord("kleene/table3", "cuda/fast", "4000", nil)
	fast.Status, fast.Phases, fast.Check, fast.Error = bench.StatusUnavailable, nil, nil, "no CUDA device"
	cf := experimentstest.KleeneRecord("kleene/table3", "cpu/fast", "4000", nil)
	cf.Status, cf.Phases, cf.Check, cf.EstimateMS, cf.Error = bench.StatusSkipped, nil, nil, 90000, "estimated 1m30s; the 1m budget is spent"
	bad := experimentstest.KleeneRecord("kleene/table3", "cuda/paper", "500", map[string]float64{"total": 1})
	bad.Params[1].Value = "int"
	bad.Status, bad.Check = bench.StatusCheckFailed, &bench.Check{OK: false, Detail: "W[1,2] differs"}
	cpu.Finished, gpu.Finished, bad.Finished = start.Add(time.Minute), start.Add(2*time.Minute), start.Add(90*time.Second)
	return &bench.File{Schema: bench.SchemaVersion, Semibench: bench.Build{Version: "0.1.0", Commit: "abc1234"},
		Machine: bench.Machine{Label: "test-box", CPU: "Test CPU", Cores: 2, GoVersion: "go1.26",
			GPUs: []bench.GPU{{Index: 0, Name: "Test GPU", ComputeCapability: "9.0"}}},
		Started: start, Scale: "paper", Records: []bench.Record{cpu, gpu, fast, cf, bad}}
}

func TestReportSummary(t *testing.T) {
	f := summaryFile()
	path := filepath.Join(t.TempDir(), "run.md")
	if err := experiments.WriteReport(path, f, nil, time.Minute); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, want := range []string{
		"- Cells: 5: 2 ok, 1 failed (1 of them failed their check), 1 skipped (by the budget or memory), 1 unavailable.",
		"- Scale paper, budget 1m0s.",
		"last cell finished 2026-01-02 03:06:05 UTC: 2m0s",
		"GPU 0: Test GPU (sm_9.0)",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the summary lacks %q:\n%s", want, doc)
		}
	}
	// Every link goes to a heading of the report, and the Kleene claims link
	// to the table that ends with their notes.
	slugs := experiments.Slugger{}
	anchors := map[string]bool{}
	for _, l := range strings.Split(doc, "\n") {
		if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && strings.HasPrefix(l, "#") {
			anchors[slugs.Slug(h)] = true
		}
	}
	links := regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(doc, -1)
	if len(links) < 2 {
		t.Fatalf("want a link per Kleene claim, got %d:\n%s", len(links), doc)
	}
	for _, l := range links {
		if !anchors[l[1]] {
			t.Errorf("link #%s goes to no heading (headings: %v)", l[1], anchors)
		}
		if !strings.HasPrefix(l[1], "kleenetable3--speedup") {
			t.Errorf("a Kleene Table 3 claim links to #%s, not to the speedup table that ends with its notes", l[1])
		}
	}
	if !strings.Contains(doc, "| Kleene (000) | [abstract; Table 3; section 6](#kleenetable3--speedup") {
		t.Errorf("no linked row for Kleene's Table 3:\n%s", doc)
	}
	// The claims' notes end the experiment's last table.
	if !strings.Contains(doc, "Claim (abstract; Table 3; section 6): The GPU's speedup") || !strings.Contains(doc, "verdict: not reproduced") {
		t.Errorf("the claim notes are missing from the tables:\n%s", doc)
	}
	// Claims of experiments not in the run are not run and link nowhere.
	if !strings.Contains(doc, "| Hungarian (001) | section 5, Fig. 4 |") || !strings.Contains(doc, "not in this run: cpu/paper n=8192,range=n") {
		t.Errorf("a claim of an experiment not in the run is not marked so:\n%s", doc)
	}
}

func TestReportSummaryGolden(t *testing.T) {
	f := summaryFile()
	secs, err := experiments.RenderSections(f, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	experiments.WriteSummary(&b, f, time.Minute, secs, time.Time{}, nil)
	golden := filepath.Join("testdata", "summary.golden.md")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./experiments -run Golden -update to write it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("the summary differs from %s (rerun with -update if the change is meant):\n%s", golden, b.String())
	}
}

// TestReportResumed: a file two invocations wrote (--resume) counts each
// cell once and gives each invocation's span.
func TestReportResumed(t *testing.T) {
	f := summaryFile()
	again := f.Records[0]
	again.Finished = f.Started.Add(time.Hour + time.Minute)
	f.Records = append(f.Records, again)
	f.Notes = append(f.Notes, "Records appended by a later run started "+f.Started.Add(time.Hour).UTC().Format(time.RFC3339)+", semibench 0.1.0 (abc1234).")
	var b bytes.Buffer
	experiments.WriteSummary(&b, f, 0, nil, time.Time{}, nil)
	doc := b.String()
	if !strings.Contains(doc, "- Cells: 5:") {
		t.Errorf("cells not counted once each:\n%s", doc)
	}
	if !strings.Contains(doc, "2 invocations") || !strings.Contains(doc, "(1m0s)") {
		t.Errorf("no span per invocation:\n%s", doc)
	}
}

// TestWallTextBoundsReusedCells: a record that reports another cell's
// samples (a file written before the runner bounded its timed wall) counts
// only its own measurement, so the breakdown adds up to the wall time.
func TestWallTextBoundsReusedCells(t *testing.T) {
	start := time.Date(2026, 11, 27, 2, 32, 0, 0, time.UTC)
	rec := func(key string, measure, timed float64, at time.Duration) bench.Record {
		return bench.Record{Experiment: key, Impl: "cuda/sparse", Status: bench.StatusOK, Finished: start.Add(at),
			Wall: &bench.CellWall{MeasureMS: measure, TimedMS: timed}}
	}
	f := &bench.File{Started: start, Records: []bench.Record{
		rec("a/computes", 440_000, 440_000, 440*time.Second),
		rec("a/reuses", 20, 440_000, 441*time.Second), // reports a/computes' samples
	}}
	got := experiments.WallText(f)
	if !strings.Contains(got, "timed windows 7.3 min (100%)") || strings.Contains(got, "(-") {
		t.Errorf("WallText = %q, want the reused cell's 20 ms, not its copied 440 s", got)
	}
}

// TestWallTextCountsATopUpOnce: a cell topped up is written again with a
// wall covering both measurements; the breakdown counts its last record
// only, so it still adds up to the wall time.
func TestWallTextCountsATopUpOnce(t *testing.T) {
	start := time.Date(2026, 11, 27, 2, 32, 0, 0, time.UTC)
	rec := func(measure float64, at time.Duration) bench.Record {
		return bench.Record{Experiment: "a/cell", Impl: "cpu/paper", Status: bench.StatusOK, Finished: start.Add(at),
			Wall: &bench.CellWall{MeasureMS: measure, TimedMS: measure}}
	}
	f := &bench.File{Started: start, Records: []bench.Record{
		rec(60_000, 60*time.Second),   // one sample
		rec(120_000, 120*time.Second), // topped up: both measurements
	}}
	got := experiments.WallText(f)
	if !strings.Contains(got, "timed windows 2.0 min (100%)") {
		t.Errorf("WallText = %q, want the last record's 2 min once, not 3 min", got)
	}
}

// TestWallTextLostMeasurement: measurement the budget's end stopped and no
// record keeps (LostNote) is said as such, not counted as the harness's.
func TestWallTextLostMeasurement(t *testing.T) {
	start := time.Date(2026, 11, 28, 8, 28, 43, 0, time.UTC)
	f := &bench.File{Started: start, Notes: []string{experiments.LostNote(57_000, "domination/formula cuda/sparse m=12")},
		Records: []bench.Record{{Experiment: "a/cell", Impl: "cpu/paper", Status: bench.StatusOK, Finished: start.Add(60 * time.Second),
			Wall: &bench.CellWall{MeasureMS: 3_000, TimedMS: 3_000}}}}
	got := experiments.WallText(f)
	if !strings.Contains(got, "the harness itself 0.0 s (0%), measurement stopped at the budget's end and not kept 57.0 s (95%).") {
		t.Errorf("WallText = %q, want the 57 s lost said apart from the harness", got)
	}
	if experiments.LostOf([]string{"lost: x", "other"}) != 0 {
		t.Error("LostOf counted a note it cannot read")
	}
}
