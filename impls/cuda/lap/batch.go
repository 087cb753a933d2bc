package cudalap

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
	"github.com/semibench/semibench/problems/lap"
)

// Phases of the batch solver: besides h2d and d2h, the solve inside total
// and, outside it, the host's check of the costs before anything reaches
// the device and its assembly of the per-problem results after.
const (
	PhaseSolve   = "solve"   // the batch kernel's launches, timed with CUDA events
	PhaseCheck   = "check"   // one parallel pass over the costs (shape, bounds, int32 or finite) before the upload; integer batches have it only without a device (solveIntBatch)
	PhaseResults = "results" // the assignments, duals and costs of every problem, built in parallel
)

// batchBufs are the device buffers of a batch slab, in plan order.
var batchBufs = []string{"lap.batch.c", "lap.batch.u", "lap.batch.v", "lap.batch.p", "lap.batch.way", "lap.batch.minv", "lap.batch.used"}

// batchBuffers are a batch slab's device buffers (BatchPlan).
type batchBuffers struct {
	C    driver.DevicePtr `buf:"lap.batch.c"`
	U    driver.DevicePtr `buf:"lap.batch.u"`
	V    driver.DevicePtr `buf:"lap.batch.v"`
	P    driver.DevicePtr `buf:"lap.batch.p"`
	Way  driver.DevicePtr `buf:"lap.batch.way"`
	MinV driver.DevicePtr `buf:"lap.batch.minv"`
	Used driver.DevicePtr `buf:"lap.batch.used"`
}

// BatchPlan is the device memory of a slab of k problems of r x c costs of
// elem bytes each (4: int32 or float32, 8: float64): the costs and, per
// problem, lap_n3's workspace (u: r+1 duals; v, minv: c+1 duals of 8
// bytes; p, way: c+1 int32; used: c+1 bytes).
func BatchPlan(k, r, c, elem int) cuda.Plan {
	kk, rr, cc := uint64(k), uint64(r), uint64(c)+1
	return cuda.Plan{What: fmt.Sprintf("cuda/fast batch of %d problems %dx%d", k, r, c), Buffers: []cuda.Buffer{
		{Name: batchBufs[0], Bytes: kk * rr * uint64(c) * uint64(elem)},
		{Name: batchBufs[1], Bytes: kk * 8 * (rr + 1)},
		{Name: batchBufs[2], Bytes: kk * 8 * cc},
		{Name: batchBufs[3], Bytes: kk * 4 * cc},
		{Name: batchBufs[4], Bytes: kk * 4 * cc},
		{Name: batchBufs[5], Bytes: kk * 8 * cc},
		{Name: batchBufs[6], Bytes: kk * cc},
	}}
}

// maxSlab bounds a slab (the launch's grid.x, and the problems whose
// results one download brings back).
const maxSlab = 1 << 20

// BatchSlab returns how many of count problems of r x c costs (elem bytes
// each) one slab holds: as many as fit free device memory (plus the bytes
// of batch buffers the device already holds, which are reused or freed
// first) less cuda.Reserve, at most maxSlab. The plan of that many passes
// cuda.Fits. It fails when not even one problem fits.
func BatchSlab(count, r, c, elem int, free uint64, held map[string]uint64) (int, error) {
	if count < 1 || r < 1 || c < r || (elem != 4 && elem != 8) {
		return 0, fmt.Errorf("batch slab: %d problems of %dx%d with %d-byte costs: want count >= 1, 1 <= rows <= cols and 4 or 8 bytes", count, r, c, elem)
	}
	per := BatchPlan(1, r, c, elem).Total()
	avail := free
	for _, name := range batchBufs {
		avail += held[name]
	}
	if avail < cuda.Reserve+per {
		return 0, fmt.Errorf("batch slab: %w", cuda.Fits(BatchPlan(1, r, c, elem), free, held))
	}
	k := int(min(uint64(count), uint64(maxSlab), (avail-cuda.Reserve)/per))
	for k > 1 && cuda.Fits(BatchPlan(k, r, c, elem), free, held) != nil {
		k-- // unreachable by the bound above; kept as a guard
	}
	if err := cuda.Fits(BatchPlan(k, r, c, elem), free, held); err != nil {
		return 0, fmt.Errorf("batch slab: %w", err)
	}
	return k, nil
}

// MaxBatchShared is the most dynamic shared memory a batch block takes
// without opting in: a problem whose workspace (BatchShared) fits it runs
// lap_n3_batch_shared*, else lap_n3_batch* with the workspace in global
// memory.
const MaxBatchShared = 48 << 10

