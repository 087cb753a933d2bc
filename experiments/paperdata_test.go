package experiments_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/paperdata"
)

// TestClaimsCatalogue reads the registered papers' catalogues: every claim
// names a paper of shared/papers, the papers come in number order, and
// the figures the rules read are there.
func TestClaimsCatalogue(t *testing.T) {
	cs, err := paperdata.Claims()
	if err != nil {
		t.Fatal(err)
	}
	papers := map[string]int{}
	for _, c := range cs {
		papers[c.Paper]++
		if !strings.HasSuffix(c.Paper, ".txt") || len(c.Paper) != len("000_c78fb6cc642483eb.txt") {
			t.Errorf("%s: paper %q is no file of shared/papers", c.ID, c.Paper)
		}
		if c.Experiment != "" && !strings.HasPrefix(c.ID, c.Experiment+"#") {
			t.Errorf("%s: the ID of a claim with a rule is <experiment>#<what>, its experiment %s", c.ID, c.Experiment)
		}
	}
	if !slices.IsSortedFunc(cs, func(a, b paperdata.Claim) int { return strings.Compare(a.Paper, b.Paper) }) {
		t.Error("the claims are not in the papers' order")
	}
	if len(papers) != len(experiments.Papers()) {
		t.Errorf("claims of %d papers, want every registered paper's (%d): %v", len(papers), len(experiments.Papers()), papers)
	}
	for id, want := range map[string]float64{"kleene/table2#growth": 8, "treefix/fig7#star": 5, "treefix/fig7#caterpillar": 5000,
		"hungarian/fig6#n4-over-n3": 2, "treefix/accuracy#2-bits": 2, "treefix/fig5#vectorial-60x": 60} {
		if got := experiments.PaperValue(id); got != want {
			t.Errorf("PaperValue(%s) = %v, want %v", id, got, want)
		}
	}
	if v := experiments.PaperValue("no/such#claim"); !math.IsNaN(v) {
		t.Errorf("an unknown claim's value = %v, want NaN", v)
	}
	if c, ok := paperdata.ClaimByID("hungarian/table2#speedup-n"); !ok || c.WhereText() != "section 5, Table 2 (p. 57)" {
		t.Errorf("ClaimByID(hungarian/table2#speedup-n) = %+v, %v", c, ok)
	}
}

// TestPaperTables checks that every paper's transcribed table decodes, is
// marked as transcribed, is of a registered experiment, and that the
// Kleene tables hold the paper's totals.
func TestPaperTables(t *testing.T) {
	files, err := paperdata.Tables()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("%d paper tables, want at least 2", len(files))
	}
	for _, f := range files {
		if f.Source == "" {
			t.Errorf("%s: no source", f.Machine.Label)
		}
		for _, r := range f.Records {
			if r.Statistic != "paper" || len(r.Phases) == 0 {
				t.Errorf("%s: record %s not a transcribed table cell", f.Machine.Label, r.Key())
			}
			if experiments.ByName(r.Experiment) == nil {
				t.Errorf("%s: record %s of no registered experiment", f.Machine.Label, r.Key())
			}
		}
	}
	want := map[string]float64{"kleene/table2": 67249.1, "kleene/table3": 2292.5}
	for exp, total := range want {
		recs, _ := paperdata.PaperRecords(exp)
		var got float64
		for _, r := range recs {
			if r.Params.Get("n") == "4000" {
				got = r.Phase("total").StatMS
			}
		}
		if got != total {
			t.Errorf("%s total at n=4000 = %v, want %v", exp, got, total)
		}
	}
}
