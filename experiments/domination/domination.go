package domination

import (
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
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
// 3.4 T and cuda/fast 29 T updates/s; cuda/sparse's is per unit of its own
// work (domSparseGPUWork), 0.08-0.25 ns measured on the H100, taken at the
// high end (the fixed costs of small m are dominationFixedMS).
var dominationNsPerWork = map[string]float64{"cpu/paper": 4, "cpu/fast": 0.02, "cpu/sparse": 0.01,
	"cuda/paper": 3e-4, "cuda/fast": 4e-5, "cuda/sparse": 0.25}

// dominationFixedMS is the priors' fixed cost of a run (the sparse
// searches allocate their powers and walk their lists at every m; a GPU
// run launches and copies): at m = 2 a run of cpu/sparse took 0.4-1 ms on
// the committed 2-core and H100 hosts, of cuda/sparse about 1 ms on the
// H100, far above what the work of so small a matrix predicts; of
// cpu/whole-par (its goroutines started) 1.2 ms on the 2-core host, where
// the work scaled down from m = 8 predicted 0.0003 ms.
var dominationFixedMS = map[string]float64{"cpu/sparse": 0.3, "cpu/whole-par": 0.5, "cuda/sparse": 0.5, "cuda/paper": 0.2, "cuda/fast": 0.2}

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

// domSparseGPUWork is cuda/sparse's work: (K-1)·N², not the dense N³. Its
// time follows N² over m = 8..12 (the H100's 9-minute run of e770f14:
// 0.25, 0.17, 0.10, 0.08 and 0.09 ns per unit for the formula's cells),
// where the nominal N³ would predict m = 12 from m = 8 some 40 times too
// high: the sparse product's work per row falls with m, and the small m
// leave the GPU idle.
func domSparseGPUWork(m int) float64 {
	n := float64(dominationRows(m))
	return float64(domination.DefaultK-1) * n * n
}

// dominationImplWork is a case's ImplWork at m (Case.ImplWork).
func dominationImplWork(m int) func(string) float64 {
	return func(impl string) float64 {
		if impl == "cuda/sparse" {
			return domSparseGPUWork(m)
		}
		return 0
	}
}

func dominationParams(m int) bench.Params { return bench.Params{{Name: "m", Value: strconv.Itoa(m)}} }

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
		Work: domTable1CellWork,
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
		Work: domCellWork,
		// Algorithm 2's fastest products are the sparse ones (cuda/sparse does m = 12's 50 powers in seconds, the dense cuda/fast in minutes).
		Headline:    []string{"cpu/sparse", "cuda/sparse"},
		Description: "Algorithm 2: 50 (min,+) powers of A(D_m), with Algorithms 1 and 3-5 (paper's Table 2)",
		Statistic:   bench.StatMedian,
		Impls:       dominationAll,
		NsPerWork:   dominationNsPerWork,
		FixedMS:     dominationFixedMS,
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
			Work: domCellWork,
			// Tables 3, 4 and 6 are exact values, the same on every implementation
			// (the GPU's reference computes them once per run for Tables 2 and 5):
			// their timings are no claim of the paper's, so no GPU cell is a headline.
			Headline:  []string{"cpu/sparse"},
			Statistic: bench.StatMedian,
			Impls:     append(slices.Clone(dominationExact), domWholeSeq, domWholePar),
			NsPerWork: dominationPriors(),
			FixedMS:   dominationFixedMS,
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
		Work: domCellWork,
		// Algorithm 2's fastest products are the sparse ones.
		Headline:    []string{"cpu/sparse", "cuda/sparse"},
		Description: "Total running times, Algorithms 2-5 (paper's Table 5): its versions 1 to 4 as it defines them (K = 50, whole-matrix Algorithms 3-5), and ours with the powers stopped at the first repetition, n0 + a, as the paper's conclusion suggests",
		Statistic:   bench.StatMedian,
		Impls:       append(slices.Clone(dominationAll), domVersions...),
		NsPerWork:   dominationPriors(),
		FixedMS:     dominationFixedMS,
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
		Work: domCellWork,
		// Exact values, the same on every implementation: their timings are no claim of the paper's, so no GPU cell is a headline.
		Headline:    []string{"cpu/sparse"},
		Description: "γ2(P_m □ C_n) for 3 <= n <= 40 with a checked optimal 2-dominating set each, and each m's closed formula",
		Statistic:   bench.StatMedian,
		Impls:       dominationExact,
		NsPerWork:   dominationNsPerWork,
		FixedMS:     dominationFixedMS,
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
