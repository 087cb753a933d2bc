package experiments

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
)

// TestDominationQuick runs every domination experiment at quick scale and
// renders its tables; Tables 1, 3, 4 and 6 are checked against the paper's
// by the cells' checks (m <= 7 here, m = 8 unless -short).
func TestDominationQuick(t *testing.T) {
	var run []bench.Record
	names := []string{"domination/table1", "domination/table2", "domination/table3", "domination/table4",
		"domination/table5", "domination/table6", "domination/formula"}
	for _, name := range names {
		exps, _ := Lookup(name)
		cases := exps[0].Cases(Quick, Options{})
		if !testing.Short() && (name == "domination/table3" || name == "domination/table4" || name == "domination/table6" || name == "domination/table1") {
			cases = append(cases, exps[0].Cases(Paper, Options{})[6]) // m = 8
		}
		run = append(run, runCases(t, name, cases)...)
	}
	var out bytes.Buffer
	for _, name := range names {
		exps, _ := Lookup(name)
		tables := exps[0].Tables(run)
		if len(tables) == 0 || len(tables[0].Rows) == 0 {
			t.Fatalf("%s: no table rows", name)
		}
		for _, tb := range tables {
			if err := tb.Render(&out, "text"); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, want := range []string{
		"131,562",                // Table 1's paper row m = 13
		"0.69MB",                 // m = 7 memory, ours and the paper's
		"4,5",                    // Table 6's m = 4
		"1,2,4,5",                // Table 6's m = 7
		"2: 4 (12), 5 (15)",      // m = 7's exceptions below n = 19
		"⌈53n/18⌉",               // m = 7's formula
		"13,500",                 // Table 5's m = 7, version 1 (13.5 s)
		"Checks: 6 ok, 0 failed", // table1 at quick scale
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("tables lack %q", want)
		}
	}
	if t.Failed() {
		t.Log(out.String())
	}
}

// TestDominationCheckCatchesWrongValues feeds a wrong analysis to a check.
func TestDominationCheckCatchesWrongValues(t *testing.T) {
	exps, _ := Lookup("domination/table3")
	inst, err := exps[0].Cases(Quick, Options{})[2].Setup(context.Background()) // m = 4
	if err != nil {
		t.Fatal(err)
	}
	out, err := inst.Run(context.Background(), "cpu/sparse", nil)
	if err != nil {
		t.Fatal(err)
	}
	if chk := inst.Check("cpu/sparse", out); !chk.OK {
		t.Fatalf("correct analysis failed: %s", chk.Detail)
	}
	if chk := inst.Check("cpu/sparse", nil); chk.OK {
		t.Error("a missing output passed")
	}
}

// TestDominationBeyondPaper: m = 13 runs on cuda/sparse alone, one
// analysis per process; without a GPU its cells are unavailable.
func TestDominationBeyondPaper(t *testing.T) {
	for _, name := range []string{"domination/table3", "domination/formula"} {
		exps, _ := Lookup(name)
		cs := exps[0].Cases(Large, Options{})
		c := cs[len(cs)-1]
		if c.Params.Get("m") != "13" || !slices.Equal(exps[0].ImplsFor(c, ""), []string{"cuda/sparse"}) {
			t.Fatalf("%s: last large case %s with %v, want m=13 on cuda/sparse alone", name, c.Params, exps[0].ImplsFor(c, ""))
		}
		if n, err := cuda.DeviceCount(); err == nil && n > 0 {
			continue // the device run computes it (minutes)
		}
		inst, err := c.Setup(context.Background())
		if err != nil {
			t.Fatalf("%s m=13 setup: %v", name, err)
		}
		if _, err := inst.Run(context.Background(), "cuda/sparse", nil); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s m=13 without a GPU: %v, want unavailable", name, err)
		}
	}
}

// TestDominationPeerTable: records of the published code merged into a run
// get a table of their own, end_to_end beside ours, with honest ratios; a
// run without them gets none.
func TestDominationPeerTable(t *testing.T) {
	rec := func(impl string, m int, e2e float64) bench.Record {
		return bench.Record{Experiment: "domination/table2", Impl: impl, Params: dominationParams(m), Status: bench.StatusOK,
			Phases: []bench.Phase{{Name: bench.EndToEndPhase, MedianMS: e2e, StatMS: e2e, SamplesMS: []float64{e2e}}}}
	}
	own := []bench.Record{rec("cuda/sparse", 7, 10), rec("cuda/fast", 7, 40)}
	if _, ok := dominationPeerTable(own, IndexRecords(own)); ok {
		t.Fatal("a peer table without peer records")
	}
	own = append(own, rec(dominationPeer, 7, 20))
	tb, ok := dominationPeerTable(own, IndexRecords(own))
	if !ok || len(tb.Rows) != 1 {
		t.Fatalf("peer table: ok %v, %d rows", ok, len(tb.Rows))
	}
	row := strings.Join(tb.Rows[0], "|")
	for _, want := range []string{"20.0", "10.0", "40.0", "2.00x", "0.500x"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
}
