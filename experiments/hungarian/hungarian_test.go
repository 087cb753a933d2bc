package hungarian

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
	"github.com/semibench/semibench/impls"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/problems/lap"

	"github.com/semibench/semibench/bench"
)

// TestHungarianQuick runs every case of the Hungarian experiments at quick
// scale once per implementation, checks every output, and renders the
// tables and plots from the records.
func TestHungarianQuick(t *testing.T) {
	var run []bench.Record
	for _, name := range []string{"hungarian/table1", "hungarian/fig4", "hungarian/fig5", "hungarian/fig6"} {
		exps, err := experiments.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		e := exps[0]
		run = append(run, experimentstest.RunCases(t, name, e.Cases(experiments.Quick, experiments.Options{}))...)
		tables := e.Tables(run)
		if len(tables) == 0 || len(tables[0].Rows) == 0 {
			t.Errorf("%s: no table rows", name)
		}
		if name == "hungarian/table1" {
			// table1's cells also render Tables 2-4 and Fig. 6.
			var titles []string
			for _, tb := range tables {
				titles = append(titles, tb.Title)
			}
			for _, want := range hungarianDerived {
				if !slices.ContainsFunc(titles, func(s string) bool { return strings.HasPrefix(s, want+" ") }) {
					t.Errorf("table1's records render no %s table: %q", want, titles)
				}
			}
		}
		for _, p := range e.Plots(run) {
			if p.Empty() && len(p.Notes) == 0 {
				t.Errorf("%s: plot %s draws nothing and has no notes saying why", name, p.Name)
			}
		}
	}
	// A wrong answer must fail its check.
	ctx := context.Background()
	exps, _ := experiments.Lookup("hungarian/fig4")
	inst, err := exps[0].Cases(experiments.Quick, experiments.Options{})[0].Setup(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := inst.Run(ctx, "cpu/jv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if chk := inst.Check("cpu/jv", out); !chk.OK {
		t.Fatalf("cpu/jv failed its check: %s", chk.Detail)
	}
	res := out.(*lap.Result)
	wrongCost := &lap.Result{Assignment: res.Assignment, Cost: res.Cost + 1, U: res.U, V: res.V}
	if chk := inst.Check("cpu/jv", wrongCost); chk.OK {
		t.Error("a misreported cost passed its check")
	}
	dup := &lap.Result{Assignment: slices.Clone(res.Assignment)}
	dup.Assignment[1] = dup.Assignment[0]
	if chk := inst.Check("cpu/auction", dup); chk.OK {
		t.Error("a column assigned twice passed its check")
	}
	if chk := inst.Check("cpu/jv", nil); chk.OK {
		t.Error("a missing result passed its check")
	}
}

func TestHungarianWorkGrows(t *testing.T) {
	prev := 0.0
	for _, r := range hungarianFig5Ranges {
		w := hungarianWork(2048, r)
		if w <= prev {
			t.Errorf("work at range %s = %g, not above %g", r, w, prev)
		}
		prev = w
	}
}

// hungarianRecord is a synthetic record of experiment exp at n = 8192,
// range n, with the given phases.
func hungarianRecord(exp, impl string, phases map[string]float64) bench.Record {
	r := bench.Record{Experiment: exp, Impl: impl, Params: hungarianParams(8192, "n"),
		Status: bench.StatusOK, Check: &bench.Check{OK: true}}
	for _, name := range []string{"h2d", "init", "step1", "step4", "augment", "auction", "d2h", "other", "total", "end_to_end"} {
		if v, ok := phases[name]; ok {
			r.Phases = append(r.Phases, bench.Phase{Name: name, MedianMS: v, StatMS: v})
		}
	}
	return r
}

// hungarianRun is a synthetic table1 run: the device phases of the CUDA
// records deliberately do not add up to their totals, so that a table
// showing a sum of phases would show other numbers.
func hungarianRun() []bench.Record {
	mk := func(impl string, phases map[string]float64) bench.Record {
		return hungarianRecord("hungarian/table1", impl, phases)
	}
	return []bench.Record{
		mk("cpu/paper", map[string]float64{"step1": 300, "step4": 290, "total": 3000, "end_to_end": 3000}),
		mk("cpu/jv", map[string]float64{"total": 1500, "end_to_end": 1500}),
		mk("cuda/paper", map[string]float64{"h2d": 15, "init": 5, "step1": 0.5, "step4": 34.5, "other": 10, "d2h": 1, "total": 50, "end_to_end": 66}),
		mk("cuda/fast", map[string]float64{"h2d": 20, "step4": 10, "other": 30, "d2h": 1, "total": 40, "end_to_end": 61}),
		mk("cuda/hungarian-n3", map[string]float64{"h2d": 20, "augment": 3400, "other": 100, "d2h": 1, "total": 3500, "end_to_end": 3521}),
	}
}

// TestHungarianCUDATables renders Tables 2-4 and Fig. 6 from synthetic
// table1 records and checks that every comparison is of totals, beside the
// paper's numbers.
func TestHungarianCUDATables(t *testing.T) {
	run := hungarianRun()
	var out strings.Builder
	for _, tb := range hungarianDerivedTables(run) {
		if err := tb.Render(&out, "text"); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"60.0x",  // cpu/paper / cuda/paper: 3000 / 50 (totals)
		"20.8x",  // the paper's Table 2 speedup at 8192, range n
		"37.5x",  // cpu/jv / cuda/fast: 1500 / 40
		"600.0x", // step 1: 300 / 0.5
		"283.0",  // the paper's K20c at 8192, range n (Table 4)
		"5.66x",  // K20c / cuda/paper: 283 / 50
		"70.0x",  // cuda/hungarian-n3 / cuda/paper: 3500 / 50
		"61.0",   // cuda/fast's end_to_end in table4
		peerNotRun,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("derived tables lack %q:\n%s", want, out.String())
		}
	}
	// With records of its own, a derived experiment is not rendered again
	// from table1's.
	own := append(slices.Clone(run), bench.Record{Experiment: "hungarian/fig6", Impl: "cuda/paper", Params: hungarianParams(512, "n"), Status: bench.StatusOK})
	for _, tb := range hungarianDerivedTables(own) {
		if strings.HasPrefix(tb.Title, "hungarian/fig6") {
			t.Errorf("fig6 rendered from table1 although it has records")
		}
	}
	if len(hungarianDerivedPlots(run)) < 4 {
		t.Errorf("derived plots: %d", len(hungarianDerivedPlots(run)))
	}
}

