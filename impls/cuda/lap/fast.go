package cudalap

import (
	"context"
	"fmt"
	"time"

	"github.com/semibench/semibench/impls/cpu/lap"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// PhaseAuction is cuda/fast's solve phase: every epsilon-scaling phase of
// the auction, timed with CUDA events.
const PhaseAuction = "auction"

// Launch shapes and limits of cuda/fast.
const (
	fastThreads = 512 // a block per bidder; one block per SM
	// FastTheta is the factor epsilon shrinks by between scaling phases.
	FastTheta = 6
	// fastMaxRounds bounds the rounds of one scaling phase (a guard: a
	// phase takes thousands at n = 8192).
	fastMaxRounds = 1 << 21
	// Bids are packed as bid << 24 | person, and a bid must
	// stay below 2^39 (kernels/lap.cu); fastSpanLimit keeps the scaled cost
	// span 8 times below that.
	fastSpanLimit = int64(1) << 36
	// FastMaxOrder is the most columns cuda/fast accepts (24-bit persons).
	FastMaxOrder = 1<<24 - 1
)

// FastPlan is the device memory of cuda/fast for an r x c instance.
func FastPlan(r, c int) cuda.Plan {
	n := uint64(c)
	return cuda.Plan{What: fmt.Sprintf("cuda/fast %dx%d", r, c), Buffers: []cuda.Buffer{
		{Name: "lap.c", Bytes: 4 * uint64(r) * n},
		{Name: "lap.fast.price", Bytes: 8 * n},
		{Name: "lap.fast.owner", Bytes: 4 * n},
		{Name: "lap.fast.assign", Bytes: 4 * n},
		{Name: "lap.fast.list", Bytes: 8 * n},
		{Name: "lap.fast.bidcol", Bytes: 8 * n},
		{Name: "lap.fast.bidval", Bytes: 8 * n},
		{Name: "lap.fast.board", Bytes: 16 * n},
		{Name: "lap.fast.ctl", Bytes: 64},
	}}
}

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

// FastStats are what one cuda/fast run did.
type FastStats struct {
	Phases int // epsilon-scaling phases
	Rounds int // bidding rounds, all phases
}

// Fast is cuda/fast: Bertsekas' forward auction with epsilon scaling on the
// GPU, exact on integer costs. The costs go to the device as int32, scaled
// there by K = c+1; each scaling phase is one cooperative launch of a
// persistent kernel (one block per SM) whose rounds need no launch: all
// unassigned rows bid at once (Jacobi), a block per bidder scanning its row
// for the best and second-best column, bids are posted with atomicMax,
// winners take their columns and evict the previous owners, and two grid
// barriers separate a round's bids, awards and the next. The last phase
// runs with epsilon 1 in the scaled units, below 1/c in the costs' own, so
// the assignment is optimal. With r < c the c - r missing rows are virtual
// rows of cost zero. The result has no duals (the prices satisfy epsilon
// complementary slackness only): lap.Agree with a certified result checks
// it. Phases: h2d, auction, d2h.
func Fast(ctx context.Context, m *lap.Matrix, opt Options) (*lap.Result, error) {
	res, _, err := FastWithStats(ctx, m, opt)
	return res, err
}

// FastWithStats is Fast returning its statistics as well.
func FastWithStats(ctx context.Context, m *lap.Matrix, opt Options) (*lap.Result, FastStats, error) {
	const impl = "cuda/fast"
	var st FastStats
	stop := opt.Rec.Start(PhaseH2D)
	c32, lo, hi, err := costs32(impl, m)
	if err != nil {
		return nil, st, err
	}
	r, n := m.Rows, m.Cols
	if n > FastMaxOrder {
		return nil, st, fmt.Errorf("%s: %w: %d columns, at most %d", impl, lap.ErrShape, n, FastMaxOrder)
	}
	if r < n {
		lo, hi = min(lo, 0), max(hi, 0) // the virtual rows' zeros
	}
	k := int64(n) + 1
	if hi-lo >= fastSpanLimit/k {
		return nil, st, fmt.Errorf("%s: %w: costs span %d..%d; times %d columns + 1 that exceeds 2^36, the range of the packed bids",
			impl, lap.ErrOverflow, lo, hi, n)
	}
	if n == 1 {
		stop()
		return &lap.Result{Assignment: []int{0}, Cost: m.C[0]}, st, nil
	}
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, st, fmt.Errorf("%s: %w", impl, err)
	}
	epsilons := FastEpsilons((hi - lo) * k)
	assign := make([]int32, n)
	err = dev.Run(ctx, func(t *driver.Thread) error {
		fns := map[string]driver.Function{}
		for _, name := range []string{"lap_auction_min", "lap_auction_init", "lap_auction_rounds"} {
			f, err := dev.Function(t, lapModule, name)
			if err != nil {
				return err
			}
			fns[name] = f
		}
		plan := FastPlan(r, n)
		if err := dev.Check(t, plan); err != nil {
			return err
		}
		ptr := map[string]driver.DevicePtr{}
		for _, b := range plan.Buffers {
			if ptr[b.Name], err = dev.Buffer(t, b.Name, b.Bytes); err != nil {
				return err
			}
		}
		s := dev.Stream()
		if err := t.MemsetD32Async(ptr["lap.fast.price"], 0, 2*int64(n), s); err != nil {
			return err
		}
		if err := t.MemsetD32Async(ptr["lap.fast.ctl"], 0, 16, s); err != nil {
			return err
		}
		if err := cuda.Upload(t, dev, ptr["lap.c"], c32); err != nil {
			return err
		}
		stop()
		// The least price (int64) sits in ctl's bytes 32..39.
		minp := ptr["lap.fast.ctl"].Add(32)
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
				ptr["lap.fast.price"], n, minp); err != nil {
				return err
			}
			if err := t.Launch(fns["lap_auction_init"], driver.D1(initBlocks), driver.D1(256), 0, s,
				ptr["lap.fast.price"], minp, n, ptr["lap.fast.owner"], ptr["lap.fast.assign"],
				ptr["lap.fast.list"], ptr["lap.fast.board"], ptr["lap.fast.ctl"]); err != nil {
				return err
			}
			if err := t.LaunchCooperative(fns["lap_auction_rounds"], driver.D1(dev.Props.SMs), driver.D1(fastThreads), 0, s,
				ptr["lap.c"], r, n, eps, fastMaxRounds, ptr["lap.fast.price"], ptr["lap.fast.owner"],
				ptr["lap.fast.assign"], ptr["lap.fast.list"], ptr["lap.fast.bidcol"], ptr["lap.fast.bidval"],
				ptr["lap.fast.board"], ptr["lap.fast.ctl"]); err != nil {
				return err
			}
			d, err := dev.StopTimer(t)
			if err != nil {
				return err
			}
			solve += d
			if err := driver.CopyFromDevice(t, ctl, ptr["lap.fast.ctl"]); err != nil {
				return err
			}
			switch {
			case ctl[5] == 1 || ctl[6] == 1:
				return fmt.Errorf("%w: an auction bid reached 2^39 in phase %d (epsilon %d)", lap.ErrOverflow, ph+1, eps)
			case ctl[5] == 2 || ctl[6] == 2:
				return fmt.Errorf("phase %d (epsilon %d) did not finish within %d rounds", ph+1, eps, fastMaxRounds)
			}
			st.Phases++
		}
		st.Rounds = int(ctl[7])
		opt.Rec.Add(PhaseAuction, solve)
		defer opt.Rec.Start(PhaseD2H)()
		return cuda.Download(t, dev, assign, ptr["lap.fast.assign"])
	})
	if err != nil {
		return nil, st, fmt.Errorf("%s %dx%d: %w", impl, r, n, err)
	}
	res := &lap.Result{Assignment: make([]int, r)}
	seen := make([]bool, n)
	for i := range r {
		j := int(assign[i])
		if j < 0 || j >= n || seen[j] {
			return nil, st, fmt.Errorf("%s %dx%d: row %d ended with column %d (unassigned or taken twice)", impl, r, n, i+1, j+1)
		}
		seen[j] = true
		res.Assignment[i] = j
	}
	res.Cost = m.CostOf(res.Assignment)
	return res, st, nil
}
