package experiments

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestRatioVerdict(t *testing.T) {
	cases := []struct {
		paper, ours, tol float64
		better           int
		want             Verdict
	}{
		{30, 29, 2, HigherBetter, Reproduced},
		{30, 15, 2, HigherBetter, Reproduced},
		{30, 14, 2, HigherBetter, NotReproduced},
		{30, 61, 2, HigherBetter, Exceeded},
		{100, 40, 2, LowerBetter, Exceeded},
		{100, 250, 2, LowerBetter, NotReproduced},
		{8, 20, 1.5, Neither, NotReproduced},
		{8, 2, 1.5, Neither, NotReproduced},
		{8, 9, 1.5, Neither, Reproduced},
		{30, -1, 2, HigherBetter, NotRun},
	}
	for _, c := range cases {
		if got := ratioVerdict(c.paper, c.ours, c.tol, c.better); got != c.want {
			t.Errorf("ratioVerdict(%g, %g, %g, %d) = %s, want %s", c.paper, c.ours, c.tol, c.better, got, c.want)
		}
	}
}

// claimOf returns the claim of claims whose text contains s.
func claimOf(t *testing.T, claims []Claim, s string) Claim {
	t.Helper()
	for _, c := range claims {
		if strings.Contains(c.Text, s) {
			return c
		}
	}
	t.Fatalf("no claim mentions %q in %+v", s, claims)
	return Claim{}
}

func TestKleeneClaimsFromRecords(t *testing.T) {
	int500 := bench.Params{{Name: "n", Value: "500"}, {Name: "weights", Value: "int"}}
	exactGPU := bench.Record{Experiment: "kleene/table3", Impl: "cuda/paper", Params: int500, Status: bench.StatusOK, Check: &bench.Check{OK: true}}
	// The paper's Effect at n = 4000 is 29.3 (results/paper): 300x is
	// beyond a factor 2, 25x within it.
	for _, c := range []struct {
		gpu  float64
		want Verdict
	}{{20500.0 / 25, Reproduced}, {20500.0 / 300, Exceeded}, {20500.0 / 5, NotReproduced}} {
		run := []bench.Record{
			rec("kleene/table3", "cpu/paper", "4000", map[string]float64{"total": 20500}),
			rec("kleene/table3", "cuda/paper", "4000", map[string]float64{"total": c.gpu}),
			exactGPU,
		}
		got := claimOf(t, kleeneTable3Claims(run), "about 30x")
		if got.Verdict != c.want || got.PaperFigure != "29.3x" {
			t.Errorf("GPU total %g: %+v, want %s beside 29.3x", c.gpu, got, c.want)
		}
		if m := claimOf(t, kleeneTable3Claims(run), "match"); m.Verdict != Reproduced {
			t.Errorf("an exact integer-weight GPU cell: %+v, want reproduced", m)
		}
	}

	skipped := rec("kleene/table3", "cuda/paper", "4000", nil)
	skipped.Status, skipped.Phases, skipped.EstimateMS, skipped.Error = bench.StatusSkipped, nil, 180000, "estimated 3m; the 9m budget is spent"
	unavail := rec("kleene/table3", "cuda/paper", "4000", nil)
	unavail.Status, unavail.Phases, unavail.Error = bench.StatusUnavailable, nil, "no CUDA device"
	cpu := rec("kleene/table3", "cpu/paper", "4000", map[string]float64{"total": 20500})
	for _, c := range []struct {
		name   string
		run    []bench.Record
		reason string
	}{
		{"skipped", []bench.Record{cpu, skipped}, "cuda/paper at n=4000,weights=normal skipped by the budget (est. 3"},
		{"unavailable", []bench.Record{cpu, unavail}, "cuda/paper at n=4000,weights=normal unavailable"},
		{"absent", []bench.Record{cpu}, "cuda/paper at n=4000,weights=normal not in this run"},
	} {
		got := claimOf(t, kleeneTable3Claims(c.run), "about 30x")
		if got.Verdict != NotRun || !strings.HasPrefix(got.Reason, c.reason) || got.Ours != "—" {
			t.Errorf("%s: %+v, want not run because %q", c.name, got, c.reason)
		}
	}

	bad := exactGPU
	bad.Status, bad.Check = bench.StatusCheckFailed, &bench.Check{OK: false, Detail: "W[1,2] differs"}
	if m := claimOf(t, kleeneTable3Claims([]bench.Record{bad}), "match"); m.Verdict != NotReproduced {
		t.Errorf("a failed GPU check: %+v, want not reproduced", m)
	}

	// Growth of update W: 8-fold from 2000 to 4000 reproduces the claim,
	// 3-fold does not.
	for _, c := range []struct {
		at4000 float64
		want   Verdict
	}{{8000, Reproduced}, {3000, NotReproduced}} {
		run := []bench.Record{
			rec("kleene/table2", "cpu/paper", "2000", map[string]float64{"update_w": 1000, "total": 1100}),
			rec("kleene/table2", "cpu/paper", "4000", map[string]float64{"update_w": c.at4000, "total": c.at4000 + 100}),
		}
		if got := claimOf(t, kleeneTable2Claims(run), "8-fold"); got.Verdict != c.want {
			t.Errorf("update W %g ms at n = 4000 after 1000 at 2000: %+v, want %s", c.at4000, got, c.want)
		}
	}
}

