package cudalap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
	"github.com/semibench/semibench/problems/lap"
)

// PhaseAuction is cuda/fast's solve phase: every epsilon-scaling phase of
// the auction, timed with CUDA events.
const PhaseAuction = "auction"

// Launch shapes and limits of cuda/fast.
const (
	fastThreads = 1024 // a block per bidder; one block per SM
	// Bids are packed as bid << 24 | person, and a bid must
	// stay below 2^39 (kernels/lap.cu); fastSpanLimit keeps the scaled cost
	// span 8 times below that.
	fastSpanLimit = int64(1) << 36
	// FastMaxOrder is the most columns cuda/fast accepts (24-bit persons).
	FastMaxOrder = 1<<24 - 1
)

// FastTheta is the factor epsilon shrinks by between scaling phases (a
// variable so that tests can compare others).
var FastTheta int64 = 6

// fastWarmStart keeps, at the start of each scaling phase, the assignments
// that satisfy the new epsilon (tests compare it with a cold start).
var fastWarmStart = true

// FastPlan is the device memory of cuda/fast for an r x c instance.
func FastPlan(r, c int) cuda.Plan {
	n := uint64(c)
	return cuda.Plan{What: fmt.Sprintf("cuda/fast %dx%d", r, c), Buffers: []cuda.Buffer{
		{Name: "lap.c", Bytes: 4 * uint64(r) * n},
		{Name: "lap.fast.word", Bytes: 8 * n},
		{Name: "lap.fast.queue", Bytes: 4 * n},
		{Name: "lap.fast.assign", Bytes: 4 * n},
		{Name: "lap.fast.ctl", Bytes: 64},
	}}
}

// fastBuffers are cuda/fast's auction buffers (FastPlan).
type fastBuffers struct {
	C      driver.DevicePtr `buf:"lap.c"`
	Word   driver.DevicePtr `buf:"lap.fast.word"`
	Queue  driver.DevicePtr `buf:"lap.fast.queue"`
	Assign driver.DevicePtr `buf:"lap.fast.assign"`
	Ctl    driver.DevicePtr `buf:"lap.fast.ctl"`
}

// fastAugmentPlan is the device memory of cuda/fast's augmenting strategy
// for an r x c instance: N3Plan and the free rows left by the greedy
// matching (bound to n3Buffers).
func fastAugmentPlan(r, c int) cuda.Plan {
	plan := N3Plan(r, c)
	plan.What = fmt.Sprintf("cuda/fast %dx%d", r, c)
	plan.Buffers = append(plan.Buffers, cuda.Buffer{Name: "lap.fast.order", Bytes: 4 * uint64(r)})
	return plan
}

// fastMaxBids bounds the bids of one scaling phase (a guard against a
// kernel that never ends; a phase takes a few times n).
func fastMaxBids(n int) int { return min(1<<30, 10_000_000+2000*n) }

// FastEpsilons returns the epsilon of each scaling phase for scaled costs
// spanning span (the largest minus the least, costs times c+1): span/θ,
// span/θ², ..., down to 1, the last (θ = FastTheta).
func FastEpsilons(span int64) []int64 {
	eps := max(1, span/FastTheta)
	out := []int64{eps}
	for eps > 1 {
		eps = max(1, eps/FastTheta)
		out = append(out, eps)
	}
	return out
}

// The strategies of cuda/fast.
const (
	// StrategyHungarian: cuda/paper's block-distributed Hungarian with
	// step 4 driven for speed (paperTuned: queued launches that skip
	// themselves on the device, quiet blocks lingering for other blocks'
	// uncoverings). Its result has duals.
	StrategyHungarian = "hungarian"
	// StrategyForest: cuda/paper's steps 1 and 2 (reductions, initial
	// matching), then the forest search (kernels/lap_forest.cu): the
	// Hungarian method's alternating forest grown breadth first from every
	// free column at once, with implicit slacks and one least slack per
	// row, in one cooperative launch. Its result has duals. It holds the
	// same spans as StrategyHungarian.
	StrategyForest = "forest"
	// StrategyAuction: the asynchronous auction with epsilon scaling.
	StrategyAuction = "auction"
	// StrategyAugment: column and row reduction and a greedy matching on
	// the zeros on the device, then lap_n3's shortest augmenting paths for
	// the rows left free. Measured slower than StrategyHungarian on every
	// instance of the paper's sizes (NOTES.md), so only a forced choice
	// (tests and comparisons) runs it.
	StrategyAugment = "augment"
	// StrategyFloat64: integer costs the int32 device paths cannot hold
	// (a cost beyond int32, or a span beyond the packed bids) solved
	// exactly by the float64 O(n^3) Hungarian (solveWide); its result has
	// duals.
	StrategyFloat64 = "float64"
)

