package experiments

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/stats"
)

// The settle rule: a claim's verdict stands only when it survives this
// machine's noise. Each cell the claim reads has a confidence interval for
// its typical time (stats.CellBounds: from its samples, with the machine's
// noise as the floor of their spread, valid under repeated looks); the
// claim's rule is run again with each cell's times moved to the ends of its
// interval (the corners), and the claim is settled when every corner gives
// the verdict the samples give. A rule that reads phases (transfers, a
// step) takes each cell's interval as the wider of its headline's and
// that of those phases' sum, sample by sample; a rule that finds its
// samples too few for its test is not settled. The runner asks after every sample whether
// the claims a cell feeds are settled and stops sampling when they are;
// Judge calls a claim at the paper's sizes that is not settled on its
// records inconclusive.

// DefaultNoise is the machine's relative noise (the standard deviation of
// log time between runs of one cell) assumed for a file that records no
// A/A measurement of its own: the 90th percentile of the spread between a
// cell's first timed sample and its later ones in the committed runs of
// the 2-core Xeon and the H100 host (CPU cells 10-20%, that is a log-sd
// of about 0.08), rounded up.
const DefaultNoise = 0.1

// SettleAlpha is the settle rule's error rate: the chance that some cell
// of a claim lies outside its interval at some look.
const SettleAlpha = 0.05

// MaxLooks is the most samples a cell's interval allows for when no
// --reps is known (a file's reader): the default repetitions.
const MaxLooks = 6

// noisePrefix starts the note a run writes with its measured noise.
const noisePrefix = "noise: log-sd "

// NoiseNote is the note that records a run's measured noise: sigma (the
// standard deviation of log time) from pairs A/A pairs, and what they
// were.
func NoiseNote(sigma float64, pairs int, detail string) string {
	s := fmt.Sprintf("%s%.4f from %d A/A pair(s)", noisePrefix, sigma, pairs)
	if detail != "" {
		s += ": " + detail
	}
	return s
}

// NoiseOf is the noise a file's notes record (the last such note), and
// whether one does; DefaultNoise when none.
func NoiseOf(notes []string) (float64, bool) {
	for i := len(notes) - 1; i >= 0; i-- {
		var sigma float64
		var pairs int
		if !strings.HasPrefix(notes[i], noisePrefix) {
			continue
		}
		if _, err := fmt.Sscanf(notes[i][len(noisePrefix):], "%g from %d", &sigma, &pairs); err == nil && sigma > 0 && !math.IsInf(sigma, 0) {
			return sigma, true
		}
	}
	return DefaultNoise, false
}

// NoiseText says the noise a verdict used, for the report.
func NoiseText(sigma float64, measured bool) string {
	basis := "assumed: this file measured none"
	if measured {
		basis = "measured by this run's A/A pairs"
	}
	return fmt.Sprintf("%.1f%% (%s)", 100*(math.Exp(sigma)-1), basis)
}

// Settle is the outcome of the settle rule on one claim.
type Settle struct {
	Claim   Claim // the claim as the samples give it
	Settled bool  // every corner gives Claim.Verdict
	// Why says what unsettles it: the verdicts at the corners, or that a
	// cell has no samples yet.
	Why string
	// Level is the level that settled it (SettleTwoLevel: LevelWithin or
	// LevelOuter; empty from SettleClaimOf).
	Level string
	// Outer is the claim at the outer level, where its cells carry
	// replicates (SettleTwoLevel); nil otherwise.
	Outer *Outer
}

// SettleClaim runs the settle rule on claim id over recs: refs are the
// cells the claim reads, noise the machine's noise and looks the most
// samples a cell may take (the error is split over them).
func SettleClaim(id string, recs []bench.Record, refs []CellRef, noise float64, looks int) Settle {
	return SettleClaimOf(claimHost(id), id, recs, refs, noise, looks)
}

// ClaimHosts maps the claims of exps to the experiment whose Claims
// compute each (for SettleClaimOf, over experiments not registered).
func ClaimHosts(exps []*Experiment) map[string]*Experiment {
	by := map[string]*Experiment{}
	for _, e := range exps {
		if e.Claims == nil {
			continue
		}
		for _, c := range e.Claims(nil) {
			by[c.ID] = e
		}
	}
	return by
}

// span is a cell's confidence interval, relative to its samples' location:
// at is its record's index in the claim's records.
type span struct {
	at     int
	lo, hi float64
}