func TestExactClaims(t *testing.T) {
	// Table 1's rows are exact in the paper: 6 at m = 2, 15 at m = 3.
	row := func(m string, rows float64, status string) bench.Record {
		return bench.Record{Experiment: "domination/table1", Impl: "cpu/paper", Params: bench.Params{{Name: "m", Value: m}},
			Status: status, Metrics: map[string]float64{"rows": rows}}
	}
	got := domExactClaims([]bench.Record{row("2", 6, bench.StatusOK), row("3", 15, bench.StatusOK)}, "domination/table1", "rows")[0]
	if got.Verdict != Indicative || !strings.HasPrefix(got.Ours, "2 of ") || !strings.Contains(got.Reason, "partial evidence") {
		t.Errorf("two equal rows of eleven: %+v, want indicative (partial evidence)", got)
	}
	got = domExactClaims([]bench.Record{row("2", 6, bench.StatusOK), row("3", 16, bench.StatusOK)}, "domination/table1", "rows")[0]
	if got.Verdict != NotReproduced || !strings.Contains(got.Ours, "m = 3") {
		t.Errorf("a row off the paper's: %+v", got)
	}
	got = domExactClaims(nil, "domination/table1", "rows")[0]
	if got.Verdict != NotRun || !strings.Contains(got.Reason, "not in this run") {
		t.Errorf("no records: %+v", got)
	}
}

func TestSlugs(t *testing.T) {
	s := slugger{}
	if got, want := s.slug("kleene/table3 — speedup of the total (paper's 'Effect': CPU total / GPU total)"), "kleenetable3--speedup-of-the-total-papers-effect-cpu-total--gpu-total"; got != want {
		t.Errorf("slug = %q, want %q", got, want)
	}
	if got := s.slug("A α_k"); got != "a-α_k" {
		t.Errorf("slug keeps letters and '_': %q", got)
	}
	if got := s.slug("kleene/table3 — speedup of the total (paper's 'Effect': CPU total / GPU total)"); !strings.HasSuffix(got, "-gpu-total-1") {
		t.Errorf("a repeated heading's slug = %q, want the suffix -1", got)
	}
}

// summaryFile is a small synthetic run: Kleene's Table 3 at n = 4000 with
// one GPU cell skipped and one unavailable, on a machine with one GPU.
func summaryFile() *bench.File {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cpu := rec("kleene/table3", "cpu/paper", "4000", map[string]float64{"total": 20500})
	gpu := rec("kleene/table3", "cuda/paper", "4000", map[string]float64{"total": 410, "update_w": 300})
	fast := rec("kleene/table3", "cuda/fast", "4000", nil)
	fast.Status, fast.Phases, fast.Check, fast.Error = bench.StatusUnavailable, nil, nil, "no CUDA device"
	cf := rec("kleene/table3", "cpu/fast", "4000", nil)
	cf.Status, cf.Phases, cf.Check, cf.EstimateMS, cf.Error = bench.StatusSkipped, nil, nil, 90000, "estimated 1m30s; the 1m budget is spent"
	bad := rec("kleene/table3", "cuda/paper", "500", map[string]float64{"total": 1})
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
	if err := WriteReport(path, f, nil, time.Minute); err != nil {
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
	slugs := slugger{}
	anchors := map[string]bool{}
	for _, l := range strings.Split(doc, "\n") {
		if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && strings.HasPrefix(l, "#") {
			anchors[slugs.slug(h)] = true
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
	secs, err := renderSections(f, "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeSummary(&b, f, time.Minute, secs)
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
	writeSummary(&b, f, 0, nil)
	doc := b.String()
	if !strings.Contains(doc, "- Cells: 5:") {
		t.Errorf("cells not counted once each:\n%s", doc)
	}
	if !strings.Contains(doc, "2 invocations") || !strings.Contains(doc, "(1m0s)") {
		t.Errorf("no span per invocation:\n%s", doc)
	}
}