// forestMaxOrder is the largest order cuda/fast gives the forest search
// unforced: its blocks own up to 1024 rows each, one block per
// multiprocessor, so 16 multiprocessors hold it.
const forestMaxOrder = 16384

// fastStrategy, when not empty, forces a strategy (tests compare them).
var fastStrategy string

// fastChoose picks the strategy for an r x c instance whose costs span
// span, from the H200 measurements in NOTES.md. Where the int32 slacks
// hold the span and the int32 positions the order: the forest search up to
// order 2048 and, up to forestMaxOrder, where the span is at least c/4
// (1.6-3.0x faster than the tuned Hungarian at ranges n and 10n, n = 512
// to 8192); the tuned Hungarian at narrower spans of larger orders (1.2x
// faster than the forest at n = 8192, range 0.1n), and beyond
// forestMaxOrder (not measured). The auction beyond the slacks (its packed
// bids hold spans up to 2^36/(c+1)).
func fastChoose(r, c int, span int64) string {
	if fastStrategy != "" {
		return fastStrategy
	}
	if c <= MaxPaperOrder && span <= (math.MaxInt32-1)/(int64(c)+1) {
		if c <= forestMaxOrder && (c <= 2048 || 4*span >= int64(c)) {
			return StrategyForest
		}
		return StrategyHungarian
	}
	return StrategyAuction
}

// PhaseReduce is the augmenting strategy's first phase: the reductions, the
// greedy matching and the list of free rows.
const PhaseReduce = "reduce"

// fastAugment is cuda/fast's augmenting strategy (see StrategyAugment). Its
// result has the duals. stop ends the h2d phase.
func fastAugment(ctx context.Context, m *lap.Matrix, opt Options, w hostcost.Width, stop func()) (*lap.Result, error) {
	const impl = "cuda/fast"
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", impl, err)
	}
	r, c := m.Rows, m.Cols
	res := &lap.Result{Assignment: make([]int, r), U: make([]int64, r+1), V: make([]int64, c+1)}
	err = dev.Run(ctx, func(t *driver.Thread) error {
		plan := fastAugmentPlan(r, c)
		if err := stageInput(t, dev, plan, "lap.c", m, 0, w); err != nil {
			return err
		}
		stop()
		opt.Rec.BeginTotal()
		fns := map[string]driver.Function{}
		for _, name := range []string{"lap_n3", "lap_colmin", "lap_rowmin_greedy"} {
			f, err := dev.Function(t, lapModule, name)
			if err != nil {
				return err
			}
			fns[name] = f
		}
		var b n3Buffers
		if err := dev.Allocate(t, plan, &b); err != nil {
			return err
		}
		s := dev.Stream()
		t0 := time.Now()
		vInit := uint32(0)
		if r == c {
			vInit = 0x7fffffff // column minima start high
		}
		if err := t.MemsetD32Async(b.V, vInit, 2*int64(c+1), s); err != nil {
			return err
		}
		if err := t.MemsetD32Async(b.P, 0, int64(c+1), s); err != nil {
			return err
		}
		if r == c {
			if err := t.Launch(fns["lap_colmin"], driver.D2((c+255)/256, min(r, 64)), driver.D1(256), 0, s,
				b.C, r, c, b.V); err != nil {
				return err
			}
		}
		if err := t.Launch(fns["lap_rowmin_greedy"], driver.D1(min(r, 8*dev.Props.SMs)), driver.D1(256), 0, s,
			b.C, r, c, b.V, b.U, b.P); err != nil {
			return err
		}
		p := make([]int32, c+1)
		if err := driver.CopyFromDevice(t, p, b.P); err != nil {
			return err
		}
		matched := make([]bool, r)
		for _, i := range p[1:] {
			if i > 0 {
				matched[i-1] = true
			}
		}
		var order []int32
		for i, ok := range matched {
			if !ok {
				order = append(order, int32(i+1))
			}
		}
		if len(order) > 0 {
			if err := driver.CopyToDevice(t, b.Order, order); err != nil {
				return err
			}
		}
		opt.Rec.Add(PhaseReduce, time.Since(t0))
		if err := n3Augment(ctx, t, dev, fns["lap_n3"], &b, r, c, len(order), b.Order, opt); err != nil {
			return err
		}
		if err := t.StreamSynchronize(s); err != nil {
			return err
		}
		opt.Rec.EndTotal()
		return n3Download(t, dev, &b, res, opt)
	})
	if err != nil {
		return nil, fmt.Errorf("%s %dx%d: %w", impl, r, c, err)
	}
	res.U, res.V = res.U[1:], res.V[1:]
	res.Cost = m.CostOf(res.Assignment)
	return res, nil
}

