package results

import (
	"math"
	"strings"
	"testing"
)

// TestClaimsCatalogue reads the embedded catalogue: every claim is
// complete (decodeClaims), names a paper of shared/papers, and the figures
// the rules read are there.
func TestClaimsCatalogue(t *testing.T) {
	cs, err := Claims()
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
	if len(papers) != 5 {
		t.Errorf("claims of %d papers, want 5: %v", len(papers), papers)
	}
	for id, want := range map[string]float64{"kleene/table2#growth": 8, "treefix/fig7#star": 5, "treefix/fig7#caterpillar": 5000,
		"hungarian/fig6#n4-over-n3": 2, "treefix/accuracy#2-bits": 2, "treefix/fig5#vectorial-60x": 60} {
		if got := PaperValue(id); got != want {
			t.Errorf("PaperValue(%s) = %v, want %v", id, got, want)
		}
	}
	if v := PaperValue("no/such#claim"); !math.IsNaN(v) {
		t.Errorf("an unknown claim's value = %v, want NaN", v)
	}
	if c, ok := ClaimByID("hungarian/table2#speedup-n"); !ok || c.WhereText() != "section 5, Table 2 (p. 57)" {
		t.Errorf("ClaimByID(hungarian/table2#speedup-n) = %+v, %v", c, ok)
	}
}

// TestClaimsDecodeRejects holds the reader to its rules.
func TestClaimsDecodeRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown field": `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"experiment":"a","extra":1}]}`,
		"no figure":     `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","experiment":"a"}]}`,
		"repeated":      `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"experiment":"a"},{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"experiment":"a"}]}`,
		"neither":       `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"}}]}`,
		"both":          `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"experiment":"a","untestable":"why"}]}`,
		"no tolerance":  `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"experiment":"a"}]}`,
		"no reason":     `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"experiment":"a","tolerance":{"text":"exact","reason":" "}}]}`,
		"factor < 1":    `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"experiment":"a","tolerance":{"text":"x","reason":"y","factor":0.5}}]}`,
		"low > high":    `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"experiment":"a","tolerance":{"text":"x","reason":"y","low":2,"high":1}}]}`,
	} {
		if _, err := decodeClaims([]byte(doc)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	good := `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","value":2,"source":"s"},"experiment":"a","tolerance":{"text":"within 2x","reason":"why","factor":2}}]}`
	if cs, err := decodeClaims([]byte(good)); err != nil || len(cs) != 1 || *cs[0].Figure.Value != 2 || Num(cs[0].Tolerance.Factor) != 2 || !math.IsNaN(Num(cs[0].Tolerance.Low)) {
		t.Errorf("a good catalogue: %+v, %v", cs, err)
	}
}
