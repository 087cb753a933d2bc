package experiments_test

import (
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// readGz reads a gzipped result file of testdata.
func readGz(t *testing.T, path string) *bench.File {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	f, err := bench.Decode(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// ratioOurs matches the text of a claim judged by RatioJudge ("inside
// 8.00x within 1.25x (6.40x-10.0x)") or by a tolerance factor ("0.859x;
// tolerance within a factor 1.25").
var ratioOurs = regexp.MustCompile(`(inside|outside) \S+( ms)? within [0-9.]+x \(|; tolerance within a factor`)

// number matches a number as the claims print it (thousands grouped).
var number = regexp.MustCompile(`[0-9][0-9,]*(\.[0-9]+)?`)

// shows reports whether text prints x: some number in it equals x to the
// digits it is printed with.
func shows(text string, x float64) bool {
	for _, m := range number.FindAllString(text, -1) {
		v, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64)
		if err != nil {
			continue
		}
		decimals := 0
		if i := strings.IndexByte(m, '.'); i >= 0 {
			decimals = len(m) - i - 1
		}
		if math.Abs(v-x) <= 0.5*math.Pow(10, -float64(decimals))*(1+1e-9) {
			return true
		}
	}
	return false
}

// TestClaimFigures: on a whole GPU reproduce, every ratio claim has a
// finite figure, every figure is the number its Ours shows, and the band
// gives the rule's verdict (or the rule's samples' test said
// inconclusive).
func TestClaimFigures(t *testing.T) {
	f := readGz(t, filepath.Join("testdata", "h100-reproduce-7m-3393cf4-r2.jsonl.gz"))
	withFigure, ratios := 0, 0
	for _, c := range experiments.AllClaims(f.Records) {
		hasFigure := !math.IsNaN(c.Figure)
		if hasFigure != c.Band.Valid() {
			t.Errorf("%s: figure %g with band %+v: a figure comes with its band", c.ID, c.Figure, c.Band)
		}
		if ratioOurs.MatchString(c.Ours) {
			ratios++
			if !hasFigure || math.IsInf(c.Figure, 0) {
				t.Errorf("%s: a ratio claim (ours %q) without a finite figure (%g)", c.ID, c.Ours, c.Figure)
			}
		}
		if !hasFigure {
			continue
		}
		withFigure++
		if !shows(c.Ours, c.Figure) {
			t.Errorf("%s: figure %g is not a number ours shows: %q", c.ID, c.Figure, c.Ours)
		}
		if got := c.Band.Of(c.Figure); got != c.Verdict && c.Verdict != experiments.Inconclusive {
			t.Errorf("%s: the band %s gives %s for %g, the rule %s", c.ID, c.Band.RangeText(), got, c.Figure, c.Verdict)
		}
	}
	if ratios < 15 || withFigure < ratios {
		t.Errorf("%d ratio claims, %d with a figure on the golden run: the test reads too few", ratios, withFigure)
	}
	t.Logf("%d claims with a figure, %d of them ratio claims", withFigure, ratios)
}

func TestBandOf(t *testing.T) {
	b := experiments.Band{Low: 6.4, High: 10, Below: experiments.NotReproduced, Inside: experiments.Reproduced, Above: experiments.Exceeded, Unit: experiments.UnitRatio}
	for _, c := range []struct {
		x    float64
		want experiments.Verdict
	}{{6.39, experiments.NotReproduced}, {6.4, experiments.Reproduced}, {10, experiments.Reproduced}, {10.01, experiments.Exceeded}, {math.NaN(), experiments.NotRun}} {
		if got := b.Of(c.x); got != c.want {
			t.Errorf("Of(%g) = %s, want %s", c.x, got, c.want)
		}
	}
	if got := b.RangeText(); got != "6.40x-10.0x" {
		t.Errorf("RangeText = %q", got)
	}
	if (experiments.Band{}).Valid() || (experiments.Band{}).Of(1) != experiments.NotRun {
		t.Error("the zero band is none")
	}
}
