package kleene

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
)

// claimOf returns the claim of claims whose text contains s.
func claimOf(t *testing.T, claims []experiments.Claim, s string) experiments.Claim {
	t.Helper()
	for _, c := range claims {
		if strings.Contains(c.Text, s) {
			return c
		}
	}
	t.Fatalf("no claim mentions %q in %+v", s, claims)
	return experiments.Claim{}
}

func TestKleeneClaimsFromRecords(t *testing.T) {
	int500 := bench.Params{{Name: "n", Value: "500"}, {Name: "weights", Value: "int"}}
	exactGPU := bench.Record{Experiment: "kleene/table3", Impl: "cuda/paper", Params: int500, Status: bench.StatusOK, Check: &bench.Check{OK: true}}
	// The paper's Effect at n = 4000 is 29.3 (paper/table3.jsonl): 300x is
	// beyond a factor 2, 25x within it.
	for _, c := range []struct {
		gpu  float64
		want experiments.Verdict
	}{{20500.0 / 25, experiments.Reproduced}, {20500.0 / 300, experiments.Exceeded}, {20500.0 / 5, experiments.NotReproduced}} {
		run := []bench.Record{
			experimentstest.KleeneRecord("kleene/table3", "cpu/paper", "4000", map[string]float64{"total": 20500}),
			experimentstest.KleeneRecord("kleene/table3", "cuda/paper", "4000", map[string]float64{"total": c.gpu}),
			exactGPU,
		}
		got := claimOf(t, kleeneTable3Claims(run), "about 30x")
		if got.Verdict != c.want || got.PaperFigure != "29.3x" {
			t.Errorf("GPU total %g: %+v, want %s beside 29.3x", c.gpu, got, c.want)
		}
		if m := claimOf(t, kleeneTable3Claims(run), "match"); m.Verdict != experiments.Reproduced {
			t.Errorf("an exact integer-weight GPU cell: %+v, want reproduced", m)
		}
	}

	skipped := experimentstest.KleeneRecord("kleene/table3", "cuda/paper", "4000", nil)
	skipped.Status, skipped.Phases, skipped.EstimateMS, skipped.Error = bench.StatusSkipped, nil, 180000, "estimated 3m; the 9m budget is spent"
	unavail := experimentstest.KleeneRecord("kleene/table3", "cuda/paper", "4000", nil)
	unavail.Status, unavail.Phases, unavail.Error = bench.StatusUnavailable, nil, "no CUDA device"
	cpu := experimentstest.KleeneRecord("kleene/table3", "cpu/paper", "4000", map[string]float64{"total": 20500})
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
		if got.Verdict != experiments.NotRun || !strings.HasPrefix(got.Reason, c.reason) || got.Ours != "—" {
			t.Errorf("%s: %+v, want not run because %q", c.name, got, c.reason)
		}
	}

	bad := exactGPU
	bad.Status, bad.Check = bench.StatusCheckFailed, &bench.Check{OK: false, Detail: "W[1,2] differs"}
	if m := claimOf(t, kleeneTable3Claims([]bench.Record{bad}), "match"); m.Verdict != experiments.NotReproduced {
		t.Errorf("a failed GPU check: %+v, want not reproduced", m)
	}

	// Growth of update W: 8-fold from 2000 to 4000 reproduces the claim,
	// 3-fold does not.
	for _, c := range []struct {
		at4000 float64
		want   experiments.Verdict
	}{{8000, experiments.Reproduced}, {3000, experiments.NotReproduced}} {
		run := []bench.Record{
			experimentstest.KleeneRecord("kleene/table2", "cpu/paper", "2000", map[string]float64{"update_w": 1000, "total": 1100}),
			experimentstest.KleeneRecord("kleene/table2", "cpu/paper", "4000", map[string]float64{"update_w": c.at4000, "total": c.at4000 + 100}),
		}
		if got := claimOf(t, kleeneTable2Claims(run), "8-fold"); got.Verdict != c.want {
			t.Errorf("update W %g ms at n = 4000 after 1000 at 2000: %+v, want %s", c.at4000, got, c.want)
		}
	}
}