// FastStats are what one cuda/fast run did.
type FastStats struct {
	Strategy string // StrategyAuction or StrategyAugment
	Phases   int    // epsilon-scaling phases
	Bids     int    // bids computed (those that lost a race included), all phases
}

// fastFused is cuda/fast's usual path: the Hungarian (StrategyHungarian),
// its costs checked, converted and uploaded in one pass (scanUpload) and
// shifted by their least on the device. ok is false, with nothing solved,
// when the instance needs another path (a forced strategy, an order the
// Hungarian does not take, a refusal to word, costs beyond the fused
// upload's int32 or beyond the Hungarian's span, or no device: FastWithStats
// then scans first, so that a refusal never depends on a GPU); the time
// spent here stays in the h2d phase.
func fastFused(ctx context.Context, m *lap.Matrix, opt Options, stop func()) (res *lap.Result, strategy string, ok bool, err error) {
	if (fastStrategy != "" && fastStrategy != StrategyForest && fastStrategy != StrategyHungarian) || m == nil || m.CheckShape() != nil || m.Cols < 2 || m.Cols > min(MaxPaperOrder, FastMaxOrder) {
		return nil, "", false, nil
	}
	if _, err := cuda.Open(opt.Device); err != nil {
		return nil, "", false, nil
	}
	lim, n := lap.MaxAbsCost(m.Cols), int64(m.Cols)
	maxSpan := (math.MaxInt32 - 1) / (n + 1) // checkPaperSpan's and fastChoose's bound
	res, _, err = solvePaperStaged(ctx, m, opt, paperTuned, stop, func(t *driver.Thread, dev *cuda.Device, plan cuda.Plan, d *paperDesign) (int64, error) {
		dst, err := planBuffer(t, dev, plan, d.costsBuffer())
		if err != nil {
			return 0, err
		}
		sc, err := scanUpload(t, dev, dst, m.C, lim, maxSpan)
		if err != nil {
			return 0, err
		}
		span := paperSpan(m, sc.Lo, sc.Hi)
		switch fastChoose(m.Rows, m.Cols, span) {
		case StrategyHungarian:
		case StrategyForest:
			*d = paperForest
		default:
			return 0, errUnfused
		}
		d.setSpan(m.Rows, m.Cols, span)
		strategy = d.strategy()
		if sc.Lo != 0 {
			if err := shiftCosts(t, dev, dst, len(m.C), sc.Lo); err != nil {
				return 0, err
			}
		}
		return sc.Lo, nil
	})
	if errors.Is(err, errUnfused) {
		return nil, "", false, nil
	}
	return res, strategy, true, err
}

// shiftCosts subtracts d from the k int32 costs at c on the device
// (lap_shift32), synchronised.
func shiftCosts(t *driver.Thread, dev *cuda.Device, c driver.DevicePtr, k int, d int64) error {
	fn, err := dev.Function(t, lapModule, "lap_shift32")
	if err != nil {
		return err
	}
	s := dev.Stream()
	if err := t.Launch(fn, driver.D1(widenBlocks(k)), driver.D1(256), 0, s, c, int64(k), int32(d)); err != nil {
		return fmt.Errorf("costs shift: %w", err)
	}
	return t.StreamSynchronize(s)
}

