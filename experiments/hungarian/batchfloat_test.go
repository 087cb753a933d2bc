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

// TestHungarianBatchFloatQuick runs hungarian/batch-float at quick scale
// (cuda/fast unavailable without a GPU): cpu/jv's answers pass their
// check, the table has a row per shape and says the peer is not run; a
// worse assignment fails the check, naming its problem.
func TestHungarianBatchFloatQuick(t *testing.T) {
	e := experiments.ByName(hungarianBatchFloatExp)
	if e == nil {
		t.Fatal("hungarian/batch-float is not registered")
	}
	cases := e.Cases(experiments.Quick, experiments.Options{})
	if len(cases) != 4 || cases[0].Params.String() != "rows=100,cols=300,count=8" || cases[3].Params.String() != "rows=20,cols=40,count=8" {
		t.Fatalf("quick cases: %d, first %v", len(cases), cases[0].Params)
	}
	for _, s := range []experiments.Scale{experiments.Paper, experiments.Large} {
		if cs := e.Cases(s, experiments.Options{}); len(cs) != 4 || cs[2].Params.String() != "rows=300,cols=600,count=208" || cs[3].Params.String() != "rows=20,cols=40,count=5000" {
			t.Fatalf("%s cases: %d, last %v", s, len(cs), cs[len(cs)-1].Params)
		}
	}
	run := experimentstest.RunCases(t, hungarianBatchFloatExp, cases)
	for _, r := range run {
		if r.Impl == "cpu/jv" && (r.Check == nil || !r.Check.OK || r.Input == nil || !strings.HasPrefix(r.Input.Hash, "xxh64c:")) {
			t.Fatalf("cpu/jv %v: check %+v input %+v", r.Params, r.Check, r.Input)
		}
	}
	tables := e.Tables(run)
	if len(tables) != 1 || len(tables[0].Rows) != 4 {
		t.Fatalf("tables: %+v", tables)
	}
	if !strings.Contains(strings.Join(tables[0].Notes, "\n"), peerNotRun) {
		t.Errorf("no peer note: %q", tables[0].Notes)
	}
	ctx := context.Background()
	inst, err := cases[1].Setup(ctx) // 300 x 300: every column assigned
	if err != nil {
		t.Fatal(err)
	}
	out, err := inst.Run(ctx, "cpu/jv", nil)
	if err != nil {
		t.Fatal(err)
	}
	res := out.(*lap.BatchOutput)
	a := res.Float[4].Assignment
	a[0], a[1] = a[1], a[0]
	if chk := inst.Check("cpu/jv", res); chk.OK || !strings.Contains(chk.Detail, "problem 5: the assignment costs") {
		t.Fatalf("a swapped assignment passed or is not named: %+v", chk)
	}
}

// TestHungarianBatchFloatPeerColumn: a merged peer/torch-linear-assignment
// record of the same cell fills the peer's columns and its ratios to
// cuda/fast; another cell's row says the peer is not run.
func TestHungarianBatchFloatPeerColumn(t *testing.T) {
	p, q := hungarianBatchFloatParams(300, 600, 208), hungarianBatchFloatParams(100, 300, 208)
	mk := func(impl string, params bench.Params, phases map[string]float64) bench.Record {
		return checkedRecord(hungarianBatchFloatExp, impl, params, phases)
	}
	run := []bench.Record{
		mk("cuda/fast", p, map[string]float64{"total": 4, "end_to_end": 10, "solve": 3, "h2d": 4, "d2h": 1}),
		mk("cpu/jv", p, map[string]float64{"total": 200, "end_to_end": 200}),
		mk(PeerTorchLinearAssignment, p, map[string]float64{"total": 12, "end_to_end": 25}),
		mk("cuda/fast", q, map[string]float64{"total": 1, "end_to_end": 2}),
	}
	tables := hungarianBatchFloatTable(run)
	if len(tables) != 1 || len(tables[0].Rows) != 2 {
		t.Fatalf("tables: %+v", tables)
	}
	tb := tables[0]
	cell := func(row int, col string) string {
		for i, h := range tb.Header {
			if h == col {
				return tb.Rows[row][i]
			}
		}
		t.Fatalf("no column %q in %q", col, tb.Header)
		return ""
	}
	// Rows by shape: 100 x 300 first.
	for col, want := range map[string]string{
		"rows":                               "300",
		"cuda/fast total":                    "4.0",
		"cpu/jv / cuda/fast (end_to_end)":    "20.0x",
		PeerTorchLinearAssignment + " total": "12.0",
		PeerTorchLinearAssignment + " / cuda/fast (total)":      "3.00x",
		PeerTorchLinearAssignment + " end_to_end":               "25.0",
		PeerTorchLinearAssignment + " / cuda/fast (end_to_end)": "2.50x",
	} {
		if got := cell(1, col); got != want {
			t.Errorf("%q = %q, want %q", col, got, want)
		}
	}
	if got := cell(0, PeerTorchLinearAssignment+" total"); got != peerNotRun {
		t.Errorf("the 100 x 300 row's peer: %q, want %q", got, peerNotRun)
	}
}
