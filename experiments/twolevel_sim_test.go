package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
)

// The two-level rule's simulation: a claim whose figure is the ratio of
// two cells' times, read against a band (0.8x-1.25x: reproduced inside,
// not reproduced outside), measured in runs whose log time is the cell's
// typical log time, plus an offset drawn once per run (a process, an
// allocation, a lease: the between-run level), plus noise drawn at each
// sample (the within-run level). The truth is the band's verdict on the
// typical figure; a wrong verdict is a decided one (not inconclusive)
// that differs from it. The true figure sits at and off the band's upper
// edge, by multiples of the between-run spread.

const (
	simExp     = "sim/two-level"
	simClaim   = simExp + "#ratio"
	simWithin  = 0.02 // the within-run noise (log-sd of a sample): an H200's 1-4%
	simSamples = 6    // samples of the run's own measurement (MaxLooks)
	simRepSamp = 3    // samples of each replicate
)

var (
	simBand   = Band{Low: 0.8, High: 1.25, Below: NotReproduced, Inside: Reproduced, Above: NotReproduced, Unit: UnitRatio}
	simParams = bench.Params{{Name: "n", Value: "1"}}
	simRefs   = []CellRef{{Experiment: simExp, Impl: "a", Params: simParams}, {Experiment: simExp, Impl: "b", Params: simParams}}
	simE      = &Experiment{Name: simExp, Claims: simClaims}
)

// simClaims is the simulated claim's rule: a / b against simBand.
func simClaims(run []bench.Record) []Claim {
	idx := IndexRecords(run)
	c := Claim{ID: simClaim, Text: "a / b within 1.25x of 1."}
	a, b := idx.Get(simExp, "a", simParams), idx.Get(simExp, "b", simParams)
	if a == nil || b == nil {
		return []Claim{c.NotRunFor()}
	}
	x := PhaseMS(a, bench.TotalPhase) / PhaseMS(b, bench.TotalPhase)
	c.Verdict, c.Ours = simBand.Of(x), RatioText(x)
	return []Claim{c.WithFigure(x, simBand)}
}

// simPhases are n samples of a cell of typical log time mu in a run whose
// offset is off.
func simPhases(rng *rand.Rand, mu, off float64, n int) []bench.Phase {
	s := make([]float64, n)
	for i := range s {
		s[i] = 100 * math.Exp(mu+off+simWithin*rng.NormFloat64())
	}
	return []bench.Phase{{Name: bench.TotalPhase, SamplesMS: s, MedianMS: bench.Median(s), StatMS: bench.Median(s)}}
}

// simRun is one run of the claim: cell a of typical log time mu carries
// the run's offset (spread sigmaB), cell b none, so that the figure's
// between-run spread is sigmaB.
func simRun(rng *rand.Rand, mu, sigmaB float64) []bench.Record {
	a := bench.Record{Experiment: simExp, Impl: "a", Params: simParams, Status: bench.StatusOK, Phases: simPhases(rng, mu, sigmaB*rng.NormFloat64(), simSamples)}
	b := bench.Record{Experiment: simExp, Impl: "b", Params: simParams, Status: bench.StatusOK, Phases: simPhases(rng, 0, 0, simSamples)}
	return []bench.Record{a, b}
}

// simReplicate adds one draw of the outer level to the run's cells: each
// measured again with a fresh offset.
func simReplicate(rng *rand.Rand, recs []bench.Record, mu, sigmaB float64) {
	recs[0].Replicates = append(recs[0].Replicates, bench.Replicate{Level: bench.LevelProcess, Phases: simPhases(rng, mu, sigmaB*rng.NormFloat64(), simRepSamp)})
	recs[1].Replicates = append(recs[1].Replicates, bench.Replicate{Level: bench.LevelProcess, Phases: simPhases(rng, 0, 0, simRepSamp)})
}

// simOutcome counts a rule's verdicts against the truth.
type simOutcome struct{ wrong, decided, trials int }

func (o *simOutcome) add(got, truth Verdict) {
	o.trials++
	if got != Inconclusive {
		o.decided++
		if got != truth {
			o.wrong++
		}
	}
}

func (o simOutcome) rate() float64 { return float64(o.wrong) / float64(o.trials) }