// SettleClaimOf is SettleClaim with the experiment e that computes the
// claim.
func SettleClaimOf(e *Experiment, id string, recs []bench.Record, refs []CellRef, noise float64, looks int) Settle {
	if e == nil {
		return Settle{Why: "no experiment computes " + id}
	}
	recs = recordsOf(recs, e, refs)
	nominal, ok := claimOf(e, id, recs)
	if !ok || nominal.Verdict == NotRun {
		return Settle{Claim: nominal, Why: "not run yet"}
	}
	if nominal.Class != "" {
		return Settle{Claim: nominal, Settled: true} // its class (not comparable, by construction) stands whatever the figure
	}
	idx := IndexRecords(recs)
	var spans []span
	seen := map[int]bool{}
	for _, ref := range refs {
		r := lookup(ref, idx)
		if r == nil || r.Status != bench.StatusOK {
			continue
		}
		i := recordIndex(recs, r)
		if i < 0 || seen[i] {
			continue
		}
		seen[i] = true
		s := timedSamples(r)
		if len(s) == 0 {
			continue
		}
		spans = append(spans, span{at: i})
		sp := &spans[len(spans)-1]
		sp.lo, sp.hi = relBounds(s, noise, SettleAlpha/float64(max(1, len(refs))), looks)
	}
	if len(spans) == 0 {
		return Settle{Claim: nominal, Settled: true}
	}
	// A rule that finds its samples too few for its test says inconclusive
	// whatever the corners: more samples may decide it (Fig. 5's tie at
	// 0.1n stayed inconclusive on one sample of cpu/jv, which the runner
	// had taken as settled).
	if nominal.Verdict == Inconclusive {
		for _, sp := range spans {
			if len(timedSamples(&recs[sp.at])) < stats.MinSamples {
				return Settle{Claim: nominal, Why: "the rule's test needs more samples: " + nominal.Ours}
			}
		}
	}
	// A rule that reads phases is as uncertain as the phases it reads: a
	// transfer of tens of MB varies 20% from sample to sample where the
	// whole run varies 1% (treefix's transfers-same flipped between two
	// H100 runs on that spread). Each cell's interval is the wider of its
	// headline's and that of the sum of those phases, sample by sample (a
	// rule reads their sum or one of them; a ratio of two phases of one
	// cell does not move with the cell at all).
	if read := phasesRead(e, id, recs, spans, nominal); len(read) > 0 {
		for j := range spans {
			s := phaseSums(&recs[spans[j].at], read)
			if len(s) == 0 {
				continue
			}
			lo, hi := relBounds(s, noise, SettleAlpha/float64(max(1, len(refs))), looks)
			spans[j].lo, spans[j].hi = min(spans[j].lo, lo), max(spans[j].hi, hi)
		}
	}
	// at is the claim with each cell's times moved the fraction t of the
	// way (in log time) from its samples to the end of its interval the
	// corner names.
	at := func(corner []bool, t float64) Claim {
		moved := slices.Clone(recs)
		for j, high := range corner {
			f := spans[j].lo
			if high {
				f = spans[j].hi
			}
			moved[spans[j].at] = scaledRecord(recs[spans[j].at], math.Pow(f, t))
		}
		c, _ := claimOf(e, id, moved)
		return c
	}
	// A rule whose figure does not move when the cells' times do reads no
	// time (an exact answer, an accuracy): nothing to settle.
	if !readsTime(e, id, recs, spans, nominal) {
		return Settle{Claim: nominal, Settled: true}
	}
	// The corners first, then the way to each: a rule may give one
	// verdict at both ends and another between (a figure below a band at
	// one corner and above it at another).
	got := []Verdict{nominal.Verdict}
	for _, t := range pathSteps(spans) {
		for _, corner := range corners(len(spans)) {
			if v := at(corner, t).Verdict; !slices.Contains(got, v) {
				got = append(got, v)
			}
		}
		if len(got) > 1 {
			break
		}
	}
	if len(got) == 1 {
		return Settle{Claim: nominal, Settled: true}
	}
	var names []string
	for _, v := range got {
		names = append(names, string(v))
	}
	return Settle{Claim: nominal, Why: fmt.Sprintf("within this machine's noise: across the %d cells' confidence intervals the rule gives %s",
		len(spans), strings.Join(names, " or "))}
}

