package domination

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/domination"
	"github.com/semibench/semibench/problems/minplus"
)

// Paper is the paper this package reproduces.
var Paper = experiments.PaperInfo{File: "002_cefe811b9d125289.txt", Name: "2-domination", Number: "002",
	Source: "Garzón et al. 2022, 2-domination of P_m □ C_n"}

// dominationCPU lists the CPU (min,+) products in display order.
var dominationCPU = minplusNames("cpu/")

// dominationGPU lists the GPU (min,+) products in display order.
var dominationGPU = minplusNames("cuda/")

// minplusNames lists the (min,+) products of a backend ("cpu/", "cuda/")
// in display order.
func minplusNames(prefix string) []string {
	var names []string
	for _, im := range impls.Minplus.Backend(prefix) {
		names = append(names, im.Name)
	}
	return names
}

// dominationAll is every product, CPU then GPU.
var dominationAll = append(slices.Clone(dominationCPU), dominationGPU...)

// dominationExact are the implementations of Tables 3, 4, 6 and the
// formula: the sparse products, whose runs are shortest.
var dominationExact = []string{"cpu/sparse", "cuda/sparse"}

// dominationBeyond is the first m beyond the paper (N = 131,562): only
// cuda/sparse holds its powers (2 x 34.6 GB on the device), and
// dominationLargest the last at large scale (N = 327,006: 2 x 214 GB,
// split over the GPUs of a host with --gpus, and 428 GB of host memory
// for the exact check).
const (
	dominationBeyond  = 13
	dominationLargest = 14
)

// dominationImplsAt restricts a case beyond the paper to cuda/sparse.
func dominationImplsAt(m int) []string {
	if m >= dominationBeyond {
		return []string{"cuda/sparse"}
	}
	return nil
}

// dominationNsPerWork are priors in ns per nominal dense (min,+) update of
// Algorithm 2 (49·N³ per case), measured on a loaded 2-core EPYC with the
// plain-Go kernels and rounded up (the vector kernels of a GOEXPERIMENT=simd
// build are 2-4x faster): cpu/paper's triple loop does every update at
// 0.2-1 G/s; cpu/fast and cpu/sparse skip A(D_m)'s infinite entries
// (density 6% at m = 7, 2.5% at m = 9, falling with m), so their cost per
// nominal update is far lower and falls with m, which keeps the estimates
// for larger m conservative.
// The GPU priors are from impls/cuda/minplus/NOTES.md (H100): cuda/paper
// 3.4 T and cuda/fast 29 T updates/s; cuda/sparse about 1e-6 ns per nominal
// update at m = 12 (16 ms per product), taken 30x higher for the fixed
// costs of small m.
var dominationNsPerWork = map[string]float64{"cpu/paper": 4, "cpu/fast": 0.02, "cpu/sparse": 0.01,
	"cuda/paper": 3e-4, "cuda/fast": 4e-5, "cuda/sparse": 3e-5}

// dominationMs are the m of each scale: the paper's 2..12 at paper scale
// (the runner's budget skips what this CPU cannot do, with estimates).
func dominationMs(s experiments.Scale, quickMax int) []int {
	hi := quickMax
	switch s {
	case experiments.Paper:
		hi = 12
	case experiments.Large:
		hi = dominationLargest
	}
	var ms []int
	for m := 2; m <= hi; m++ {
		ms = append(ms, m)
	}
	return ms
}

// dominationRows is the order N of A(D_m), or 0 when m is out of range.
func dominationRows(m int) int {
	n, err := domination.Rows(m)
	if err != nil {
		return 0
	}
	return n
}

// dominationWork is Algorithm 2's dense work, 49·N³ updates for K = 50.
func dominationWork(m int) float64 {
	n := float64(dominationRows(m))
	return float64(domination.DefaultK-1) * n * n * n
}

func dominationParams(m int) bench.Params { return bench.Params{{Name: "m", Value: strconv.Itoa(m)}} }

// dominationRefImpl is the reference's product: cuda/sparse when a CUDA
// device is present, cpu/sparse otherwise.
func dominationRefImpl() string {
	if n, err := impls.Devices(); err == nil && n > 0 { // counted once per process
		return "cuda/sparse"
	}
	return "cpu/sparse"
}

// dominationInput describes A(D_m).
func dominationInput(an *domination.Analysis) *bench.Input {
	return &bench.Input{Generator: "domination", Description: fmt.Sprintf("A(D_%d): %d correct %d-words, %d arcs", an.M, an.N, an.M, an.NNZ)}
}

// dominationMetrics are the reference's exact results as record metrics.
func dominationMetrics(an *domination.Analysis) map[string]float64 {
	mt := map[string]float64{
		"rows": float64(an.N), "arcs": float64(an.NNZ), "memory_bytes": float64(minplus.Bytes(an.N)),
		"r0": float64(an.R0), "a": float64(an.A), "b": float64(an.B), "n0": float64(an.N0),
		"exceptions": float64(len(an.Exceptions)), "alpha1_count": float64(len(an.AlphaSet(1))),
	}
	for k, a := range an.Alpha {
		if a != 0 {
			mt[fmt.Sprintf("alpha_k%d", k)] = float64(a)
		}
	}
	for _, e := range an.Exceptions {
		mt[fmt.Sprintf("exception_n%d", e.N)] = float64(e.Gamma2)
	}
	for n := 3; n <= 40; n++ {
		if g, err := an.Gamma2(n); err == nil {
			mt[fmt.Sprintf("gamma2_n%d", n)] = float64(g)
		}
	}
	// finite_from: the first power from which every computed power has no
	// infinite entry (Computed+1 when the last has one).
	if an.Computed > 0 && len(an.Powers) == an.Computed+1 {
		from := an.Computed + 1
		for i := an.Computed; i >= 1 && an.Powers[i].Finite; i-- {
			from = i
		}
		mt["finite_from"] = float64(from)
		mt["powers_computed"] = float64(an.Computed)
	}
	return mt
}

// dominationCheck compares an analysis with the reference: every power's
// fingerprint, minimum and diagonal, and the recurrence.
func dominationCheck(got, ref *domination.Analysis, method string) bench.Check {
	c := bench.Check{Method: method}
	if got == nil {
		c.Detail = "no output"
		return c
	}
	for i := 1; i <= min(got.Computed, ref.Computed); i++ {
		if got.Powers[i] != ref.Powers[i] {
			c.Detail = fmt.Sprintf("power %d differs from the reference's (min %d vs %d, diagonal min %d vs %d)",
				i, got.Powers[i].Min, ref.Powers[i].Min, got.Powers[i].DiagMin, ref.Powers[i].DiagMin)
			return c
		}
	}
	if got.A != 0 && (got.A != ref.A || got.B != ref.B || got.N0 != ref.N0) {
		c.Detail = fmt.Sprintf("(a, b, n0) = (%d, %d, %d), reference (%d, %d, %d)", got.A, got.B, got.N0, ref.A, ref.B, ref.N0)
		return c
	}
	c.OK = true
	c.Detail = fmt.Sprintf("%d powers agree exactly with the %s reference's; %s", min(got.Computed, ref.Computed), ref.Impl, ref.Verified)
	return c
}

// dominationPaperCheck compares the reference's metric with the paper's
// record of the table, where the paper has one.
func dominationPaperCheck(exp string, m int, ref map[string]float64, keys ...string) (string, bool) {
	paper, _ := paperdata.PaperRecords(exp)
	pr := bench.IndexRecords(paper).Get(exp, "cuda/paper", dominationParams(m))
	if pr == nil {
		return "no paper value", true
	}
	for _, k := range keys {
		want := pr.Metrics[k]
		if exp == "domination/table6" && k == "exceptions" {
			want = table6Exceptions(pr)
		}
		if want != ref[k] {
			return fmt.Sprintf("%s = %g, paper %g", k, ref[k], want), false
		}
	}
	if exp == "domination/table6" {
		for key, v := range pr.Metrics {
			if k, ok := strings.CutPrefix(key, "alpha1_k"); ok && v == 1 && ref["alpha_k"+k] != 1 {
				return fmt.Sprintf("α_%s = %g, paper 1", k, ref["alpha_k"+k]), false
			}
		}
		if n := pr.Metrics["exception_n"]; n > 0 && ref[fmt.Sprintf("exception_n%g", n)] == 0 {
			return fmt.Sprintf("no exception at n = %g, the paper's", n), false
		}
	}
	return "equal to the paper's " + strings.Join(keys, ", "), true
}

// table6Exceptions is the number of n >= 3 off the formula that the paper's
// Table 6 row implies: its starred exceptions, plus, for an α = 1 that holds
// only from some n on (m = 7: "19 <= n"), the n below that in those classes.
func table6Exceptions(pr *bench.Record) float64 {
	exc := pr.Metrics["exceptions"]
	from, a := int(pr.Metrics["alpha1_from_n"]), int(pr.Metrics["a"])
	for n := 3; n < from && a > 0; n++ {
		if pr.Metrics[fmt.Sprintf("alpha1_k%d", n%a)] == 1 {
			exc++
		}
	}
	return exc
}