// Fast is cuda/fast: Bertsekas' forward auction with epsilon scaling on the
// GPU, asynchronous, exact on integer costs. The costs go to the device as
// int32, scaled there by K = c+1; each scaling phase is one cooperative
// launch of a persistent kernel (one block per SM) with no rounds and no
// grid barriers: each block takes an unassigned row from a ring queue,
// scans it with all its threads for the best and second-best column at the
// current prices, and places its bid with one compare-and-swap on the
// column's packed (price, owner) word, pushing the row it evicts; a bid
// that lost a race to a higher one is recomputed. The phase ends when every
// column has an owner. A phase starts warm: the assignments of the last
// that still satisfy epsilon complementary slackness for the new epsilon
// are kept, and only the other rows bid. The last phase runs with epsilon 1 in the scaled
// units, below 1/c in the costs' own, so the assignment is optimal. With
// r < c the c - r missing rows are virtual rows of cost zero. The result
// has no duals (the prices satisfy epsilon complementary slackness only):
// lap.Agree with a certified result checks it. Phases: h2d, auction, d2h.
//
// Where int32 slacks hold the costs, Fast takes a Hungarian instead (see
// fastChoose): the forest search (StrategyForest: cuda/paper's steps 1 and
// 2, then kernels/lap_forest.cu) up to order 2048 and wherever the span is
// at least c/4, else the tuned block-distributed Hungarian
// (StrategyHungarian); either result has duals, and the phases are
// cuda/paper's (PaperSteps; the forest's steps 3 to 6 are PhaseForest).
// Either stages the costs as they are in the slack matrix, whose
// column-major reading is the transposed instance (no transpose runs),
// runs step 1 in two kernels (paperDesign's transposed and fused) and,
// on square instances whose span is at most c/4, finds a maximum
// matching of step 1's zeros (kernels/lap_match.cu) in place of step 2.
func Fast(ctx context.Context, m *lap.Matrix, opt Options) (*lap.Result, error) {
	res, _, err := FastWithStats(ctx, m, opt)
	return res, err
}