// readsTime reports whether claim id's figure moves when its cells' times
// do: each of four patterns (alternate cells, the first half, and their
// complements) moves its cells 10x slower and the others 10x faster. One
// pattern alone can miss a rule that counts pairs (treefix's growth over
// 20 trees kept "18 of 18" under the alternate cells at one noise and
// was called settled).
func readsTime(e *Experiment, id string, recs []bench.Record, spans []span, nominal Claim) bool {
	at := make([]int, len(spans))
	for j, sp := range spans {
		at[j] = sp.at
	}
	for _, moved := range scaledApart(recs, at) {
		if c, _ := claimOf(e, id, moved); c.Verdict != nominal.Verdict || c.Ours != nominal.Ours || c.Reason != nominal.Reason {
			return true
		}
	}
	return false
}

// scaledApart is recs with the records at (their indices) scaled apart in
// four patterns: in each, some of them by 10 and the others by a tenth
// (alternate ones, either way; the first half against the second, either
// way), so that a rule that reads any ratio of their times sees it move.
func scaledApart(recs []bench.Record, at []int) [][]bench.Record {
	k := len(at)
	var out [][]bench.Record
	for _, pick := range []func(j int) bool{
		func(j int) bool { return j%2 == 0 },
		func(j int) bool { return j%2 == 1 },
		func(j int) bool { return j < k/2 },
		func(j int) bool { return j >= k/2 },
	} {
		moved := slices.Clone(recs)
		for j, i := range at {
			f := 0.1
			if pick(j) {
				f = 10
			}
			moved[i] = scaledRecord(recs[i], f)
		}
		out = append(out, moved)
	}
	return out
}

// relBounds is the confidence interval of a cell's typical time from its
// samples (stats.CellBounds, over at most looks looks or as many as it
// took), relative to the samples' geometric mean.
func relBounds(s []float64, noise, alpha float64, looks int) (lo, hi float64) {
	lo, hi = stats.CellBounds(s, noise, alpha, max(looks, len(s)))
	c := stats.GeoMean(s) // the location CellBounds bounds
	return lo / c, hi / c
}

// phaseSums are the sums of r's phases names, sample by sample; where
// their counts differ, the samples of the phase whose interval is widest
// (the most uncertain of them stands for the sum).
func phaseSums(r *bench.Record, names []string) []float64 {
	var sums []float64
	for _, name := range names {
		s := SamplesOf(r, name)
		switch {
		case len(s) == 0:
			continue
		case sums == nil:
			sums = slices.Clone(s)
			continue
		case len(s) != len(sums):
			return widestOf(r, names)
		}
		for i, v := range s {
			sums[i] += v
		}
	}
	return sums
}

// widestOf is the samples of the phase among names with the widest
// spread of log time.
func widestOf(r *bench.Record, names []string) []float64 {
	var best []float64
	bestW := -1.0
	for _, name := range names {
		s := SamplesOf(r, name)
		if len(s) == 0 {
			continue
		}
		if lo, hi := relBounds(s, 0, SettleAlpha, len(s)); math.Log(hi/lo) > bestW || best == nil {
			best, bestW = s, math.Log(hi/lo)
		}
	}
	return best
}