// domAnalysisCase is a case of Tables 2 to 6 (or, with w.after, the
// formula's) at w.m: its cells' powers come from the run's store as w says
// (shared.go), and check judges one cell's output against the
// reference (ref) with the case's metrics (mt, filled from the reference).
func domAnalysisCase(w *domWork, names []string, check func(ref *domination.Analysis, mt map[string]float64, out any) bench.Check) experiments.Case {
	m := w.m
	if names == nil {
		names = dominationImplsAt(m)
	}
	if m >= dominationBeyond {
		w.beyond, w.stop, w.window = true, true, domination.NoWindow
		w.figure = w.after == nil // every experiment's figure there is the one analysis, but the formula's witnesses
	}
	return experiments.Case{
		Params: dominationParams(m),
		Impls:  names,
		Work:   dominationWork(m),
		Memory: func(impl string) (uint64, uint64) {
			if w.beyond && w.opt.Shared.Holds(domKey(m, impl, true, true)) {
				return 0, 0 // the run's one analysis is computed: the cell reads it (and must not drop it for room)
			}
			return domMemory(m, impl, w.opt.GPUs)
		},
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			inst := &experiments.Instance{Input: w.input, Metrics: w.metrics, Run: w.run, Finish: w.finish}
			if w.beyond {
				inst.Check = w.beyondCheck
				return inst, nil
			}
			sparse, err := impls.Minplus.Lookup("cpu/sparse")
			if err != nil {
				return nil, err
			}
			need, _, err := domination.MemoryNeeded(m, sparse)
			if err != nil {
				return nil, err
			}
			w.opt.Shared.MakeRoom(need)
			if avail := bench.AvailableMemory(); avail > 0 && need > avail {
				return nil, fmt.Errorf("m=%d needs %d bytes for its powers, only %d available", m, need, avail)
			}
			inst.Check = func(impl string, out any) bench.Check {
				ref, err := w.reference(context.Background(), impl)
				if err != nil {
					return bench.Check{Method: "the reference analysis", Detail: err.Error()}
				}
				c := check(ref, w.metrics, out)
				if c.OK && w.cell(impl) != nil && w.cell(impl).reused {
					c.Detail += "; " + w.how(impl)
				}
				return c
			}
			return inst, nil
		},
	}
}

// domPowersCase is a case of Tables 2 to 6 at m: each output compared,
// power by power, with the reference (method), and with the paper's
// values of keys (Table paperExp) where it has them.
func domPowersCase(w *domWork, method string, paperKeys []string, paperExp string) experiments.Case {
	return domAnalysisCase(w, nil, func(ref *domination.Analysis, mt map[string]float64, out any) bench.Check {
		an, _ := out.(*domination.Analysis)
		c := dominationCheck(an, ref, method)
		if c.OK && len(paperKeys) > 0 {
			detail, ok := dominationPaperCheck(paperExp, w.m, mt, paperKeys...)
			c.OK, c.Detail = ok, c.Detail+"; "+detail
		}
		return c
	})
}

// beyondCheck is the check of a case beyond the paper: the one analysis'
// repetition checked exactly (and the formula's witnesses).
func (w *domWork) beyondCheck(impl string, out any) bench.Check {
	c := bench.Check{Method: "beyond the paper: one cuda/sparse analysis per run, stopped at the first repetition A^(n0+a) ~ A^n0, checked entry by entry"}
	an, _ := out.(*domination.Analysis)
	var sets [][][2]int
	if f, ok := out.(*domFormulaOut); ok {
		an, sets = f.an, f.sets
	}
	if an == nil || an.Verified == "" {
		c.Detail = "no exactly checked analysis"
		return c
	}
	tail := ""
	if w.after != nil {
		ec := domFormulaCheck(an, sets)
		if !ec.OK {
			return ec
		}
		tail = "; " + ec.Detail
	}
	c.OK = true
	c.Detail = fmt.Sprintf("%d powers, %s; %s%s", an.Computed, w.how(impl), an.Verified, tail)
	return c
}

// dominationOptions are a run's options, the implementation looked up in
// impls.Domination: the GPU runs with the fingerprint search leave the
// exact re-check to the reference (which did it) and are compared with it
// power by power; the CPU runs check their match in their ring of powers.
// w is the part of the run that total covers, the part the paper times
// (Table 2: Algorithm 2; Tables 3-6: Algorithms 2-5), on the CPU and the
// GPU alike, Algorithm 1 outside.
func dominationOptions(impl string, opt experiments.Options, rec *bench.Recorder, w domination.Window) (domination.Options, error) {
	im, err := impls.Domination.Lookup(impl)
	if err != nil {
		return domination.Options{}, err
	}
	noRecheck := im.Search == domination.SearchFingerprints && strings.HasPrefix(impl, "cuda/")
	return domination.Options{Impl: im, Threads: opt.Threads, GPUs: opt.GPUs, Rec: rec, NoRecheck: noRecheck, Window: w}, nil
}

// analyze runs Analyze with the options of impl (dominationOptions),
// stopped at the first repetition when stop is set.
func analyze(ctx context.Context, m int, impl string, opt experiments.Options, rec *bench.Recorder, w domination.Window, stop bool) (*domination.Analysis, error) {
	o, err := dominationOptions(impl, opt, rec, w)
	if err != nil {
		return nil, err
	}
	o.StopAtRepetition = stop
	return domination.Analyze(ctx, m, o)
}

// The implementations that run Algorithms 3-5 as the paper computes them,
// every power kept and compared whole, entry by entry
// (domination.SearchWholeSequential and SearchWholeParallel; their products
// and searches are impls/cpu/domination's and impls/cuda/domination's): two for
// Tables 3, 4 and 6 (Algorithm 2 on cpu/sparse, the searches timed), and
// the paper's Table 5 versions (section 3): version 1 every algorithm
// sequential on the CPU, version 2 the (min,+) product and the
// differences parallel on every CPU thread (the paper's OpenMP), version 3
// Algorithm 2 on the GPU (each power downloaded to the host, as the
// paper's program does) and each difference of Algorithms 3 and 4 on the
// GPU as well (both powers uploaded to impls/cuda/minplus's Differ, the
// difference matrix and its summary computed there, a few numbers back;
// domination.SearchWholeDevice), version 4 Algorithm 2 on the GPU and the
// differences parallel on the CPU. Algorithm 5 reads the diagonals on the
// host in every version. All four keep the K = 50 powers in host memory
// (domination.MemoryNeededWhole: 51 or 52 matrices of N x N int16, N =
// 52,929 at m = 12, about 290 GB, so m = 12 runs only on a host with that
// much memory and is refused, with the bytes needed, elsewhere).
const (
	domWholeSeq = "cpu/whole-seq"
	domWholePar = "cpu/whole-par"
	domV1       = "cpu/v1-seq"
	domV2       = "cpu/v2-par"
	domV3       = "cuda/v3-gpu"
	domV4       = "cuda/v4-gpu+cpu-par"
)

// domVersions are our Table 5 versions 1 to 4; domPaperVersions the
// paper records' impls of versions 1-4 (experiments/domination/paper/table5.jsonl).
var (
	domVersions      = []string{domV1, domV2, domV3, domV4}
	domPaperVersions = []string{"cpu/paper", "cpu/openmp", "cuda/paper", "cuda/paper+cpu/openmp"}
)

// domGPUVersionNsPerWork is the prior of versions 3 and 4, whose time is
// Algorithm 2 on cuda/paper and each power's download; version 3 moves
// only the comparisons, a small part, to the GPU.
const domGPUVersionNsPerWork = 3e-4

// domWholeNsPerWork are the whole-matrix implementations' priors: their
// products' (domV1's single thread twice cpu/paper's two), the K = 50
// powers' comparisons being a small part.
var domWholeNsPerWork = map[string]float64{domWholeSeq: 0.01, domWholePar: 0.01, domV1: 8, domV2: 4,
	domV3: domGPUVersionNsPerWork, domV4: domGPUVersionNsPerWork}

// dominationPriors is dominationNsPerWork with the whole-matrix priors.
func dominationPriors() map[string]float64 {
	m := maps.Clone(dominationNsPerWork)
	maps.Copy(m, domWholeNsPerWork)
	return m
}

