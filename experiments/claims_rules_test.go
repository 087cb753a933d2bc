package experiments

import (
	"strconv"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/results"
)

// Each rule the catalogue's claims added is held to a record set on which
// the claim holds and one on which it fails: a rule that cannot fail is no
// rule.

// mk is an ok record with its check passed.
func mk(exp, impl string, p bench.Params, phases, metrics map[string]float64) bench.Record {
	r := bench.Record{Experiment: exp, Impl: impl, Params: p, Status: bench.StatusOK, Check: &bench.Check{OK: true}, Metrics: metrics}
	for _, name := range []string{"total", "convert_ccs", "topo_sort", "init_w", "update_w", "h2d", "d2h", "compute",
		"init", "step1", "step2", "step3", "step4", "step5", "step6", "algorithm1", "algorithm3", "algorithm4"} {
		if v, ok := phases[name]; ok {
			r.Phases = append(r.Phases, bench.Phase{Name: name, MedianMS: v, StatMS: v})
		}
	}
	return r
}

// failed is r failing its check.
func failed(r bench.Record) bench.Record {
	r.Status, r.Check = bench.StatusCheckFailed, &bench.Check{OK: false, Detail: "differs"}
	return r
}

// phases builds a phase map from name, value pairs.
func phases(kv ...any) map[string]float64 {
	m := map[string]float64{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = toF(kv[i+1])
	}
	return m
}

func toF(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	panic("phases: a number")
}

// pick turns a rule of several claims into the rule of one.
func pick(f func([]bench.Record) []Claim, id string) func([]bench.Record) Claim {
	return func(run []bench.Record) Claim {
		for _, c := range f(run) {
			if c.ID == id {
				return c
			}
		}
		return Claim{ID: id, Verdict: "missing"}
	}
}

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

func tp(tree, src string, n int, nb string) bench.Params {
	return bench.Params{{Name: "tree", Value: tree}, {Name: "source", Value: src}, {Name: "n", Value: strconv.Itoa(n)}, {Name: "numbering", Value: nb}}
}

// formulaMetrics are a 2-domination analysis' metrics for m with a = 3,
// b = m + 2, γ2 = (m+2)n/3 at n ≡ 0 (mod 3), γ2(n = 5) by the C_5 formula
// and, for even m, the exception at n = 5.
func formulaMetrics(m int) map[string]float64 {
	mt := map[string]float64{"a": 3, "b": float64(m + 2), "n0": 25}
	for n := 3; n <= 39; n += 3 {
		mt["gamma2_n"+strconv.Itoa(n)] = float64((m + 2) * n / 3)
	}
	g5 := 2*m + 1
	if m%2 == 0 {
		g5 = 2*m + 2
		mt["exception_n5"] = float64(g5)
	}
	mt["gamma2_n5"] = float64(g5)
	return mt
}

