package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/paperdata"
)

// Verdict is what a run says of a paper's claim. It is computed from the
// run's records by the experiment's Claims function, never typed.
type Verdict string

// The verdicts of a claim.
const (
	Reproduced    Verdict = "reproduced"     // ours agrees with the paper's figure within the claim's tolerance
	Exceeded      Verdict = "exceeded"       // ours is better than the paper's figure by more than the tolerance
	NotReproduced Verdict = "not reproduced" // ours contradicts the claim
	NotRun        Verdict = "not run"        // the cells it needs did not run; Reason says why
)

// Claim is one claim of a paper with the run's verdict on it.
type Claim struct {
	// ID names the claim across runs and in Need.Claim:
	// "<experiment>#<what>".
	ID string
	// Paper is the paper's short name with its file number ("Kleene (000)").
	Paper string
	// Experiment is the experiment whose tables show the claim; the report
	// links the claim to them. AllClaims fills it in.
	Experiment string
	// Where is the paper's table, figure or section ("Table 3").
	Where string
	// Text is the claim in words, with the rule that gives the verdict.
	Text string
	// PaperFigure is the paper's own figure for the claim ("29.3x").
	PaperFigure string
	// Ours is the run's figure, from its records ("—" when none).
	Ours string
	// Figure is the claim's own number where its rule reads one against
	// a band (a ratio, a time, a share: the number Ours shows), NaN where
	// it has none (an exact equality, an ordering, many figures); Band is
	// how the rule reads it (the zero Band with no figure). See figure.go.
	Figure  float64
	Band    Band
	Verdict Verdict
	// Level is the level of noise that decided a verdict at the papers'
	// sizes: LevelWithin, LevelOuter or LevelHistory (twolevel.go); empty
	// for other verdicts.
	Level string
	// Alone is the verdict the run gave alone where history decided
	// (Level LevelHistory); empty otherwise.
	Alone Verdict
	// Reason says why a claim was not run (skipped by the budget with its
	// estimate, unavailable, not in this run) or qualifies a verdict.
	Reason string
	// Class presets the claim's evidence class when its rule's outcome is
	// never scored: NotComparable or ByConstruction; empty otherwise.
	Class Verdict
	// Rerun is the command that re-runs the cells the claim reads.
	Rerun string
}

// Note renders the claim as a table note: the claim, the paper's figure,
// ours and the verdict.
func (c Claim) Note() string {
	s := fmt.Sprintf("Claim (%s): %s Paper: %s; ours: %s; verdict: %s", c.Where, c.Text, c.PaperFigure, c.Ours, c.Verdict)
	if c.Reason != "" {
		s += " (" + c.Reason + ")"
	}
	s += "."
	if c.Rerun != "" {
		s += " Re-run: `" + c.Rerun + "`."
	}
	return s
}

// Short is the claim in words without its rule: the text up to where it
// turns to ours (": ours", " Ours:"), at most 200 characters, shortened
// by whole words.
func (c Claim) Short() string {
	t := c.Text
	for _, cut := range []string{": ours", " Ours:", ". Ours", ". Reproduced", " Tolerance:"} {
		if i := strings.Index(t, cut); i > 0 {
			t = t[:i]
		}
	}
	if r := []rune(t); len(r) > 200 {
		// shortened by whole words, so that no figure is cut
		cut := strings.LastIndex(string(r[:197]), " ")
		t = strings.TrimRight(string(r[:max(cut, 0)]), " ,;:") + "..."
	}
	return strings.TrimSuffix(t, ".") + "."
}

// WithTolerance is c with the tolerance in words and its reason after its
// text, as every claim of the catalogue shows its margin.
func (c Claim) WithTolerance(t paperdata.Tolerance) Claim {
	c.Text = strings.TrimSpace(c.Text) + " Tolerance: " + t.Text + " (" + t.Reason + ")."
	return c
}

// VerdictText is the verdict with its reason.
func (c Claim) VerdictText() string {
	if c.Reason == "" {
		return string(c.Verdict)
	}
	return string(c.Verdict) + ": " + c.Reason
}