// Register registers the paper and its experiments (experiments.RegisterPaper,
// experiments.Register); experiments/papers calls it for cmd/semibench.
func Register() {
	experiments.RegisterPaper(Paper)
	experiments.Register(&experiments.Experiment{
		Name: "domination/table1", Paper: Paper.File,
		// Table 1 counts A(D_m) with the one implementation.
		Headline:    []string{"cpu/paper"},
		Description: "Size of A(D_m): correct m-words (rows) and 16-bit memory, Algorithm 1 timed (paper's Table 1)",
		Statistic:   bench.StatMedian,
		Impls:       []string{"cpu/paper"},
		NsPerWork:   map[string]float64{"cpu/paper": 150},
		Cases: func(s experiments.Scale, opt experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, m := range dominationMs(s, 7) {
				cs = append(cs, domTable1Case(m))
			}
			return cs
		},
		Tables: dominationTable1,
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(domExactClaims(run, "domination/table1", "rows"), domAlg1TimeClaim(run))
		},
		Needs: domTable1Needs,
	})
	experiments.Register(&experiments.Experiment{
		Name: "domination/table2", Paper: Paper.File,
		// Algorithm 2's fastest products are the sparse ones (cuda/sparse does m = 12's 50 powers in seconds, the dense cuda/fast in minutes).
		Headline:    []string{"cpu/sparse", "cuda/sparse"},
		Description: "Algorithm 2: 50 (min,+) powers of A(D_m), with Algorithms 1 and 3-5 (paper's Table 2)",
		Statistic:   bench.StatMedian,
		Impls:       dominationAll,
		NsPerWork:   dominationNsPerWork,
		Cases: func(s experiments.Scale, opt experiments.Options) []experiments.Case {
			ms := []int{4, 5, 6}
			if s != experiments.Quick {
				// m = 2..6 for cpu/paper only (section 3's bound, under a
				// second sequentially), then m = 7..12 (13), Table 2's.
				ms = dominationMs(s, 0)
			}
			var cs []experiments.Case
			for _, m := range ms {
				// Table 2 times Algorithm 2: a cell that reads powers
				// another cell measured reports that cell's samples.
				w := newDomWork("domination/table2", m, opt)
				w.window, w.figure = domination.WindowAlgorithm2, true
				c := domPowersCase(w, "every power's fingerprint, minimum and diagonal equal to the cpu/sparse reference's", nil, "")
				if s != experiments.Quick && m < 7 {
					c.Impls = []string{"cpu/paper"}
				}
				cs = append(cs, c)
			}
			return cs
		},
		Tables: dominationTable2,
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(dominationTable2Claims(run), dominationTable2MoreClaims(run)...)
		},
		Plots: dominationTable2Plots,
		Needs: domTable2Needs,
	})
	for _, t := range []struct {
		name, desc string
		keys       []string
	}{
		{"domination/table3", "Algorithm 3: the recurrence A^(r0+a) = b ⊗ A^r0 found in 50 powers (paper's Table 3)", []string{"r0", "a", "b"}},
		{"domination/table4", "Algorithm 4: the least n0 of the recurrence (paper's Table 4)", []string{"n0", "a", "b"}},
		{"domination/table6", "Algorithm 5 and the closed formula's α_k^m (paper's Table 6)", []string{"a", "alpha1_count", "exceptions"}},
	} {
		experiments.Register(&experiments.Experiment{
			Name: t.name, Paper: Paper.File, Description: t.desc,
			// Tables 3, 4 and 6 are exact values, the same on every implementation
			// (the GPU's reference computes them once per run for Tables 2 and 5):
			// their timings are no claim of the paper's, so no GPU cell is a headline.
			Headline:  []string{"cpu/sparse"},
			Statistic: bench.StatMedian,
			Impls:     append(slices.Clone(dominationExact), domWholeSeq, domWholePar),
			NsPerWork: dominationPriors(),
			Cases: func(s experiments.Scale, opt experiments.Options) []experiments.Case {
				var cs []experiments.Case
				for _, m := range dominationMs(s, 7) {
					// Tables 3, 4 and 6 time Algorithms 2-5: a cell that
					// reads the powers times Algorithms 3-5 on them.
					w := newDomWork(t.name, m, opt)
					w.window, w.reuse = domination.WindowAlgorithms2to5, domSearchAgain
					cs = append(cs, domPowersCase(w, "fingerprints equal to the reference's, values to the paper's", t.keys, t.name))
				}
				return cs
			},
			Tables: func(run []bench.Record) []report.Table { return dominationExactTable(run, t.name) },
			Claims: func(run []bench.Record) []experiments.Claim {
				out := append(domExactClaims(run, t.name, t.keys...), domSearchClaims(run, t.name)...)
				if t.name == "domination/table3" {
					out = append(out, domDenseClaim(run), domR0PlusAClaim(run))
				}
				return out
			},
			Needs: domTableNeeds(t.name),
		})
	}
	experiments.Register(&experiments.Experiment{
		Name: "domination/table5", Paper: Paper.File,
		// Algorithm 2's fastest products are the sparse ones.
		Headline:    []string{"cpu/sparse", "cuda/sparse"},
		Description: "Total running times, Algorithms 2-5 (paper's Table 5): its versions 1 to 4 as it defines them (K = 50, whole-matrix Algorithms 3-5), and ours with the powers stopped at the first repetition, n0 + a, as the paper's conclusion suggests",
		Statistic:   bench.StatMedian,
		Impls:       append(slices.Clone(dominationAll), domVersions...),
		NsPerWork:   dominationPriors(),
		Cases: func(s experiments.Scale, opt experiments.Options) []experiments.Case {
			ms := []int{4, 5, 6}
			if s != experiments.Quick {
				ms = dominationMs(s, 0)[5:]
			}
			var cs []experiments.Case
			for _, m := range ms {
				// Table 5 times Algorithms 2-5 with the powers to the first
				// repetition (Algorithms 3-5 on fingerprints, microseconds):
				// a cell that reads powers another cell measured reports
				// that cell's samples. Its versions compute their own K = 50
				// powers, whole (not shared).
				w := newDomWork("domination/table5", m, opt)
				w.window, w.stop, w.figure = domination.WindowAlgorithms2to5, true, true
				c := domPowersCase(w, "powers equal to the reference's; same a, b, n0", nil, "")
				if s == experiments.Quick && m >= 6 {
					c.Impls = dominationAll // version 1's sequential triple loop takes seconds from m = 6
				}
				cs = append(cs, c)
			}
			return cs
		},
		Tables: dominationTable5,
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(dominationTable5Claims(run), domOpenMPBeatsGPUClaim(run))
		},
		Plots: dominationTable5Plots,
		Needs: domTable5Needs,
	})
	experiments.Register(&experiments.Experiment{
		Name: "domination/formula", Paper: Paper.File,
		// Exact values, the same on every implementation: their timings are no claim of the paper's, so no GPU cell is a headline.
		Headline:    []string{"cpu/sparse"},
		Description: "γ2(P_m □ C_n) for 3 <= n <= 40 with a checked optimal 2-dominating set each, and each m's closed formula",
		Statistic:   bench.StatMedian,
		Impls:       dominationExact,
		NsPerWork:   dominationNsPerWork,
		Cases: func(s experiments.Scale, opt experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, m := range dominationMs(s, 7) {
				cs = append(cs, domFormulaCase(newDomWork("domination/formula", m, opt)))
			}
			return cs
		},
		Tables: dominationFormulaTables,
		Claims: domFormulaClaims,
		Needs:  domFormulaNeeds,
	})
}

func domTable1Case(m int) experiments.Case {
	rows := dominationRows(m)
	return experiments.Case{
		Params: dominationParams(m),
		Work:   math.Pow(float64(rows), 1.55), // about the arcs of D_m
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			if err := domination.CheckM(m); err != nil {
				return nil, err
			}
			mt := map[string]float64{"rows": float64(rows), "memory_bytes": float64(minplus.Bytes(rows))}
			return &experiments.Instance{
				Input:   &bench.Input{Generator: "domination", Description: fmt.Sprintf("D_%d", m)},
				Metrics: mt,
				Run: func(ctx context.Context, _ string, rec *bench.Recorder) (any, error) {
					stop := rec.Start("algorithm1")
					d, err := domination.Build(m)
					stop()
					if err != nil {
						return nil, err
					}
					mt["arcs"] = float64(d.A.NNZ())
					return d, nil
				},
				Check: func(_ string, out any) bench.Check {
					d, _ := out.(*domination.Digraph)
					c := bench.Check{Method: "rows of A(D_m) equal to Table 1's and to the count by letters"}
					if d == nil {
						c.Detail = "no digraph"
						return c
					}
					if d.N() != rows {
						c.Detail = fmt.Sprintf("%d words listed, %d counted", d.N(), rows)
						return c
					}
					detail, ok := dominationPaperCheck("domination/table1", m, map[string]float64{"rows": float64(rows)}, "rows")
					c.OK, c.Detail = ok, fmt.Sprintf("%d rows, %d arcs; %s", rows, d.A.NNZ(), detail)
					return c
				},
			}, nil
		},
	}
}

// domFormulaOut is a formula run's analysis and its witnesses by n.
type domFormulaOut struct {
	an   *domination.Analysis
	sets [][][2]int
}

