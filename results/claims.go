package results

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strings"
	"sync"
)

// claimsDir is the catalogue's folder inside the embedded results folder:
// one file per paper, NNN-<package>.json, NNN the paper's number (its
// README.md says what a claim holds).
const claimsDir = "paper/claims"

//go:embed paper/claims/*.json
var claimsFS embed.FS

// CatalogueClaim is one claim of a paper as the catalogue
// (results/paper/claims/, a file per paper) transcribes it: where the
// paper states it, in a few words, with the paper's own figure.
type CatalogueClaim struct {
	// ID names the claim's row in the verdicts ("kleene/table2#growth").
	ID string `json:"id"`
	// Paper is the paper's file in shared/papers.
	Paper string `json:"paper"`
	// Where is the section, table or figure that states the claim.
	Where string `json:"where"`
	// Page is the page, only where the paper's text shows one.
	Page string `json:"page,omitempty"`
	// Claim is the claim in a few words.
	Claim string `json:"claim"`
	// Figure is the paper's figure for the claim.
	Figure Figure `json:"figure"`
	// Experiment is the experiment whose rule decides the claim; empty
	// for a claim no cell can decide.
	Experiment string `json:"experiment,omitempty"`
	// Untestable says why no cell can decide the claim (a statement about
	// the authors' hardware, another paper's result, a conjecture); empty
	// for a claim with a rule.
	Untestable string `json:"untestable,omitempty"`
	// Tolerance is how far ours may be from the paper's figure and still
	// reproduce it, with the reason for that margin; every claim with a
	// rule has one.
	Tolerance *Tolerance `json:"tolerance,omitempty"`
}

// Tolerance is a claim's margin: in words, why, and the numbers the rule
// reads. Factor is a ratio either way (ours within paper/Factor to
// paper*Factor; for a comparison of samples, the least ratio of medians
// that counts); Low and High bound ours directly. An exact claim has no
// number.
type Tolerance struct {
	Text   string   `json:"text"`
	Reason string   `json:"reason"`
	Factor *float64 `json:"factor,omitempty"`
	Low    *float64 `json:"low,omitempty"`
	High   *float64 `json:"high,omitempty"`
}

// Num is one of the tolerance's numbers, NaN when the catalogue gives
// none (so that no rule gives a verdict without it).
func Num(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

// Figure is a paper's figure for a claim: as the paper gives it, the
// number a rule compares with (when one does), and where it is read.
type Figure struct {
	Text string `json:"text"`
	// Value is the number a rule reads; nil when the rule reads none or
	// reads the paper's transcribed table named in Source.
	Value  *float64 `json:"value,omitempty"`
	Source string   `json:"source"`
}

// WhereText is the claim's place in the paper with its page when the text
// shows one: "section 5, Table 2 (p. 57)".
func (c CatalogueClaim) WhereText() string {
	if c.Page == "" {
		return c.Where
	}
	return c.Where + " (p. " + c.Page + ")"
}

// catalogue is the decoded catalogue, read once.
var catalogue = sync.OnceValues(func() ([]CatalogueClaim, error) { return readClaims(claimsFS) })

// Claims returns the catalogue of every claim of the papers, in its order:
// its files in name order (the papers in number order), each file's
// claims in the file's order.
func Claims() ([]CatalogueClaim, error) {
	cs, err := catalogue()
	if err != nil {
		return nil, err
	}
	return append([]CatalogueClaim(nil), cs...), nil
}

// ClaimByID returns the catalogue's claim of that ID.
func ClaimByID(id string) (CatalogueClaim, bool) {
	cs, _ := catalogue() // the embedded catalogue is tested; never fails in a built binary
	for _, c := range cs {
		if c.ID == id {
			return c, true
		}
	}
	return CatalogueClaim{}, false
}

// PaperValue is the number the paper gives for a claim (its figure's
// value), or NaN when the catalogue has none: a rule that compares with
// NaN gives no verdict.
func PaperValue(id string) float64 {
	c, ok := ClaimByID(id)
	if !ok || c.Figure.Value == nil {
		return math.NaN()
	}
	return *c.Figure.Value
}

// readClaims reads the catalogue's files in fsys (claimsDir/*.json) in
// name order, each with decodeClaims, and holds them to one another: a
// file's name begins with its paper's number, a paper's claims are in one
// file, and an ID is in one file only.
func readClaims(fsys fs.FS) ([]CatalogueClaim, error) {
	names, err := fs.Glob(fsys, claimsDir+"/*.json")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("results/%s: no catalogue file", claimsDir)
	}
	slices.Sort(names)
	var all []CatalogueClaim
	fileOf := map[string]string{} // "claim <ID>" or "the claims of <paper>" -> the file that holds it
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		cs, err := decodeClaims(name, data)
		if err != nil {
			return nil, err
		}
		paper := cs[0].Paper
		if num, _, _ := strings.Cut(paper, "_"); !strings.HasPrefix(path.Base(name), num+"-") {
			return nil, fmt.Errorf("results/%s: the name does not begin with its paper's number (%s-, of %s)", name, num, paper)
		}
		held := []string{"the claims of " + paper}
		for _, c := range cs {
			held = append(held, "claim "+c.ID)
		}
		for _, key := range held {
			if prev, ok := fileOf[key]; ok {
				return nil, fmt.Errorf("results/%s and results/%s: both hold %s", prev, name, key)
			}
			fileOf[key] = name
		}
		all = append(all, cs...)
	}
	return all, nil
}

