package hungarian

import (
	"context"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/lap"
)

// TestHungarianBatchQuick runs hungarian/batch at quick scale (cuda/fast
// unavailable without a GPU), checks every output and renders the table;
// a wrong cost fails the check.
func TestHungarianBatchQuick(t *testing.T) {
	exps, err := experiments.Lookup(hungarianBatchExp)
	if err != nil {
		t.Fatal(err)
	}
	e := exps[0]
	cases := e.Cases(experiments.Quick, experiments.Options{})
	if len(cases) != 6 || cases[0].Params.Get("count") != "300" {
		t.Fatalf("quick cases: %d, first %v", len(cases), cases[0].Params)
	}
	if paper := e.Cases(experiments.Paper, experiments.Options{}); len(paper) != 12 || paper[11].Params.String() != hungarianBatchParams(256, "10n", 10000).String() {
		t.Fatalf("paper cases: %d, last %v", len(paper), paper[len(paper)-1].Params)
	}
	run := experimentstest.RunCases(t, hungarianBatchExp, cases[:2])
	for _, r := range run {
		if r.Impl == "cpu/jv" && (r.Check == nil || !r.Check.OK) {
			t.Fatalf("cpu/jv %v: check %+v", r.Params, r.Check)
		}
	}
	tables := e.Tables(run)
	if len(tables) != 1 || len(tables[0].Rows) != 2 {
		t.Fatalf("tables: %+v", tables)
	}
	if !strings.Contains(strings.Join(tables[0].Notes, "\n"), peerNotRun) {
		t.Errorf("no peer note: %q", tables[0].Notes)
	}
	// A wrong answer fails its check.
	ctx := context.Background()
	inst, err := cases[2].Setup(ctx) // range 10n: no ties to hide a swap
	if err != nil {
		t.Fatal(err)
	}
	out, err := inst.Run(ctx, "cpu/jv", nil)
	if err != nil {
		t.Fatal(err)
	}
	res := out.(*lap.BatchOutput)
	if chk := inst.Check("cpu/jv", res); !chk.OK {
		t.Fatalf("correct output failed: %+v", chk)
	}
	a := res.Int[7].Assignment
	a[0], a[1] = a[1], a[0]
	if chk := inst.Check("cpu/jv", res); chk.OK || !strings.Contains(chk.Detail, "problem 8") {
		t.Fatalf("a wrong answer passed or is not named: %+v", chk)
	}
}

// TestHungarianBatchPeerColumn: a merged peer/hylac-stream record of the
// same cell fills the peer column and its ratio.
func TestHungarianBatchPeerColumn(t *testing.T) {
	p := hungarianBatchParams(64, "n", 10000)
	mk := func(impl string, phases map[string]float64) bench.Record {
		return checkedRecord(hungarianBatchExp, impl, p, phases)
	}
	run := []bench.Record{
		mk("cuda/fast", map[string]float64{"total": 10, "end_to_end": 20, "solve": 8, "h2d": 7, "d2h": 3}),
		mk("cpu/jv", map[string]float64{"total": 100, "end_to_end": 100}),
		mk(PeerHyLACStream, map[string]float64{"total": 50, "end_to_end": 60}),
	}
	tables := hungarianBatchTable(run)
	if len(tables) != 1 || len(tables[0].Rows) != 1 {
		t.Fatalf("tables: %+v", tables)
	}
	tb := tables[0]
	cell := map[string]string{}
	for i, h := range tb.Header {
		cell[h] = tb.Rows[0][i]
	}
	for col, want := range map[string]string{
		"cuda/fast total":                             "10.0",
		"cpu/jv / cuda/fast (total)":                  "10.0x",
		"cpu/jv / cuda/fast (end_to_end)":             "5.00x",
		PeerHyLACStream + " end_to_end":               "60.0",
		PeerHyLACStream + " / cuda/fast (end_to_end)": "3.00x",
	} {
		if got := cell[col]; got != want {
			t.Errorf("%q = %q, want %q", col, got, want)
		}
	}
	if strings.Contains(strings.Join(tb.Notes, "\n"), peerNotRun) {
		t.Errorf("peer note despite the peer record: %q", tb.Notes)
	}
}

// checkedRecord is a synthetic ok record of a cell with the phases' medians.
func checkedRecord(exp, impl string, p bench.Params, phases map[string]float64) bench.Record {
	r := bench.Record{Experiment: exp, Impl: impl, Params: p, Status: bench.StatusOK, Check: &bench.Check{OK: true}}
	for name, v := range phases {
		r.Phases = append(r.Phases, bench.Phase{Name: name, MedianMS: v, StatMS: v})
	}
	return r
}
