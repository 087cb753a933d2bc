package hungarian

import (
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
)

// Every testable claim of the paper is held to a record set on which its
// rule holds and one on which it fails (ruleCases, keyed by claim ID): a
// rule that cannot fail is no rule.

var (
	mk     = experimentstest.Mk
	failed = experimentstest.Failed
	timed  = experimentstest.Timed
	phases = experimentstest.Phases
	with   = experimentstest.With
	ruleOf = experimentstest.RuleOf
)

type ruleCase = experimentstest.RuleCase

// ruleCases holds every testable claim of the paper to its rule, keyed
// by claim ID; CheckRules keeps it complete.
func ruleCases() map[string]ruleCase {
	hp := hungarianParams
	const h1, h4, h5, h6 = "hungarian/table1", "hungarian/fig4", "hungarian/fig5", "hungarian/fig6"
	// Table 3's GPU steps: speedups 33, 0.5, 0.1, 2.5, 0.2, 40 against 10 ms
	// per CPU step.
	cpuSteps, gpuSteps := steps(10, 10, 10, 10, 10, 10), steps(0.3, 20, 100, 4, 50, 0.25)
	table3 := func(gpu map[string]float64, ranges ...string) []bench.Record {
		var out []bench.Record
		for _, r := range ranges {
			out = append(out, mk(h1, "cpu/paper", hp(8192, r), cpuSteps, nil), mk(h1, "cuda/paper", hp(8192, r), gpu, nil))
		}
		return out
	}
	speedups := func(lo, hi float64) []bench.Record {
		var out []bench.Record
		for _, r := range []string{"0.1n", "n", "10n"} {
			out = append(out, mk(h1, "cpu/paper", hp(512, r), phases("total", 1), nil), mk(h1, "cuda/paper", hp(512, r), phases("total", 1/lo), nil),
				mk(h1, "cpu/paper", hp(8192, r), phases("total", 100), nil), mk(h1, "cuda/paper", hp(8192, r), phases("total", 100/hi), nil))
		}
		return out
	}
	cpuDominant := func(tenN map[string]float64) []bench.Record {
		return []bench.Record{mk(h1, "cpu/paper", hp(8192, "0.1n"), steps(10, 1, 1, 1, 1, 1), nil),
			mk(h1, "cpu/paper", hp(8192, "n"), steps(10, 1, 1, 1, 1, 9), nil), mk(h1, "cpu/paper", hp(8192, "10n"), tenN, nil)}
	}
	// race is cpu/paper against the other CPU algorithms of exp at n and
	// range r, six samples each.
	race := func(exp string, n int, r string, paper float64, others ...float64) []bench.Record {
		out := []bench.Record{timed(mk(exp, "cpu/paper", hp(n, r), nil, nil), "total", paper)}
		for i, v := range others {
			out = append(out, timed(mk(exp, hungarianCPU[i+1], hp(n, r), nil, nil), "total", v))
		}
		return out
	}
	n4n3 := func(ratio float64) []bench.Record {
		return []bench.Record{mk(h6, "cuda/paper", hp(512, "n"), phases("total", 10), nil), mk(h6, "cuda/hungarian-n3", hp(512, "n"), phases("total", 10*ratio), nil)}
	}
	return map[string]ruleCase{
		"hungarian/fig4#cpu-paper-fastest":    {Hold: race(h4, 8192, "n", 10, 20, 30, 40), Fail: race(h4, 8192, "n", 10, 20, 5, 40)},
		"hungarian/fig5#cpu-paper-fastest":    {Hold: race(h5, 2048, "0.1n", 10, 20, 30, 40), Fail: race(h5, 2048, "0.1n", 10, 20, 5, 40)},
		"hungarian/fig5#cpu-paper-worst":      {Hold: race(h5, 2048, "1000n", 1000, 10, 100), Fail: race(h5, 2048, "1000n", 50, 10, 100)},
		"hungarian/table2#speedup-0.1n":       {Hold: speedups(1, 25), Fail: speedups(1, 5)},
		"hungarian/table2#speedup-n":          {Hold: speedups(1, 25), Fail: speedups(1, 5)},
		"hungarian/table2#speedup-10n":        {Hold: speedups(1, 25), Fail: speedups(1, 5)},
		"hungarian/table2#speedup-grows":      {Hold: speedups(1, 20), Fail: speedups(2, 0.5)},
		"hungarian/fig6#n4-over-n3":           {Hold: n4n3(2.5), Fail: n4n3(1.3)},
		"hungarian/table1#cpu-dominant-steps": {Hold: cpuDominant(steps(1, 1, 1, 1, 1, 10)), Fail: cpuDominant(steps(10, 1, 1, 1, 1, 5))},
		"hungarian/table3#steps-1-6":          {Hold: table3(gpuSteps, "n"), Fail: table3(with(gpuSteps, "step2", 0.1), "n")},
		"hungarian/table3#step4":              {Hold: table3(gpuSteps, "n"), Fail: table3(with(gpuSteps, "step4", 20), "n")},
		"hungarian/table3#step3-worst":        {Hold: table3(gpuSteps, "n"), Fail: table3(with(gpuSteps, "step3", 5), "n")},
		"hungarian/table3#other-ranges": {Hold: table3(gpuSteps, "0.1n", "n", "10n"),
			Fail: append(table3(gpuSteps, "0.1n", "n"), table3(with(gpuSteps, "step5", 0.01), "10n")...)},
		"hungarian/table1#range-shares": {
			Hold: []bench.Record{mk(h1, "cuda/paper", hp(8192, "0.1n"), steps(5, 5, 1, 1, 1, 1), nil), mk(h1, "cuda/paper", hp(8192, "10n"), steps(1, 1, 1, 1, 1, 10), nil)},
			Fail: []bench.Record{mk(h1, "cuda/paper", hp(8192, "0.1n"), steps(1, 1, 1, 1, 1, 10), nil), mk(h1, "cuda/paper", hp(8192, "10n"), steps(5, 5, 1, 1, 1, 1), nil)}},
		"hungarian/table1#cuda-correct": {Hold: []bench.Record{mk(h1, "cuda/paper", hp(512, "n"), phases("total", 1), nil)},
			Fail: []bench.Record{mk(h1, "cuda/paper", hp(512, "n"), phases("total", 1), nil), failed(mk(h1, "cuda/paper", hp(1024, "n"), phases("total", 1), nil))}},
		"hungarian/table4#k20c": {Hold: []bench.Record{mk(h1, "cuda/paper", hp(8192, "n"), phases("total", 300), nil)},
			Fail: []bench.Record{mk(h1, "cuda/paper", hp(8192, "n"), phases("total", 1000), nil)}},
	}
}

