package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestTQuantile holds the t quantile against the closed forms for one and
// two degrees of freedom and against the normal quantile for many.
func TestTQuantile(t *testing.T) {
	for _, p := range []float64{0.6, 0.975, 0.9958, 0.9995} {
		if got, want := tQuantile(1, p), math.Tan(math.Pi*(p-0.5)); math.Abs(got-want) > 1e-9*want {
			t.Errorf("tQuantile(1, %v) = %v, want %v", p, got, want)
		}
		if got, want := tQuantile(2, p), (2*p-1)/math.Sqrt(2*p*(1-p)); math.Abs(got-want) > 1e-9*want {
			t.Errorf("tQuantile(2, %v) = %v, want %v", p, got, want)
		}
		prev := math.Inf(1)
		for df := 1; df <= 9; df++ {
			q := tQuantile(df, p)
			if q >= prev {
				t.Errorf("tQuantile(%d, %v) = %v, not below df %d's %v", df, p, q, df-1, prev)
			}
			prev = q
		}
		if got, z := tQuantile(2000, p), normalQuantile(p); math.Abs(got-z) > 0.01*z {
			t.Errorf("tQuantile(2000, %v) = %v, want near the normal %v", p, got, z)
		}
	}
}

func TestCellBoundsEdges(t *testing.T) {
	for _, c := range []struct {
		name    string
		samples []float64
		noise   float64
		alpha   float64
	}{
		{"no samples", nil, 0.02, 0.05},
		{"zero time", []float64{1, 0}, 0.02, 0.05},
		{"NaN", []float64{math.NaN()}, 0.02, 0.05},
		{"alpha 0", []float64{1, 2}, 0.02, 0},
		{"one sample, no noise", []float64{1}, 0, 0.05},
	} {
		if lo, hi := CellBounds(c.samples, c.noise, c.alpha, 6); lo != 0 || !math.IsInf(hi, 1) {
			t.Errorf("%s: CellBounds = [%v, %v], want [0, +Inf)", c.name, lo, hi)
		}
	}
	// One sample: the noise sets the width, around the sample.
	lo, hi := CellBounds([]float64{2}, 0.02, 0.05, 6)
	if !(lo < 2 && hi > 2) || math.Abs(math.Log(hi/2)+math.Log(lo/2)) > 1e-12 {
		t.Errorf("one sample: [%v, %v], want symmetric about 2 in log time", lo, hi)
	}
	// Wider noise, more looks: wider bounds.
	lo2, hi2 := CellBounds([]float64{2}, 0.04, 0.05, 6)
	lo10, hi10 := CellBounds([]float64{2}, 0.02, 0.05, 10)
	if !(hi2/lo2 > hi/lo && hi10/lo10 > hi/lo) {
		t.Errorf("bounds do not widen with noise (%v) or looks (%v) from %v", hi2/lo2, hi10/lo10, hi/lo)
	}
	// The running intersection never widens with a sample.
	r := rand.New(rand.NewPCG(1, 2))
	var s []float64
	prev := math.Inf(1)
	for range 10 {
		s = append(s, math.Exp(0.05*r.NormFloat64()))
		lo, hi := CellBounds(s, 0.02, 0.05, 10)
		if hi/lo > prev {
			t.Errorf("%d samples: width %v, wider than %v before", len(s), hi/lo, prev)
		}
		prev = hi / lo
	}
}

func TestCorners(t *testing.T) {
	for k := range 5 {
		rows := Corners(k)
		seen := map[string]bool{}
		for _, r := range rows {
			if len(r) != k {
				t.Fatalf("Corners(%d): a row of %d", k, len(r))
			}
			seen[fmt.Sprint(r)] = true
		}
		if len(rows) != 1<<k || len(seen) != len(rows) {
			t.Errorf("Corners(%d): %d rows, %d distinct, want %d", k, len(rows), len(seen), 1<<k)
		}
	}
	if Corners(MaxCornerCells+1) != nil || Corners(-1) != nil {
		t.Error("Corners past MaxCornerCells or below 0 is not nil")
	}
}

