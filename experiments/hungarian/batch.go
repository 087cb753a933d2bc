package hungarian

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/lap"
)

// hungarian/batch: many independent small LAPs at once, as trackers and
// matchers solve them. The GPU solves the whole batch in one launch (a
// thread block per problem, cuda/fast's batch solver); cpu/jv solves the problems
// in parallel over the cores (lap.SolveBatch). HyLAC's stream solver joins
// through the peer scripts as peer/hylac-stream.

const (
	hungarianBatchExp = "hungarian/batch"
	// PeerHyLACStream is HyLAC's stream solver (many problems at once), as
	// the peer scripts record it for hungarian/batch.
	PeerHyLACStream = "peer/hylac-stream"
)

// hungarianBatchImpls are the implementations of hungarian/batch.
var hungarianBatchImpls = []string{"cuda/fast", "cpu/jv"}

// hungarianBatchSizes are the problem sizes n and the problems per batch
// at a scale.
func hungarianBatchSizes(s experiments.Scale) (ns []int, count int) {
	if s == experiments.Quick {
		return []int{16, 32}, 300
	}
	return []int{32, 64, 128, 256}, 10_000
}

// hungarianBatchParams are a cell's parameters; peer records carry the same.
func hungarianBatchParams(n int, rangeLabel string, count int) bench.Params {
	return bench.Params{{Name: "n", Value: strconv.Itoa(n)}, {Name: "range", Value: rangeLabel}, {Name: "count", Value: strconv.Itoa(count)}}
}

// hungarianBatchCase builds a batch of count n x n problems, problem k
// (0-based) being `semibench gen lap --n n --range r --seed S+k` (S the
// run's seed, 1 by default).
func hungarianBatchCase(n int, rangeLabel string, count int, opt experiments.Options) experiments.Case {
	seed := opt.Seed
	if seed == 0 {
		seed = 1
	}
	return experiments.Case{
		Params: hungarianBatchParams(n, rangeLabel, count),
		Work:   float64(count) * hungarianWork(n, rangeLabel),
		// int64 costs, the results and the int32 staging; on the device the
		// costs and each problem's workspace.
		HostBytes: uint64(count) * uint64(n) * uint64(n) * 8 * 2, DeviceBytes: uint64(count) * uint64(n) * uint64(n) * 8,
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			need := uint64(count) * uint64(n) * uint64(n) * 8 * 2 // int64 costs, and the results and int32 staging
			if avail := bench.AvailableMemory(); avail > 0 && need > avail {
				return nil, fmt.Errorf("%d problems of n=%d need about %.1f GiB, only %.1f GiB available", count, n, experiments.GiB(need), experiments.GiB(avail))
			}
			rng, err := lapcost.Range(rangeLabel, n)
			if err != nil {
				return nil, err
			}
			costs, err := lapcost.GenerateBatch(count, n, n, rng, seed)
			if err != nil {
				return nil, err
			}
			b := &lap.Batch{Name: fmt.Sprintf("batch of %d %dx%d", count, n, n), Count: count, Rows: n, Cols: n, Int: costs}
			hash, err := lapcost.HashBatch(costs, count)
			if err != nil {
				return nil, err
			}
			metrics := map[string]float64{"range": float64(rng), "count": float64(count)}
			reference := batchReference(b, opt.Threads, metrics)
			return &experiments.Instance{
				Input: &bench.Input{Generator: "lapcost", Seed: seed, Hash: hash,
					Description: fmt.Sprintf("%d problems of %dx%d uniform integer costs in [0, %d) (range %s), problem k from seed %d+k", count, n, n, rng, rangeLabel, seed)},
				Metrics: metrics,
				Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
					return runLAPBatch(ctx, impl, b, opt.Threads, rec)
				},
				Check: func(_ string, out any) bench.Check {
					res, _ := out.(*lap.BatchOutput)
					return hungarianBatchCheck(b, res, reference)
				},
				Release: func() { b.Int = nil },
			}, nil
		},
	}
}

// runLAPBatch solves b with impl's batch solver from impls.LAP.
func runLAPBatch(ctx context.Context, impl string, b *lap.Batch, threads int, rec *bench.Recorder) (*lap.BatchOutput, error) {
	im, err := impls.LAP.Lookup(impl)
	if err != nil {
		return nil, err
	}
	if im.SolveBatch == nil {
		return nil, fmt.Errorf("%w: implementation %s has no batch solver", experiments.ErrUnavailable, impl)
	}
	out, err := im.SolveBatch(ctx, b, threads, rec)
	return out, experiments.MarkUnavailable(err)
}

