package kleene

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"

	"github.com/semibench/semibench/bench"
)

// TestKleeneTablesHeadlineTotal checks that the Kleene tables say total is
// their headline and show end to end beside it.
func TestKleeneTablesHeadlineTotal(t *testing.T) {
	run := []bench.Record{
		experimentstest.KleeneRecord("kleene/table3", "cpu/fast", "4000", map[string]float64{"total": 1100, "end_to_end": 1100}),
		experimentstest.KleeneRecord("kleene/table3", "cuda/fast", "4000", map[string]float64{"update_w": 2, "total": 5, "end_to_end": 11, "other": 0.5}),
	}
	var out bytes.Buffer
	for _, tb := range kleeneTable3(run) {
		if err := tb.Render(&out, "text"); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"headline: total",
		"Total is the headline",
		"End to end",
		"Other (in total, no phase)",
		"100.0x", // cpu/fast / cuda/fast end to end: 1100 / 11
		"220.0x", // the same of totals: 1100 / 5
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table3 lacks %q:\n%s", want, out.String())
		}
	}
}

// TestKleeneCheckRefusesAnOlderOutput checks the guard of the recycling of
// outputs: the instance's Check accepts only the last output its Run
// returned (older ones may have been given back to the CUDA solvers).
func TestKleeneCheckRefusesAnOlderOutput(t *testing.T) {
	c := kleeneCase(30, true, experiments.Options{Seed: 3}, nil)
	inst, err := c.Setup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first, err := inst.Run(context.Background(), "cpu/fast", nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := inst.Run(context.Background(), "cpu/paper", nil)
	if err != nil {
		t.Fatal(err)
	}
	if chk := inst.Check("cpu/paper", second); !chk.OK {
		t.Errorf("the last output fails its check: %s", chk.Detail)
	}
	if chk := inst.Check("cpu/fast", first); chk.OK || !strings.Contains(chk.Detail, "not the last one") {
		t.Errorf("an older output passed the check: %+v", chk)
	}
}

func TestKleeneTablesBesideThePaper(t *testing.T) {
	run := []bench.Record{
		experimentstest.KleeneRecord("kleene/table2", "cpu/paper", "4000", map[string]float64{"update_w": 20000, "total": 20500}),
		experimentstest.KleeneRecord("kleene/table2", "cpu/fast", "4000", map[string]float64{"update_w": 1000, "total": 1100}),
		experimentstest.KleeneRecord("kleene/table3", "cpu/paper", "4000", map[string]float64{"total": 20500}),
		experimentstest.KleeneRecord("kleene/table3", "cuda/paper", "4000", map[string]float64{"update_w": 300, "total": 410}),
		experimentstest.KleeneRecord("kleene/table3", "cuda/fast", "4000", map[string]float64{"update_w": 2, "total": 20.5}),
	}
	var out bytes.Buffer
	for _, tb := range append(kleeneTable2(run), kleeneTable3(run)...) {
		if err := tb.Render(&out, "text"); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"66,997.8",  // the paper's update W at n=4000 (Table 2)
		"3,998,935", // the paper's arcs at n=4000
		"4,001,234", // ours
		"20.0x",     // cpu/paper / cpu/fast update W
		"2,040.9",   // the paper's GPU update W (Table 3)
		"29.3x",     // the paper's Effect
		"1,000.0x",  // cpu/paper / cuda/fast total: 20500 / 20.5
		"cuda/paper total / cuda/fast total = 20.0x",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("tables lack %q:\n%s", want, out.String())
		}
	}
}