// domWitnesses finds a checked optimal 2-dominating set for 3 <= n <= 40,
// the n spread over the threads (largest first: m = 13 does Σn = 817
// sparse matrix-vector products of 89 M arcs).
func domWitnesses(ctx context.Context, an *domination.Analysis, rec *bench.Recorder, threads int) ([][][2]int, error) {
	defer rec.Start("witnesses")()
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	sets := make([][][2]int, 41)
	errs := make([]error, 41)
	next := make(chan int, 38)
	for n := 40; n >= 3; n-- {
		next <- n
	}
	close(next)
	var wg sync.WaitGroup
	for range min(threads, 38) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range next {
				sets[n], errs[n] = an.Witness(ctx, n, 1<<30)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return sets, nil
}

// domFormulaCheck checks each witness (2-dominating, of size γ2) and that
// γ2 equals the formula except at its listed exceptions.
func domFormulaCheck(an *domination.Analysis, sets [][][2]int) bench.Check {
	c := bench.Check{Method: "each witness 2-dominating and of size γ2; γ2 equal to the formula but at its listed exceptions"}
	if len(sets) != 41 {
		c.Detail = "no witnesses"
		return c
	}
	exc := map[int]bool{}
	for _, e := range an.Exceptions {
		exc[e.N] = true
	}
	for n := 3; n <= 40; n++ {
		g, _ := an.Gamma2(n)
		if err := domination.Check2Dominating(an.M, n, sets[n]); err != nil || len(sets[n]) != g {
			c.Detail = fmt.Sprintf("n=%d: witness of %d vertices, γ2 = %d: %v", n, len(sets[n]), g, err)
			return c
		}
		f := int(math.Ceil(float64(an.B*n)/float64(an.A))) + an.Alpha[n%an.A]
		if (f != g) != exc[n] {
			c.Detail = fmt.Sprintf("n=%d: γ2 = %d, formula %d", n, g, f)
			return c
		}
	}
	c.OK, c.Detail = true, fmt.Sprintf("38 witnesses checked; %s", an.Formula())
	return c
}

// domFormulaCase is a formula case: the solver's path, the powers to the
// first repetition (NoWindow: total is the whole call, Algorithm 1
// included), then a witness for each n. A cell that reads powers another
// cell computed times only the witnesses.
func domFormulaCase(w *domWork) experiments.Case {
	w.stop = true
	w.after = func(ctx context.Context, an *domination.Analysis, rec *bench.Recorder) (any, error) {
		sets, err := domWitnesses(ctx, an, rec, w.opt.Threads)
		if err != nil {
			return nil, err
		}
		return &domFormulaOut{an: an, sets: sets}, nil
	}
	return domAnalysisCase(w, nil, func(ref *domination.Analysis, _ map[string]float64, res any) bench.Check {
		out, _ := res.(*domFormulaOut)
		if out == nil {
			return bench.Check{Method: "formula", Detail: "no output"}
		}
		if pc := dominationCheck(out.an, ref, "powers equal to the reference's"); !pc.OK {
			return pc
		}
		c := domFormulaCheck(ref, out.sets)
		c.Method = "powers equal to the reference's; " + c.Method
		return c
	})
}

// domSearchAgain is what a reusing cell of Tables 3, 4 and 6 times:
// Algorithms 3-5 on the powers read.
func domSearchAgain(_ context.Context, an *domination.Analysis, rec *bench.Recorder) (*domination.Analysis, error) {
	return an.SearchAgain(rec)
}

// dominationRowsOf lists the m present in records, increasing.
func dominationRowsOf(recs ...[]bench.Record) []int {
	var ms []int
	for _, rs := range recs {
		for _, r := range rs {
			if m, err := strconv.Atoi(r.Params.Get("m")); err == nil && !slices.Contains(ms, m) {
				ms = append(ms, m)
			}
		}
	}
	slices.Sort(ms)
	return ms
}

// domExactRecord is the record of a case of Tables 3, 4, 6 or the
// formula: cpu/sparse's where it ran, cuda/sparse's otherwise (their
// values are equal, each run being checked against one reference).
func domExactRecord(rc bench.Cells, exp string, p bench.Params) *bench.Record {
	var found *bench.Record
	for _, impl := range dominationExact {
		if r := rc.Get(exp, impl, p); r != nil && (found == nil || found.Status != bench.StatusOK && r.Status == bench.StatusOK) {
			found = r
		}
	}
	return found
}

func domMetricText(r *bench.Record, key string) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	v, ok := r.Metrics[key]
	if !ok {
		return "—"
	}
	return experiments.FormatCount(v)
}

// domMemText prints bytes in the paper's units (1 KB = 1024 bytes),
// moving to the next unit from half of it, as the paper does (0.85GB).
func domMemText(b float64) string {
	switch {
	case b >= 1<<29:
		return fmt.Sprintf("%.2fGB", b/(1<<30))
	case b >= 1<<19:
		return fmt.Sprintf("%.2fMB", b/(1<<20))
	}
	return fmt.Sprintf("%.2fKB", b/(1<<10))
}

// domPaperMem is the paper's printed memory ("0.69MB") from its metrics.
func domPaperMem(r *bench.Record) string {
	if r == nil {
		return "—"
	}
	for _, u := range []string{"kb", "mb", "gb"} {
		if v, ok := r.Metrics["memory_printed_"+u]; ok {
			return fmt.Sprintf("%.2f%s", v, strings.ToUpper(u))
		}
	}
	return "—"
}

func dominationTable1(run []bench.Record) []report.Table {
	const exp = "domination/table1"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := bench.IndexRecords(paper), bench.IndexRecords(own)
	t := report.Table{
		Title:  "domination/table1 — size of A(D_m) (paper: Table 1, 16-bit integers)",
		Header: []string{"m", "rows (paper)", "rows", "memory (paper)", "memory", "arcs", "Algorithm 1, ms"},
	}
	for _, m := range dominationRowsOf(paper, own) {
		p := dominationParams(m)
		pr, r := pc.Get(exp, "cuda/paper", p), rc.Get(exp, "cpu/paper", p)
		pm, mm := domPaperMem(pr), "—"
		if r != nil && r.Metrics != nil {
			mm = domMemText(r.Metrics["memory_bytes"])
		}
		t.Rows = append(t.Rows, []string{experiments.Itoa(m), domMetricText(pr, "rows"), domMetricText(r, "rows"), pm, mm, domMetricText(r, "arcs"), experiments.CellText(r, "algorithm1")})
	}
	t.Notes = append(t.Notes, "Rows are the correct m-words of section 2.2; memory is rows² × 2 bytes, in the paper's units (1 KB = 1024 bytes). "+
		"The paper's memory column rounds up at m = 3, 8, 9 and 11, and its m = 7 entry, 0.69MB, is 0.59MB by its own rule (a likely misprint).")
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

// rate is Algorithm 2's nominal dense update rate, 49·N³ / total, in G/s
// (total: Algorithm 2's window, see domTable2Total).
func domRate(r *bench.Record, m int) string {
	v := experiments.PhaseMS(r, bench.TotalPhase)
	if math.IsNaN(v) || v <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", dominationWork(m)/(v*1e6))
}

// domTable2Total says what Table 2's figure is, for its CPU and GPU tables.
const domTable2Total = "Ours: total, the host clock around Algorithm 2 as the paper times it (its step 1, initialize A(D_m), inside; Algorithm 1 outside), from A(D_m) in host memory to the 50th power's statistics on the host: " +
	"on the CPU the powers' memory, the 49 products and the 50 summaries; on the GPU the device allocation, A's upload in CSR and its scatter, the 49 product launches and the 50 statistics passes, each synchronised (the powers stay on the device). " +
	"The paper's columns are its Algorithm 2 running times; ratios are paper / ours and ours / ours, all of the same span."

func dominationTable2(run []bench.Record) []report.Table {
	const exp = "domination/table2"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := bench.IndexRecords(paper), bench.IndexRecords(own)
	t := report.Table{
		Title: "domination/table2 — Algorithm 2, 50 (min,+) powers of A(D_m): total, ms (paper: Table 2, its Algorithm 2 running time, EPYC 7642 and V100)",
		Header: []string{"m", "N", "paper sequential", "paper 48 threads", "paper GPU", "cpu/paper", "cpu/fast", "cpu/sparse",
			"G upd/s paper·fast·sparse", "paper seq / cpu/paper", "paper 48 thr / cpu/sparse", "cpu/paper / cpu/sparse"},
	}
	const tot = bench.TotalPhase
	for _, m := range dominationRowsOf(own, paper) {
		p := dominationParams(m)
		sl, fa, sp := rc.Get(exp, "cpu/paper", p), rc.Get(exp, "cpu/fast", p), rc.Get(exp, "cpu/sparse", p)
		ps, pm, pg := pc.Get(exp, "cpu/paper", p), pc.Get(exp, "cpu/openmp", p), pc.Get(exp, "cuda/paper", p)
		t.Rows = append(t.Rows, []string{experiments.Itoa(m), experiments.FormatCount(float64(dominationRows(m))),
			experiments.CellText(ps, "algorithm2"), experiments.CellText(pm, "algorithm2"), experiments.CellText(pg, "algorithm2"),
			experiments.CellText(sl, tot), experiments.CellText(fa, tot), experiments.CellText(sp, tot),
			domRate(sl, m) + " · " + domRate(fa, m) + " · " + domRate(sp, m),
			experiments.Ratio(experiments.PhaseMS(ps, "algorithm2"), experiments.PhaseMS(sl, tot)),
			experiments.Ratio(experiments.PhaseMS(pm, "algorithm2"), experiments.PhaseMS(sp, tot)),
			experiments.Ratio(experiments.PhaseMS(sl, tot), experiments.PhaseMS(sp, tot))})
	}
	t.Notes = append(t.Notes, domTable2Total)
	t.Notes = append(t.Notes,
		"G upd/s is the nominal dense rate 49·N³ / total; cpu/fast and cpu/sparse skip A(D_m)'s infinite entries (density about 6% at m = 7, 2.5% at m = 9), so their nominal rate exceeds the updates done.",
		"cpu/fast's inner kernel here: "+impls.MinplusCPUKernel()+".")
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.ReusedNotes(run, exp, domReusedFigure)...)
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	out := []report.Table{t, dominationTable2GPU(own, pc, rc)}
	if peer, ok := dominationPeerTable(own, rc); ok {
		out = append(out, peer)
	}
	return out
}