func TestNewClaimRules(t *testing.T) {
	kp, hp, dp := kleeneParams, hungarianParams, dominationParams
	const k2, k3 = "kleene/table2", "kleene/table3"
	const h1, h5 = "hungarian/table1", "hungarian/fig5"
	at := func(f map[string]float64, k string, v float64) map[string]float64 {
		g := map[string]float64{}
		for a, b := range f {
			g[a] = b
		}
		g[k] = v
		return g
	}
	// Hungarian Table 3's GPU steps: speedups 33, 0.5, 0.1, 2.5, 0.2, 40
	// against 10 ms per CPU step.
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
	const d2, d3, d5, df = "domination/table2", "domination/table3", "domination/table5", "domination/formula"
	formula := func(edit func(map[int]map[string]float64)) []bench.Record {
		ms := map[int]map[string]float64{4: formulaMetrics(4), 8: formulaMetrics(8), 9: formulaMetrics(9)}
		ms[4]["a"], ms[4]["b"], ms[4]["gamma2_n3"] = 8, 14, 7 // m = 4: off (m+2)n/3 at n = 3
		edit(ms)
		var out []bench.Record
		for m, mt := range ms {
			out = append(out, mk(df, "cpu/sparse", dp(m), phases("total", 1), mt))
		}
		return out
	}
	none := func(map[int]map[string]float64) {}
	const t4, t7, acc = "treefix/fig4", "treefix/fig7", "treefix/accuracy"
	pair := func(exp string, p bench.Params, par, vec float64) []bench.Record {
		return []bench.Record{mk(exp, "cuda/parallel", p, phases("compute", par, "total", par+1, "h2d", 10, "d2h", 1), nil),
			mk(exp, "cuda/vectorial", p, phases("compute", vec, "total", vec+1, "h2d", 10, "d2h", 1), nil)}
	}
	big := tp("nlpkkt200", srcSuiteSparse, 16240000, "file")
	accRec := func(impl string, chain int, err float64) bench.Record {
		r := mk(acc, impl, bench.Params{{Name: "chain", Value: strconv.Itoa(chain)}, {Name: "cond", Value: "1.00e+05"}, {Name: "op", Value: "rootfix"}}, phases("total", 1), map[string]float64{"cond": 1e5})
		r.Check.MaxErr = err
		return r
	}
	cat := func(impl, shape string, compute float64) bench.Record {
		return mk(t7, impl, tp(shape, srcSynthetic, 1<<24, string(trees.BreadthFirst)), phases("compute", compute, "total", compute), nil)
	}
	for _, c := range []struct {
		name       string
		rule       func([]bench.Record) Claim
		hold, fail []bench.Record
	}{
		{"kleene update-bottleneck", kleeneBottleneckClaim,
			[]bench.Record{mk(k2, "cpu/paper", kp(500), phases("convert_ccs", 1, "topo_sort", 1, "init_w", 1, "update_w", 100, "total", 103), nil)},
			[]bench.Record{mk(k2, "cpu/paper", kp(500), phases("convert_ccs", 200, "topo_sort", 1, "init_w", 1, "update_w", 100, "total", 302), nil)}},
		{"kleene arcs", kleeneArcsClaim,
			[]bench.Record{mk(k2, "cpu/paper", kp(500), phases("total", 1), map[string]float64{"arcs": 62600})},
			[]bench.Record{mk(k2, "cpu/paper", kp(500), phases("total", 1), map[string]float64{"arcs": 70000})}},
		{"kleene speedup-grows", kleeneSpeedupGrowsClaim,
			[]bench.Record{mk(k3, "cpu/paper", kp(500), phases("total", 50), nil), mk(k3, "cuda/paper", kp(500), phases("total", 10), nil),
				mk(k3, "cpu/paper", kp(1000), phases("total", 400), nil), mk(k3, "cuda/paper", kp(1000), phases("total", 40), nil)},
			[]bench.Record{mk(k3, "cpu/paper", kp(500), phases("total", 100), nil), mk(k3, "cuda/paper", kp(500), phases("total", 10), nil),
				mk(k3, "cpu/paper", kp(1000), phases("total", 400), nil), mk(k3, "cuda/paper", kp(1000), phases("total", 80), nil)}},
		{"kleene host-phases-same", kleeneHostPhasesClaim,
			[]bench.Record{mk(k3, "cpu/paper", kp(4000), phases("convert_ccs", 226, "topo_sort", 17, "total", 300), nil), mk(k3, "cuda/paper", kp(4000), phases("convert_ccs", 220, "topo_sort", 17, "total", 250), nil)},
			[]bench.Record{mk(k3, "cpu/paper", kp(4000), phases("convert_ccs", 226, "topo_sort", 17, "total", 300), nil), mk(k3, "cuda/paper", kp(4000), phases("convert_ccs", 500, "topo_sort", 17, "total", 520), nil)}},
		{"hungarian cpu-paper-worst", hungarianWorstClaim,
			[]bench.Record{mk(h5, "cpu/paper", hp(2048, "1000n"), phases("total", 1000), nil), mk(h5, "cpu/jv", hp(2048, "1000n"), phases("total", 10), nil), mk(h5, "cpu/auction", hp(2048, "1000n"), phases("total", 100), nil)},
			[]bench.Record{mk(h5, "cpu/paper", hp(2048, "1000n"), phases("total", 50), nil), mk(h5, "cpu/jv", hp(2048, "1000n"), phases("total", 10), nil), mk(h5, "cpu/auction", hp(2048, "1000n"), phases("total", 100), nil)}},
		{"hungarian speedup-grows", hungarianSpeedupGrowsClaim, speedups(1, 20), speedups(2, 0.5)},
		{"hungarian cpu-dominant-steps", hungarianCPUStepsClaim, cpuDominant(steps(1, 1, 1, 1, 1, 10)), cpuDominant(steps(10, 1, 1, 1, 1, 5))},
		{"hungarian steps-1-6", pick(hungarianTable3Claims, "hungarian/table3#steps-1-6"), table3(gpuSteps, "n"), table3(at(gpuSteps, "step2", 0.1), "n")},
		{"hungarian step4", pick(hungarianTable3Claims, "hungarian/table3#step4"), table3(gpuSteps, "n"), table3(at(gpuSteps, "step4", 20), "n")},
		{"hungarian step3-worst", pick(hungarianTable3Claims, "hungarian/table3#step3-worst"), table3(gpuSteps, "n"), table3(at(gpuSteps, "step3", 5), "n")},
		{"hungarian other-ranges", pick(hungarianTable3Claims, "hungarian/table3#other-ranges"), table3(gpuSteps, "0.1n", "n", "10n"),
			append(table3(gpuSteps, "0.1n", "n"), table3(at(gpuSteps, "step5", 0.01), "10n")...)},
		{"hungarian range-shares", hungarianRangeSharesClaim,
			[]bench.Record{mk(h1, "cuda/paper", hp(8192, "0.1n"), steps(5, 5, 1, 1, 1, 1), nil), mk(h1, "cuda/paper", hp(8192, "10n"), steps(1, 1, 1, 1, 1, 10), nil)},
			[]bench.Record{mk(h1, "cuda/paper", hp(8192, "0.1n"), steps(1, 1, 1, 1, 1, 10), nil), mk(h1, "cuda/paper", hp(8192, "10n"), steps(5, 5, 1, 1, 1, 1), nil)}},
		{"hungarian cuda-correct", hungarianCorrectClaim,
			[]bench.Record{mk(h1, "cuda/paper", hp(512, "n"), phases("total", 1), nil)},
			[]bench.Record{mk(h1, "cuda/paper", hp(512, "n"), phases("total", 1), nil), failed(mk(h1, "cuda/paper", hp(1024, "n"), phases("total", 1), nil))}},
		{"hungarian k20c", hungarianK20cClaim,
			[]bench.Record{mk(h1, "cuda/paper", hp(8192, "n"), phases("total", 300), nil)},
			[]bench.Record{mk(h1, "cuda/paper", hp(8192, "n"), phases("total", 1000), nil)}},
		{"domination openmp-speedup", pick(dominationTable2MoreClaims, d2+"#openmp-speedup"),
			[]bench.Record{mk(d2, "cpu/paper", dp(10), phases("total", 4050), nil), mk(d2, "cpu/fast", dp(10), phases("total", 100), nil)},
			[]bench.Record{mk(d2, "cpu/paper", dp(10), phases("total", 4050), nil), mk(d2, "cpu/fast", dp(10), phases("total", 1000), nil)}},
		{"domination gpu-speedup", pick(dominationTable2MoreClaims, d2+"#gpu-speedup"),
			[]bench.Record{mk(d2, "cpu/fast", dp(11), phases("total", 6000), nil), mk(d2, "cuda/paper", dp(11), phases("total", 100), nil)},
			[]bench.Record{mk(d2, "cpu/fast", dp(11), phases("total", 600), nil), mk(d2, "cuda/paper", dp(11), phases("total", 100), nil)}},
		{"domination seq-time", pick(dominationTable2MoreClaims, d2+"#seq-time"),
			[]bench.Record{mk(d2, "cpu/paper", dp(10), phases("total", 6e7), nil)},
			[]bench.Record{mk(d2, "cpu/paper", dp(10), phases("total", 3e8), nil)}},
		{"domination under-1s", pick(dominationTable2MoreClaims, d2+"#under-1s"),
			[]bench.Record{mk(d2, "cpu/paper", dp(6), phases("total", 100), nil)},
			[]bench.Record{mk(d2, "cpu/paper", dp(6), phases("total", 2000), nil)}},
		{"domination alg1-time", domAlg1TimeClaim,
			[]bench.Record{mk("domination/table1", "cpu/paper", dp(12), phases("algorithm1", 60000, "total", 60000), nil)},
			[]bench.Record{mk("domination/table1", "cpu/paper", dp(12), phases("algorithm1", 1e6, "total", 1e6), nil)}},
		{"domination dense-from-third", domDenseClaim,
			[]bench.Record{mk(d3, "cpu/sparse", dp(5), phases("total", 1), map[string]float64{"finite_from": 3})},
			[]bench.Record{mk(d3, "cpu/sparse", dp(5), phases("total", 1), map[string]float64{"finite_from": 4})}},
		{"domination r0-plus-a", domR0PlusAClaim,
			[]bench.Record{mk(d3, "cpu/sparse", dp(5), phases("total", 1), map[string]float64{"r0": 43, "a": 7})},
			[]bench.Record{mk(d3, "cpu/sparse", dp(5), phases("total", 1), map[string]float64{"r0": 42, "a": 7})}},
		{"domination openmp-beats-gpu", domOpenMPBeatsGPUClaim,
			[]bench.Record{mk(d5, domV4, dp(12), phases("algorithm3", 7, "algorithm4", 98, "total", 200), nil), mk(d5, domV3, dp(12), phases("algorithm3", 14, "algorithm4", 170, "total", 300), nil)},
			[]bench.Record{mk(d5, domV4, dp(12), phases("algorithm3", 20, "algorithm4", 98, "total", 200), nil), mk(d5, domV3, dp(12), phases("algorithm3", 14, "algorithm4", 170, "total", 300), nil)}},
		{"domination regular", pick(domFormulaClaims, df+"#regular"), formula(none), formula(func(m map[int]map[string]float64) { m[9]["b"] = 12 })},
		{"domination n-mod-3", pick(domFormulaClaims, df+"#n-mod-3"), formula(none), formula(func(m map[int]map[string]float64) { m[9]["gamma2_n6"] = 23 })},
		{"domination exceptions", pick(domFormulaClaims, df+"#exceptions"), formula(none), formula(func(m map[int]map[string]float64) { m[9]["exception_n5"] = 20 })},
		{"domination c5", pick(domFormulaClaims, df+"#c5"), formula(none), formula(func(m map[int]map[string]float64) { m[8]["gamma2_n5"] = 17 })},
		{"domination alpha-at-most-2", pick(domFormulaClaims, df+"#alpha-at-most-2"), formula(none), formula(func(m map[int]map[string]float64) { m[8]["alpha_k1"] = 3 })},
		{"domination small-m", pick(domFormulaClaims, df+"#small-m"), formula(none), formula(func(m map[int]map[string]float64) { m[4]["gamma2_n3"] = 6 })},
		{"apsp two-thirds-idle", apspIdleClaim,
			[]bench.Record{mk("apsp/systolic", "cpu/systolic", bench.Params{{Name: "n", Value: "4"}}, phases("total", 1), map[string]float64{"max_active_fraction": 0.2})},
			[]bench.Record{mk("apsp/systolic", "cpu/systolic", bench.Params{{Name: "n", Value: "4"}}, phases("total", 1), map[string]float64{"max_active_fraction": 0.5})}},
		{"apsp op-counts", pick(apspSemiringClaims, "apsp/semirings#op-counts"),
			[]bench.Record{mk("apsp/semirings", "cpu/sgje", bench.Params{{Name: "semiring", Value: "min-plus"}, {Name: "n", Value: "4"}}, phases("total", 1), map[string]float64{"stars": 4, "mults": 60, "adds": 36})},
			[]bench.Record{mk("apsp/semirings", "cpu/sgje", bench.Params{{Name: "semiring", Value: "min-plus"}, {Name: "n", Value: "4"}}, phases("total", 1), map[string]float64{"stars": 4, "mults": 60, "adds": 35})}},
		{"apsp instances", pick(apspSemiringClaims, "apsp/semirings#instances"),
			[]bench.Record{mk("apsp/semirings", "cpu/fast", bench.Params{{Name: "semiring", Value: "min-plus"}, {Name: "n", Value: "4"}}, phases("total", 1), nil),
				mk("apsp/semirings", "cpu/fast", bench.Params{{Name: "semiring", Value: "boolean"}, {Name: "n", Value: "4"}}, phases("total", 1), nil),
				mk("apsp/semirings", "cpu/fast", bench.Params{{Name: "semiring", Value: "real"}, {Name: "n", Value: "4"}}, phases("total", 1), nil)},
			[]bench.Record{mk("apsp/semirings", "cpu/fast", bench.Params{{Name: "semiring", Value: "min-plus"}, {Name: "n", Value: "4"}}, phases("total", 1), nil),
				mk("apsp/semirings", "cpu/fast", bench.Params{{Name: "semiring", Value: "boolean"}, {Name: "n", Value: "4"}}, phases("total", 1), nil),
				failed(mk("apsp/semirings", "cpu/fast", bench.Params{{Name: "semiring", Value: "real"}, {Name: "n", Value: "4"}}, phases("total", 1), nil))}},
		{"apsp decomposition", apspBlockedClaim,
			[]bench.Record{mk("apsp/blocked", "cpu/fast", bench.Params{{Name: "n", Value: "512"}}, phases("total", 1), nil)},
			[]bench.Record{failed(mk("apsp/blocked", "cpu/fast", bench.Params{{Name: "n", Value: "512"}}, phases("total", 1), nil))}},
		{"treefix vectorial-faster", treefixFasterClaim, pair(t4, big, 10, 1), pair(t4, big, 1, 10)},
		{"treefix vectorial-grows", treefixGrowsClaim,
			[]bench.Record{mk(t4, "cuda/vectorial", tp("a", srcStandIn, 100, string(trees.BreadthFirst)), phases("compute", 1), nil), mk(t4, "cuda/vectorial", tp("b", srcStandIn, 200, string(trees.BreadthFirst)), phases("compute", 2), nil)},
			[]bench.Record{mk(t4, "cuda/vectorial", tp("a", srcStandIn, 100, string(trees.BreadthFirst)), phases("compute", 1), nil), mk(t4, "cuda/vectorial", tp("b", srcStandIn, 200, string(trees.BreadthFirst)), phases("compute", 0.5), nil)}},
		{"treefix cage15-faster", treefixCage15Claim,
			[]bench.Record{mk(t4, "cuda/parallel", tp("cage15", srcSuiteSparse, 5154859, "file"), phases("compute", 12), nil), mk(t4, "cuda/parallel", tp("nlpkkt120", srcSuiteSparse, 3542400, "file"), phases("compute", 21), nil)},
			[]bench.Record{mk(t4, "cuda/parallel", tp("cage15", srcSuiteSparse, 5154859, "file"), phases("compute", 21), nil), mk(t4, "cuda/parallel", tp("nlpkkt120", srcSuiteSparse, 3542400, "file"), phases("compute", 12), nil)}},
		{"treefix transfers-same", treefixTransfersClaim, pair(t4, big, 10, 1),
			[]bench.Record{pair(t4, big, 10, 1)[0], mk(t4, "cuda/vectorial", big, phases("compute", 1, "total", 2, "h2d", 30, "d2h", 1), nil)}},
		{"treefix integer-exact", treefixIntegerClaim, pair(t4, big, 10, 1), []bench.Record{pair(t4, big, 10, 1)[0], failed(pair(t4, big, 10, 1)[1])}},
		{"treefix vectorial-60x", treefixSixtyClaim,
			[]bench.Record{mk(t4, "cpu/sequential", big, phases("compute", 600), nil), mk(t4, "cuda/vectorial", big, phases("compute", 10), nil)},
			[]bench.Record{mk(t4, "cpu/sequential", big, phases("compute", 100), nil), mk(t4, "cuda/vectorial", big, phases("compute", 10), nil)}},
		{"treefix parallel-slow-caterpillar", pick(treefixFig7MoreClaims, t7+"#parallel-slow-caterpillar"),
			[]bench.Record{cat("cuda/parallel", "caterpillar", 100), cat("cpu/sequential", "caterpillar", 10)},
			[]bench.Record{cat("cuda/parallel", "caterpillar", 1), cat("cpu/sequential", "caterpillar", 10)}},
		{"treefix vectorial-insensitive", pick(treefixFig7MoreClaims, t7+"#vectorial-insensitive"),
			[]bench.Record{cat("cuda/vectorial", "star", 1), cat("cuda/vectorial", "caterpillar", 1.2)},
			[]bench.Record{cat("cuda/vectorial", "star", 1), cat("cuda/vectorial", "caterpillar", 10)}},
		{"treefix vectorial-less-accurate", treefixLessAccurateClaim,
			[]bench.Record{accRec("cpu/vectorial", 0, 1e-5), accRec("cpu/parallel", 0, 1e-6), accRec("cpu/vectorial", 1, 1e-5), accRec("cpu/parallel", 1, 1e-6)},
			[]bench.Record{accRec("cpu/vectorial", 0, 1e-7), accRec("cpu/parallel", 0, 1e-6), accRec("cpu/vectorial", 1, 1e-7), accRec("cpu/parallel", 1, 1e-6)}},
		{"treefix table1 trees", treefixTable1Claim,
			[]bench.Record{mk("treefix/table1", cpuBuild, tp("af_shell9", srcSuiteSparse, 504855, "file"), phases("total", 1), map[string]float64{"n": 504855, "depth": 490})},
			[]bench.Record{mk("treefix/table1", cpuBuild, tp("af_shell9", srcSuiteSparse, 504855, "file"), phases("total", 1), map[string]float64{"n": 504855, "depth": 491})}},
	} {
		if got := c.rule(c.hold); got.Verdict != Reproduced {
			t.Errorf("%s: on records where it holds: %s (%s; %s)", c.name, got.Verdict, got.Ours, got.Reason)
		}
		if got := c.rule(c.fail); got.Verdict != NotReproduced {
			t.Errorf("%s: on records where it fails: %s (%s; %s)", c.name, got.Verdict, got.Ours, got.Reason)
		}
		if got := c.rule(nil); got.Verdict != NotRun {
			t.Errorf("%s: on no records: %s (%s)", c.name, got.Verdict, got.Ours)
		}
		if cc, ok := results.ClaimByID(c.rule(nil).ID); !ok || cc.Untestable != "" {
			t.Errorf("%s: claim %s is not a testable claim of the catalogue", c.name, c.rule(nil).ID)
		}
	}
}

