package hungarian

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/lap"
)

// hungarian/batch-float, beyond the paper: batches of LAPs (W x T, W <= T)
// on float32 costs uniform in [0, 1), the shapes and costs that
// torch-linear-assignment's batch_linear_assignment takes (a (B, W, T)
// float32 tensor, W <= T). cuda/fast solves the float32 costs as they are
// (impls.LAPBatchFloat32: a block per problem, one launch); cpu/jv solves
// the same values widened to float64 in parallel over the cores; the
// published code joins through the peer scripts as
// peer/torch-linear-assignment.

const (
	hungarianBatchFloatExp = "hungarian/batch-float"
	// PeerTorchLinearAssignment is torch-linear-assignment's
	// batch_linear_assignment, as the peer scripts record it for
	// hungarian/batch-float.
	PeerTorchLinearAssignment = "peer/torch-linear-assignment"
)

// hungarianBatchFloatShapes are the cells at paper and large scale (the
// same cells: the paper has none of its own): 208 problems of 100x300,
// 300x300 and 300x600, and the shape of torch-linear-assignment's own
// benchmark (tests/benchmark.py: 5,000 problems of 20x40), the many small
// problems its kernel, a thread a problem, is made for.
var hungarianBatchFloatShapes = []struct{ rows, cols, count int }{{100, 300, 208}, {300, 300, 208}, {300, 600, 208}, {20, 40, 5000}}

// hungarianBatchFloatCount is the problems per batch of a shape at a
// scale: the shape's count, 8 at quick scale.
func hungarianBatchFloatCount(s experiments.Scale, count int) int {
	if s == experiments.Quick {
		return min(count, 8)
	}
	return count
}

// hungarianBatchFloatParams are a cell's parameters; peer records carry
// the same.
func hungarianBatchFloatParams(rows, cols, count int) bench.Params {
	return bench.Params{{Name: "rows", Value: strconv.Itoa(rows)}, {Name: "cols", Value: strconv.Itoa(cols)}, {Name: "count", Value: strconv.Itoa(count)}}
}

// hungarianBatchFloatWork is a cell's cost in the units of NsPerWork:
// count·rows^1.5·cols, hungarianWork's n^2.5 for a square problem.
func hungarianBatchFloatWork(rows, cols, count int) float64 {
	r := float64(rows)
	return float64(count) * r * math.Sqrt(r) * float64(cols)
}

// hungarianBatchFloatBytes is a cell's memory: on the host the
// generator's int64 draws, the float32 costs, their float64 widening and
// the reference's integer costs (1.1 GB peak RSS measured at 300 x 600,
// against the 1.05 GB this gives); on the
// device the float32 costs and each problem's workspace (u: rows+1
// float64; v, minv: cols+1 float64; p, way: cols+1 int32; used: cols+1
// bytes).
func hungarianBatchFloatBytes(rows, cols, count int) (host, device uint64) {
	k, r, c := uint64(count), uint64(rows), uint64(cols)
	return k * r * c * (8 + 4 + 8 + 8), k * (r*c*4 + (r+1)*8 + (c+1)*(8+8+4+4+1))
}