// dominationPeer is the impl name of the 2-domination paper's published
// code (hpcjmart/2domination) in the result files `semibench peers record` writes.
const dominationPeer = "peer/2domination"

// dominationPeerTable puts the published code's runs beside ours, end to end
// on both sides, when the records given hold any (a peers file merged with
// a run: semibench table run.jsonl results/peers/<machine>/*.jsonl --merge).
func dominationPeerTable(own []bench.Record, rc bench.Cells) (report.Table, bool) {
	const exp = "domination/table2"
	var ms []int
	for _, r := range own {
		if r.Impl == dominationPeer {
			if m, err := strconv.Atoi(r.Params.Get("m")); err == nil && !slices.Contains(ms, m) {
				ms = append(ms, m)
			}
		}
	}
	if len(ms) == 0 {
		return report.Table{}, false
	}
	slices.Sort(ms)
	const e2e = bench.EndToEndPhase
	t := report.Table{
		Title:  "domination/table2 — the paper's published code (hpcjmart/2domination) beside ours on this machine: end_to_end, ms",
		Header: []string{"m", "N", "2domination (published)", "cuda/sparse", "cuda/fast", "cuda/paper", "2domination / cuda/sparse", "2domination / cuda/fast"},
	}
	for _, m := range ms {
		p := dominationParams(m)
		pr := rc.Get(exp, dominationPeer, p)
		cs, cf, cp := rc.Get(exp, "cuda/sparse", p), rc.Get(exp, "cuda/fast", p), rc.Get(exp, "cuda/paper", p)
		t.Rows = append(t.Rows, []string{experiments.Itoa(m), experiments.FormatCount(float64(dominationRows(m))),
			experiments.CellText(pr, e2e), experiments.CellText(cs, e2e), experiments.CellText(cf, e2e), experiments.CellText(cp, e2e),
			experiments.Ratio(experiments.PhaseMS(pr, e2e), experiments.PhaseMS(cs, e2e)), experiments.Ratio(experiments.PhaseMS(pr, e2e), experiments.PhaseMS(cf, e2e))})
	}
	t.Notes = append(t.Notes,
		"Both sides end_to_end, measured on this machine, on the same A(D_m) (semibench gen domination, handed to the published code as a dense text matrix): the published code's own 'Total time' of its main (reading the text matrix, the upload, 50 (min,+) powers each downloaded to the host, Algorithms 3-5 on the host); ours the whole call (Algorithm 1 building A(D_m), Algorithm 2 with the powers kept on the device, Algorithms 3-5). The published code has no window with the matrix already on the device, so there is no total to compare. Ratios above 1: ours is faster. Much of the published code's time is work ours does not do (parsing a text matrix, downloading every power): the ratio compares what each code does end to end, not the (min,+) kernels (cuda/paper is the paper's kernel in our harness, timed in the GPU table above).",
		"The published code's answers are checked against ours in its record (n0, a, b equal; its printed r0m is one above the paper's r0, which ours matches).")
	return t, true
}

// dominationTable2GPU is Table 2's GPU column beside ours: the paper's
// kernel (cuda/paper), the packed-int16 DPX kernel (cuda/fast) and the
// sparse product (cuda/sparse), the powers kept on the device.
func dominationTable2GPU(own []bench.Record, pc, rc bench.Cells) report.Table {
	const exp = "domination/table2"
	t := report.Table{
		Title: "domination/table2 (GPU) — Algorithm 2, 50 (min,+) powers of A(D_m) on the GPU: total, ms (paper: Table 2, its Algorithm 2 running time, V100)",
		Header: []string{"m", "N", "paper GPU", "cuda/paper", "cuda/fast", "cuda/sparse", "T upd/s paper·fast",
			"paper GPU / cuda/paper", "paper GPU / cuda/fast", "paper GPU / cuda/sparse", "cuda/paper / cuda/sparse"},
	}
	paper, _ := paperdata.PaperRecords(exp)
	const tot = bench.TotalPhase
	for _, m := range dominationRowsOf(own, paper) {
		p := dominationParams(m)
		pg := pc.Get(exp, "cuda/paper", p)
		cp, cf, cs := rc.Get(exp, "cuda/paper", p), rc.Get(exp, "cuda/fast", p), rc.Get(exp, "cuda/sparse", p)
		tera := func(r *bench.Record) string {
			v := experiments.PhaseMS(r, tot)
			if math.IsNaN(v) || v <= 0 {
				return "—"
			}
			return fmt.Sprintf("%.2f", dominationWork(m)/(v*1e9))
		}
		t.Rows = append(t.Rows, []string{experiments.Itoa(m), experiments.FormatCount(float64(dominationRows(m))),
			experiments.CellText(pg, "algorithm2"), experiments.CellText(cp, tot), experiments.CellText(cf, tot), experiments.CellText(cs, tot),
			tera(cp) + " · " + tera(cf),
			experiments.Ratio(experiments.PhaseMS(pg, "algorithm2"), experiments.PhaseMS(cp, tot)),
			experiments.Ratio(experiments.PhaseMS(pg, "algorithm2"), experiments.PhaseMS(cf, tot)),
			experiments.Ratio(experiments.PhaseMS(pg, "algorithm2"), experiments.PhaseMS(cs, tot)),
			experiments.Ratio(experiments.PhaseMS(cp, tot), experiments.PhaseMS(cs, tot))})
	}
	t.Notes = append(t.Notes,
		domTable2Total,
		"Each GPU run keeps A and two powers on the device and brings back per power only its minimum, diagonal minimum (and where) and a fingerprint of the power minus its minimum. T upd/s is 49·N³ / total, the updates the dense kernels do; cuda/sparse does nnz(A)·N per product.",
		"Every run's 50 fingerprints, minima and diagonal minima equal the reference's (the check); the reference's recurrence A^(n0+a) = b ⊗ A^n0 is checked entry by entry.")
	return t
}

func dominationExactTable(run []bench.Record, exp string) []report.Table {
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := bench.IndexRecords(paper), bench.IndexRecords(own)
	var t report.Table
	switch exp {
	case "domination/table3":
		t = report.Table{Title: "domination/table3 — Algorithm 3 (K = 50) beside the paper's Table 3",
			Header: []string{"m", "r0 (paper)", "r0", "a (paper)", "a", "b (paper)", "b", "Algorithm 3 paper seq · 48 thr · GPU", "Algorithm 3 fingerprints", "Algorithm 3 whole seq", "Algorithm 3 whole par", "Algorithm 2, ms"}}
	case "domination/table4":
		t = report.Table{Title: "domination/table4 — Algorithm 4 beside the paper's Table 4",
			Header: []string{"m", "n0 (paper)", "n0", "a (paper)", "a", "b (paper)", "b", "Algorithm 4 paper seq · 48 thr · GPU", "Algorithm 4 fingerprints", "Algorithm 4 whole seq", "Algorithm 4 whole par", "exact re-check"}}
	default:
		t = report.Table{Title: "domination/table6 — α_k^m of γ2(P_m □ C_n) = ⌈b n / a⌉ + α_k, k = n mod a, beside the paper's Table 6",
			Header: []string{"m", "a (paper)", "k with α = 1 (paper)", "k with α = 1", "k with α >= 2 (α)", "exceptions (paper)", "exceptions n (γ2)", "Algorithm 5 paper (CPU)", "Algorithm 5 fingerprints", "Algorithm 5 whole"}}
	}
	for _, m := range dominationRowsOf(own, paper) {
		p := dominationParams(m)
		pr, r := pc.Get(exp, "cuda/paper", p), domExactRecord(rc, exp, p)
		switch exp {
		case "domination/table3":
			t.Rows = append(t.Rows, []string{experiments.Itoa(m), domMetricText(pr, "r0"), domMetricText(r, "r0"), domMetricText(pr, "a"), domMetricText(r, "a"),
				domMetricText(pr, "b"), domMetricText(r, "b"), domPaperTimes(pc, exp, p, "algorithm3"), experiments.CellText(r, "algorithm3"),
				experiments.CellText(rc.Get(exp, domWholeSeq, p), "algorithm3"), experiments.CellText(rc.Get(exp, domWholePar, p), "algorithm3"), experiments.ReusedPhaseText(run, r, "algorithm2")})
		case "domination/table4":
			how := "—"
			if r != nil && r.Check != nil {
				how = r.Check.Detail
				if i := strings.Index(how, "; "); i >= 0 {
					how = how[i+2:]
				}
				if i := strings.Index(how, ";"); i >= 0 {
					how = how[:i]
				}
			}
			t.Rows = append(t.Rows, []string{experiments.Itoa(m), domMetricText(pr, "n0"), domMetricText(r, "n0"), domMetricText(pr, "a"), domMetricText(r, "a"),
				domMetricText(pr, "b"), domMetricText(r, "b"), domPaperTimes(pc, exp, p, "algorithm4"), experiments.CellText(r, "algorithm4"),
				experiments.CellText(rc.Get(exp, domWholeSeq, p), "algorithm4"), experiments.CellText(rc.Get(exp, domWholePar, p), "algorithm4"), how})
		default:
			t.Rows = append(t.Rows, []string{experiments.Itoa(m), domMetricText(pr, "a"), domAlphaText(pr, "alpha1_k"), domAlphaText(r, "alpha_k"), domAlphaHigh(r),
				domPaperExceptions(pr), domExceptionsText(r), experiments.CellText(pc.Get(exp, "cpu/paper", p), "algorithm5"), experiments.CellText(r, "algorithm5"),
				experiments.CellText(rc.Get(exp, domWholeSeq, p), "algorithm5")})
		}
	}
	t.Notes = append(t.Notes, domSearchNote)
	if exp == "domination/table6" {
		t.Notes = append(t.Notes, "The paper's m = 7 entry reads 'k ∈ {1,2,4,5}, 19 <= n ≡ k (mod 18)': the two exceptions n = 4, 5 here are those n. Its '*' marks the one exception n = 5 (m = 8, 10, 12); the text gives α = 2 there, which holds for m = 10 and 12, while at m = 8 γ2(P_8 □ C_5) = 18 = ⌈50/3⌉ + 1.")
	}
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.ReusedNotes(run, exp, domReusedSearch)...)
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