// BatchShared is the dynamic shared memory of lap_n3_batch_shared* for one
// problem of r x c costs: u (r+1 duals of 8 bytes), v and minv (c+1 duals
// each), p and way (c+1 int32 each), the rows the greedy start left free
// (r+1 int32) and used (c+1 bytes).
func BatchShared(r, c int) int {
	w := c + 1
	return 8*(r+1) + 2*8*w + 2*4*w + 4*(r+1) + w
}

// batchKernel names the batch entry for costs of the kernel suffix ("",
// "_f32", "_f64") and whether it takes the workspace in shared memory
// (then shared is its dynamic shared memory), as BatchShared and
// opt.GlobalWorkspace decide.
func batchKernel(suffix string, r, c int, opt Options) (name string, shared int) {
	if s := BatchShared(r, c); s <= MaxBatchShared && !opt.GlobalWorkspace {
		return "lap_n3_batch_shared" + suffix, s
	}
	return "lap_n3_batch" + suffix, 0
}

// BatchGreedy reports whether the batch kernel starts square integer
// problems from its greedy matching: when their costs span at least as
// many values (hi - lo + 1) as there are columns. Measured on the H100
// (results/intel-xeon_nvidia-h100-80gb-hbm3/20261124-hungarian-batch-3.jsonl.gz
// against -2.jsonl), the greedy start shortened the solve at the paper's
// ranges n and 10n at every n and at range 0.1n up to n = 64, and
// lengthened it at n = 256, range 0.1n, where many ties leave the searches
// for the free rows long; at the ranges below n it is left out.
func BatchGreedy(values int64, cols int) bool { return values >= int64(cols) }

// Slabs splits count problems into consecutive ranges of at most per.
func Slabs(count, per int) []cuda.Range {
	if per < 1 {
		return nil
	}
	var out []cuda.Range
	for lo := 0; lo < count; lo += per {
		out = append(out, cuda.Range{Lo: lo, Hi: min(count, lo+per)})
	}
	return out
}

// BatchThreads is the block size of the batch kernels for c columns: the
// columns rounded up to a warp, from 32 to 256 threads (each thread scans
// the columns j = tid, tid + blockDim, ... of its problem's rows).
func BatchThreads(c int) int { return min(256, max(32, (c+31)/32*32)) }

// SolveBatch solves every problem of b on the GPU with the O(n^3) Hungarian
// (lap_n3's body), one thread block per problem, all problems of a slab in
// one launch: integer batches as int32 costs with int64 duals (lap_n3_batch;
// every cost must fit int32; square problems whose workspace fits shared
// memory and whose costs take at least as many values as columns
// (BatchGreedy) start from a greedy matching on the reduced costs, as
// cuda/fast starts a large problem, and search only for the rows it left
// free),
// float batches as float64 costs and duals (lap_n3_batch_f64). The batch is uploaded slab by slab (BatchSlab: as
// many problems as device memory holds, usually all of them), solved and
// downloaded; every result has duals. The results are not certified here:
// lap.CertifyBatch does it (with FloatTolerance for floats), outside the
// timing. Phases: check (float batches: the costs checked on the host, in
// one parallel pass, before any device work; integer batches are checked
// in the pass that converts and uploads them, solveIntBatch, in h2d), h2d,
// solve (CUDA events), d2h and results
// (the per-problem results built on the host); the window of total runs
// from the first slab's costs on the device (only their buffer allocated
// before it: the workspace is allocated, or reused from the last solve of
// the shape, inside it) to the last slab's results on the device, so with
// several slabs the later slabs' transfers fall inside it.
// Without a CUDA driver or device the error matches driver.ErrUnavailable.
func SolveBatch(ctx context.Context, b *lap.Batch, opt Options) (*lap.BatchOutput, error) {
	const impl = "cuda/fast batch"
	if b == nil {
		return nil, fmt.Errorf("%s: nil batch", impl)
	}
	out := &lap.BatchOutput{}
	if b.IsInt() {
		p, u, v, err := solveIntBatch(ctx, impl, b, opt)
		if isRange(err) {
			return solveWideBatch(ctx, impl, b, err, opt)
		}
		if err != nil {
			return nil, err
		}
		stop := opt.Rec.Start(PhaseResults)
		out.Int = make([]*lap.Result, b.Count)
		res := make([]lap.Result, b.Count)
		err = batchResults(b.Count, b.Rows, b.Cols, p, u, v, func(k int, a []int, u, v []int64) {
			m := b.Matrix(k)
			res[k] = lap.Result{Assignment: a, Cost: m.CostOf(a), U: u, V: v}
			out.Int[k] = &res[k]
		})
		stop()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", impl, b.Name, err)
		}
		return out, nil
	}
	stop := opt.Rec.Start(PhaseCheck)
	err := b.Validate()
	stop()
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", impl, b.Name, err)
	}
	res, err := SolveBatchFloat(ctx, b.Count, b.Rows, b.Cols, b.Float, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, err)
	}
	out.Float = res
	return out, nil
}

