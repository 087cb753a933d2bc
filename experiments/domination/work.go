package domination

import (
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/problems/domination"
)

// The work of a 2-domination cell, from the order N of A(D_m)
// (domination.Rows), its arcs E (the record's "arcs" metric, else
// dominationArcs) and the recurrence's a and n0 (the record's metrics,
// else the paper's Table 4, which ours equal), entries int16:
//
//   - Algorithm 1 (domination/table1, and inside every other cell's run
//     that computes its own powers): each correct word and each arc
//     decided letter by letter, m(N+E) integer operations, and A(D_m)
//     written in CSR (6 bytes an arc, 4 a row).
//   - Algorithm 2, P products A^i = A ⊗ A^(i-1): P = K-1 = 49 for K = 50
//     powers; n0+a-1 for the runs stopped at the first repetition
//     (domination/table5's products, the formula). A dense product
//     (cpu/paper, cpu/fast, cuda/paper, cuda/fast, Table 5's versions)
//     does N³ updates and reads its two operands and writes the product
//     once (6N² bytes); a sparse one (cpu/sparse, cuda/sparse, the
//     cpu/whole-* searches on cpu/sparse) N·E updates, reading A in CSR
//     and the power (6E + 4(N+1) + 2N²) and writing the product (2N²).
//     cpu/fast skips blocks of ∞ and does fewer (not subtracted).
//   - Algorithms 3-5 on the fingerprints: K integer comparisons at most,
//     counted so; on whole matrices (cpu/whole-*, Table 5's versions) D =
//     a + (r0-n0+1) + [n0 >= 2] differences (Algorithm 3's a at i = K,
//     Algorithm 4's matches from r0+a down to n0+a and the one that stops
//     it), each N² integer operations and two powers read (4N²).
//   - the formula's witnesses: Σ n = 817 (min,+) matrix-vector products
//     for 3 <= n <= 40, each E updates and A in CSR read, on the host.
//
// A cell of Tables 3, 4 and 6 or the formula that read its powers from
// another cell (ReusedFrom) times only what it adds: the fingerprint
// search, or the witnesses. A cell of Table 2 or 5 that reports another
// cell's samples declares the work those samples measured.
//
// The copies of a GPU cell: A in CSR up (the session keeps the powers on
// the device; the few statistics of each power that come back are not
// counted); Table 5's versions 3 and 4 download each power (2N² each,
// K-1 of them), and version 3 uploads both powers of each difference
// (4N²). DRAM bytes of versions 3 and 4 and of cuda/sparse's formula add
// the device's and the host's. peer/2domination (domination/table2, the
// paper's program) is taken as Algorithm 2's 49 dense products on the
// GPU, A uploaded dense and every power downloaded, as the paper
// describes it.

// dominationArcs are the arcs of A(D_m) for m = 2..12, as
// domination.Build counts them (domination_test.go checks the table).
var dominationArcs = []int{2: 15, 3: 61, 4: 245, 5: 1028, 6: 4267, 7: 17636, 8: 73113, 9: 303097, 10: 1255848,
	11: 5204161, 12: 21567085}

// domWitnessProducts are the (min,+) matrix-vector products of the
// formula's witnesses: a closed walk of length n for 3 <= n <= 40.
const domWitnessProducts = (3 + 40) * 38 / 2

// domSizes are N, E, a and n0 of rec's m; ok is false for an m beyond the
// arcs table without the record's metrics.
func domSizes(rec *bench.Record) (n, e float64, a, n0 int, ok bool) {
	m := experiments.IntOf(rec.Params, "m")
	rows := dominationRows(m)
	if rows == 0 {
		return 0, 0, 0, 0, false
	}
	arcs, has := rec.Metrics["arcs"]
	if !has {
		if m >= len(dominationArcs) {
			return 0, 0, 0, 0, false
		}
		arcs = float64(dominationArcs[m])
	}
	fa, hasA := rec.Metrics["a"]
	fn0, hasN0 := rec.Metrics["n0"]
	if !hasA || !hasN0 {
		paper, _ := paperdata.PaperRecords("domination/table4")
		if pr := experiments.IndexRecords(paper).Get("domination/table4", "cuda/paper", dominationParams(m)); pr != nil {
			fa, fn0 = pr.Metrics["a"], pr.Metrics["n0"]
		}
	}
	return float64(rows), arcs, int(fa), int(fn0), true
}