// TestHungarianTable4Peers writes the peers' records to a result file of
// their own, merges it with a run of hungarian/table4 (as `semibench table
// run.json peers.json --merge` does) and checks table4's peer columns and
// ratios, honest where cuda/fast is slower; the peers' records add no rows
// or cells of their own to table1.
func TestHungarianTable4Peers(t *testing.T) {
	var run []bench.Record
	for _, r := range hungarianRun() {
		r.Experiment = "hungarian/table4"
		run = append(run, r)
	}
	mk := func(impl string, phases map[string]float64) bench.Record {
		return hungarianRecord("hungarian/table1", impl, phases)
	}
	peers := &bench.File{Schema: bench.SchemaVersion, Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "h100", CPU: "c", Cores: 1}, Scale: "paper", Started: time.Unix(1, 0), Records: []bench.Record{
		mk(PeerHungarianGPU, map[string]float64{"total": 400}),
		mk(PeerHungarianGPUPlain, map[string]float64{"total": 20}),
		mk(PeerHyLAC, map[string]float64{"total": 90, "end_to_end": 183}),
	}}
	dir := t.TempDir()
	runPath, peerPath := filepath.Join(dir, "run.json"), filepath.Join(dir, "peers.json")
	if err := bench.WriteFile(runPath, &bench.File{Schema: bench.SchemaVersion, Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "h100", CPU: "c", Cores: 1}, Scale: "paper", Started: time.Unix(1, 0), Records: run}); err != nil {
		t.Fatal(err)
	}
	if err := bench.WriteFile(peerPath, peers); err != nil {
		t.Fatal(err)
	}
	var files []*bench.File
	for _, p := range []string{runPath, peerPath} {
		f, err := bench.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	merged, err := bench.Merge(files...)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := experiments.RenderTables(merged, "")
	if err != nil {
		t.Fatal(err)
	}
	var t4 *report.Table
	for i := range tables {
		switch {
		case strings.HasPrefix(tables[i].Title, "hungarian/table4 "):
			t4 = &tables[i]
		case strings.HasPrefix(tables[i].Title, "hungarian/table1 "):
			t.Errorf("the peers' records rendered a table1 of their own: %q", tables[i].Title)
		}
	}
	if t4 == nil || len(t4.Rows) != 1 {
		t.Fatalf("table4: %+v", t4)
	}
	cell := map[string]string{}
	for i, h := range t4.Header {
		cell[h] = t4.Rows[0][i]
	}
	for col, want := range map[string]string{
		"HungarianGPU published, total":          "400.0",
		"HungarianGPU plain, total":              "20.0",
		"HyLAC, total":                           "90.0",
		"HyLAC, end_to_end":                      "183.0",
		"cuda/paper, total":                      "50.0",
		"cuda/fast, total":                       "40.0",
		"cuda/fast, end_to_end":                  "61.0",
		"HungarianGPU plain / cuda/fast (total)": "0.500x", // cuda/fast slower: 20 / 40
		"HyLAC / cuda/fast (end_to_end)":         "3.00x",  // 183 / 61
	} {
		if got := cell[col]; got != want {
			t.Errorf("table4 %q = %q, want %q", col, got, want)
		}
	}
	notes := strings.Join(t4.Notes, "\n")
	if !strings.Contains(notes, "slower than HungarianGPU plain (total) in 1 of 1 cells measured on both sides and at least 3x faster in 0") ||
		!strings.Contains(notes, "slower than HyLAC (end_to_end) in 0 of 1 and at least 3x faster in 1") || strings.Contains(notes, peerNotRun) {
		t.Errorf("table4 notes:\n%s", notes)
	}
}

// TestHungarianNoTypedPeerNumbers: the Hungarian experiments hold no time
// typed from an issue: no published-code table, no issue cited for a number.
func TestHungarianNoTypedPeerNumbers(t *testing.T) {
	typed := regexp.MustCompile(`(?i)hungarianPublished|publishedH100|issue [0-9]+\)?[^\n]*[0-9]+\.[0-9]+|\b(11\.2|195\.8|1196\.3|91\.4|570\.4)\b`)
	for _, f := range []string{"hungarian.go", "cuda.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := typed.FindString(string(b)); m != "" {
			t.Errorf("%s holds a typed peer number: %q", f, m)
		}
	}
}

// TestLAPExperiments: every implementation a hungarian/* experiment
// compares is in impls.LAP.
func TestLAPExperiments(t *testing.T) {
	exps, err := experiments.Lookup("hungarian/")
	if err != nil || len(exps) == 0 {
		t.Fatalf("experiments hungarian/: %d, %v", len(exps), err)
	}
	for _, e := range exps {
		for _, name := range e.Impls {
			if _, err := impls.LAP.Lookup(name); err != nil {
				t.Errorf("%s: %v", e.Name, err)
			}
		}
	}
}