// domSearchNote says what the time columns of Tables 3, 4 and 6 are.
const domSearchNote = "Times in ms. 'fingerprints': ours as the program runs it, Algorithms 3-5 reading each power's 128-bit fingerprint, minimum and diagonal minimum kept while Algorithm 2 ran (the match then checked entry by entry once). " +
	"'whole': " + domWholeSeq + " and " + domWholePar + ", Algorithms 3-5 as the paper computes them: all 50 powers kept in host memory (Algorithm 2 on cpu/sparse), each A^i - A^j the difference matrix computed entry by entry (on one thread, or by bands of rows on every thread, the paper's OpenMP) and scanned for one constant; Algorithm 5 reads A^n's diagonal. " +
	"The paper gives these times for m = 12 only (section 3): Algorithm 3 16.8 s sequential, 7.2 s with OpenMP (48 cores), 13.6 s on the GPU; Algorithm 4 149.8, 98.5, 170.0 s; Algorithm 5 11.8 s on the CPU. The whole search keeps 50 N x N powers (50 x 34.6 GB at m = 12)."

// domPaperTimes renders the paper's times of one algorithm at m as
// "sequential · 48 threads · GPU" (its records cpu/paper, cpu/openmp,
// cuda/paper), or "—" when it gives none at m.
func domPaperTimes(pc bench.Cells, exp string, p bench.Params, phase string) string {
	var parts []string
	found := false
	for _, impl := range []string{"cpu/paper", "cpu/openmp", "cuda/paper"} {
		r := pc.Get(exp, impl, p)
		found = found || !math.IsNaN(experiments.PhaseMS(r, phase))
		parts = append(parts, experiments.CellText(r, phase))
	}
	if !found {
		return "—"
	}
	for i, x := range parts {
		if x == "" {
			parts[i] = "—"
		}
	}
	return strings.Join(parts, " · ")
}

// domPaperExceptions renders the exceptions Table 6 implies for a row:
// its '*' (n = 5) and, for m = 7, the n below 19 in the α = 1 classes.
func domPaperExceptions(pr *bench.Record) string {
	if pr == nil || pr.Metrics == nil {
		return "—"
	}
	n := table6Exceptions(pr)
	switch {
	case n == 0:
		return "0"
	case pr.Metrics["alpha1_from_n"] > 0:
		return fmt.Sprintf("%g (α = 1 only from n = %g)", n, pr.Metrics["alpha1_from_n"])
	case pr.Metrics["exception_n"] > 0:
		return fmt.Sprintf("%g: %g (α = 2, the text says)", n, pr.Metrics["exception_n"])
	}
	return fmt.Sprintf("%g", n)
}

func domAlphaText(r *bench.Record, prefix string) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	var ks []int
	for key, v := range r.Metrics {
		if strings.HasPrefix(key, prefix) && v == 1 {
			if k, err := strconv.Atoi(strings.TrimPrefix(key, prefix)); err == nil {
				ks = append(ks, k)
			}
		}
	}
	if len(ks) == 0 {
		return "none"
	}
	slices.Sort(ks)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = experiments.Itoa(k)
	}
	return strings.Join(parts, ",")
}