// domAlgorithm1 is Algorithm 1's work on A(D_m) of n rows and e arcs.
func domAlgorithm1(m int, n, e float64) bench.Work {
	return bench.Work{IntOps: float64(m) * (n + e), DRAMBytes: 6*e + 4*(n+1)}
}

// domProducts is the work of p products on A(D_m) of n rows and e arcs.
func domProducts(p int, sparse bool, n, e float64) bench.Work {
	w := bench.Work{Updates: n * n * n, DRAMBytes: 6 * n * n}
	if sparse {
		w = bench.Work{Updates: n * e, DRAMBytes: 6*e + 4*(n+1) + 4*n*n}
	}
	return w.Scale(float64(p))
}

// domDifferences is the number of whole-matrix differences of Algorithms
// 3 and 4 for K powers and the recurrence (a, n0).
func domDifferences(k, a, n0 int) int {
	d := a + (k - a - n0 + 1)
	if n0 >= 2 {
		d++
	}
	return d
}

// domCellWork is the work of a cell of domination/table2 to table6 and
// the formula (see above).
func domCellWork(rec *bench.Record) (bench.Work, bool) {
	n, e, a, n0, ok := domSizes(rec)
	if !ok || a <= 0 {
		return bench.Work{}, false
	}
	m, impl, k := experiments.IntOf(rec.Params, "m"), rec.Impl, domination.DefaultK
	gpu := strings.HasPrefix(impl, "cuda/") || strings.HasPrefix(impl, "peer/")
	versions := slices.Contains(domVersions, impl)
	whole := versions || impl == domWholeSeq || impl == domWholePar
	stop := (rec.Experiment == "domination/table5" && !versions) || rec.Experiment == "domination/formula" || m >= dominationBeyond
	search := bench.Work{IntOps: float64(k)}
	var witnesses bench.Work
	if rec.Experiment == "domination/formula" {
		witnesses = bench.Work{Updates: domWitnessProducts * e, DRAMBytes: domWitnessProducts * (6*e + 4*(n+1))}
	}
	if rec.ReusedFrom != "" && rec.Experiment != "domination/table2" && rec.Experiment != "domination/table5" {
		if witnesses.IsZero() {
			return search, true
		}
		return witnesses, true
	}
	p := k - 1
	if stop {
		p = n0 + a - 1
	}
	sparse := strings.HasSuffix(impl, "/sparse") || impl == domWholeSeq || impl == domWholePar
	w := domAlgorithm1(m, n, e).Add(domProducts(p, sparse, n, e)).Add(witnesses)
	if whole {
		d := float64(domDifferences(k, a, n0))
		search = bench.Work{IntOps: d * n * n, DRAMBytes: d * 4 * n * n}
	}
	w = w.Add(search)
	switch {
	case impl == "peer/2domination":
		w.LinkBytes = 2*n*n + float64(k-1)*2*n*n // A up dense, every power down
	case gpu:
		w.LinkBytes = 6*e + 4*(n+1)
		if versions {
			w.LinkBytes += float64(k-1) * 2 * n * n
		}
		if impl == domV3 {
			w.LinkBytes += float64(domDifferences(k, a, n0)) * 4 * n * n
		}
	}
	return w, true
}

// domTable1CellWork is the work of a cell of domination/table1:
// Algorithm 1 alone.
func domTable1CellWork(rec *bench.Record) (bench.Work, bool) {
	m := experiments.IntOf(rec.Params, "m")
	n, e, _, _, ok := domSizes(rec)
	if !ok {
		return bench.Work{}, false
	}
	return domAlgorithm1(m, n, e), true
}