// hungarianBatchFloatCase builds a batch of count rows x cols problems,
// problem k (0-based) being `semibench gen lap --dist uniform01 --n rows
// --cols cols --seed S+k` (S the run's seed, 1 by default).
func hungarianBatchFloatCase(rows, cols, count int, opt experiments.Options) experiments.Case {
	seed := opt.Seed
	if seed == 0 {
		seed = 1
	}
	host, device := hungarianBatchFloatBytes(rows, cols, count)
	return experiments.Case{
		Params:    hungarianBatchFloatParams(rows, cols, count),
		Work:      hungarianBatchFloatWork(rows, cols, count),
		HostBytes: host, DeviceBytes: device,
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			if avail := bench.AvailableMemory(); avail > 0 && host > avail {
				return nil, fmt.Errorf("%d problems of %dx%d need about %.1f GiB, only %.1f GiB available", count, rows, cols, experiments.GiB(host), experiments.GiB(avail))
			}
			costs, err := lapcost.GenerateUniform01Batch(ctx, count, rows, cols, seed)
			if err != nil {
				return nil, err
			}
			b := &lap.Batch{Name: fmt.Sprintf("batch of %d %dx%d", count, rows, cols), Count: count, Rows: rows, Cols: cols, Float: make([]float64, len(costs))}
			for i, x := range costs {
				b.Float[i] = float64(x)
			}
			metrics := map[string]float64{"count": float64(count)}
			reference := batchReference(b, opt.Threads, metrics)
			return &experiments.Instance{
				Input: &bench.Input{Generator: "lapcost", Seed: seed, Hash: lapcost.HashFloat32(costs),
					Description: fmt.Sprintf("%d problems of %dx%d float32 costs uniform in [0, 1) (k·2^-24, %s), problem k from seed %d+k", count, rows, cols, lapcost.Uniform01, seed)},
				Metrics: metrics,
				Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
					if impl == "cuda/fast" {
						res, err := impls.LAPBatchFloat32(ctx, count, rows, cols, costs, rec)
						if err != nil {
							return nil, experiments.MarkUnavailable(err)
						}
						return &lap.BatchOutput{Float: res}, nil
					}
					return runLAPBatch(ctx, impl, b, opt.Threads, rec)
				},
				Check: func(_ string, out any) bench.Check {
					res, _ := out.(*lap.BatchOutput)
					ref, err := reference()
					if err != nil {
						return bench.Check{Method: "every answer = its problem's certified optimum", Detail: "reference: " + err.Error()}
					}
					// Both solvers sum their costs in float64: exact on the
					// 2^-24 grid (at most 300 values below 1, a sum below
					// 2^9 in steps of 2^-24: 33 bits), so unit 0.
					return ref.Check(res, 0)
				},
				Release: func() { b.Float, costs = nil, nil },
			}, nil
		},
	}
}

// registerHungarianBatchFloat registers hungarian/batch-float.
func registerHungarianBatchFloat() {
	experiments.Register(&experiments.Experiment{
		Name:  hungarianBatchFloatExp,
		Paper: Paper.File,
		Description: "beyond the paper: batches of 208 LAPs of 100x300, 300x300 and 300x600, and of 5,000 of 20x40 (torch-linear-assignment's own benchmark shape), on float32 costs uniform in [0, 1): " +
			"cuda/fast's float32 batch kernel (a block per problem, one launch) against cpu/jv in parallel over the cores, and torch-linear-assignment through results/peers",
		Statistic: bench.StatMedian,
		Work:      batchFloatCellWork,
		Impls:     []string{"cuda/fast", "cpu/jv"},
		// Priors: cpu/jv's from its paper cells on a 2-core Xeon (0.37 to
		// 1.47 ns per unit, the square shape the slowest), rounded up;
		// cuda/fast's a guess, hungarian/batch's prior.
		NsPerWork: map[string]float64{"cuda/fast": 0.1, "cpu/jv": 1.5},
		Headline:  []string{"cuda/fast", "cpu/jv"},
		Cases: func(s experiments.Scale, o experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, sh := range hungarianBatchFloatShapes {
				cs = append(cs, hungarianBatchFloatCase(sh.rows, sh.cols, hungarianBatchFloatCount(s, sh.count), o))
			}
			return cs
		},
		Tables: hungarianBatchFloatTable,
	})
}