// decodeClaims reads one file of the catalogue (name, for its errors)
// strictly: no unknown field, at least one claim, every claim of the same
// paper, with an ID (unique), a paper, a place, the claim, a figure and
// its source, and either an experiment or the reason it is untestable,
// not both.
func decodeClaims(name string, data []byte) ([]CatalogueClaim, error) {
	var doc struct {
		Claims []CatalogueClaim `json:"claims"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("results/%s: %w", name, err)
	}
	if len(doc.Claims) == 0 {
		return nil, fmt.Errorf("results/%s: no claims", name)
	}
	seen := map[string]bool{}
	for i, c := range doc.Claims {
		var missing []string
		for _, f := range []struct{ name, v string }{{"id", c.ID}, {"paper", c.Paper}, {"where", c.Where}, {"claim", c.Claim},
			{"figure.text", c.Figure.Text}, {"figure.source", c.Figure.Source}} {
			if strings.TrimSpace(f.v) == "" {
				missing = append(missing, f.name)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("results/%s: claim %d (%q) lacks %s", name, i+1, c.ID, strings.Join(missing, ", "))
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("results/%s: claim %s repeated", name, c.ID)
		}
		seen[c.ID] = true
		if first := doc.Claims[0].Paper; c.Paper != first {
			return nil, fmt.Errorf("results/%s: claim %s is of paper %s, the file's first claim of %s (a file per paper)", name, c.ID, c.Paper, first)
		}
		if (c.Experiment == "") == (c.Untestable == "") {
			return nil, fmt.Errorf("results/%s: claim %s needs either an experiment or the reason it is untestable, not both", name, c.ID)
		}
		if v := c.Figure.Value; v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return nil, fmt.Errorf("results/%s: claim %s: figure value %v", name, c.ID, *v)
		}
		if err := checkTolerance(c); err != nil {
			return nil, fmt.Errorf("results/%s: claim %s: %w", name, c.ID, err)
		}
	}
	return doc.Claims, nil
}

// checkTolerance holds a claim's tolerance to its rules: a claim with a
// rule states one, in words and with its reason; a factor is at least 1,
// and a low bound lies below a high one.
func checkTolerance(c CatalogueClaim) error {
	t := c.Tolerance
	switch {
	case t == nil && c.Experiment != "":
		return fmt.Errorf("no tolerance")
	case t == nil:
		return nil
	case strings.TrimSpace(t.Text) == "" || strings.TrimSpace(t.Reason) == "":
		return fmt.Errorf("a tolerance needs its text and its reason")
	case t.Factor != nil && !(*t.Factor >= 1):
		return fmt.Errorf("tolerance factor %v below 1", *t.Factor)
	case t.Low != nil && t.High != nil && !(*t.Low < *t.High):
		return fmt.Errorf("tolerance low %v not below high %v", *t.Low, *t.High)
	}
	return nil
}
