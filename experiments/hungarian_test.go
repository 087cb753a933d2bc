package experiments

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cpu/lap"

	"github.com/semibench/semibench/bench"
)

// TestHungarianQuick runs every case of the Hungarian experiments at quick
// scale once per implementation, checks every output, and renders the
// tables and plots from the records.
func TestHungarianQuick(t *testing.T) {
	var run []bench.Record
	for _, name := range []string{"hungarian/table1", "hungarian/fig4", "hungarian/fig5", "hungarian/fig6"} {
		exps, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		e := exps[0]
		run = append(run, runCases(t, name, e.Cases(Quick, Options{}))...)
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
			if len(p.Series) == 0 {
				t.Errorf("%s: plot %s has no series", name, p.Name)
			}
		}
	}
	// A wrong answer must fail its check.
	ctx := context.Background()
	exps, _ := Lookup("hungarian/fig4")
	inst, err := exps[0].Cases(Quick, Options{})[0].Setup(ctx)
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

// TestHungarianCUDATables renders Tables 2-4 and Fig. 6 from synthetic
// table1 records and checks the ratios and the paper's numbers beside them.
func TestHungarianCUDATables(t *testing.T) {
	mk := func(impl string, phases map[string]float64) bench.Record {
		r := bench.Record{Experiment: "hungarian/table1", Impl: impl, Params: hungarianParams(8192, "n"),
			Status: bench.StatusOK, Check: &bench.Check{OK: true}}
		for _, name := range []string{"h2d", "init", "step1", "step4", "augment", "auction", "d2h", "total"} {
			if v, ok := phases[name]; ok {
				r.Phases = append(r.Phases, bench.Phase{Name: name, MedianMS: v, StatMS: v})
			}
		}
		return r
	}
	run := []bench.Record{
		mk("cpu/paper", map[string]float64{"step1": 300, "step4": 290, "total": 3000}),
		mk("cpu/jv", map[string]float64{"total": 1500}),
		// Device time 50 (init + step1 + step4); h2d and d2h are left out.
		mk("cuda/paper", map[string]float64{"h2d": 15, "init": 5, "step1": 0.5, "step4": 44.5, "d2h": 1, "total": 400}),
		mk("cuda/fast", map[string]float64{"h2d": 130, "auction": 97.9, "d2h": 1, "total": 300}),
		mk("cuda/hungarian-n3", map[string]float64{"h2d": 130, "augment": 3500, "d2h": 1, "total": 3700}),
	}
	if got := hungarianDeviceMS(&run[2]); got != 50 {
		t.Fatalf("device time of cuda/paper = %v, want 50", got)
	}
	var out strings.Builder
	for _, tb := range hungarianDerivedTables(run) {
		if err := tb.Render(&out, "text"); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"60.0x",  // cpu/paper / cuda/paper: 3000 / 50
		"20.8x",  // the paper's Table 2 speedup at 8192, range n
		"15.3x",  // cpu/jv / cuda/fast: 1500 / 97.9
		"600.0x", // step 1: 300 / 0.5
		"283.0",  // the paper's K20c at 8192, range n (Table 4)
		"195.8",  // the published code on an H100 (issue 4)
		"2.00x",  // published H100 / cuda/fast: 195.8 / 97.9
		"70.0x",  // cuda/hungarian-n3 / cuda/paper: 3500 / 50
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
