package paperdata

import (
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDecodeClaimsRejects holds the reader of a catalogue file to its rules.
func TestDecodeClaimsRejects(t *testing.T) {
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
		if _, err := decodeClaims("experiments/a/paper/claims.json", []byte(doc)); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "experiments/a/paper/claims.json: ") {
			t.Errorf("%s: the error does not name the file: %v", name, err)
		}
	}
	good := `{"claims":[{"id":"a#b","paper":"p","where":"w","claim":"c","figure":{"text":"t","value":2,"source":"s"},"experiment":"a","tolerance":{"text":"within 2x","reason":"why","factor":2}}]}`
	if cs, err := decodeClaims("experiments/a/paper/claims.json", []byte(good)); err != nil || len(cs) != 1 || *cs[0].Figure.Value != 2 || Num(cs[0].Tolerance.Factor) != 2 || !math.IsNaN(Num(cs[0].Tolerance.Low)) {
		t.Errorf("a good catalogue: %+v, %v", cs, err)
	}
}

// TestRead holds the reader of the papers' data to its rules, on
// papers of its own: each paper's claims and tables in its order, a paper
// without data or without a catalogue read as having none; a claim of
// another paper, an ID in two papers' catalogues and a bad table are
// refused, naming the files.
func TestRead(t *testing.T) {
	claim := func(id, paper string) string {
		return `{"id":"` + id + `","paper":"` + paper + `","where":"w","claim":"c","figure":{"text":"t","source":"s"},"untestable":"why"}`
	}
	file := func(claims ...string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"claims":[` + strings.Join(claims, ",") + `]}`)}
	}
	table := func(exp string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"schema":3,"semibench":{"version":"paper"},"machine":{"label":"m","cpu":"the authors' CPU","cores":4},"started":"2013-01-01T00:00:00Z","scale":"paper","source":"a test"}` + "\n" +
			`{"experiment":"` + exp + `","impl":"cpu/paper","status":"ok","statistic":"paper","phases":[{"name":"total","stat_ms":1}]}` + "\n")}
	}
	paper := func(file, dir string, fsys fstest.MapFS) Source { return Source{file, dir, fsys} }
	a := paper("000_x.txt", "experiments/a", fstest.MapFS{
		"paper/claims.json": file(claim("a/t#2", "000_x.txt"), claim("a/t#1", "000_x.txt")),
		"paper/t2.jsonl":    table("a/t2"),
		"paper/t1.jsonl":    table("a/t1"),
		"paper/notes.md":    &fstest.MapFile{Data: []byte("not data")},
	})
	b := paper("001_y.txt", "experiments/b", fstest.MapFS{"paper/t1.jsonl": table("b/t1")})
	cs, ts, err := Read([]Source{a, {"toy.txt", "internal/example", fstest.MapFS{}}, b})
	if err != nil {
		t.Fatal(err)
	}
	var ids, exps []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	for _, f := range ts {
		exps = append(exps, f.Records[0].Experiment)
	}
	if want := []string{"a/t#2", "a/t#1"}; !slices.Equal(ids, want) {
		t.Errorf("claims %v, want %v", ids, want)
	}
	if want := []string{"a/t1", "a/t2", "b/t1"}; !slices.Equal(exps, want) {
		t.Errorf("tables of %v, want %v", exps, want)
	}

	for name, tc := range map[string]struct {
		papers []Source
		names  []string // what the error names
	}{
		"a claim of another paper": {[]Source{paper("001_y.txt", "experiments/b", fstest.MapFS{"paper/claims.json": file(claim("b/t#1", "000_x.txt"))})},
			[]string{"experiments/b/paper/claims.json", "b/t#1", "000_x.txt"}},
		"an ID in two papers": {[]Source{a, paper("001_y.txt", "experiments/b", fstest.MapFS{"paper/claims.json": file(claim("a/t#1", "001_y.txt"))})},
			[]string{"experiments/a/paper/claims.json", "experiments/b/paper/claims.json", "claim a/t#1"}},
		"a bad catalogue": {[]Source{paper("001_y.txt", "experiments/b", fstest.MapFS{"paper/claims.json": &fstest.MapFile{Data: []byte(`{"claims":[{"id":"b/t#1"}]}`)}})},
			[]string{"experiments/b/paper/claims.json", "b/t#1"}},
		"a bad table": {[]Source{paper("001_y.txt", "experiments/b", fstest.MapFS{"paper/t1.jsonl": &fstest.MapFile{Data: []byte("{\"schema\":3}\nnot json\n{}\n")}})},
			[]string{"experiments/b/paper/t1.jsonl"}},
	} {
		_, _, err := Read(tc.papers)
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

// TestRegister: a registered paper's data is read at the next use, and a
// paper registered twice panics.
func TestRegister(t *testing.T) {
	Register("999_z.txt", "experiments/z", fstest.MapFS{"paper/claims.json": {Data: []byte(
		`{"claims":[{"id":"z/t#1","paper":"999_z.txt","where":"w","claim":"c","figure":{"text":"t","value":3,"source":"s"},"untestable":"why"}]}`)}})
	if c, ok := ClaimByID("z/t#1"); !ok || PaperValue("z/t#1") != 3 || c.Paper != "999_z.txt" {
		t.Errorf("the registered claim: %+v, %v", c, ok)
	}
	defer func() {
		if recover() == nil {
			t.Error("a paper registered twice: no panic")
		}
	}()
	Register("999_z.txt", "experiments/z", fstest.MapFS{})
}