// TestRulesWantTheirMetrics: a record without the metric a rule reads
// gives no verdict (never a 0 read as a value).
func TestRulesWantTheirMetrics(t *testing.T) {
	d3 := "domination/table3"
	for name, got := range map[string]Claim{
		"dense-from-third": domDenseClaim([]bench.Record{mk(d3, "cpu/sparse", dominationParams(5), phases("total", 1), map[string]float64{"r0": 43})}),
		"r0-plus-a":        domR0PlusAClaim([]bench.Record{mk(d3, "cpu/sparse", dominationParams(5), phases("total", 1), map[string]float64{"r0": 43})}),
		"two-thirds-idle":  apspIdleClaim([]bench.Record{mk("apsp/systolic", "cpu/systolic", bench.Params{{Name: "n", Value: "4"}}, phases("total", 1), map[string]float64{})}),
		"arcs":             kleeneArcsClaim([]bench.Record{mk("kleene/table2", "cpu/paper", kleeneParams(500), phases("total", 1), map[string]float64{})}),
	} {
		if got.Verdict != NotRun {
			t.Errorf("%s without its metric: %s (%s)", name, got.Verdict, got.Ours)
		}
	}
	// Stand-in trees make cage15 against nlpkkt120 not comparable.
	stand := []bench.Record{mk("treefix/fig4", "cuda/parallel", tp("cage15", srcStandIn, 5154859, string(trees.BreadthFirst)), phases("compute", 12), nil),
		mk("treefix/fig4", "cuda/parallel", tp("nlpkkt120", srcStandIn, 3542400, string(trees.BreadthFirst)), phases("compute", 21), nil)}
	if got := treefixCage15Claim(stand); got.Class != NotComparable {
		t.Errorf("cage15 on stand-ins: class %q, want not comparable", got.Class)
	}
}