// hungarianBatchFloatTable renders hungarian/batch-float: per shape
// cuda/fast's total, end_to_end and parts, cpu/jv's total, and the peer's
// (peer/torch-linear-assignment records of the same cell found in the
// whole run), with the ratios to cuda/fast.
func hungarianBatchFloatTable(run []bench.Record) []report.Table {
	const peer = PeerTorchLinearAssignment
	own, rc, pc := batchRecords(run, hungarianBatchFloatExp, peer)
	if len(own) == 0 {
		return nil
	}
	t := report.Table{
		Title: "hungarian/batch-float — batches of rows x cols LAPs on float32 costs in [0, 1), ms per batch: cuda/fast (float32 costs, a block per problem) vs cpu/jv (parallel over the cores) and torch-linear-assignment",
		Header: []string{"rows", "cols", "count", "cuda/fast total", "cuda/fast end_to_end", "cuda/fast h2d", "cuda/fast solve", "cuda/fast d2h",
			"cpu/jv total", "cpu/jv / cuda/fast (end_to_end)",
			peer + " total", peer + " / cuda/fast (total)", peer + " end_to_end", peer + " / cuda/fast (end_to_end)"},
	}
	missingPeer := false
	for _, p := range batchFloatCells(own) {
		gpu, cpu, pr := rc.Get(hungarianBatchFloatExp, "cuda/fast", p), rc.Get(hungarianBatchFloatExp, "cpu/jv", p), pc.Get(hungarianBatchFloatExp, peer, p)
		if pr == nil {
			missingPeer = true
		}
		ratio := func(a, b *bench.Record, phase string) string {
			return experiments.Ratio(experiments.PhaseMS(a, phase), experiments.PhaseMS(b, phase))
		}
		t.Rows = append(t.Rows, []string{p.Get("rows"), p.Get("cols"), p.Get("count"),
			experiments.CellText(gpu, bench.TotalPhase), experiments.CellText(gpu, bench.EndToEndPhase),
			experiments.CellText(gpu, impls.LAPBatchH2D), experiments.CellText(gpu, impls.LAPBatchSolve), experiments.CellText(gpu, impls.LAPBatchD2H),
			experiments.CellText(cpu, bench.TotalPhase),
			experiments.Ratio(experiments.PhaseMS(cpu, bench.TotalPhase), experiments.PhaseMS(gpu, bench.EndToEndPhase)),
			peerText(pr, bench.TotalPhase), ratio(pr, gpu, bench.TotalPhase),
			peerText(pr, bench.EndToEndPhase), ratio(pr, gpu, bench.EndToEndPhase)})
	}
	t.Notes = append(t.Notes,
		"Problem k of a batch (0-based) is `semibench gen lap --dist uniform01 --n ROWS --cols COLS --seed S+k` (S the run's seed, 1 by default): float32 costs k·2^-24, uniform in [0, 1) as torch.rand draws them; `gen lap --count K` writes the whole batch, the file the peer reads.",
		"Windows. cuda/fast: total from the float32 costs in device memory (their buffer allocated and filled before it; the workspace allocated, or reused from the last solve of the shape, inside) through the batch kernel and its synchronisation, the results left on the device; "+
			"end_to_end from the float32 costs in host memory (pageable, uploaded through the page-locked staging ring) to every problem's assignment, float64 duals and cost in host memory; h2d (the costs' buffer and their upload), solve (the kernel, CUDA events) and d2h (columns and duals back) are its parts, the rest is the building of the per-problem results on the host. "+
			"cpu/jv: total = end_to_end, the same costs widened to float64 (exactly) and solved in memory, a problem per core at a time, their check for finite values included. "+
			peer+": total from the float32 cost tensor on the device, the call of batch_linear_assignment through torch.cuda.synchronize; end_to_end from float32 costs in host memory through the upload, the call and the assignment back on the host (results/peers/README.md). "+
			"Ratios above 1: cuda/fast is faster; cpu/jv's is against cuda/fast's end_to_end, both from host memory.",
		"Every cell checks every problem: its assignment's cost, recomputed exactly, equals the optimum cpu/jv finds on the costs times 2^24 (integers) and proves by its integer duals; the peer's reported objectives (float32 sums) are held to the same optimum within the float32 rounding bound of a sum (`semibench peers record`).")
	if missingPeer {
		t.Notes = append(t.Notes, batchPeerNote(peer, hungarianBatchFloatExp, "rows, cols and count"))
	}
	t.Notes = append(t.Notes, experiments.CheckSummary(run, hungarianBatchFloatExp))
	return []report.Table{t}
}

// batchFloatCells lists the distinct parameters of the records, by rows,
// then cols, then count.
func batchFloatCells(recs []bench.Record) []bench.Params {
	out := experiments.DistinctParams(recs)
	num := func(p bench.Params, name string) int { v, _ := strconv.Atoi(p.Get(name)); return v }
	slices.SortFunc(out, func(a, b bench.Params) int {
		for _, name := range []string{"rows", "cols", "count"} {
			if d := num(a, name) - num(b, name); d != 0 {
				return d
			}
		}
		return 0
	})
	return out
}
