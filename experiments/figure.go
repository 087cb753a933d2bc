package experiments

import (
	"fmt"
	"math"

	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments/paperdata"
)

// A claim's figure is the one number its rule reads against a band (a
// ratio, a time, a share), where it has one: Claim.Figure, with the band
// in Claim.Band. The verdict of a rule that compares its figure with a
// band is Band.Of(Figure); a rule whose samples' test also decides
// (CompareWithin) may say inconclusive where the band alone would not.
// The two-level rule and history read the figure: its spread over
// replicates and runs is what settles the verdict at the outer level.

// Units of a figure, for its text.
const (
	UnitRatio = "x"    // a ratio of two times (or counts)
	UnitMS    = "ms"   // a time
	UnitBits  = "bits" // bits of accuracy
	UnitShare = ""     // a plain number: a share, a coefficient
)

// Band is how a claim's rule reads its figure: the verdict Below under
// Low, Inside within [Low, High] (both edges inside) and Above over High.
// A one-sided band has Low = 0 or High = +Inf. The zero Band is none: the
// claim has no figure.
type Band struct {
	Low, High            float64
	Below, Inside, Above Verdict
	// Unit is how the figure is written (UnitRatio, UnitMS, ...).
	Unit string
}

// Valid reports whether b is a band (a claim with a figure has one).
func (b Band) Valid() bool { return b.Inside != "" && !(b.Low > b.High) }

// Of is the verdict the band gives figure x: not run when x is not a
// number or the band is none.
func (b Band) Of(x float64) Verdict {
	switch {
	case !b.Valid() || math.IsNaN(x):
		return NotRun
	case x < b.Low:
		return b.Below
	case x > b.High:
		return b.Above
	}
	return b.Inside
}

// Edges are the band's finite edges above zero, in order.
func (b Band) Edges() []float64 {
	var out []float64
	for _, e := range []float64{b.Low, b.High} {
		if e > 0 && !math.IsInf(e, 0) && (len(out) == 0 || e != out[0]) {
			out = append(out, e)
		}
	}
	return out
}

// Text writes x in the band's unit ("8.33x", "38.8 ms").
func (b Band) Text(x float64) string {
	switch b.Unit {
	case UnitRatio:
		return RatioText(x)
	case UnitMS:
		return MsTextOf(x)
	case UnitBits:
		return fmt.Sprintf("%.3g bits", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// RangeText writes the band's edges ("6.40x-10.0x", "at least 2.00x").
func (b Band) RangeText() string {
	switch {
	case !(b.Low > 0) && math.IsInf(b.High, 1):
		return "any"
	case !(b.Low > 0):
		return "at most " + b.Text(b.High)
	case math.IsInf(b.High, 1):
		return "at least " + b.Text(b.Low)
	}
	return b.Text(b.Low) + "-" + b.Text(b.High)
}

// WithFigure is c with its figure x and the band its rule reads x
// against.
func (c Claim) WithFigure(x float64, b Band) Claim {
	c.Figure, c.Band = x, b
	return c
}

// withoutFigure is c with no figure (NaN, no band): a claim not run, or a
// rule that set none.
func (c Claim) withoutFigure() Claim {
	c.Figure, c.Band = math.NaN(), Band{}
	return c
}

// figureChecked is c as it leaves its rule: a figure only with a band
// (a rule that set none has the zero Figure, which is not a figure),
// none on a claim not run.
func figureChecked(c Claim) Claim {
	if !c.Band.Valid() || c.Verdict == NotRun || c.Verdict == NotTestable {
		return c.withoutFigure()
	}
	return c
}

// RatioBand is ratioVerdict's band for a claim whose paper gives paper,
// within the tolerance tol: reproduced within a factor of paper either
// way, exceeded on the better side, not reproduced on the other.
func RatioBand(tol paperdata.Tolerance, paper float64, better int, unit string) Band {
	f := paperdata.Num(tol.Factor)
	b := Band{Low: paper / f, High: paper * f, Below: NotReproduced, Inside: Reproduced, Above: NotReproduced, Unit: unit}
	switch better {
	case HigherBetter:
		b.Above = Exceeded
	case LowerBetter:
		b.Below = Exceeded
	}
	if math.IsNaN(b.Low) || math.IsNaN(b.High) || !(paper > 0) {
		return Band{}
	}
	return b
}

// JudgeRatio is RatioJudge setting c's verdict, figure (ours) and band;
// the text says where ours lies ("inside 8.00x within 1.25x
// (6.40x-10.0x)"), in the unit's format.
func (c Claim) JudgeRatio(paper, ours float64, better int, unit string) (Claim, string) {
	b := RatioBand(ClaimTolerance(c.ID), paper, better, unit)
	v, text := RatioJudge(c.ID, paper, ours, better, b.Text)
	c.Verdict = v
	if v == NotRun {
		return c.withoutFigure(), text
	}
	return c.WithFigure(ours, b), text
}

// MarginBand is the band of a claim that compares two times a / b (its
// figure) with claim id's margin factor f from the catalogue: below
// within 1/f, inside from 1/f to f (a tie: WithinFactor's reproduced,
// CompareWithin's inconclusive), above beyond f.
func MarginBand(id string, below, inside, above Verdict) Band {
	f := paperdata.Num(ClaimTolerance(id).Factor)
	if math.IsNaN(f) || !(f >= 1) {
		return Band{}
	}
	return Band{Low: 1 / f, High: f, Below: below, Inside: inside, Above: above, Unit: UnitRatio}
}

// ThresholdBand is the band of a claim that holds when its figure is at
// least low (up to high; +Inf for no upper edge) and fails outside.
func ThresholdBand(low, high float64, unit string) Band {
	if math.IsNaN(low) || math.IsNaN(high) {
		return Band{}
	}
	return Band{Low: low, High: high, Below: NotReproduced, Inside: Reproduced, Above: NotReproduced, Unit: unit}
}

// bandText is report.Band for a claim's band and figure.
func bandText(b Band, x float64) string { return report.Band(b.Text, b.Low, b.High, x) }