// whyNot says why a cell gives no figure: not in this run, skipped by the
// budget (with its estimate), unavailable, or failed. impl and p name the
// cell when r is nil.
func whyNot(r *bench.Record, impl string, p bench.Params) string {
	cell := impl
	if s := p.String(); s != "" {
		cell += " at " + s
	}
	if r == nil {
		return cell + " not in this run"
	}
	switch r.Status {
	case bench.StatusSkipped:
		return cell + " skipped by the budget (" + strings.TrimPrefix(CellText(r, bench.TotalPhase), "skipped (") // "est. 3 min)"
	case bench.StatusUnavailable:
		return cell + " unavailable (no GPU or CUDA driver on this machine)"
	case bench.StatusFailed:
		return cell + " failed: " + firstLineOf(r.Error)
	case bench.StatusCheckFailed:
		return cell + " failed its check"
	}
	return cell + " has no total"
}

// firstLineOf is s up to its first line break.
func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// NotRunFor returns c with the verdict not run and the reason of the first of
// the cells that has no figure.
func (c Claim) NotRunFor(cells ...ClaimCell) Claim {
	c = c.withoutFigure()
	c.Verdict, c.Ours = NotRun, "—"
	for _, x := range cells {
		if !Ran(x.Rec) || x.Rec.Status != bench.StatusOK {
			c.Reason = whyNot(x.Rec, x.Impl, x.Params)
			return c
		}
	}
	if c.Reason == "" {
		c.Reason = "no cell of it in this run"
	}
	return c
}

// ClaimCell is one cell a claim draws on, named for the reason when it is
// missing.
type ClaimCell struct {
	Rec    *bench.Record
	Impl   string
	Params bench.Params
}

// CellOf looks a cell up for a claim.
func CellOf(c Cells, exp, impl string, p bench.Params) ClaimCell {
	return ClaimCell{c.Get(exp, impl, p), impl, p}
}

// OKCells reports whether every cell ran and passed its check.
func OKCells(cells ...ClaimCell) bool {
	for _, x := range cells {
		if x.Rec == nil || x.Rec.Status != bench.StatusOK {
			return false
		}
	}
	return true
}

// Directions of a ratio claim: which side of the paper's figure is better.
const (
	HigherBetter = 1  // a speedup: above the paper's by more than the tolerance is exceeded
	LowerBetter  = -1 // a time: below the paper's by more than the tolerance is exceeded
	Neither      = 0  // a growth rate: off by more than the tolerance is not reproduced
)

// ratioVerdict compares ours with the paper's figure: reproduced within a
// factor tol either way; beyond it, exceeded on the better side (see the
// directions) and not reproduced on the other.
func ratioVerdict(paper, ours, tol float64, better int) Verdict {
	switch {
	case math.IsNaN(paper) || math.IsNaN(ours) || paper <= 0 || ours <= 0:
		return NotRun
	case ours >= paper/tol && ours <= paper*tol:
		return Reproduced
	case better == HigherBetter && ours > paper*tol, better == LowerBetter && ours < paper/tol:
		return Exceeded
	}
	return NotReproduced
}

// RatioRule states ratioJudge's rule for a claim's text (the tolerance
// itself follows every claim's text: AllClaims).
func RatioRule(better int) string {
	s := "Reproduced when ours is within the claim's tolerance of the paper's"
	switch better {
	case HigherBetter:
		s += "; exceeded when above it."
	case LowerBetter:
		s += "; exceeded when below it."
	default:
		s += "."
	}
	return s
}