// solveIntBatch runs the integer batch b: each slab's costs are checked,
// converted and uploaded in one pass (scanUpload: in 16 bits where a
// chunk's costs fit, int32 otherwise), and the slab starts from the greedy
// matching when its costs take at least as many values as columns
// (BatchGreedy). A batch the fused upload cannot send as it is (a cost
// beyond int32 or beyond ±lap.MaxAbsCost), and any batch on a machine
// without a usable device, is scanned first (hostcost.ScanBatch) so that
// its refusal is worded, and never depends on a GPU.
func solveIntBatch(ctx context.Context, impl string, b *lap.Batch, opt Options) (p []int32, u, v []int64, err error) {
	if err := b.CheckShape(); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %s: %w", impl, b.Name, err)
	}
	if _, err := cuda.Open(opt.Device); err != nil {
		stop := opt.Rec.Start(PhaseCheck)
		_, serr := hostcost.ScanBatch(impl, b)
		stop()
		if serr != nil {
			return nil, nil, nil, serr
		}
	}
	s, lim := b.Size(), lap.MaxAbsCost(b.Cols)
	return batchRun[int32, int64](ctx, impl, b.Count, b.Rows, b.Cols, "",
		func(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, lo, hi int) (bool, error) {
			sc, err := scanUpload(t, dev, dst, b.Int[lo*s:hi*s], lim, math.MaxInt64)
			if errors.Is(err, errUnfused) {
				if _, serr := hostcost.ScanBatch(impl, b); serr != nil {
					return false, serr
				}
				return false, fmt.Errorf("%s: the fused upload refused costs the scan accepts (internal error)", impl)
			}
			return BatchGreedy(sc.Hi-sc.Lo+1, b.Cols), err
		}, opt)
}

// SolveBatchFloat solves count problems of rows x cols float costs (problem
// k at costs[k*rows*cols:]), float32 (lap_n3_batch_f32: the costs travel as
// they are and are widened exactly to double in the kernel) or float64
// (lap_n3_batch_f64), as SolveBatch does; the duals are float64. The costs
// must be finite (not checked here: lap.Batch.Validate checks them). The
// results are not certified here.
func SolveBatchFloat[C floatCost](ctx context.Context, count, rows, cols int, costs []C, opt Options) ([]*lap.FloatResult, error) {
	impl := "cuda/fast batch (float64)"
	suffix := "_f64"
	if elemBytes[C]() == 4 {
		impl, suffix = "cuda/fast batch (float32)", "_f32"
	}
	if count < 1 || rows < 1 || rows > cols || len(costs) != count*rows*cols {
		return nil, fmt.Errorf("%s: %w: %d values for %d problems of %dx%d (want rows <= cols)", impl, lap.ErrShape, len(costs), count, rows, cols)
	}
	s := rows * cols
	p, u, v, err := batchRun[C, float64](ctx, impl, count, rows, cols, suffix,
		func(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, lo, hi int) (bool, error) {
			return false, cuda.Upload(t, dev, dst, costs[lo*s:hi*s])
		}, opt)
	if err != nil {
		return nil, err
	}
	stop := opt.Rec.Start(PhaseResults)
	out, err := floatResults(count, rows, cols, costs, p, u, v)
	stop()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", impl, err)
	}
	return out, nil
}

// floatResults builds each problem's result from the downloaded columns
// and duals (batchResults), its cost summed in float64 from costs.
func floatResults[C floatCost](count, rows, cols int, costs []C, p []int32, u, v []float64) ([]*lap.FloatResult, error) {
	s := rows * cols
	out, res := make([]*lap.FloatResult, count), make([]lap.FloatResult, count)
	err := batchResults(count, rows, cols, p, u, v, func(k int, a []int, u, v []float64) {
		var cost float64
		for i, j := range a {
			cost += float64(costs[k*s+i*cols+j])
		}
		res[k] = lap.FloatResult{Assignment: a, Cost: cost, U: u, V: v}
		out[k] = &res[k]
	})
	return out, err
}

// batchResults turns the downloaded columns p (count x (c+1), 1-based rows)
// and duals u (count x (r+1)), v (count x (c+1)) into each problem's
// assignment and duals (leading slots dropped), in parallel, and hands them
// to set. The assignments share one allocation, and a goroutine takes
// problems a run of about 4,096 rows and columns at a time: a problem of
// 20x40 is a fraction of a microsecond's work, less than taking it alone
// (an atomic add, an allocation) costed.
func batchResults[D int64 | float64](count, r, c int, p []int32, u, v []D, set func(k int, a []int, u, v []D)) error {
	all := make([]int, count*r)
	w := c + 1
	run := max(1, 1<<12/(r+w))
	return lap.ForEachProblem(context.Background(), (count+run-1)/run, 0, func(q int) error {
		for k := q * run; k < min(count, (q+1)*run); k++ {
			a := all[k*r : (k+1)*r : (k+1)*r]
			if err := assignFromColumns(p[k*w:(k+1)*w], a); err != nil {
				return fmt.Errorf("problem %d: %w", k+1, err)
			}
			set(k, a, u[k*(r+1)+1:(k+1)*(r+1):(k+1)*(r+1)], v[k*w+1:(k+1)*w:(k+1)*w])
		}
		return nil
	})
}

