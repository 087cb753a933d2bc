package apsp

import (
	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Paper is the paper this package reproduces.
var Paper = experiments.PaperInfo{File: "003_d1e2bf534f1501b7.txt", Name: "Rote", Number: "003",
	Source: "Rote 1985, systolic algebraic path"}

// apspSeed is the run's seed, 1 when none is given.
func apspSeed(o experiments.Options) uint64 {
	if o.Seed == 0 {
		return 1
	}
	return o.Seed
}

// Register registers the paper and its experiments (experiments.RegisterPaper,
// experiments.Register); experiments/papers calls it for cmd/semibench.
func Register() {
	experiments.RegisterPaper(Paper)
	experiments.Register(&experiments.Experiment{
		Name:        "apsp/semirings",
		Paper:       Paper.File,
		Description: "sGJE in the real, min-plus, max-plus and Boolean semirings against pivoting Gauss-Jordan, Bellman-Ford and BFS; operation counts vs n, n³-n, n(n-1)²; cpu/fast and cuda/fast held to the same references",
		Statistic:   bench.StatMedian,
		Impls:       []string{"cpu/sgje", "cpu/fast", "cuda/fast"},
		NsPerWork:   map[string]float64{"cpu/sgje": 3, "cpu/fast": 1, "cuda/fast": 0.5},
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, name := range apspSemiringNames {
				for _, n := range apspSemiringSizes(s) {
					cs = append(cs, apspSemiringCase(name, n, o))
				}
			}
			return cs
		},
		Tables: apspSemiringsTable,
		Claims: apspSemiringClaims,
		Needs:  apspSemiringNeeds,
		Work:   apspSemiringWork,
	})
	experiments.Register(&experiments.Experiment{
		Name:        "apsp/systolic",
		Headline:    []string{"cpu/systolic", "cuda/systolic"},
		Paper:       Paper.File,
		Description: "the hexagonal arrays GJE0 and GJE1 simulated: processors, c11 and cnn exit steps, active fraction, three-track utilization vs the paper's formulas",
		Statistic:   bench.StatMedian,
		Impls:       []string{"cpu/systolic", "cuda/systolic"},
		NsPerWork:   map[string]float64{"cpu/systolic": 20, "cuda/systolic": 0.5},
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, n := range apspSystolicSizes(s) {
				cs = append(cs, apspSystolicCase(n, o))
			}
			return append(cs, apspSystolicSweepCase(apspSweepMax(s), o))
		},
		Tables: apspSystolicTable,
		Claims: func(run []bench.Record) []experiments.Claim {
			return append(apspSystolicClaims(run), apspIdleClaim(run))
		},
		Needs: apspSystolicNeeds,
		Plots: apspSystolicPlots,
		Work:  apspSystolicWork,
	})
	experiments.Register(&experiments.Experiment{
		Name:        "apsp/blocked",
		Paper:       Paper.File,
		Description: "min-plus float32 closure time vs n on the CPU and the GPU: sGJE vs blocked Gauss-Jordan (Remark 2.2), updates per second against the measured limits",
		Statistic:   bench.StatMedian,
		Impls:       []string{"cpu/sgje", "cpu/fast", "cuda/fast"},
		NsPerWork:   map[string]float64{"cpu/sgje": 1.5, "cpu/fast": 0.1, "cuda/fast": 0.001},
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			cs := apspBlockedSizes(s)
			for i := range cs {
				cs[i] = apspBlockedCase(cs[i], o)
			}
			return cs
		},
		Tables: apspBlockedTable,
		Claims: func(run []bench.Record) []experiments.Claim { return []experiments.Claim{apspBlockedClaim(run)} },
		Needs:  apspBlockedNeeds,
		Plots:  apspBlockedPlots,
		Work:   apspBlockedWork,
	})
}