// TestSettledClass: a ratio's class is settled only when all four corners
// agree, and "outside" on both sides of a band is two classes.
func TestSettledClass(t *testing.T) {
	ratio := func(v []float64) Verdict { r := v[0] / v[1]; return Settle(r, r, 4, 24) }
	for _, c := range []struct {
		lo, hi []float64
		want   Verdict
		ok     bool
	}{
		{[]float64{100, 1}, []float64{110, 1.1}, Above, true}, // 90.9x to 110x
		{[]float64{9, 0.9}, []float64{10, 1}, Inside, true},   // 9x to 11.1x
		{[]float64{3, 0.9}, []float64{30, 1}, 0, false},       // 3x to 33x: below and above
		{[]float64{20, 0.9}, []float64{30, 1}, 0, false},      // inside and above
		{[]float64{1}, []float64{1, 2}, 0, false},             // mismatched bounds
	} {
		got, ok := SettledClass(c.lo, c.hi, ratio)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("SettledClass(%v, %v) = %v, %v; want %v, %v", c.lo, c.hi, got, ok, c.want, c.ok)
		}
	}
	calls := 0
	if _, ok := SettledClass(make([]float64, MaxCornerCells+1), make([]float64, MaxCornerCells+1), func([]float64) int { calls++; return 0 }); ok || calls != 0 {
		t.Errorf("past MaxCornerCells: settled %v after %d calls", ok, calls)
	}
}