// TestTwoLevelSimulation: at every position of the true figure, the
// two-level rule (the settle rule within the run, then OuterNeed's
// replicates and SettleTwoLevel) and history's rule over a kind's runs
// (judgeHistory) give a wrong verdict in at most SettleAlpha of trials
// (with binomial slack); today's one-level rule (SettleClaimOf on the
// run's own samples) gives more near the edge, and more over all
// positions. The between-run spread is the prior (the 90th percentile of
// the committed runs') and half of it.
func TestTwoLevelSimulation(t *testing.T) {
	trials := 300
	if testing.Short() {
		trials = 100
	}
	const historyRuns = 6
	edge := math.Log(simBand.High)
	rng := rand.New(rand.NewPCG(57, 2))
	for _, sigmaB := range []float64{PriorBetweenLogSD, PriorBetweenLogSD / 2} {
		var oneAll, twoAll, histAll simOutcome
		for _, k := range []float64{-3, -2, -1, -0.5, 0, 0.5, 1, 2, 3} {
			mu := edge + k*sigmaB // the typical log figure
			truth := simBand.Of(math.Exp(mu))
			var one, two, hist simOutcome
			for range trials {
				recs := simRun(rng, mu, sigmaB)
				st := SettleClaimOf(simE, simClaim, recs, simRefs, simWithin, MaxLooks)
				v1 := Inconclusive
				if st.Settled {
					v1 = st.Claim.Verdict
				}
				one.add(v1, truth)
				for range MaxOuterDraws {
					need, _ := OuterNeed(simE, simClaim, recs, simRefs, simWithin, nil)
					if need == 0 {
						break
					}
					for range need {
						simReplicate(rng, recs, mu, sigmaB)
					}
				}
				st2 := SettleTwoLevel(simE, simClaim, recs, simRefs, simWithin, MaxLooks, nil)
				v2 := Inconclusive
				if st2.Settled {
					v2 = st2.Claim.Verdict
				}
				two.add(v2, truth)
				// history: the kind's runs, each judged alone
				b := &Between{Claim: simClaim}
				var last Claim
				for j := range historyRuns {
					r := simRun(rng, mu, sigmaB)
					last, _ = claimOf(simE, simClaim, r)
					b.Runs = append(b.Runs, RunFigureOf(last, fmt.Sprint(j), fmt.Sprint(j), time.Time{}))
				}
				vh, _, _ := judgeHistory(last, b, "")
				hist.add(vh, truth)
			}
			slack := 3 * math.Sqrt(SettleAlpha*(1-SettleAlpha)/float64(trials))
			for _, x := range []struct {
				name string
				o    simOutcome
			}{{"two-level", two}, {"history", hist}} {
				if x.o.rate() > SettleAlpha+slack {
					t.Errorf("spread %.2f, figure %+.1f spreads from the edge (truth %s): the %s rule is wrong in %d of %d trials (%.3f), above its %.2f",
						sigmaB, k, truth, x.name, x.o.wrong, x.o.trials, x.o.rate(), SettleAlpha)
				}
			}
			t.Logf("spread %.2f, figure %+.1f spreads from the edge (truth %s): wrong one-level %d, two-level %d, history %d of %d; decided %d, %d, %d",
				sigmaB, k, truth, one.wrong, two.wrong, hist.wrong, trials, one.decided, two.decided, hist.decided)
			for _, p := range []struct{ all, one *simOutcome }{{&oneAll, &one}, {&twoAll, &two}, {&histAll, &hist}} {
				p.all.wrong += p.one.wrong
				p.all.decided += p.one.decided
				p.all.trials += p.one.trials
			}
			if k == 0.5 || k == -0.5 {
				if one.rate() <= SettleAlpha {
					t.Errorf("spread %.2f, figure %+.1f spreads from the edge: the one-level rule is wrong in only %.3f of trials; the simulation does not show its defect", sigmaB, k, one.rate())
				}
			}
		}
		t.Logf("spread %.2f, all positions: wrong one-level %.3f, two-level %.3f, history %.3f; decided %.3f, %.3f, %.3f",
			sigmaB, oneAll.rate(), twoAll.rate(), histAll.rate(),
			float64(oneAll.decided)/float64(oneAll.trials), float64(twoAll.decided)/float64(twoAll.trials), float64(histAll.decided)/float64(histAll.trials))
		if twoAll.rate() > SettleAlpha || histAll.rate() > SettleAlpha {
			t.Errorf("spread %.2f: over all positions two-level %.3f, history %.3f wrong, above %.2f", sigmaB, twoAll.rate(), histAll.rate(), SettleAlpha)
		}
		if oneAll.rate() <= SettleAlpha {
			t.Errorf("spread %.2f: over all positions the one-level rule is wrong in only %.3f: the simulation does not show its defect", sigmaB, oneAll.rate())
		}
	}
}