// ExactClaim is a claim that a run's values equal the paper's: ok counts
// the cells equal, bad names the cells that differ, cells is every cell
// the claim covers (for the reason when none ran). Any cell off the
// paper's is not reproduced; every cell equal, reproduced; some equal and
// the others not run, indicative: partial evidence ("3 of 11 equal") is
// no reproduction.
func ExactClaim(c Claim, ok int, bad []string, cells []ClaimCell) Claim {
	switch {
	case len(bad) > 0:
		c.Verdict, c.Ours = NotReproduced, fmt.Sprintf("%d equal, %d differ: %s", ok, len(bad), strings.Join(bad, "; "))
	case ok == 0:
		return c.NotRunFor(cells...)
	default:
		c.Verdict, c.Ours = Reproduced, fmt.Sprintf("%d of %d equal", ok, len(cells))
		if ok < len(cells) {
			c.Verdict = Indicative
			for _, x := range cells {
				if x.Rec == nil || x.Rec.Status != bench.StatusOK {
					c.Reason = fmt.Sprintf("%d of %d not run, so the rest is partial evidence; first: %s", len(cells)-ok, len(cells), whyNot(x.Rec, x.Impl, x.Params))
					break
				}
			}
			if c.Reason == "" {
				c.Reason = fmt.Sprintf("%d of %d without values, so the rest is partial evidence", len(cells)-ok, len(cells))
			}
		}
	}
	return c
}

// AllClaims returns a row for every claim of the catalogue
// (experiments/<paper>/paper/claims.json, a file per paper), in its order: the claims of
// every registered experiment computed by its rule on run (a claim whose
// experiment has no records in run is not run, and its Experiment is
// empty: nothing in the report to link to), each placed where the
// catalogue says the paper states it, and a row not testable, with the
// catalogue's reason, for each claim no cell can decide.
func AllClaims(run []bench.Record) []Claim {
	run = Latest(run)
	present := experimentsIn(run)
	var out []Claim
	for _, e := range All() {
		if e.Claims == nil {
			continue
		}
		host := ""
		switch {
		case slices.Contains(present, e.Name):
			host = e.Name
		case e.MeasuredBy != "" && slices.Contains(present, e.MeasuredBy):
			host = e.MeasuredBy
		}
		for _, c := range e.Claims(run) {
			c = figureChecked(c)
			c.Experiment = host
			if c.Paper == "" {
				c.Paper = PaperName(e.Paper)
			}
			if host == "" && c.Verdict == NotRun {
				c.Reason = e.Name + " not in this run"
			}
			out = append(out, c)
		}
	}
	cat, _ := paperdata.Claims() // the embedded catalogue is tested
	order := map[string]int{}
	for i, cc := range cat {
		order[cc.ID] = i
		if cc.Untestable != "" {
			out = append(out, Claim{ID: cc.ID, Paper: PaperName(cc.Paper), Text: cc.Claim + ".", PaperFigure: cc.Figure.Text,
				Ours: "—", Figure: math.NaN(), Verdict: NotTestable, Reason: cc.Untestable})
		}
	}
	for i := range out {
		if cc, ok := paperdata.ClaimByID(out[i].ID); ok {
			out[i].Where = cc.WhereText()
			if out[i].PaperFigure == "" {
				out[i].PaperFigure = cc.Figure.Text
			}
			if t := cc.Tolerance; t != nil {
				out[i] = out[i].WithTolerance(*t)
			}
		}
	}
	// In the catalogue's order (by paper); a row it lacks (a test fails
	// on it) last.
	at := func(c Claim) int {
		if i, ok := order[c.ID]; ok {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(out, func(a, b Claim) int { return at(a) - at(b) })
	return out
}

// PaperValue is the number the paper gives for a claim, from the catalogue
// (NaN when it has none, so that no rule gives a verdict without it).
func PaperValue(id string) float64 { return paperdata.PaperValue(id) }

// CatalogueFigure is the paper's figure for a claim as the catalogue gives it
// ("5x at n = 2^24"), or "—".
func CatalogueFigure(id string) string {
	if cc, ok := paperdata.ClaimByID(id); ok {
		return cc.Figure.Text
	}
	return "—"
}

// slugger gives Markdown headings their GitHub anchors: the heading in
// lower case, every character but letters, marks, digits, '_', '-' and
// spaces removed, spaces turned into '-', and "-1", "-2", ... appended to
// a repeated one.
type slugger map[string]int

// slug returns the anchor of the next heading with this text.
func (s slugger) slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.IsNumber(r):
			b.WriteRune(r)
		}
	}
	base := b.String()
	out := base
	if n := s[base]; n > 0 {
		out = fmt.Sprintf("%s-%d", base, n)
	}
	s[base]++
	return out
}