// TestClaimRules holds every rule of the paper to its cases
// (experimentstest.CheckRules).
func TestClaimRules(t *testing.T) { experimentstest.CheckRules(t, Paper.File, ruleCases()) }

// steps are the six Hungarian steps at the given times, total their sum.
func steps(t ...float64) map[string]float64 {
	m := map[string]float64{}
	sum := 0.0
	for i, v := range t {
		m["step"+strconv.Itoa(i+1)] = v
		sum += v
	}
	m["total"] = sum
	return m
}

// TestMarginsAndSizes: a significant 2% gap within the claim's margin is
// inconclusive, and Fig. 4 decided below the paper's size is indicative.
func TestMarginsAndSizes(t *testing.T) {
	const h4 = "hungarian/fig4"
	close := []bench.Record{timed(mk(h4, "cpu/paper", hungarianParams(512, "n"), nil, nil), "total", 100),
		timed(mk(h4, "cpu/jv", hungarianParams(512, "n"), nil, nil), "total", 102)}
	got := ruleOf(h4 + "#cpu-paper-fastest")(close)
	if got.Verdict != experiments.Inconclusive || !strings.Contains(got.Ours, "margin") {
		t.Errorf("Fig. 4 with cpu/paper 2%% faster: %s (%s), want inconclusive", got.Verdict, got.Ours)
	}
	apart := []bench.Record{close[0], timed(mk(h4, "cpu/jv", hungarianParams(512, "n"), nil, nil), "total", 150)}
	for _, c := range experiments.Judge(apart, experiments.Paper, bench.SchemaVersion) {
		if c.ID == h4+"#cpu-paper-fastest" && c.Verdict != experiments.Indicative {
			t.Errorf("Fig. 4 decided at n = 512 only, at paper scale: %s (%s), want indicative", c.Verdict, c.Reason)
		}
	}
}