func TestSettle(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   Verdict
	}{
		{5, 6, Inside}, {4, 24, Inside}, {1, 3.9, Below}, {25, 30, Above},
		{3, 5, Undecided}, {20, 30, Undecided}, {3, 30, Undecided},
	} {
		if got := Settle(c.lo, c.hi, 4, 24); got != c.want {
			t.Errorf("Settle(%v, %v, 4, 24) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

// noiseModel draws a sample's log-time deviation from the cell's typical
// log time (its mean is 0, so the typical time is the geometric mean).
type noiseModel struct {
	name string
	draw func(r *rand.Rand, sigma float64) float64
}

// hiccupRate and hiccupScale: one sample in 20 is delayed by an
// exponential time of mean 5 sigma in log time (a one-sided heavy tail).
const hiccupRate, hiccupScale = 0.05, 5.0

var noiseModels = []noiseModel{
	{"log-normal", func(r *rand.Rand, sigma float64) float64 { return sigma * r.NormFloat64() }},
	{"hiccups", func(r *rand.Rand, sigma float64) float64 {
		d := sigma * (r.NormFloat64() - hiccupRate*hiccupScale)
		if r.Float64() < hiccupRate {
			d += hiccupScale * sigma * r.ExpFloat64()
		}
		return d
	}},
}

// claimSim is one claim of the simulation: cells whose typical times are
// truth, a figure of them, and the band the figure is read against.
type claimSim struct {
	name      string
	truth     []float64
	figure    func([]float64) float64
	low, high float64
	far       bool // far from the band: one sample a side must settle it
}

// boundsFunc gives a cell's interval from its samples so far.
type boundsFunc func(samples []float64, noise, alpha float64, maxLooks int) (lo, hi float64)

// uncorrected is the rule without the correction for repeated looks:
// each look's own interval at level 1-alpha, as if it were the only look.
func uncorrected(samples []float64, noise, alpha float64, _ int) (lo, hi float64) {
	var mean, m2 float64
	for i, x := range samples {
		lo, hi = lookBounds(math.Log(x), i+1, &mean, &m2, noise, alpha)
	}
	return math.Exp(lo), math.Exp(hi)
}

// simOutcome counts a claim's trials.
type simOutcome struct {
	trials, wrong, settled, settledFirst int
}

// rate is the rate of wrong verdicts.
func (o simOutcome) rate() float64 { return float64(o.wrong) / float64(o.trials) }

// margin is the Monte-Carlo margin over a rate alpha: three standard
// errors of a rate alpha over the trials.
func (o simOutcome) margin(alpha float64) float64 {
	return 3 * math.Sqrt(alpha*(1-alpha)/float64(o.trials))
}

// simulate runs the runner's loop trials times: measure the machine's
// noise from aaPairs A/A pairs, then take a sample of every cell at a
// time, up to maxLooks, and stop as soon as every corner of the cells'
// bounds gives the claim the same class. A settled class other than the
// truth's is wrong.
func simulate(r *rand.Rand, m noiseModel, sigma float64, c claimSim, bounds boundsFunc, maxLooks, trials int) simOutcome {
	return simulateBeyond(r, m, sigma, c, bounds, maxLooks, maxLooks, trials)
}

// simulateBeyond is simulate with cells that may go on sampling past the
// looks their bounds were planned for (planned), up to maxLooks: the
// runner's cheap cells, which take up to CheapLooks samples while the
// bounds of the first --reps looks split the error over --reps.
func simulateBeyond(r *rand.Rand, m noiseModel, sigma float64, c claimSim, bounds boundsFunc, planned, maxLooks, trials int) simOutcome {
	const aaPairs, alpha = 6, 0.05
	k := len(c.truth)
	class := func(vals []float64) Verdict { f := c.figure(vals); return Settle(f, f, c.low, c.high) }
	truth := class(c.truth)
	out := simOutcome{trials: trials}
	samples := make([][]float64, k)
	lo, hi := make([]float64, k), make([]float64, k)
	pairs := make([][2][]float64, aaPairs)
	for range trials {
		for i := range pairs {
			pairs[i] = [2][]float64{{math.Exp(m.draw(r, sigma))}, {math.Exp(m.draw(r, sigma))}}
		}
		noise, _ := NoiseFromPairs(pairs)
		for i := range samples {
			samples[i] = samples[i][:0]
		}
		for n := 1; n <= maxLooks; n++ {
			for i, mu := range c.truth {
				samples[i] = append(samples[i], mu*math.Exp(m.draw(r, sigma)))
				lo[i], hi[i] = bounds(samples[i], noise, alpha/float64(k), planned)
			}
			v, ok := SettledClass(lo, hi, class)
			if !ok || v == Undecided {
				continue
			}
			out.settled++
			if n == 1 {
				out.settledFirst++
			}
			if v != truth {
				out.wrong++
			}
			break
		}
	}
	return out
}

// TestSettleSimulation is the settle rule's simulation: ratio claims of
// two cells (figure typical(a)/typical(b), band [4, 24]) and one-cell
// claims (figure typical(a), band [0, 1]: "less than a second"), their
// truth at the band's edges, just inside and outside, and far from it,
// under log-normal noise and a one-sided heavy tail, sampled one at a time
// up to 6 and 10 looks with the noise measured from 6 A/A pairs, and up
// to 24 looks where the bounds split the error over 6 (a cheap cell
// sampled past --reps: CellBounds splits it over the samples taken). Each
// claim's rate of wrong verdicts is at most alpha = 0.05 plus a Monte-Carlo
// margin of three standard errors; far from the band one sample a side
// settles it; and the rule without the correction for repeated looks
// fails the same test at a band's edge.
func TestSettleSimulation(t *testing.T) {
	const sigma, alpha = 0.03, 0.05
	trials := 2000
	if testing.Short() {
		trials = 500
	}
	ratio := func(v []float64) float64 { return v[0] / v[1] }
	time := func(v []float64) float64 { return v[0] }
	var claims []claimSim
	for _, off := range []struct {
		name string
		f    float64
		far  bool
	}{
		{"at", 1, false}, {"just inside", math.Exp(sigma), false}, {"just outside", math.Exp(-sigma), false},
		{"far inside", 2, true}, {"far outside", 0.1, true},
	} {
		claims = append(claims,
			claimSim{"ratio " + off.name + " the low edge", []float64{4 * off.f, 1}, ratio, 4, 24, off.far},
			claimSim{"ratio " + off.name + " the high edge", []float64{24 / off.f, 1}, ratio, 4, 24, off.far},
			claimSim{"time " + off.name + " the high edge", []float64{1 / off.f}, time, 0, 1, off.far})
	}
	r := rand.New(rand.NewPCG(34, 2026))
	for _, m := range noiseModels {
		for _, looks := range [][2]int{{6, 6}, {10, 10}, {6, 4 * 6}} {
			for _, c := range claims {
				name := fmt.Sprintf("%s, %d looks (planned %d), %s", m.name, looks[1], looks[0], c.name)
				o := simulateBeyond(r, m, sigma, c, CellBounds, looks[0], looks[1], trials)
				rate, limit := o.rate(), alpha+o.margin(alpha)
				if rate > limit {
					t.Errorf("%s: %d wrong of %d (%.4f), above %.4f", name, o.wrong, o.trials, rate, limit)
				}
				if c.far && o.settledFirst < o.trials*99/100 {
					t.Errorf("%s: %d of %d settled at one sample a side, want 99%%", name, o.settledFirst, o.trials)
				}
				t.Logf("%s: wrong %.4f, settled %d, at one sample %d of %d", name, rate, o.settled, o.settledFirst, o.trials)
			}
		}
	}
	// The same test fails the rule that looks without the correction:
	// at the band's edge each look errs on one side with alpha/2, and
	// the looks add up.
	edge := claimSim{"time at the high edge", []float64{1}, time, 0, 1, false}
	r = rand.New(rand.NewPCG(34, 1)) // the same draws in -short
	for _, looks := range []int{6, 10} {
		u := simulate(r, noiseModels[0], sigma, edge, uncorrected, looks, 2000)
		limit := alpha + u.margin(alpha)
		t.Logf("uncorrected, %d looks, %s: wrong %.4f, limit %.4f", looks, edge.name, u.rate(), limit)
		if u.rate() <= limit {
			t.Errorf("uncorrected, %d looks, %s: %d wrong of %d (%.4f), within %.4f: the simulation cannot fail",
				looks, edge.name, u.wrong, u.trials, u.rate(), limit)
		}
	}
}