// batchReference returns the function that gives b's certified optima
// (lap.CertifyOptima), computed once, when the first check needs them,
// and then set as metrics' optimum_sum.
func batchReference(b *lap.Batch, threads int, metrics map[string]float64) func() (*lap.Optima, error) {
	return sync.OnceValues(func() (*lap.Optima, error) {
		o, err := lap.CertifyOptima(context.Background(), b, threads)
		if err == nil {
			var sum float64
			for k := range b.Count {
				sum += o.Optimum(k)
			}
			metrics["optimum_sum"] = sum
		}
		return o, err
	})
}

// hungarianBatchCheck certifies every problem by its duals (exactly: the
// costs are integers) and compares every cost with the certified cpu/jv
// optimum (lap.Optima.Check).
func hungarianBatchCheck(b *lap.Batch, out *lap.BatchOutput, reference func() (*lap.Optima, error)) bench.Check {
	chk := bench.Check{Method: "every problem's dual certificate (u_i + v_j <= c_ij, equality on the assignment), every cost = cpu/jv's certified optimum"}
	if out == nil {
		chk.Detail = "no result"
		return chk
	}
	if err := lap.CertifyBatch(b, out, 0); err != nil {
		chk.Detail = err.Error()
		return chk
	}
	ref, err := reference()
	if err != nil {
		chk.Detail = "reference: " + err.Error()
		return chk
	}
	c := ref.Check(out, 0)
	c.Method = chk.Method
	if c.OK {
		c.Detail = fmt.Sprintf("%d problems certified, every cost equal to cpu/jv's", b.Count)
	}
	return c
}

// registerHungarianBatch registers these experiments.
func registerHungarianBatch() {
	experiments.Register(&experiments.Experiment{
		Name:        hungarianBatchExp,
		Paper:       Paper.File,
		Description: "batches of independent small LAPs (10,000 per batch at n = 32..256, the paper's ranges): cuda/fast's batch kernel (a block per problem, one launch) against cpu/jv in parallel over the cores, and HyLAC's stream solver through results/peers",
		Statistic:   bench.StatMedian,
		Work:        hungarianCellWork,
		Impls:       hungarianBatchImpls,
		NsPerWork:   map[string]float64{"cuda/fast": 0.1, "cpu/jv": 0.4},
		Headline:    []string{"cuda/fast", "cpu/jv"},
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			ns, count := hungarianBatchSizes(s)
			var cs []experiments.Case
			for _, n := range ns {
				for _, r := range lapcost.PaperRanges {
					cs = append(cs, hungarianBatchCase(n, r, count, o))
				}
			}
			return cs
		},
		Tables: hungarianBatchTable,
	})
}

