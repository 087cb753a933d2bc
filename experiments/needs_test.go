package experiments_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
)

// TestEveryClaimHasNeeds holds the claims and their needs to one another:
// every claim a run can decide (all but the not-testable ones) has an ID,
// the IDs are unique, and at every
// scale each claim has a need naming cells that exist in the experiments'
// cases, and each need a claim.
func TestEveryClaimHasNeeds(t *testing.T) {
	claims := experiments.AllClaims(nil)
	var ids []string
	for _, c := range claims {
		if c.Verdict == experiments.NotTestable {
			continue // no cell decides it (its paper's catalogue says why)
		}
		if c.ID == "" {
			t.Errorf("claim without ID: %s %s", c.Paper, c.Where)
			continue
		}
		if slices.Contains(ids, c.ID) {
			t.Errorf("claim ID %s repeated", c.ID)
		}
		ids = append(ids, c.ID)
	}
	for _, s := range experiments.Scales {
		needs := experiments.Needs(experiments.All(), s, experiments.Options{})
		var have []string
		for _, n := range needs {
			have = append(have, n.Claim)
			if !slices.Contains(ids, n.Claim) {
				t.Errorf("%s: need for unknown claim %s", s, n.Claim)
			}
			if len(n.Paper)+len(n.Least) == 0 && s != experiments.Large { // large scale may lack a claim's cells
				t.Errorf("%s: %s needs no cell", s, n.Claim)
			}
			if s != experiments.Paper && len(n.Paper) > 0 {
				t.Errorf("%s: %s has cells at the paper's size at %s scale", s, n.Claim, s)
			}
			for _, c := range append(slices.Clone(n.Paper), n.Least...) {
				if !caseExists(c, s) {
					t.Errorf("%s: %s needs %s, which is no cell at this scale", s, n.Claim, c.Key())
				}
			}
		}
		for _, id := range ids {
			if !slices.Contains(have, id) {
				t.Errorf("%s: claim %s declares no need", s, id)
			}
		}
	}
}

// caseExists reports whether c is a cell of its experiment at scale s.
func caseExists(c experiments.CellRef, s experiments.Scale) bool {
	e := experiments.ByName(c.Experiment)
	if e == nil {
		return false
	}
	for _, cs := range e.Cases(s, experiments.Options{}) {
		if cs.Params.String() != c.Params.String() {
			continue
		}
		for _, impl := range strings.Split(c.Impl, "|") {
			if slices.Contains(e.ImplsFor(cs, ""), impl) {
				return true
			}
		}
	}
	return false
}
