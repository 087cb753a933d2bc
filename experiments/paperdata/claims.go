package paperdata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Claim is one claim of a paper as its catalogue
// (experiments/<paper>/paper/claims.json, README.md) transcribes it:
// where the paper states it, in a few words, with the paper's own figure.
type Claim struct {
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
func (c Claim) WhereText() string {
	if c.Page == "" {
		return c.Where
	}
	return c.Where + " (p. " + c.Page + ")"
}

// decodeClaims reads one paper's catalogue file (name, for its errors)
// strictly: no unknown field, at least one claim, every claim of the same
// paper, with an ID (unique), a paper, a place, the claim, a figure and
// its source, and either an experiment or the reason it is untestable,
// not both.
func decodeClaims(name string, data []byte) ([]Claim, error) {
	var doc struct {
		Claims []Claim `json:"claims"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(doc.Claims) == 0 {
		return nil, fmt.Errorf("%s: no claims", name)
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
			return nil, fmt.Errorf("%s: claim %d (%q) lacks %s", name, i+1, c.ID, strings.Join(missing, ", "))
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("%s: claim %s repeated", name, c.ID)
		}
		seen[c.ID] = true
		if first := doc.Claims[0].Paper; c.Paper != first {
			return nil, fmt.Errorf("%s: claim %s is of paper %s, the file's first claim of %s (a file per paper)", name, c.ID, c.Paper, first)
		}
		if (c.Experiment == "") == (c.Untestable == "") {
			return nil, fmt.Errorf("%s: claim %s needs either an experiment or the reason it is untestable, not both", name, c.ID)
		}
		if v := c.Figure.Value; v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return nil, fmt.Errorf("%s: claim %s: figure value %v", name, c.ID, *v)
		}
		if err := checkTolerance(c); err != nil {
			return nil, fmt.Errorf("%s: claim %s: %w", name, c.ID, err)
		}
	}
	return doc.Claims, nil
}

// checkTolerance holds a claim's tolerance to its rules: a claim with a
// rule states one, in words and with its reason; a factor is at least 1,
// and a low bound lies below a high one.
func checkTolerance(c Claim) error {
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
