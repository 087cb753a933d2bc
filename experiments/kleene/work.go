package kleene

import (
	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/problems/kleene"
)

// kleeneExpectedArcs is the generator's expected arc count for n nodes
// (generators/dag: the chain 1 -> ... -> n and every other forward pair
// with probability 1/2), for records that carry no "arcs" metric.
func kleeneExpectedArcs(n int) float64 {
	nf := float64(n)
	return (nf - 1) + (nf*(nf-1)/2-(nf-1))/2
}

// kleeneWork is the least work of one run of a Kleene star cell of order n
// with m arcs (the record's "arcs" metric, else the generator's expected
// count), float32 entries, X and W dense n x n:
//
//   - updates: the paper's update (cpu/paper, cuda/paper; cpu/fast pulls
//     the same recurrence) is, per arc l -> i, one (max,+) per entry of
//     W[l,:] that is not ε, as the paper's kernel skips ε. On these DAGs
//     the chain makes every node before l in topological order an ancestor
//     of l, so that is l's position plus one, on average (n+1)/3 over the
//     arcs: m(n+1)/3 updates (about n³/12). cpu/fast drops dominated arcs
//     as it goes and does far fewer (a data-dependent saving, not
//     subtracted). cuda/fast closes the lower-triangular matrix in
//     topological order by blocked products: C(n,3) = n(n-1)(n-2)/6
//     updates, whatever the arcs.
//   - DRAM bytes: X read once and W written once where the solver works:
//     8n² in main memory; on the device, cuda/fast's 8n² (X uploaded
//     dense), cuda/paper's 4n² + 8m (its X is the CCS values and row
//     indices). The permutations and tile traffic of cuda/fast's blocked
//     closure, and the CCS conversion on the host, are not counted.
//   - link bytes: cuda/paper uploads the CCS values and indices (8m) and
//     downloads W (4n²); cuda/fast uploads X (4n²) and its topological
//     order (4n) and downloads W (4n²) and the predecessor bit sets
//     (n·⌈n/64⌉ words of 8 bytes).
func kleeneWork(rec *bench.Record) (bench.Work, bool) {
	n := experiments.IntOf(rec.Params, "n")
	if n <= 0 {
		return bench.Work{}, false
	}
	nf := float64(n)
	m, ok := rec.Metrics["arcs"]
	if !ok {
		m = kleeneExpectedArcs(n)
	}
	w := bench.Work{Updates: m * (nf + 1) / 3, DRAMBytes: 8 * nf * nf}
	switch rec.Impl {
	case "cuda/paper":
		w.DRAMBytes = 4*nf*nf + 8*m
		w.LinkBytes = 8*m + 4*nf*nf
	case "cuda/fast":
		w.Updates = nf * (nf - 1) * (nf - 2) / 6
		w.LinkBytes = 8*nf*nf + 4*nf + 8*nf*float64((n+63)/64)
	}
	return w, true
}

// kleeneWindow is the window the paper times of a Kleene star cell: its
// phase update W (a row of the paper's Tables 2 and 3, and the one its
// growth claim and bottleneck claim read), which does every update of the
// cell (kleeneWork) and the least traffic of the update alone: the arcs
// read as lists where the implementation reads them so, values and
// indices (cpu/paper, cuda/paper: 8m bytes; the dense X of cpu/paper was
// read by convert CCS, before the window), X or its permuted copy read
// dense where the update reads it (cpu/fast compacts X's rows inside the
// phase, cuda/fast closes the copy init W made: 4n²), and W written once
// (4n²); no link bytes (cuda/paper's copy of the lists up lies before the
// phase, and every download after it).
func kleeneWindow(rec *bench.Record) (bench.Window, bool) {
	w, ok := kleeneWork(rec)
	if !ok {
		return bench.Window{}, false
	}
	n := float64(experiments.IntOf(rec.Params, "n"))
	m, has := rec.Metrics["arcs"]
	if !has {
		m = kleeneExpectedArcs(int(n))
	}
	w.LinkBytes = 0
	switch rec.Impl {
	case "cpu/paper", "cuda/paper":
		w.DRAMBytes = 8*m + 4*n*n
	default:
		w.DRAMBytes = 8 * n * n
	}
	return bench.Window{Phases: []string{kleene.PhaseUpdateW}, Work: w}, true
}
