package apsp

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"

	"github.com/semibench/semibench/bench"
)

// TestAPSPQuick runs every case of the apsp experiments at quick scale once
// per implementation, requires every check to pass, and renders the tables.
// Without a GPU the CUDA implementations must report unavailable (and only
// they); with one they run and are checked like the others.
func TestAPSPQuick(t *testing.T) {
	var run []bench.Record
	for _, name := range []string{"apsp/semirings", "apsp/systolic", "apsp/blocked"} {
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
		for _, tb := range tables {
			for _, n := range tb.Notes {
				if strings.Contains(n, "CHECK FAILED") {
					t.Errorf("%s: %s", name, n)
				}
			}
		}
		if e.Plots != nil {
			for _, p := range e.Plots(run) {
				if p.Empty() && len(p.Notes) == 0 {
					t.Errorf("%s: plot %s draws nothing and has no notes saying why", name, p.Name)
				}
			}
		}
		if testing.Verbose() {
			for _, tb := range tables {
				t.Logf("%s\n%v\n%v\n%s", tb.Title, tb.Header, tb.Rows, strings.Join(tb.Notes, "\n"))
			}
		}
	}
}

// TestAPSPBlockedHeadlineTotal checks that apsp/blocked's GPU table shows
// total as its headline, end to end beside it, and ratios of totals.
func TestAPSPBlockedHeadlineTotal(t *testing.T) {
	mk := func(impl string, phases map[string]float64) bench.Record {
		r := bench.Record{Experiment: "apsp/blocked", Impl: impl, Params: apspBlockedParams(4096), Status: bench.StatusOK, Check: &bench.Check{OK: true}}
		for name, v := range phases {
			r.Phases = append(r.Phases, bench.Phase{Name: name, MedianMS: v, StatMS: v})
		}
		return r
	}
	run := []bench.Record{
		mk("cpu/fast", map[string]float64{"closure": 999, "total": 1000}),
		mk("cuda/fast", map[string]float64{"closure": 7, "total": 8, "h2d": 20, "d2h": 30, "end_to_end": 60}),
	}
	var out strings.Builder
	for _, tb := range apspBlockedTable(run) {
		if err := tb.Render(&out, "text"); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"headline: total", "Total is the headline", "end to end ms", "125.0x"} { // 1000 / 8
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestAPSPBlockedPath checks that the GPU table names the path of
// cuda/fast's products by the limits its record carries and rates the
// total against that path's limit.
func TestAPSPBlockedPath(t *testing.T) {
	n := 4096
	mk := func(metrics map[string]float64) bench.Record {
		ms := 10.0 // 4096³ updates in 10 ms: 6.87 T/s
		return bench.Record{Experiment: "apsp/blocked", Impl: "cuda/fast", Params: apspBlockedParams(n), Status: bench.StatusOK, Check: &bench.Check{OK: true},
			Phases: []bench.Phase{{Name: "total", MedianMS: ms, StatMS: ms}}, Metrics: metrics}
	}
	for _, c := range []struct {
		metrics          map[string]float64
		path, limit, pct string
	}{
		{map[string]float64{"gpu_limit_tups": 14.82, "gpu_limit_nonneg_tups": 17.9}, "3-way", "17.90 (pair 14.82)", "38%"},
		{map[string]float64{"gpu_limit_tups": 14.82}, "pair", "14.82", "46%"},
		{nil, "pair", "—", "—"},
	} {
		tbs := apspBlockedTable([]bench.Record{mk(c.metrics)})
		if len(tbs) != 1 || len(tbs[0].Rows) != 1 {
			t.Fatalf("%v: want one GPU table of one row, got %v", c.metrics, tbs)
		}
		row, h := tbs[0].Rows[0], tbs[0].Header
		got := map[string]string{}
		for i, name := range h {
			got[name] = row[i]
		}
		if got["products"] != c.path || got["measured limit T updates/s"] != c.limit || got["cuda/fast / limit"] != c.pct {
			t.Errorf("%v: products %q, limit %q, of limit %q; want %q, %q, %q", c.metrics, got["products"], got["measured limit T updates/s"], got["cuda/fast / limit"], c.path, c.limit, c.pct)
		}
	}
}

// TestAPSPSystolicSweepClaims runs the sweep at quick scale and requires a
// verdict computed from it for every sweep claim: reproduced for the
// formulas the simulation matches, not reproduced for the unidirectional
// array's processor count (about 6.9n² in our reconstruction, not 5n²).
func TestAPSPSystolicSweepClaims(t *testing.T) {
	run := experimentstest.RunCases(t, "apsp/systolic", []experiments.Case{apspSystolicSweepCase(apspSweepMax(experiments.Quick), experiments.Options{})})
	claims := apspSweepClaims(run)
	if len(claims) != 8 {
		t.Fatalf("%d sweep claims, want 8", len(claims))
	}
	for _, c := range claims {
		want := experiments.Reproduced
		if strings.Contains(c.PaperFigure, "5n²") {
			want = experiments.NotReproduced
		}
		if c.Verdict != want {
			t.Errorf("%s: verdict %s (ours: %s), want %s", c.Text, c.Verdict, c.Ours, want)
		}
		if testing.Verbose() {
			t.Log(c.Note())
		}
	}
	if got := apspSweepClaims(nil); got[0].Verdict != experiments.NotRun {
		t.Errorf("no records: verdict %s, want not run", got[0].Verdict)
	}
}
