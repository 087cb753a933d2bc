package results

import (
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestClaimsCatalogue reads the embedded catalogue: every claim is
// complete (readClaims), names a paper of shared/papers, the papers come
// in number order, and the figures the rules read are there.
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
	if !slices.IsSortedFunc(cs, func(a, b CatalogueClaim) int { return strings.Compare(a.Paper, b.Paper) }) {
		t.Error("the claims are not in the papers' order")
	}
	if len(papers) < 5 { // the registered papers' exactly: experiments' TestCatalogueRows
		t.Errorf("claims of %d papers, want the five papers' at least: %v", len(papers), papers)
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
		"no claims":     `{"claims":[]}`,
		"two papers":    `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","source":"s"},"untestable":"why"},{"id":"a#c","paper":"q","where":"w","claim":"c","figure":{"text":"t","source":"s"},"untestable":"why"}]}`,
	} {
		if _, err := decodeClaims("paper/claims/000-a.json", []byte(doc)); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "results/paper/claims/000-a.json: ") {
			t.Errorf("%s: the error does not name the file: %v", name, err)
		}
	}
	good := `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","value":2,"source":"s"},"experiment":"a","tolerance":{"text":"within 2x","reason":"why","factor":2}}]}`
	if cs, err := decodeClaims("paper/claims/000-a.json", []byte(good)); err != nil || len(cs) != 1 || *cs[0].Figure.Value != 2 || Num(cs[0].Tolerance.Factor) != 2 || !math.IsNaN(Num(cs[0].Tolerance.Low)) {
		t.Errorf("a good catalogue: %+v, %v", cs, err)
	}
}

// TestReadClaimsFiles holds the reader of the catalogue's folder to its
// rules across files, on a folder of its own: the files are read in name
// order, and an ID in two files, a paper in two files or a file named
// without its paper's number is refused, naming the files.
func TestReadClaimsFiles(t *testing.T) {
	claim := func(id, paper string) string {
		return `{"id":"` + id + `","paper":"` + paper + `","where":"w","claim":"c","figure":{"text":"t","source":"s"},"untestable":"why"}`
	}
	file := func(claims ...string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"claims":[` + strings.Join(claims, ",") + `]}`)}
	}
	good := fstest.MapFS{
		"paper/claims/001-b.json":   file(claim("b/t#2", "001_y.txt"), claim("b/t#1", "001_y.txt")),
		"paper/claims/000-a.json":   file(claim("a/t#1", "000_x.txt")),
		"paper/claims/README.md":    &fstest.MapFile{Data: []byte("not a catalogue file")},
		"paper/other/002-c.json":    file(claim("c/t#1", "002_z.txt")),
		"paper/claims.json":         file(claim("d/t#1", "003_w.txt")),
		"paper/claims/sub/004.json": file(claim("e/t#1", "004_v.txt")),
	}
	cs, err := readClaims(good)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	if want := []string{"a/t#1", "b/t#2", "b/t#1"}; !slices.Equal(ids, want) {
		t.Errorf("read %v, want %v", ids, want)
	}

	for name, tc := range map[string]struct {
		fsys  fstest.MapFS
		names []string // what the error names
	}{
		"an ID in two files": {fstest.MapFS{
			"paper/claims/000-a.json": file(claim("a/t#1", "000_x.txt")),
			"paper/claims/001-b.json": file(claim("b/t#1", "001_y.txt"), claim("a/t#1", "001_y.txt")),
		}, []string{"results/paper/claims/000-a.json", "results/paper/claims/001-b.json", "claim a/t#1"}},
		"a paper in two files": {fstest.MapFS{
			"paper/claims/000-a.json": file(claim("a/t#1", "000_x.txt")),
			"paper/claims/000-b.json": file(claim("a/t#2", "000_x.txt")),
		}, []string{"results/paper/claims/000-a.json", "results/paper/claims/000-b.json", "000_x.txt"}},
		"a name without the paper's number": {fstest.MapFS{
			"paper/claims/000-a.json": file(claim("a/t#1", "001_x.txt")),
		}, []string{"results/paper/claims/000-a.json", "001-"}},
		"a bad file": {fstest.MapFS{
			"paper/claims/000-a.json": file(claim("a/t#1", "000_x.txt")),
			"paper/claims/001-b.json": &fstest.MapFile{Data: []byte(`{"claims":[{"id":"b/t#1"}]}`)},
		}, []string{"results/paper/claims/001-b.json", "b/t#1"}},
		"no file": {fstest.MapFS{"paper/claims.json": file(claim("a/t#1", "000_x.txt"))}, []string{"results/paper/claims"}},
	} {
		_, err := readClaims(tc.fsys)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		for _, s := range tc.names {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: the error does not name %s: %v", name, s, err)
			}
		}
	}
}