// phasesRead lists the phases, other than the headline, of the spans'
// records that claim id's rule reads: those whose times, moved alone by
// a half in every span, move the claim's figure.
func phasesRead(e *Experiment, id string, recs []bench.Record, spans []span, nominal Claim) []string {
	var names []string
	for _, sp := range spans {
		for _, p := range recs[sp.at].Phases {
			if p.Name != bench.TotalPhase && p.Name != bench.EndToEndPhase && len(p.SamplesMS) > 1 && !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	slices.Sort(names)
	key := e.Name + "|" + id + "|" + strings.Join(names, ",")
	if out, ok := readCache.Load(key); ok {
		return out.([]string)
	}
	var out []string
	for _, name := range names {
		moved := slices.Clone(recs)
		for _, sp := range spans {
			moved[sp.at] = scaledPhase(recs[sp.at], name, 1.5)
		}
		if c, _ := claimOf(e, id, moved); c.Verdict != nominal.Verdict || c.Ours != nominal.Ours {
			out = append(out, name)
		}
	}
	readCache.Store(key, out)
	return out
}

// readCache holds phasesRead's answers by experiment, claim and the
// phases its cells have: a rule reads the same phases at every look.
var readCache sync.Map

// pathSteps are the fractions of the way to the corners at which the rule
// is run: 1, 1/2, 1/4, 3/4, and as many more as keep the steps of a
// figure under maxPathStep, up to maxPathSteps: a band narrower than a
// step could lie between two steps unseen. A figure is a ratio of at
// most figureCells cells' times (two sums of two: treefix's transfers),
// so its step is at most the sum of the widest figureCells reaches (in
// log time) over the steps; claims of many cells (treefix's growth over
// 20 trees) compare them in pairs.
func pathSteps(spans []span) []float64 {
	var reaches []float64
	for _, sp := range spans {
		reaches = append(reaches, max(-math.Log(sp.lo), math.Log(sp.hi)))
	}
	slices.SortFunc(reaches, func(a, b float64) int { return cmp.Compare(b, a) })
	reach := 0.0
	for _, r := range reaches[:min(figureCells, len(reaches))] {
		reach += r
	}
	n := 4
	for n < maxPathSteps && reach/float64(n) > maxPathStep {
		n *= 2
	}
	out := []float64{1, 0.5, 0.25, 0.75}
	for k := 1; k < n; k++ {
		if t := float64(k) / float64(n); !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// maxPathStep (in log time: a factor 1.1) and maxPathSteps bound
// pathSteps: the claims' narrowest tolerance bands are a factor 1.25
// either way.
const (
	maxPathStep  = 0.1
	maxPathSteps = 32
	figureCells  = 4
)

// recordsOf keeps the latest records of the experiments a claim's rule
// can read: its own experiment's, those its cells name, and the
// experiments that measure them; the rule then runs on far fewer records
// at each corner.
func recordsOf(recs []bench.Record, e *Experiment, refs []CellRef) []bench.Record {
	keep := map[string]bool{e.Name: true, e.MeasuredBy: true}
	for _, ref := range refs {
		keep[ref.Experiment], keep[measuredBy(ref.Experiment)] = true, true
	}
	var out []bench.Record
	for _, r := range recs {
		if keep[r.Experiment] {
			out = append(out, r)
		}
	}
	return Latest(out)
}

// corners lists which of k cells sit at the high end of their interval:
// every combination for k <= 4, else all low, all high and each cell
// alone against the others (2k+2: the extremes of any ratio of products).
func corners(k int) [][]bool {
	if k <= 4 {
		return stats.Corners(k)
	}
	out := [][]bool{make([]bool, k), slices.Repeat([]bool{true}, k)}
	for j := 0; j < k; j++ {
		hi, lo := make([]bool, k), slices.Repeat([]bool{true}, k)
		hi[j], lo[j] = true, false
		out = append(out, hi, lo)
	}
	return out
}

// timedSamples are the samples of a record's headline: total, or
// end_to_end where it has no total.
func timedSamples(r *bench.Record) []float64 {
	if s := SamplesOf(r, bench.TotalPhase); len(s) > 0 {
		return s
	}
	return SamplesOf(r, bench.EndToEndPhase)
}

// scaledRecord is r with every phase's times multiplied by f.
func scaledRecord(r bench.Record, f float64) bench.Record { return scaledPhase(r, "", f) }

// scaledPhase is r with phase name's times (every phase's when name is
// empty) multiplied by f.
func scaledPhase(r bench.Record, name string, f float64) bench.Record {
	out := r
	out.Phases = make([]bench.Phase, len(r.Phases))
	for i, p := range r.Phases {
		q := p
		if name != "" && p.Name != name {
			out.Phases[i] = q
			continue
		}
		q.SamplesMS = make([]float64, len(p.SamplesMS))
		for j, v := range p.SamplesMS {
			q.SamplesMS[j] = v * f
		}
		q.MedianMS, q.StatMS = p.MedianMS*f, p.StatMS*f
		out.Phases[i] = q
	}
	return out
}

// recordIndex is the index of r (a pointer into recs' index) in recs.
func recordIndex(recs []bench.Record, r *bench.Record) int {
	for i := len(recs) - 1; i >= 0; i-- {
		if &recs[i] == r {
			return i
		}
	}
	return -1
}

// claimOf is claim id as experiment e's rules give it on recs.
func claimOf(e *Experiment, id string, recs []bench.Record) (Claim, bool) {
	for _, c := range e.Claims(recs) {
		if c.ID == id {
			return figureChecked(c), true
		}
	}
	return Claim{}, false
}

var hosts struct {
	sync.Mutex
	n  int // registry size the map was built for
	by map[string]*Experiment
}

// claimHost is the experiment whose Claims compute claim id.
func claimHost(id string) *Experiment {
	hosts.Lock()
	defer hosts.Unlock()
	if hosts.by == nil || hosts.n != len(registry) {
		hosts.by, hosts.n = ClaimHosts(All()), len(registry)
	}
	return hosts.by[id]
}
