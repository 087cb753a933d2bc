package treefix

import (
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/problems/treefix"
)

// The work of a treefix cell, per vertex of a tree of n vertices, with
// 4-byte indices (the CSR children lists R and C, the parent array, the
// Euler-tour positions (V and V)) and float32 values (the weights w and
// the results). What a pass reads and writes once is counted; random reads
// that a cache may serve twice (a parent's value, a scan entry at a
// vertex's position) once; index arithmetic not at all.
//
//   - cpu/sequential: one traversal of the CSR lists, each vertex adding
//     its weight to its parent's result (Rootfix) or its result to its
//     parent's (Leaffix): n-1 additions; R and C (8 bytes a vertex), w
//     (4) in, the results (4) out: 16 bytes a vertex.
//   - cpu/parallel, cuda/parallel: the same additions level by level, each
//     vertex also written to and read from a frontier queue (8 bytes) and
//     counted in the load-balancing prefix sum (one integer operation): 24
//     bytes a vertex.
//   - cpu/vectorial, cuda/vectorial: write (w, (V and V) in, the 2n entries
//     E out: 20 bytes a vertex; Rootfix negates n weights), the scan of
//     the 2n entries (2n additions, E read and written: 16 bytes a vertex),
//     read (Rootfix: (V and E at it in, the result out, 12 bytes; Leaffix:
//     (V, V), E at both and w in, two more flops a vertex, the result out,
//     24 bytes). cuda/vectorial builds the Euler tour inside its window as
//     well (eulerTourGPU).
//   - the -compensated twins: the same traffic, Rootfix storing each
//     prefix rounded (as their docs say); each scanned entry a TwoSum (6
//     flops) in place of one addition. Approximate: Leaffix keeps its
//     prefixes wide (8 or 16 bytes, not 4), and the CPU's exact
//     fixed-point scan, taken where the weights' exponents allow, adds
//     integers instead; neither is counted.
//
// A GPU cell's copies: R and C (8 bytes a vertex), the parent array where
// the implementation reads it (the vectorial ones, and cuda/parallel's
// Leaffix) and w up, the results down.

// eulerTourGPU is the GPU's Euler tour of n vertices from the CSR lists
// and the parent array (cuda/build, and inside cuda/vectorial's window): R,
// C and the parent read (12 bytes a vertex), the tour's 2n successors
// written and read by the list ranking (16), the positions (V and V)
// written (8); a link and a rank for each of the 2n entries (4 integer
// operations a vertex).
func eulerTourGPU(n float64) bench.Work { return bench.Work{IntOps: 4 * n, DRAMBytes: 36 * n} }

// treefixBase is impl without its backend's prefix, "vectorial-compensated".
func treefixBase(impl string) string {
	base, _ := strings.CutPrefix(strings.TrimPrefix(impl, "cpu/"), "cuda/")
	return base
}

// vectorialSteps is the work of the vectorial algorithm's three steps,
// write, scan and read, of impl's op on n vertices (see above): what the
// paper times as its computation; a zero Work for an implementation that
// is not vectorial.
func vectorialSteps(impl string, op treefix.Op, n float64) bench.Work {
	base := treefixBase(impl)
	if strings.TrimSuffix(base, "-compensated") != "vectorial" {
		return bench.Work{}
	}
	scan := 2 * n
	if strings.HasSuffix(base, "-compensated") {
		scan = 6 * 2 * n
	}
	if op == treefix.Leaffix {
		return bench.Work{Flops: scan + 2*n, DRAMBytes: (20 + 16 + 24) * n}
	}
	return bench.Work{Flops: scan + n, DRAMBytes: (20 + 16 + 12) * n}
}

// treefixOpWork is the least work of one run of impl's op on n vertices
// (see above).
func treefixOpWork(impl string, op treefix.Op, n float64) bench.Work {
	var w bench.Work
	leaf := op == treefix.Leaffix
	base := treefixBase(impl)
	switch strings.TrimSuffix(base, "-compensated") {
	case "sequential":
		w = bench.Work{Flops: n - 1, DRAMBytes: 16 * n}
	case "parallel":
		w = bench.Work{Flops: n - 1, IntOps: n, DRAMBytes: 24 * n}
	case "vectorial":
		w = vectorialSteps(impl, op, n)
		if strings.HasPrefix(impl, "cuda/") {
			w = w.Add(eulerTourGPU(n))
		}
	default:
		return bench.Work{}
	}
	if strings.HasPrefix(impl, "cuda/") {
		up := 8 * n // R and C
		if base != "parallel" || leaf {
			up += 4 * n // the parent array
		}
		w.LinkBytes = up + 4*n + 4*n // w up, the results down
	}
	return w
}

