package experiments_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/paperdata"
)

// TestCatalogueRows holds the claims catalogue (experiments/<paper>/paper/claims.json) and
// the claim rows to one another: the catalogue's papers are the
// registered papers; every catalogued claim has exactly one row and every
// row a catalogued claim; a claim with a rule is
// computed by the experiment the catalogue names, and a claim without one
// is not testable, with the catalogue's reason.
func TestCatalogueRows(t *testing.T) {
	cat, err := paperdata.Claims()
	if err != nil {
		t.Fatal(err)
	}
	ruleOf := map[string]string{} // claim ID -> the experiment whose rule gives it
	for _, e := range experiments.All() {
		if e.Claims == nil {
			continue
		}
		for _, c := range e.Claims(nil) {
			if prev, ok := ruleOf[c.ID]; ok {
				t.Errorf("claim %s has rules in %s and %s", c.ID, prev, e.Name)
			}
			ruleOf[c.ID] = e.Name
		}
	}
	rows := map[string][]experiments.Claim{}
	for _, c := range experiments.AllClaims(nil) {
		rows[c.ID] = append(rows[c.ID], c)
	}
	var catPapers, registered []string
	for _, cc := range cat {
		if !slices.Contains(catPapers, cc.Paper) {
			catPapers = append(catPapers, cc.Paper)
		}
	}
	for _, p := range experiments.Papers() {
		registered = append(registered, p.File)
	}
	if !slices.Equal(catPapers, registered) {
		t.Errorf("the catalogue's papers %v, the registered papers %v", catPapers, registered)
	}
	inCat := map[string]bool{}
	for _, cc := range cat {
		inCat[cc.ID] = true
		rs := rows[cc.ID]
		if len(rs) != 1 {
			t.Errorf("%s: %d rows, want 1", cc.ID, len(rs))
			continue
		}
		r := rs[0]
		if r.Where != cc.WhereText() || r.Paper != experiments.PaperName(cc.Paper) || r.Paper == "" {
			t.Errorf("%s: row placed at %q of %q, the catalogue says %q of %s", cc.ID, r.Where, r.Paper, cc.WhereText(), cc.Paper)
		}
		switch exp, ruled := ruleOf[cc.ID]; {
		case cc.Untestable != "":
			if ruled || r.Verdict != experiments.NotTestable || r.Reason != cc.Untestable {
				t.Errorf("%s: untestable in the catalogue, but its row is %s (%s) and a rule in %q", cc.ID, r.Verdict, r.Reason, exp)
			}
		case !ruled:
			t.Errorf("%s: no experiment's rule gives it (the catalogue names %s)", cc.ID, cc.Experiment)
		case exp != cc.Experiment:
			t.Errorf("%s: its rule is in %s, the catalogue names %s", cc.ID, exp, cc.Experiment)
		case r.Verdict == experiments.NotTestable:
			t.Errorf("%s: a rule's row says not testable", cc.ID)
		}
	}
	for id := range rows {
		if !inCat[id] {
			t.Errorf("claim %s is in no paper's catalogue", id)
		}
	}
}

// TestNotTestableVerdicts: a not-testable row keeps its verdict through
// Judge at every scale and schema, is never scored, and counts apart.
func TestNotTestableVerdicts(t *testing.T) {
	for _, schema := range []int{1, 2} {
		for _, c := range experiments.Judge(nil, experiments.Paper, schema) {
			cc, _ := paperdata.ClaimByID(c.ID)
			if (cc.Untestable != "") != (c.Verdict == experiments.NotTestable) {
				t.Errorf("schema %d: %s is %s", schema, c.ID, c.Verdict)
			}
			if c.Verdict == experiments.NotTestable && (c.Verdict.Scored() || c.Verdict.Decided() || c.Rerun != "") {
				t.Errorf("%s: a not-testable row scored, decided or with a re-run: %+v", c.ID, c)
			}
		}
	}
}

// TestTolerancesStated: every testable claim states its tolerance with a
// reason, and its row's text shows it.
func TestTolerancesStated(t *testing.T) {
	rows := map[string]experiments.Claim{}
	for _, c := range experiments.AllClaims(nil) {
		rows[c.ID] = c
	}
	cat, _ := paperdata.Claims()
	for _, cc := range cat {
		if cc.Untestable != "" {
			continue
		}
		if cc.Tolerance == nil || strings.TrimSpace(cc.Tolerance.Reason) == "" {
			t.Errorf("%s: no tolerance with its reason", cc.ID)
			continue
		}
		if !strings.Contains(rows[cc.ID].Text, "Tolerance: "+cc.Tolerance.Text) {
			t.Errorf("%s: its text does not state its tolerance: %s", cc.ID, rows[cc.ID].Text)
		}
	}
}