// batchRun solves count problems with the batch kernel of cost type C and
// dual type D (entry suffix "", "_f32" or "_f64"; batchKernel picks the
// shared or the global workspace), slab by slab: upload(lo, hi) puts problems [lo, hi)'s costs
// at dst (h2d), one launch of a block per problem solves them (solve), and
// the columns and duals come back (d2h). It returns every problem's p, u
// and v arrays, concatenated.
func batchRun[C int32 | floatCost, D int64 | float64](ctx context.Context, impl string, count, r, c int, suffix string,
	upload func(t *driver.Thread, dev *cuda.Device, dst driver.DevicePtr, lo, hi int) (greedy bool, err error), opt Options) (p []int32, u, v []D, err error) {
	stop := opt.Rec.Start(PhaseH2D)
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", impl, err)
	}
	elem := elemBytes[C]()
	w := c + 1
	p, u, v = make([]int32, count*w), make([]D, count*(r+1)), make([]D, count*w)
	kernel, shared := batchKernel(suffix, r, c, opt)
	err = dev.Run(ctx, func(t *driver.Thread) error {
		fn, err := dev.Function(t, lapModule, kernel)
		if err != nil {
			return err
		}
		free, _, err := t.MemGetInfo()
		if err != nil {
			return err
		}
		per, err := BatchSlab(count, r, c, elem, free, dev.Held())
		if err != nil {
			return err
		}
		slabs := Slabs(count, per)
		s := dev.Stream()
		for si, sl := range slabs {
			if err := ctx.Err(); err != nil {
				return err
			}
			k := sl.Len()
			plan := BatchPlan(k, r, c, elem)
			if si > 0 {
				stop = opt.Rec.Start(PhaseH2D)
			}
			// Only the costs' buffer before the window (as stageInput does);
			// the workspace is allocated, or reused from the last solve of
			// the shape, inside it.
			if err := dev.Check(t, plan); err != nil {
				return err
			}
			costs, err := dev.Buffer(t, plan.Buffers[0].Name, plan.Buffers[0].Bytes)
			if err != nil {
				return err
			}
			greedy, err := upload(t, dev, costs, sl.Lo, sl.Hi)
			if err != nil {
				return err
			}
			stop()
			if si == 0 {
				opt.Rec.BeginTotal()
			}
			var b batchBuffers
			if err := dev.Allocate(t, plan, &b); err != nil {
				return err
			}
			for _, z := range []struct {
				ptr   driver.DevicePtr
				words int64
			}{{b.U, 2 * int64(k) * int64(r+1)}, {b.V, 2 * int64(k) * int64(w)}, {b.P, int64(k) * int64(w)}} {
				if err := t.MemsetD32Async(z.ptr, 0, z.words, s); err != nil {
					return err
				}
			}
			if err := dev.StartTimer(t); err != nil {
				return err
			}
			if shared > 0 {
				g := 0
				if greedy {
					g = 1
				}
				err = t.Launch(fn, driver.D1(k), driver.D1(BatchThreads(c)), shared, s, b.C, r, c, b.U, b.V, b.P, g)
			} else {
				err = t.Launch(fn, driver.D1(k), driver.D1(BatchThreads(c)), 0, s,
					b.C, r, c, b.U, b.V, b.P, b.Way, b.MinV, b.Used)
			}
			if err != nil {
				return err
			}
			d, err := dev.StopTimer(t)
			if err != nil {
				return err
			}
			opt.Rec.Add(PhaseSolve, d)
			if si == len(slabs)-1 {
				if err := t.StreamSynchronize(s); err != nil {
					return err
				}
				opt.Rec.EndTotal()
			}
			stopD := opt.Rec.Start(PhaseD2H)
			if err := cuda.Download(t, dev, p[sl.Lo*w:sl.Hi*w], b.P); err != nil {
				return err
			}
			if err := cuda.Download(t, dev, u[sl.Lo*(r+1):sl.Hi*(r+1)], b.U); err != nil {
				return err
			}
			if err := cuda.Download(t, dev, v[sl.Lo*w:sl.Hi*w], b.V); err != nil {
				return err
			}
			stopD()
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %d problems of %dx%d: %w", impl, count, r, c, err)
	}
	return p, u, v, nil
}