// simFixed is a run of the simulated claim with figure x in its own
// measurement and the replicates' figures reps, each cell's samples
// alike.
func simFixed(x float64, reps ...float64) []bench.Record {
	cell := func(ms float64) []bench.Phase {
		s := []float64{ms, ms, ms, ms, ms, ms}
		return []bench.Phase{{Name: bench.TotalPhase, SamplesMS: s, MedianMS: ms, StatMS: ms}}
	}
	a := bench.Record{Experiment: simExp, Impl: "a", Params: simParams, Status: bench.StatusOK, Phases: cell(100 * x)}
	b := bench.Record{Experiment: simExp, Impl: "b", Params: simParams, Status: bench.StatusOK, Phases: cell(100)}
	for _, r := range reps {
		a.Replicates = append(a.Replicates, bench.Replicate{Level: bench.LevelProcess, Phases: cell(100 * r)})
		b.Replicates = append(b.Replicates, bench.Replicate{Level: bench.LevelProcess, Phases: cell(100)})
	}
	return []bench.Record{a, b}
}

// TestOuterNeed: a figure the between-run spread cannot carry across its
// band's edge needs no replicates; one near the edge needs some, and,
// once its draws cross the edge, is not settled and needs no more than
// MaxOuterDraws; draws that agree, far enough inside, settle it at the
// outer level; history's spread floors the draws'.
func TestOuterNeed(t *testing.T) {
	if n, why := OuterNeed(simE, simClaim, simFixed(3), simRefs, simWithin, nil); n != 0 {
		t.Errorf("3x against 0.8x-1.25x: %d replicates (%s), want none", n, why)
	}
	n, why := OuterNeed(simE, simClaim, simFixed(1.3), simRefs, simWithin, nil)
	if n == 0 {
		t.Errorf("1.3x against 0.8x-1.25x: no replicates (%s)", why)
	}
	st := SettleTwoLevel(simE, simClaim, simFixed(1.3), simRefs, simWithin, MaxLooks, nil)
	if st.Settled || st.Outer.Draws() != 1 {
		t.Errorf("1.3x alone: settled %v over %d draws (%s), want unsettled on one draw", st.Settled, st.Outer.Draws(), st.Why)
	}
	crossing := simFixed(1.4, 1.1, 1.5, 1.0)
	if st := SettleTwoLevel(simE, simClaim, crossing, simRefs, simWithin, MaxLooks, nil); st.Settled || !strings.Contains(st.Why, "at the outer level") {
		t.Errorf("draws 1.4x, 1.1x, 1.5x, 1.0x: settled %v (%s), want unsettled at the outer level", st.Settled, st.Why)
	}
	if n, _ := OuterNeed(simE, simClaim, crossing, simRefs, simWithin, nil); n > MaxOuterDraws-4 {
		t.Errorf("crossing draws: %d more, beyond MaxOuterDraws", n)
	}
	inside := simFixed(1.0, 1.01, 0.99, 1.0, 1.02)
	st = SettleTwoLevel(simE, simClaim, inside, simRefs, simWithin, MaxLooks, nil)
	if !st.Settled || st.Level != LevelOuter || st.Claim.Verdict != Reproduced {
		t.Errorf("draws 1.0x, 1.01x, 0.99x, 1.0x, 1.02x: settled %v at %q, %s (%s)", st.Settled, st.Level, st.Claim.Verdict, st.Why)
	}
	if n, why := OuterNeed(simE, simClaim, inside, simRefs, simWithin, nil); n != 0 {
		t.Errorf("settled draws: %d more (%s)", n, why)
	}
	// history says the figure moves by 30% between runs: the same draws
	// no longer settle it
	hist := &Between{Claim: simClaim}
	for i, x := range []float64{1.0, 1.5, 0.7, 1.2, 0.9} {
		hist.Runs = append(hist.Runs, RunFigure{Run: fmt.Sprint(i), Commit: fmt.Sprint(i), Figure: x, Verdict: simBand.Of(x)})
	}
	if st := SettleTwoLevel(simE, simClaim, inside, simRefs, simWithin, MaxLooks, hist); st.Settled {
		t.Errorf("with history's spread as the floor: settled (%s)", st.Outer.text(st.Claim))
	}
}