// treefixTimedWork is the work of a cell of treefix/fig4, fig5 and fig7:
// +Rootfix on the tree of n vertices the parameters name; of
// treefix/table1: the builds of the tree's representations, cpu/build's
// CSR from the parent array (the parent read, R and C written: 12 bytes
// and a count and a placement a vertex) and its Euler tour (R and C read,
// (V and V) written: 16 bytes and two positions a vertex), and
// cuda/build's tour on the GPU (eulerTourGPU; R, C and the parent up, the
// positions down: 20 bytes a vertex).
func treefixTimedWork(rec *bench.Record) (bench.Work, bool) {
	n := float64(experiments.IntOf(rec.Params, "n"))
	if n <= 0 {
		return bench.Work{}, false
	}
	switch rec.Impl {
	case cpuBuild:
		return bench.Work{IntOps: 4 * n, DRAMBytes: (12 + 16) * n}, true
	case cudaBuild:
		w := eulerTourGPU(n)
		w.LinkBytes = 20 * n
		return w, true
	}
	w := treefixOpWork(rec.Impl, treefix.Rootfix, n)
	return w, !w.IsZero()
}

// treefixAccuracyWork is the work of a cell of treefix/accuracy: the
// record's op on a chain of accuracyN vertices.
func treefixAccuracyWork(rec *bench.Record) (bench.Work, bool) {
	op := treefix.Rootfix
	switch rec.Params.Get("op") {
	case treefix.Rootfix.String():
	case treefix.Leaffix.String():
		op = treefix.Leaffix
	default:
		return bench.Work{}, false
	}
	w := treefixOpWork(rec.Impl, op, accuracyN)
	return w, !w.IsZero()
}

// The paper times the vectorial algorithm by its three kernels, Write,
// Scan and Read (section III-B; Figure 7 and Figure 4's computation time
// leave out the transfers, and its vector tree arrives built from the
// host). A vectorial cell's window is those three phases, whose work
// vectorialSteps gives: on the GPU the Euler tour that cuda/vectorial
// builds inside its total is outside it, on the CPU the window is the
// cell's whole work without what lies around the three steps.

// vectorialWindow is the window of a vectorial cell running op on n
// vertices: its write, scan and read; false for any other cell.
func vectorialWindow(impl string, op treefix.Op, n float64) (bench.Window, bool) {
	w := vectorialSteps(impl, op, n)
	if w.IsZero() {
		return bench.Window{}, false
	}
	return bench.Window{Phases: []string{treefix.PhaseWrite, treefix.PhaseScan, treefix.PhaseRead}, Work: w}, true
}

// treefixTimedWindow is the window of a cell of treefix/fig4, fig5 and
// fig7: +Rootfix's three steps on the tree of n vertices the parameters
// name, for the vectorial implementations.
func treefixTimedWindow(rec *bench.Record) (bench.Window, bool) {
	n := float64(experiments.IntOf(rec.Params, "n"))
	if n <= 0 {
		return bench.Window{}, false
	}
	return vectorialWindow(rec.Impl, treefix.Rootfix, n)
}

// treefixAccuracyWindow is the window of a cell of treefix/accuracy: the
// record's op's three steps on a chain of accuracyN vertices, for the
// vectorial implementations.
func treefixAccuracyWindow(rec *bench.Record) (bench.Window, bool) {
	switch rec.Params.Get("op") {
	case treefix.Rootfix.String():
		return vectorialWindow(rec.Impl, treefix.Rootfix, accuracyN)
	case treefix.Leaffix.String():
		return vectorialWindow(rec.Impl, treefix.Leaffix, accuracyN)
	}
	return bench.Window{}, false
}

// treefixLevelsWork is the work of a cell of treefix/fig6: the level of
// every vertex (one integer operation) and its level's count (another),
// from the parent array read once (4 bytes a vertex) into a level written
// once (4).
func treefixLevelsWork(rec *bench.Record) (bench.Work, bool) {
	n := float64(experiments.IntOf(rec.Params, "n"))
	if n <= 0 {
		return bench.Work{}, false
	}
	return bench.Work{IntOps: 2 * n, DRAMBytes: 8 * n}, true
}