// FastWithStats is Fast returning its statistics as well.
func FastWithStats(ctx context.Context, m *lap.Matrix, opt Options) (*lap.Result, FastStats, error) {
	const impl = "cuda/fast"
	var st FastStats
	stop := opt.Rec.Start(PhaseH2D)
	if res, strategy, ok, err := fastFused(ctx, m, opt, stop); ok {
		st.Strategy = strategy
		return res, st, err
	}
	sc, err := hostcost.ScanMatrix(impl, m)
	if err != nil {
		return nil, st, err
	}
	lo, hi := sc.Lo, sc.Hi
	r, n := m.Rows, m.Cols
	if n == 1 {
		stop()
		return &lap.Result{Assignment: []int{0}, Cost: m.C[0]}, st, nil
	}
	wide := func(why string) (*lap.Result, FastStats, error) {
		stop()
		st.Strategy = StrategyFloat64
		res, err := solveWide(ctx, impl, m, why, opt)
		return res, st, err
	}
	if k := sc.Wide; k >= 0 {
		return wide(fmt.Sprintf("cost %d at row %d, column %d is beyond int32, the device's integer cost type", m.C[k], k/n+1, k%n+1))
	}
	if n > FastMaxOrder {
		return nil, st, fmt.Errorf("%s: %w: %d columns, at most %d", impl, lap.ErrShape, n, FastMaxOrder)
	}
	if r < n {
		lo, hi = min(lo, 0), max(hi, 0) // the virtual rows' zeros
	}
	k := int64(n) + 1
	if hi-lo >= fastSpanLimit/k {
		return wide(fmt.Sprintf("costs span %d..%d, which times %d columns + 1 exceeds 2^36, the range of the auction's packed bids", lo, hi, n))
	}
	st.Strategy = fastChoose(r, n, hi-lo)
	if st.Strategy == StrategyHungarian {
		// The scan above is the Hungarian's too: it goes on in h2d.
		res, _, err := solvePaperScanned(ctx, m, sc, opt, paperTuned, stop)
		return res, st, err
	}
	if st.Strategy == StrategyForest {
		res, _, err := solvePaperScanned(ctx, m, sc, opt, paperForest, stop)
		return res, st, err
	}
	if st.Strategy == StrategyAugment {
		res, err := fastAugment(ctx, m, opt, sc.Width(0), stop)
		return res, st, err
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, st, fmt.Errorf("%s: %w", impl, err)
	}
	epsilons := FastEpsilons((hi - lo) * k)
	words := make([]uint64, n)
	err = dev.Run(ctx, func(t *driver.Thread) error {
		plan := FastPlan(r, n)
		if err := stageInput(t, dev, plan, "lap.c", m, 0, sc.Width(0)); err != nil {
			return err
		}
		stop()
		opt.Rec.BeginTotal()
		fns := map[string]driver.Function{}
		for _, name := range []string{"lap_auction_min", "lap_auction_init", "lap_auction_check", "lap_auction_async"} {
			f, err := dev.Function(t, lapModule, name)
			if err != nil {
				return err
			}
			fns[name] = f
		}
		var b fastBuffers
		if err := dev.Allocate(t, plan, &b); err != nil {
			return err
		}
		s := dev.Stream()
		if err := t.MemsetD32Async(b.Word, 0, 2*int64(n), s); err != nil {
			return err
		}
		if err := t.MemsetD32Async(b.Ctl, 0, 16, s); err != nil {
			return err
		}
		// The least price (int64) sits in ctl's bytes 32..39.
		minp := b.Ctl.Add(32)
		initBlocks := min((n+255)/256, 4*dev.Props.SMs)
		ctl := make([]int32, 16)
		var solve time.Duration
		for ph, eps := range epsilons {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := dev.StartTimer(t); err != nil {
				return err
			}
			if err := t.Launch(fns["lap_auction_min"], driver.D1(1), driver.D1(1024), 0, s,
				b.Word, n, minp); err != nil {
				return err
			}
			if err := t.MemsetD32Async(b.Assign, 0xffffffff, int64(n), s); err != nil {
				return err
			}
			if err := t.Launch(fns["lap_auction_init"], driver.D1(initBlocks), driver.D1(256), 0, s,
				b.Word, minp, n, b.Assign, b.Queue, b.Ctl); err != nil {
				return err
			}
			keep := eps // a cold start (every row bids in every phase) keeps nothing
			if !fastWarmStart {
				keep = -1
			}
			if err := t.Launch(fns["lap_auction_check"], driver.D1(min(n, 8*dev.Props.SMs)), driver.D1(256), 0, s,
				b.C, r, n, keep, b.Word, b.Assign, b.Queue, b.Ctl); err != nil {
				return err
			}
			if err := t.LaunchCooperative(fns["lap_auction_async"], driver.D1(dev.Props.SMs), driver.D1(fastThreads), 0, s,
				b.C, r, n, eps, fastMaxBids(n), b.Word, b.Queue, b.Ctl); err != nil {
				return err
			}
			d, err := dev.StopTimer(t)
			if err != nil {
				return err
			}
			solve += d
			if err := driver.CopyFromDevice(t, ctl, b.Ctl); err != nil {
				return err
			}
			switch ctl[4] {
			case 1:
				return fmt.Errorf("%w: an auction bid reached 2^39 in phase %d (epsilon %d)", lap.ErrOverflow, ph+1, eps)
			case 2:
				return fmt.Errorf("phase %d (epsilon %d) did not finish within %d bids", ph+1, eps, fastMaxBids(n))
			}
			if int(ctl[2]) != n {
				return fmt.Errorf("phase %d (epsilon %d) ended with %d of %d columns owned", ph+1, eps, ctl[2], n)
			}
			st.Phases++
			st.Bids += int(ctl[5])
		}
		opt.Rec.Add(PhaseAuction, solve)
		if err := t.StreamSynchronize(s); err != nil {
			return err
		}
		opt.Rec.EndTotal()
		defer opt.Rec.Start(PhaseD2H)()
		return cuda.Download(t, dev, words, b.Word)
	})
	if err != nil {
		return nil, st, fmt.Errorf("%s %dx%d: %w", impl, r, n, err)
	}
	res := &lap.Result{Assignment: make([]int, r)}
	for i := range res.Assignment {
		res.Assignment[i] = -1
	}
	for j, w := range words {
		i := int(w&(1<<24-1)) - 1
		if i < 0 || i >= n {
			return nil, st, fmt.Errorf("%s %dx%d: column %d ended with owner %d", impl, r, n, j+1, i+1)
		}
		if i < r {
			if res.Assignment[i] >= 0 {
				return nil, st, fmt.Errorf("%s %dx%d: row %d owns columns %d and %d", impl, r, n, i+1, res.Assignment[i]+1, j+1)
			}
			res.Assignment[i] = j
		}
	}
	for i, j := range res.Assignment {
		if j < 0 {
			return nil, st, fmt.Errorf("%s %dx%d: row %d ended unassigned", impl, r, n, i+1)
		}
	}
	res.Cost = m.CostOf(res.Assignment)
	return res, st, nil
}