// domAlphaHigh lists the k with α_k >= 2 as "k (α)"; the paper's Table 6
// has none for m <= 12.
func domAlphaHigh(r *bench.Record) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	var parts []string
	for k := 0; k < int(r.Metrics["a"]); k++ {
		if v := r.Metrics[fmt.Sprintf("alpha_k%d", k)]; v >= 2 {
			parts = append(parts, fmt.Sprintf("%d (%g)", k, v))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func domExceptionsText(r *bench.Record) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	var ns []int
	for key := range r.Metrics {
		if n, err := strconv.Atoi(strings.TrimPrefix(key, "exception_n")); err == nil && strings.HasPrefix(key, "exception_n") {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return "0"
	}
	slices.Sort(ns)
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("%d (%g)", n, r.Metrics[fmt.Sprintf("exception_n%d", n)])
	}
	return fmt.Sprintf("%d: %s", len(ns), strings.Join(parts, ", "))
}

// domTable5Total says what Table 5's figures are.
const domTable5Total = "The paper's Table 5 times its program, Algorithms 2 to 5 (A(D_m) from Algorithm 1 is its input data). " +
	"'to n0+a' columns: this experiment's total, the host clock around Algorithms 2-5 with Algorithm 2 stopped at the first repetition of the powers minus their minimum (the reduction the paper's conclusion proposes). " +
	"K=50 columns: domination/table2's runs (the paper's procedure), their phase algorithms2to5, the host clock over the same span (Algorithms 2-5) measured in those runs, whose total covers Algorithm 2 alone. " +
	"On the GPU both spans start with A(D_m) in host memory and include the device allocation and A's upload."

// domTable5Versions says what our versions are.
const domTable5Versions = "Versions as the paper defines them (section 3), K = 50 powers, Algorithms 3-5 on the whole matrices (every power kept in host memory), total from A(D_m) in host memory to Algorithm 5's last γ2: " +
	"V1 " + domV1 + ": every algorithm sequential on the CPU (cpu/paper's triple loop on one thread, the differences on one thread); " +
	"V2 " + domV2 + ": the (min,+) product and the differences on every thread of this CPU (the paper's OpenMP, 48 cores there); " +
	"V3 " + domV3 + ": Algorithm 2 on the GPU (cuda/paper, each power downloaded to the host), each difference of Algorithms 3 and 4 on the GPU (both powers uploaded, the difference matrix and its summary computed there; device buffers allocated once per analysis, inside Algorithm 3); " +
	"V4 " + domV4 + ": Algorithm 2 on the GPU (cuda/paper, each power downloaded to the host), the differences on every CPU thread. " +
	"Algorithm 5 reads the diagonals on the host in every version. Ratios are paper / ours, above 1 when ours is faster."

func dominationTable5(run []bench.Record) []report.Table {
	const exp = "domination/table5"
	own := experiments.OfExperiment(run, exp)
	full := experiments.OfExperiment(run, "domination/table2")
	if len(own) == 0 && len(full) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc, fc := bench.IndexRecords(paper), bench.IndexRecords(own), bench.IndexRecords(full)
	t := report.Table{
		Title: "domination/table5 — total running times, Algorithms 2-5: total, ms (paper: Table 5, versions 1-4, its total running times)",
		Header: []string{"m", "paper V1 seq", "paper V2 48 thr", "paper V3 GPU", "paper V4 GPU+OpenMP",
			"V1 " + domV1, "V2 " + domV2, "paper V1 / ours", "paper V2 / ours",
			"cpu/paper K=50", "cpu/fast K=50", "cpu/sparse K=50", "cpu/paper to n0+a", "cpu/fast to n0+a", "cpu/sparse to n0+a"},
	}
	for _, m := range dominationRowsOf(own, full, paper) {
		p := dominationParams(m)
		row := []string{experiments.Itoa(m)}
		for _, impl := range domPaperVersions {
			row = append(row, experiments.CellText(pc.Get(exp, impl, p), "total"))
		}
		v1, v2 := rc.Get(exp, domV1, p), rc.Get(exp, domV2, p)
		row = append(row, experiments.CellText(v1, "total"), experiments.CellText(v2, "total"),
			experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cpu/paper", p), "total"), experiments.PhaseMS(v1, "total")),
			experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cpu/openmp", p), "total"), experiments.PhaseMS(v2, "total")))
		for _, impl := range dominationCPU {
			row = append(row, experiments.CellText(fc.Get("domination/table2", impl, p), domination.PhaseAlgorithms2to5))
		}
		for _, impl := range dominationCPU {
			row = append(row, experiments.CellText(rc.Get(exp, impl, p), "total"))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, domTable5Total, domTable5Versions)
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.ReusedNotes(run, exp, domReusedFigure)...)
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	g := report.Table{
		Title: "domination/table5 (GPU) — total running times, Algorithms 2-5 with Algorithm 2 on the GPU: total, ms (paper: Table 5, versions 3 and 4, its total running times, V100)",
		Header: []string{"m", "paper V3 GPU", "paper V4 GPU+OpenMP", "V3 " + domV3, "V4 " + domV4, "paper V3 / ours", "paper V4 / ours",
			"cuda/paper K=50", "cuda/fast K=50", "cuda/sparse K=50",
			"cuda/paper to n0+a", "cuda/fast to n0+a", "cuda/sparse to n0+a", "paper V3 / cuda/sparse to n0+a"},
	}
	for _, m := range dominationRowsOf(own, full, paper) {
		p := dominationParams(m)
		v3, v4 := rc.Get(exp, domV3, p), rc.Get(exp, domV4, p)
		row := []string{experiments.Itoa(m), experiments.CellText(pc.Get(exp, "cuda/paper", p), "total"), experiments.CellText(pc.Get(exp, "cuda/paper+cpu/openmp", p), "total"),
			experiments.CellText(v3, "total"), experiments.CellText(v4, "total"),
			experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cuda/paper", p), "total"), experiments.PhaseMS(v3, "total")),
			experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cuda/paper+cpu/openmp", p), "total"), experiments.PhaseMS(v4, "total"))}
		for _, impl := range dominationGPU {
			row = append(row, experiments.CellText(fc.Get("domination/table2", impl, p), domination.PhaseAlgorithms2to5))
		}
		for _, impl := range dominationGPU {
			row = append(row, experiments.CellText(rc.Get(exp, impl, p), "total"))
		}
		row = append(row, experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cuda/paper", p), "total"), experiments.PhaseMS(rc.Get(exp, "cuda/sparse", p), "total")))
		g.Rows = append(g.Rows, row)
	}
	g.Notes = append(g.Notes, domTable5Total, domTable5Versions, "In the K=50 and to n0+a columns Algorithms 3-5 run on the host from the per-power statistics (no matrix comes back); the K=50 totals of the reference's exact re-check are not in these runs (each run is checked against the reference power by power).")
	return []report.Table{t, g}
}

// dominationFormulaTables lists γ2 and the formulas of the formula's
// cells; an m with an exactly checked Table 6 cell in the run but no formula
// cell (m = 13 when the formula's witnesses did not finish) is listed from
// that analysis, marked "no witnesses".
func dominationFormulaTables(run []bench.Record) []report.Table {
	const exp = "domination/formula"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc, t6 := bench.IndexRecords(own), bench.IndexRecords(experiments.OfExperiment(run, "domination/table6"))
	// rec is the record an m's column comes from, and whether it is Table 6's.
	rec := func(m int) (*bench.Record, bool) {
		p := dominationParams(m)
		if r := domExactRecord(rc, exp, p); r != nil && r.Status == bench.StatusOK {
			return r, false
		}
		if r := domExactRecord(t6, "domination/table6", p); r != nil && r.Status == bench.StatusOK {
			return r, true
		}
		return domExactRecord(rc, exp, p), false
	}
	ms := dominationRowsOf(own, experiments.OfExperiment(run, "domination/table6"))
	ms = slices.DeleteFunc(ms, func(m int) bool { r, _ := rec(m); return r == nil })
	values := report.Table{Title: "domination/formula — γ2(P_m □ C_n), each with a checked optimal 2-dominating set", Header: []string{"n"}}
	var fromT6 []string
	for _, m := range ms {
		h := "m=" + experiments.Itoa(m)
		if _, t := rec(m); t {
			h += " (no witnesses)"
			fromT6 = append(fromT6, experiments.Itoa(m))
		}
		values.Header = append(values.Header, h)
	}
	for n := 3; n <= 40; n++ {
		row := []string{experiments.Itoa(n)}
		for _, m := range ms {
			r, _ := rec(m)
			row = append(row, domMetricText(r, fmt.Sprintf("gamma2_n%d", n)))
		}
		values.Rows = append(values.Rows, row)
	}
	if len(fromT6) > 0 {
		values.Notes = append(values.Notes, "m = "+strings.Join(fromT6, ", ")+": γ2 and the formula from domination/table6's exactly checked analysis of this run; the formula's own cell (witnesses) did not finish.")
	}
	formulas := report.Table{Title: "domination/formula — the closed formulas derived by the program", Header: []string{"m", "n0", "a", "b", "formula"}}
	for _, m := range ms {
		r, t := rec(m)
		f := "—"
		switch {
		case t:
			f = domFormulaOfMetrics(m, r.Metrics)
		case r != nil && r.Check != nil:
			if i := strings.Index(r.Check.Detail, "γ2(P_"); i >= 0 {
				f = r.Check.Detail[i:]
			}
		}
		formulas.Rows = append(formulas.Rows, []string{experiments.Itoa(m), domMetricText(r, "n0"), domMetricText(r, "a"), domMetricText(r, "b"), f})
	}
	formulas.Notes = append(formulas.Notes, experiments.CheckSummary(run, exp))
	formulas.Notes = append(formulas.Notes, experiments.ReusedNotes(run, exp, "Those cells time only the witnesses.")...)
	formulas.Notes = append(formulas.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{values, formulas}
}

// domFormulaOfMetrics renders an analysis' formula from its record's
// metrics (a, b, n0, α_k, the exceptions' γ2).
func domFormulaOfMetrics(m int, mt map[string]float64) string {
	an := &domination.Analysis{M: m, A: int(mt["a"]), B: int(mt["b"]), N0: int(mt["n0"])}
	if an.A <= 0 {
		return "—"
	}
	an.Alpha = make([]int, an.A)
	for k := range an.Alpha {
		an.Alpha[k] = int(mt[fmt.Sprintf("alpha_k%d", k)])
	}
	for n := 3; n < an.N0; n++ {
		if g, ok := mt[fmt.Sprintf("exception_n%d", n)]; ok {
			f := (an.B*n+an.A-1)/an.A + an.Alpha[n%an.A]
			an.Exceptions = append(an.Exceptions, domination.Exception{N: n, Gamma2: int(g), Formula: f})
		}
	}
	return an.Formula()
}

// domExactClaims gives the claim that a table's values (keys of each row's
// metrics) are the paper's, every row of the paper the run has checked by
// dominationPaperCheck; table 1's rows come from cpu/paper's cells, the
// others' from domExactRecord.
func domExactClaims(run []bench.Record, exp string, keys ...string) []experiments.Claim {
	_, rc, pc := experiments.BesidePaper(run, exp)
	paper, _ := paperdata.PaperRecords(exp)
	where := "Table " + strings.TrimPrefix(exp, "domination/table")
	c := experiments.Claim{ID: exp + "#values", Where: where, PaperFigure: strings.Join(keys, ", ") + " of every m",
		Text: fmt.Sprintf("%s's values (%s) for every m: reproduced when every m the run computed equals the paper's exactly.", where, strings.Join(keys, ", "))}
	ok := 0
	var bad []string
	var cells []experiments.ClaimCell
	for _, m := range dominationRowsOf(paper) {
		p := dominationParams(m)
		if pc.Get(exp, "cuda/paper", p) == nil || m >= dominationBeyond { // m = 13: no cell of ours computes Table 1's row
			continue
		}
		r, impl := domExactRecord(rc, exp, p), "cpu/sparse"
		if exp == "domination/table1" {
			r, impl = rc.Get(exp, "cpu/paper", p), "cpu/paper"
		}
		cells = append(cells, experiments.ClaimCell{Rec: r, Impl: impl, Params: p})
		if r == nil || r.Status != bench.StatusOK || r.Metrics == nil {
			continue
		}
		if detail, same := dominationPaperCheck(exp, m, r.Metrics, keys...); same {
			ok++
		} else {
			bad = append(bad, fmt.Sprintf("m = %d: %s", m, detail))
		}
	}
	return []experiments.Claim{experiments.ExactClaim(c, ok, bad, cells)}
}

// domTimeClaim compares the paper's time (record paperImpl of paperExp,
// phase paperPhase) with ours (impl's phase of exp in run) at the largest m
// where the paper gives one and our cell ran, a time (lower is better);
// when none ran it is not run, with the reason of the paper's smallest m and
// ours at the largest m that did run.
func domTimeClaim(run []bench.Record, c experiments.Claim, paperExp, paperImpl, paperPhase, exp, impl, phase string) experiments.Claim {
	paper, _ := paperdata.PaperRecords(paperExp)
	pc, rc := bench.IndexRecords(paper), bench.IndexRecords(experiments.OfExperiment(run, exp))
	c.Text += " " + experiments.RatioRule(experiments.LowerBetter)
	// The paper's times are of a V100 and a 48-core EPYC 7642: ours are
	// shown beside them, never scored.
	c.Class = experiments.NotComparable
	var have []int
	for _, m := range dominationRowsOf(paper) {
		if !math.IsNaN(experiments.PhaseMS(pc.Get(paperExp, paperImpl, dominationParams(m)), paperPhase)) {
			have = append(have, m)
		}
	}
	if len(have) == 0 {
		c.PaperFigure, c.Ours, c.Verdict, c.Reason = "—", "—", experiments.NotRun, "the paper gives no figure"
		return c
	}
	for i := len(have) - 1; i >= 0; i-- {
		p := dominationParams(have[i])
		pr := pc.Get(paperExp, paperImpl, p)
		if x := experiments.CellOf(rc, exp, impl, p); experiments.OKCells(x) && !math.IsNaN(experiments.PhaseMS(x.Rec, phase)) {
			pv, ov := experiments.PhaseMS(pr, paperPhase), experiments.PhaseMS(x.Rec, phase)
			c.PaperFigure = fmt.Sprintf("%s at m = %d", experiments.MsText(pr, paperPhase), have[i])
			v, band := experiments.RatioJudge(c.ID, pv, ov, experiments.LowerBetter, experiments.MsTextOf)
			c.Ours = fmt.Sprintf("%s at m = %d (paper / ours %s; %s)", experiments.MsText(x.Rec, phase), have[i], experiments.Ratio(pv, ov), band)
			c.Verdict = v
			return c
		}
	}
	p := dominationParams(have[0])
	c.PaperFigure = fmt.Sprintf("%s at m = %d", experiments.MsText(pc.Get(paperExp, paperImpl, p), paperPhase), have[0])
	// None of the paper's m ran: ours at the largest m that did, beside
	// the paper's, is shown, not judged (another m, another machine).
	ms := dominationRowsOf(experiments.OfExperiment(run, exp))
	for i := len(ms) - 1; i >= 0; i-- {
		if x := experiments.CellOf(rc, exp, impl, dominationParams(ms[i])); experiments.OKCells(x) && !math.IsNaN(experiments.PhaseMS(x.Rec, phase)) {
			c.Ours = fmt.Sprintf("%s at m = %d, the largest that ran", experiments.MsText(x.Rec, phase), ms[i])
			c.Verdict, c.Reason = experiments.NotComparable, fmt.Sprintf("the paper gives m = %d and up; ours at a smaller m", have[0])
			return c
		}
	}
	return c.NotRunFor(experiments.CellOf(rc, exp, impl, p))
}

// domSearchClaims are the paper's times of Algorithms 3, 4 and 5 (m = 12,
// section 3) against ours computed as the paper does (whole matrices).
func domSearchClaims(run []bench.Record, exp string) []experiments.Claim {
	type side struct{ paperImpl, impl, what string }
	alg, sides := "", []side{{"cpu/paper", domWholeSeq, "sequential"}, {"cpu/openmp", domWholePar, "with OpenMP (48 cores; ours every thread of this CPU)"}}
	switch exp {
	case "domination/table3":
		alg = "algorithm3"
	case "domination/table4":
		alg = "algorithm4"
	default:
		alg, sides = "algorithm5", []side{{"cpu/paper", domWholeSeq, "on the CPU"}}
	}
	name, how := "Algorithm "+strings.TrimPrefix(alg, "algorithm"), "the powers compared as whole matrices"
	if alg == "algorithm5" {
		how = "each diagonal read from the whole power kept"
	}
	var out []experiments.Claim
	for _, sd := range sides {
		c := experiments.Claim{ID: exp + "#time-" + sd.impl, Where: "section 3 (" + name + ")",
			Text: fmt.Sprintf("%s's running time %s, %s; ours is %s's phase %s.", name, sd.what, how, sd.impl, alg)}
		out = append(out, domTimeClaim(run, c, exp, sd.paperImpl, alg, exp, sd.impl, alg))
	}
	return out
}

// dominationTable5Claims are Table 5's total running times of versions 1
// to 4 against ours, and section 3's "version 4 is slightly faster than
// version 3" (domV4FasterClaim).
func dominationTable5Claims(run []bench.Record) []experiments.Claim {
	const exp = "domination/table5"
	var out []experiments.Claim
	for i, impl := range domVersions {
		c := experiments.Claim{ID: exp + "#v" + strconv.Itoa(i+1), Where: "Table 5", Text: fmt.Sprintf("Version %d's total running time (Algorithms 2-5, K = 50). Ours is %s's total.", i+1, impl)}
		out = append(out, domTimeClaim(run, c, exp, domPaperVersions[i], bench.TotalPhase, exp, impl, bench.TotalPhase))
	}
	return append(out, domV4FasterClaim(run))
}

// domV4FasterClaim is section 3's sentence on Table 5: version 4 (the
// differences on the CPU) "is slightly faster than version 3 because of the
// communication costs to allocate matrices on the GPU memory to perform
// matrix operations with little computational cost". The paper's figure
// is its two totals at the largest m where it gives both; ours our two at
// the largest m where both ran, reproduced when version 4's total is below
// version 3's, not reproduced otherwise.
func domV4FasterClaim(run []bench.Record) experiments.Claim {
	const exp = "domination/table5"
	c := experiments.Claim{ID: exp + "#v4-faster", Where: "section 3 (Table 5)",
		Text: fmt.Sprintf("Version 4 is slightly faster than version 3 (the cost of moving each pair of powers to the GPU for a difference of little computation). "+
			"Ours: %s's and %s's totals at the largest m where both ran; reproduced when version 4's is the lower.", domV4, domV3)}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := bench.IndexRecords(paper), bench.IndexRecords(experiments.OfExperiment(run, exp))
	pm := dominationRowsOf(paper)
	c.PaperFigure = "—"
	for i := len(pm) - 1; i >= 0; i-- {
		p := dominationParams(pm[i])
		v3, v4 := pc.Get(exp, domPaperVersions[2], p), pc.Get(exp, domPaperVersions[3], p)
		if a, b := experiments.PhaseMS(v3, bench.TotalPhase), experiments.PhaseMS(v4, bench.TotalPhase); !math.IsNaN(a) && !math.IsNaN(b) {
			c.PaperFigure = fmt.Sprintf("V4 %s, V3 %s at m = %d (V4 / V3 %s)", experiments.MsText(v4, bench.TotalPhase), experiments.MsText(v3, bench.TotalPhase), pm[i], experiments.Ratio(b, a))
			break
		}
	}
	ms := dominationRowsOf(experiments.OfExperiment(run, exp))
	for i := len(ms) - 1; i >= 0; i-- {
		p := dominationParams(ms[i])
		x3, x4 := experiments.CellOf(rc, exp, domV3, p), experiments.CellOf(rc, exp, domV4, p)
		a, b := experiments.PhaseMS(x3.Rec, bench.TotalPhase), experiments.PhaseMS(x4.Rec, bench.TotalPhase)
		if !experiments.OKCells(x3, x4) || math.IsNaN(a) || math.IsNaN(b) {
			continue
		}
		faster, note := experiments.CompareWithin(c.ID, experiments.SamplesOf(x4.Rec, bench.TotalPhase), experiments.SamplesOf(x3.Rec, bench.TotalPhase))
		c.Ours = fmt.Sprintf("V4 %s, V3 %s at m = %d (V4 / V3 %s; %s)", experiments.MsText(x4.Rec, bench.TotalPhase), experiments.MsText(x3.Rec, bench.TotalPhase), ms[i], experiments.Ratio(b, a), note)
		c.Verdict = experiments.BySamples(faster, -1)
		return c
	}
	if len(ms) == 0 {
		c.Verdict, c.Ours, c.Reason = experiments.NotRun, "—", "no cell of it in this run"
		return c
	}
	p := dominationParams(ms[len(ms)-1])
	return c.NotRunFor(experiments.CellOf(rc, exp, domV3, p), experiments.CellOf(rc, exp, domV4, p))
}

// dominationTable2Claims gives Table 2's GPU column: Algorithm 2 on the
// V100 at the largest m where cuda/paper (the paper's algorithm) ran here.
func dominationTable2Claims(run []bench.Record) []experiments.Claim {
	const exp = "domination/table2"
	c := experiments.Claim{ID: exp + "#gpu-time", Where: "Table 2",
		Text: "Algorithm 2's running time on the GPU (V100): ours is cuda/paper's total at the largest m where it ran, a time (lower is better)."}
	return []experiments.Claim{domTimeClaim(run, c, exp, "cuda/paper", "algorithm2", exp, "cuda/paper", bench.TotalPhase)}
}

// domMemory is a 2-domination cell's host and device memory (a device's,
// with the powers split in column slabs over gpus devices): the
// whole-matrix searches (and the versions of Table 5) keep the K = 50
// powers, a spare, the difference and a dense A(D_m); the others two
// powers and a dense A(D_m) (domination.MemoryNeeded). On a device, two
// powers and a product's output. Beyond the paper, one cuda/sparse
// analysis: two slabs of the powers and A(D_m) in CSR on each device, and
// on the host A(D_m) and the two powers of the exact check.
func domMemory(m int, impl string, gpus int) (host, device uint64) {
	n := dominationRows(m)
	if n == 0 {
		return 0, 0
	}
	b := minplus.Bytes(n)
	if m >= dominationBeyond {
		csr := uint64(6*math.Pow(float64(n), 1.55)) + 4*uint64(n) // arcs of 4 + 2 bytes (m = 14: 370 M)
		return 2*b + csr, 2*b/uint64(max(gpus, 1)) + csr
	}
	host = 3 * b
	if slices.Contains(domVersions, impl) || impl == domWholeSeq || impl == domWholePar {
		host = uint64(domination.DefaultK+3) * b
	}
	return host, 3 * b
}