// hungarianBatchTable renders hungarian/batch: per cell the GPU's phases,
// cpu/jv's total, their ratio, and the peer's (peer/hylac-stream records
// of hungarian/batch with the same n, range and count, found in the whole
// run as hungarian/table4 finds its peers).
func hungarianBatchTable(run []bench.Record) []report.Table {
	own, rc, pc := batchRecords(run, hungarianBatchExp, PeerHyLACStream)
	if len(own) == 0 {
		return nil
	}
	t := report.Table{
		Title: "hungarian/batch — batches of independent n x n LAPs, ms per batch: cuda/fast (a block per problem, one launch) vs cpu/jv (parallel over the cores) and HyLAC's stream solver",
		Header: []string{"n", "range", "count", "cuda/fast total", "cuda/fast end_to_end", "cuda/fast check", "cuda/fast h2d", "cuda/fast solve", "cuda/fast d2h", "cuda/fast results",
			"cpu/jv total", "cpu/jv / cuda/fast (total)", "cpu/jv / cuda/fast (end_to_end)",
			PeerHyLACStream + " total", PeerHyLACStream + " / cuda/fast (total)",
			PeerHyLACStream + " end_to_end", PeerHyLACStream + " / cuda/fast (end_to_end)"},
	}
	seen := map[string]bool{}
	missingPeer := false
	for _, c := range hungarianCells(own) {
		for _, r := range own {
			if r.Params.Get("n") != strconv.Itoa(c.n) || r.Params.Get("range") != c.r || seen[r.Params.Get("count")+"/"+c.r+"/"+strconv.Itoa(c.n)] {
				continue
			}
			seen[r.Params.Get("count")+"/"+c.r+"/"+strconv.Itoa(c.n)] = true
			p := r.Params
			gpu, cpu, peer := rc.Get(hungarianBatchExp, "cuda/fast", p), rc.Get(hungarianBatchExp, "cpu/jv", p), pc.Get(hungarianBatchExp, PeerHyLACStream, p)
			if peer == nil {
				missingPeer = true
			}
			t.Rows = append(t.Rows, []string{strconv.Itoa(c.n), c.r, p.Get("count"),
				experiments.CellText(gpu, bench.TotalPhase), experiments.CellText(gpu, bench.EndToEndPhase), experiments.CellText(gpu, impls.LAPBatchCheck),
				experiments.CellText(gpu, impls.LAPBatchH2D), experiments.CellText(gpu, impls.LAPBatchSolve), experiments.CellText(gpu, impls.LAPBatchD2H),
				experiments.CellText(gpu, impls.LAPBatchResults), experiments.CellText(cpu, bench.TotalPhase),
				experiments.Ratio(experiments.PhaseMS(cpu, bench.TotalPhase), experiments.PhaseMS(gpu, bench.TotalPhase)),
				experiments.Ratio(experiments.PhaseMS(cpu, bench.EndToEndPhase), experiments.PhaseMS(gpu, bench.EndToEndPhase)),
				peerText(peer, bench.TotalPhase), experiments.Ratio(experiments.PhaseMS(peer, bench.TotalPhase), experiments.PhaseMS(gpu, bench.TotalPhase)),
				peerText(peer, bench.EndToEndPhase), experiments.Ratio(experiments.PhaseMS(peer, bench.EndToEndPhase), experiments.PhaseMS(gpu, bench.EndToEndPhase))})
		}
	}
	t.Notes = append(t.Notes,
		"Problem k of a batch (0-based) is `semibench gen lap --n N --range R --seed S+k` (S the run's seed, 1 by default). cuda/fast: total runs from the batch in device memory to the results in device memory (every launch, allocation and synchronisation inside; the workspace is kept between solves of one shape and reused, while HyLAC allocates its own in every solve; the runs of commits up to c88744e allocated it before the window, in h2d), end_to_end from the batch in host memory (int64) to the results in host memory; check (up to commit 5e9b1cb: one parallel pass over the int64 costs, bounds and int32), h2d (the costs' buffer; from 5e9b1cb the check too: one pass reads the int64 costs, checks them and converts them chunk by chunk to int16 where a chunk fits, else int32, into page-locked memory while the previous chunk is copied; widened to int32 on the device), solve (the batch kernel, CUDA events; each problem's workspace in shared memory where it fits 48 KB; square problems whose costs take at least n values start from a greedy matching), d2h and results (the per-problem assignments, duals and costs built on the host) are its parts, the rest of end_to_end is the device's opening and the calls between them. cpu/jv: total = end_to_end, the whole batch solved in memory. peer/hylac-stream (HyLAC's TLAP<float>, a block per problem): total from the costs in device memory (its allocations inside), end_to_end from float costs in host memory; cuda/fast's end_to_end starts from int64 costs (twice the bytes HyLAC's starts from), which it checks and converts on the host. Ratios above 1: cuda/fast is faster.",
		"Every cell certifies every problem by its duals and checks its cost equals cpu/jv's certified optimum (exact: integer costs).")
	if missingPeer {
		t.Notes = append(t.Notes, batchPeerNote(PeerHyLACStream, hungarianBatchExp, "n, range and count"))
	}
	t.Notes = append(t.Notes, experiments.CheckSummary(run, hungarianBatchExp))
	return []report.Table{t}
}

// batchRecords returns exp's own records in run, indexed, and the peer's
// records of exp, found in the whole run (as hungarian/table4 finds its
// peers), indexed.
func batchRecords(run []bench.Record, exp, peer string) (own []bench.Record, ours, peers experiments.Cells) {
	own = hungarianOwn(run, exp)
	var theirs []bench.Record
	for _, r := range experiments.OfExperiment(run, exp) {
		if r.Impl == peer {
			theirs = append(theirs, r)
		}
	}
	return own, experiments.IndexRecords(own), experiments.IndexRecords(theirs)
}

// batchPeerNote is a batch table's note for a peer without a record of
// some cell (whose parameters same names).
func batchPeerNote(peer, exp, same string) string {
	return fmt.Sprintf("%s: no %s record (experiment %s, same %s) among the records given; measure it with the peer scripts (results/peers/README.md) and merge its result file: `semibench table run.jsonl results/peers/<machine>/*.jsonl --merge`.",
		peerNotRun, peer, exp, same)
}
