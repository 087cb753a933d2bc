package domination

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/minplus"
)

// DefaultK is the number of powers Algorithm 2 computes, 50 as the paper.
const DefaultK = 50

// ringBytes caps the memory of the powers kept beyond the two a product
// needs.
const ringBytes = 1 << 30

// DefaultImpl names the implementation the CLI uses unless told
// otherwise: Algorithm 2 on the sparse CPU product, A(D_m) being sparse.
const DefaultImpl = "cpu/sparse"

// Impl is one named implementation of Algorithms 1 to 5: the (min,+)
// product of Algorithm 2 and how Algorithms 3 to 5 read the powers. The
// backends (impls/cpu/domination, impls/cuda/domination) list theirs.
type Impl struct {
	Name    string       // "cpu/sparse", "cpu/whole-seq", "cuda/v4-gpu+cpu-par", ...
	Product minplus.Impl // Algorithm 2's product: its Mul on the host, or its Session on a device
	// Search is how Algorithms 3 to 5 read the powers: fingerprints (the
	// default) or, as the paper, whole matrices kept by Algorithm 2 (all K
	// powers in host memory, see MemoryNeededWhole).
	Search Search
	// Sequential runs the product on one thread (the paper's Table 5
	// version 1), whatever Options.Threads says.
	Sequential bool
	// NewDiffer opens the device on which SearchWholeDevice computes the
	// differences of Algorithms 3 and 4, for n x n powers, within opt's
	// memory limit (impls/cuda/minplus.NewDiffer); nil for every other
	// search.
	NewDiffer func(ctx context.Context, n int, opt minplus.SessionOptions) (minplus.Differ, error)
}

// FromProducts gives each product its implementation of Algorithms 1 to 5
// under the product's name, with the fingerprint search.
func FromProducts(ps []minplus.Impl) []Impl {
	out := make([]Impl, len(ps))
	for i, p := range ps {
		out[i] = Impl{Name: p.Name, Product: p}
	}
	return out
}

// onDevice reports whether the product keeps its powers on a device.
func (im Impl) onDevice() bool { return im.Product.NewSession != nil }

// ErrNoRecurrence is returned when K powers hold no repetition.
var ErrNoRecurrence = errors.New("no recurrence A^(r+a) = b ⊗ A^r within the powers computed")

// Options tune Analyze.
type Options struct {
	K       int  // powers of Algorithm 2 (0: DefaultK)
	Impl    Impl // the implementation (required)
	Threads int  // goroutines of the product (0: all CPUs)
	// StopAtRepetition ends Algorithm 2 at the first repetition of the
	// normalised power (n0 + a powers) instead of computing all K. Once that
	// repetition is checked exactly, Lemma 3 gives A^(k+a) = b ⊗ A^k for
	// every k >= n0, so Table 3's r0 for K powers is K - a, which R0 is set
	// to; unchecked, R0 stays n0.
	StopAtRepetition bool
	// MemoryLimit is the memory the matrices may use, on the host and, for
	// a product that keeps its powers on a device, on the device (0: the
	// memory available on this machine, and the device's free memory).
	MemoryLimit uint64
	// NoRecheck leaves a fingerprint match that Algorithm 2 could not check
	// entry by entry unchecked (Verified empty) instead of recomputing the
	// powers: for runs whose every fingerprint is compared with a reference
	// analysis that was checked exactly.
	NoRecheck bool
	// Rec receives the phases algorithm1 .. algorithm5 (nil: none).
	Rec *bench.Recorder
	// Window is the part of the run that Rec's window of total covers
	// (NoWindow: none, total is the whole call).
	Window Window
	// GPUs splits the powers of a product that keeps them on a device into
	// that many column slabs, one per GPU of this host (0: one); the CPU
	// products ignore it. OneDevice puts every slab on the first device
	// instead (to test the split on one GPU).
	GPUs      int
	OneDevice bool
	// CheckpointPath, when set, names Algorithm 2's checkpoint file (see
	// WriteCheckpoint for its format): a run that finds it resumes from the
	// power it holds; the run writes it after every CheckpointEvery powers
	// (0: only when stopping), and stops with ErrCheckpointed after writing
	// it at A^StopAfter (0: never) or at the first power completed at or
	// after Deadline (zero: none). A run that ends normally leaves the last
	// checkpoint in place. The whole-matrix searches take no checkpoints.
	CheckpointPath  string
	CheckpointEvery int
	StopAfter       int
	Deadline        time.Time
}

// checkpointing returns the checkpoint settings of o (nil without a path),
// refusing inconsistent ones.
func (o *Options) checkpointing() (*checkpointing, error) {
	if o.CheckpointPath == "" {
		if o.CheckpointEvery != 0 || o.StopAfter != 0 || !o.Deadline.IsZero() {
			return nil, errors.New("domination: CheckpointEvery, StopAfter and Deadline need a CheckpointPath")
		}
		return nil, nil
	}
	if o.CheckpointEvery < 0 || o.StopAfter < 0 {
		return nil, fmt.Errorf("domination: checkpoint every %d powers, stop after %d: need non-negative counts", o.CheckpointEvery, o.StopAfter)
	}
	if o.Impl.Search.whole() {
		return nil, fmt.Errorf("domination: %s: the whole-matrix search keeps every power in memory and takes no checkpoints", o.Impl.Name)
	}
	return &checkpointing{path: o.CheckpointPath, every: o.CheckpointEvery, after: o.StopAfter, deadline: o.Deadline}, nil
}

// Window names the part of a run that the Recorder's window of total
// (bench.Recorder.BeginTotal .. EndTotal) covers, the part the paper times.
// Algorithm 1 is outside every window: the paper builds A(D_m) once and
// takes it as "an input data for the remaining algorithms" (section 3), so
// the window opens with A(D_m) in host memory, on the CPU and the GPU
// alike.
type Window int

const (
	// NoWindow marks no window: total is the whole call, Algorithm 1
	// included.
	NoWindow Window = iota
	// WindowAlgorithm2 is Algorithm 2 as the paper's Table 2 times it (its
	// step 1, "initialize A(D_m)", inside): on the CPU the powers' memory,
	// the K-1 products and each power's summary (and the exact check of a
	// repetition still in the ring); on a GPU the session's allocation, the
	// upload of A in CSR and its scatter to the first power, the K-1
	// product launches and the K statistics passes, each synchronised, up
	// to the last power's statistics on the host. The powers stay on the
	// device; freeing them, and any exact check that downloads them, come
	// after the window.
	WindowAlgorithm2
	// WindowAlgorithms2to5 is the paper's Table 5 total running time, its
	// program "consecutive run Algorithms from 2 to 5" (section 4): the
	// window of WindowAlgorithm2 and then Algorithms 3, 4, the re-check
	// where one runs, and Algorithm 5. Only Analyze runs it.
	WindowAlgorithms2to5
)

// endAlgorithm2 closes the window at the end of Algorithm 2 when it is
// WindowAlgorithm2.
func (o *Options) endAlgorithm2() {
	if o.Window == WindowAlgorithm2 {
		o.Rec.EndTotal()
	}
}

// Power is what is kept of one power A^i, the same whichever product (CPU
// or GPU) computed it.
type Power struct {
	Min     int16 // the minimum entry (minplus.Inf when all are infinite)
	DiagMin int16 // the minimum of the diagonal: γ2(P_m □ C_i) when i >= 3
	DiagArg int32 // the first word where the diagonal reaches DiagMin
	Finite  bool  // no entry is infinite
	// Hash is the fingerprint of A^i - Min, infinite entries marked:
	// minplus.Stats.Fingerprint, which the GPU computes in place.
	Hash [2]uint64
}

// powerOf is the Power of an n x n matrix with statistics st.
func powerOf(n int, st minplus.Stats) Power {
	return Power{Min: st.Min, DiagMin: st.DiagMin, DiagArg: st.DiagArg,
		Finite: st.Finite == int64(n)*int64(n), Hash: st.Fingerprint()}
}

// Exception is an n below n0 where the closed formula does not hold.
type Exception struct {
	N       int // the cycle order
	Gamma2  int // γ2(P_m □ C_n)
	Formula int // ceil(b·n/a) + α_(n mod a)
}

// Analysis is the outcome of Algorithms 1 to 5 for one m.
type Analysis struct {
	M        int
	N        int    // rows of A(D_m): the number of correct m-words
	NNZ      int    // arcs of D_m
	K        int    // powers requested
	Computed int    // powers computed
	Impl     string // the name of Algorithm 2's product
	// Powers[i] describes A^i for 1 <= i <= Computed; Powers[0] is unused.
	Powers []Power
	R0     int // Algorithm 3: r0_m
	A      int // Algorithm 3: a_m
	B      int // Algorithm 3: b_m
	N0     int // Algorithm 4: n0_m
	// RepeatAt is the first i whose normalised power equals an earlier one
	// (found while Algorithm 2 ran): it is N0 + A.
	RepeatAt int
	// Verified says how the fingerprint match was re-checked exactly.
	Verified string
	// Gamma[n] is γ2(P_m □ C_n) for 3 <= n <= N0 + A - 1 (Algorithm 5).
	Gamma []int
	// Alpha[k] is α_k^m for k = n mod A (Table 6).
	Alpha []int
	// Exceptions lists the n in [3, N0) where the formula does not hold.
	Exceptions []Exception
	// Updates counts the (min,+) updates the products performed.
	Updates float64

	digraph *Digraph
	start2  time.Time // when Algorithm 2 began (for PhaseAlgorithms2to5)
	im      minplus.Impl
	op      *minplus.Operand
	// kept[i] is A^i for a whole-matrix search (kept[0] unused), scratch
	// the difference matrix of its comparisons on the host, differ the
	// device that computes them instead (SearchWholeDevice, while Algorithms
	// 3 and 4 run).
	kept    []*minplus.Dense
	scratch []int16
	differ  minplus.Differ
	ckpt    *checkpointing // nil: no checkpoints
}

// MemoryNeeded is the host memory, in bytes, that Algorithm 2 needs for m
// with the product p: two N x N int16 powers, plus a dense A(D_m) for the
// dense CPU products. The products that keep the powers on a device (their
// session checks its memory) need the two powers on the host only for the
// exact re-check.
func MemoryNeeded(m int, p minplus.Impl) (uint64, int, error) {
	n, err := Rows(m)
	if err != nil {
		return 0, 0, err
	}
	mats := uint64(2)
	if hostDense(p) {
		mats = 3
	}
	return mats * minplus.Bytes(n), n, nil
}

// hostDense reports whether the product multiplies on the host with A
// dense (cpu/paper, cpu/fast), so that Algorithm 2 holds a dense A(D_m).
func hostDense(p minplus.Impl) bool { return p.NewSession == nil && !p.Sparse }

func (o *Options) defaults() {
	if o.K == 0 {
		o.K = DefaultK
	}
	if o.Impl.Sequential {
		o.Threads = 1
	}
}

func (o *Options) memoryLimit() uint64 {
	if o.MemoryLimit > 0 {
		return o.MemoryLimit
	}
	if a := bench.AvailableMemory(); a > 0 {
		return a
	}
	return 8 << 30
}

// Analyze runs Algorithms 1 to 5 for P_m □ C_n: Powers, then Algorithm3,
// Algorithm4, Recheck (when the match was not checked while the powers ran)
// and Algorithm5, each timed into opt.Rec.
func Analyze(ctx context.Context, m int, opt Options) (*Analysis, error) {
	opt.defaults()
	an, err := powers(ctx, m, opt)
	if err != nil {
		return nil, err
	}
	if opt.Impl.Search.whole() {
		return an, an.searchWhole(ctx, opt)
	}
	stop := opt.Rec.Start("algorithm3")
	err = an.Algorithm3()
	stop()
	if err != nil {
		return nil, err
	}
	stop = opt.Rec.Start("algorithm4")
	err = an.Algorithm4()
	stop()
	if err != nil {
		return nil, err
	}
	if an.Verified == "" && !opt.NoRecheck {
		stop = opt.Rec.Start("recheck")
		err = an.Recheck(ctx, opt)
		stop()
		if err != nil {
			return nil, err
		}
	}
	if an.Computed < an.K && an.Verified != "" {
		an.R0 = an.K - an.A // Lemma 3, from the exact check (see StopAtRepetition)
	}
	stop = opt.Rec.Start("algorithm5")
	an.Algorithm5()
	stop()
	an.endAlgorithms2to5(opt)
	return an, nil
}

// SearchAgain runs Algorithms 3, 4 and 5 again on a copy of an, from the
// fingerprints, minima and diagonals that an's Algorithm 2 kept, and
// returns the copy: for a run that reads powers computed once by another
// (the experiments' run-wide store) and times only what it adds. Rec's
// window of total, opened and closed here, covers the three algorithms
// (phases algorithm3, algorithm4, algorithm5); the exact check of the
// repetition is an's (Verified), not repeated. an is not modified. It
// needs an analysis with the fingerprint search (a whole-matrix search
// has released its powers).
func (an *Analysis) SearchAgain(rec *bench.Recorder) (*Analysis, error) {
	if an.Computed == 0 || len(an.Powers) != an.Computed+1 {
		return nil, fmt.Errorf("domination: m = %d: no powers to search again", an.M)
	}
	c := *an
	c.A, c.B, c.R0, c.N0 = 0, 0, 0, 0
	c.Gamma, c.Alpha, c.Exceptions = nil, nil, nil
	c.kept, c.scratch, c.differ = nil, nil, nil
	rec.BeginTotal()
	stop := rec.Start("algorithm3")
	err := c.Algorithm3()
	stop()
	if err == nil {
		stop = rec.Start("algorithm4")
		err = c.Algorithm4()
		stop()
	}
	if err == nil {
		if c.Computed < c.K && c.Verified != "" {
			c.R0 = c.K - c.A // Lemma 3, as Analyze
		}
		stop = rec.Start("algorithm5")
		c.Algorithm5()
		stop()
	}
	rec.EndTotal()
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// endAlgorithms2to5 records the summary phase of Algorithms 2 to 5 and
// closes the window of WindowAlgorithms2to5.
func (an *Analysis) endAlgorithms2to5(opt Options) {
	opt.Rec.AddSummary(PhaseAlgorithms2to5, time.Since(an.start2))
	if opt.Window == WindowAlgorithms2to5 {
		opt.Rec.EndTotal()
	}
}

// searchWhole runs Algorithms 3 to 5 on the whole powers kept by
// Algorithm 2, each timed into opt.Rec, and releases the powers. With
// SearchWholeDevice the Differ is opened inside phase algorithm3 (the
// device memory allocated there, as the paper's version 3 pays for it) and
// closed at the end of phase algorithm4.
func (an *Analysis) searchWhole(ctx context.Context, opt Options) error {
	defer func() { an.kept, an.scratch = nil, nil }()
	threads := searchThreads(opt.Impl.Search, opt.Threads)
	stop := opt.Rec.Start("algorithm3")
	if opt.Impl.Search == SearchWholeDevice {
		d, err := opt.Impl.NewDiffer(ctx, an.N, minplus.SessionOptions{MemoryLimit: opt.MemoryLimit})
		if err != nil {
			stop()
			return fmt.Errorf("domination: m = %d: %s: %w", an.M, opt.Impl.Name, err)
		}
		an.differ = d
		defer func() {
			if an.differ != nil {
				_ = an.differ.Close() // after an error: that error is the one reported
				an.differ = nil
			}
		}()
	}
	err := an.Algorithm3Whole(ctx, threads)
	stop()
	if err != nil {
		return err
	}
	stop = opt.Rec.Start("algorithm4")
	err = an.Algorithm4Whole(ctx, threads)
	if err == nil && an.differ != nil {
		err = an.differ.Close()
		an.differ = nil
		if err != nil {
			err = fmt.Errorf("domination: m = %d: %s: %w", an.M, opt.Impl.Name, err)
		}
	}
	stop()
	if err != nil {
		return err
	}
	stop = opt.Rec.Start("algorithm5")
	err = an.Algorithm5Whole()
	stop()
	if err != nil {
		return err
	}
	an.endAlgorithms2to5(opt)
	return nil
}

// PhaseAlgorithms2to5 is the summary phase Analyze records in every window:
// the host clock from the start of Algorithm 2 to the end of Algorithm 5,
// the paper's Table 5 figure. It spans the phases algorithm2 .. algorithm5
// (and recheck), so it is kept beside the breakdown, not in it; with
// WindowAlgorithms2to5 it is total itself (less the window's two clock
// reads).
const PhaseAlgorithms2to5 = "algorithms2to5"

// Powers runs Algorithm 1 (A(D_m)) and Algorithm 2 (the powers, phases
// algorithm1 and algorithm2 of opt.Rec), refusing an m whose matrices do
// not fit in the memory at hand with the bytes needed. Its window may be
// NoWindow or WindowAlgorithm2.
func Powers(ctx context.Context, m int, opt Options) (*Analysis, error) {
	if opt.Window == WindowAlgorithms2to5 {
		return nil, fmt.Errorf("domination: m = %d: the window of Algorithms 2 to 5 needs Analyze, not Powers", m)
	}
	return powers(ctx, m, opt)
}

func powers(ctx context.Context, m int, opt Options) (*Analysis, error) {
	opt.defaults()
	if m < 2 {
		return nil, fmt.Errorf("domination: m = %d: the path P_m needs m >= 2", m)
	}
	if opt.K < 4 {
		return nil, fmt.Errorf("domination: K = %d powers: need at least 4", opt.K)
	}
	if opt.Impl.Name == "" || opt.Impl.Product.Mul == nil && opt.Impl.Product.NewSession == nil {
		return nil, fmt.Errorf("domination: m = %d: no implementation given (Options.Impl %q has no (min,+) product)", m, opt.Impl.Name)
	}
	if opt.GPUs < 0 {
		return nil, fmt.Errorf("domination: m = %d: --gpus %d: the number of GPUs must be positive", m, opt.GPUs)
	}
	ckpt, err := opt.checkpointing()
	if err != nil {
		return nil, err
	}
	prod := opt.Impl.Product
	need, n, err := MemoryNeeded(m, prod)
	if opt.Impl.Search.whole() {
		if opt.StopAtRepetition {
			return nil, fmt.Errorf("domination: m = %d: the paper's whole-matrix search needs all K powers, not StopAtRepetition", m)
		}
		if (opt.Impl.Search == SearchWholeDevice) != (opt.Impl.NewDiffer != nil) {
			return nil, fmt.Errorf("domination: m = %d: %s: the search on the device needs Impl.NewDiffer, and only it takes one", m, opt.Impl.Name)
		}
		need, n, err = MemoryNeededWhole(m, opt.K, prod, opt.Impl.Search)
	}
	if err != nil {
		return nil, fmt.Errorf("domination: %w", err)
	}
	limit := opt.memoryLimit()
	if need > limit || m > MaxM {
		return nil, fmt.Errorf("domination: m = %d: A(D_%d) has %d rows; its powers need %s (%d x %d int16 matrices), only %s available",
			m, m, n, byteText(need), n, n, byteText(limit))
	}

	an := &Analysis{M: m, N: n, K: opt.K, Impl: prod.Name, im: prod}
	stop := opt.Rec.Start("algorithm1")
	d, err := BuildThreads(m, opt.Threads)
	stop()
	if err != nil {
		return nil, fmt.Errorf("domination: algorithm 1: %w", err)
	}
	an.digraph, an.NNZ = d, d.A.NNZ()
	var resume *Checkpoint
	if ckpt != nil {
		an.ckpt = ckpt
		if _, err := os.Stat(ckpt.path); err == nil {
			if resume, err = ReadCheckpoint(ckpt.path, m, n, an.NNZ); err != nil {
				return nil, err
			}
			if resume.K() > opt.K {
				return nil, fmt.Errorf("domination: m = %d: checkpoint %s holds A^%d, beyond the K = %d powers asked", m, ckpt.path, resume.K(), opt.K)
			}
			ckpt.from = resume.K()
		}
	}
	an.start2 = time.Now()
	if opt.Window != NoWindow {
		opt.Rec.BeginTotal() // A(D_m) in host memory, as Algorithm 1 left it
	}
	if opt.Impl.onDevice() {
		if err := an.algorithm2Session(ctx, opt, resume); err != nil {
			return nil, err
		}
		return an, nil
	}
	im := prod
	op := &minplus.Operand{CSR: d.A}
	if !im.Sparse {
		op.Dense = d.Dense()
	}
	an.op = op

	// The ring buffer holds the last w powers: two at least (the product's
	// factor and result), more while they fit in a quarter of the spare
	// memory and in ringBytes, so that the exact re-check usually finds A^n0
	// still there (a_m <= 18 for m <= 12).
	w := 2
	if spare := limit - need; limit > need {
		w += int(min(uint64(opt.K), min(spare/4, ringBytes)/minplus.Bytes(n)))
	}
	w = min(w, opt.K)
	if opt.Impl.Search.whole() {
		w = opt.K + 1 // every power kept: ring[i] is A^i
	}
	if err := an.algorithm2(ctx, im, op, w, opt, resume); err != nil {
		return nil, err
	}
	return an, nil
}

// algorithm2 computes the powers A^1..A^K (or up to the first repetition),
// keeping per power its Power summary and the last w powers in a ring;
// from a checkpoint's A^k (resume non-nil) it goes on from there.
func (an *Analysis) algorithm2(ctx context.Context, im minplus.Impl, op *minplus.Operand, w int, opt Options, resume *Checkpoint) error {
	stop := opt.Rec.Start("algorithm2")
	defer func() { stop(); opt.endAlgorithm2() }()
	n := an.N
	ring := make([]*minplus.Dense, w)
	for i := range ring {
		ring[i] = &minplus.Dense{N: n, Data: make([]int16, n*n)}
	}
	first := 1
	seen := an.replay(resume, opt.K)
	if resume != nil {
		first = resume.K()
		ring[first%w] = resume.Power
	} else {
		ring[1%w] = an.digraph.Dense()
	}
	if opt.Impl.Search.whole() {
		an.kept = ring
		if opt.Impl.Search.hostDiff() {
			an.scratch = make([]int16, n*n)
		}
	}
	for i := first; i <= opt.K; i++ {
		cur := ring[i%w]
		if i > first {
			if err := im.Mul(ctx, cur, op, ring[(i-1)%w], opt.Threads, nil); err != nil {
				return fmt.Errorf("domination: m = %d: algorithm 2, power %d: %w", an.M, i, err)
			}
			an.Updates += im.Updates(n, an.NNZ)
		}
		p := summarize(cur, opt.Threads)
		if err := an.checkResumed(resume, i, p); err != nil {
			return err
		}
		j, ok := an.record(p, seen)
		if ok {
			if i-j < w && j >= first { // A^j still in the ring (and computed by this run)
				if err := exactShift(ring[i%w], ring[j%w], int(p.Min)-int(an.Powers[j].Min)); err != nil {
					return fmt.Errorf("domination: m = %d: A^%d and A^%d share a fingerprint but differ: %w", an.M, i, j, err)
				}
				an.Verified = fmt.Sprintf("A^%d = %d ⊗ A^%d checked entry by entry while Algorithm 2 ran", i, int(p.Min)-int(an.Powers[j].Min), j)
			}
			if opt.StopAtRepetition {
				break
			}
		}
		if err := an.checkpoint(i, i == opt.K, func() (*minplus.Dense, error) { return cur, nil }); err != nil {
			return err
		}
	}
	return nil
}

// record appends the next power's summary p and reports, at the first
// repetition of the normalised powers only, the earlier j with A^j's
// fingerprint (setting RepeatAt).
func (an *Analysis) record(p Power, seen map[[2]uint64]int) (int, bool) {
	an.Powers = append(an.Powers, p)
	an.Computed = len(an.Powers) - 1
	if an.RepeatAt != 0 {
		return 0, false
	}
	if j, ok := seen[p.Hash]; ok {
		an.RepeatAt = an.Computed
		return j, true
	}
	seen[p.Hash] = an.Computed
	return 0, false
}

// Recheck recomputes the powers up to n0 + a to compare A^(n0+a) with
// b ⊗ A^n0 exactly, for when A^n0 had left the ring buffer before the first
// repetition (Verified is empty after Algorithm4).
func (an *Analysis) Recheck(ctx context.Context, opt Options) error {
	if an.A == 0 {
		return fmt.Errorf("domination: m = %d: re-check before Algorithm 3", an.M)
	}
	if an.im.NewSession != nil {
		return an.recheckSession(ctx, opt)
	}
	im, op := an.im, an.op
	n := an.N
	keep := an.digraph.Dense()
	x, y := keep.Clone(), &minplus.Dense{N: n, Data: make([]int16, n*n)}
	for i := 2; i <= an.N0+an.A; i++ {
		if err := im.Mul(ctx, y, op, x, opt.Threads, nil); err != nil {
			return fmt.Errorf("domination: m = %d: re-check, power %d: %w", an.M, i, err)
		}
		x, y = y, x
		if i == an.N0 {
			keep = x.Clone()
		}
	}
	if err := exactShift(x, keep, an.B); err != nil {
		return fmt.Errorf("domination: m = %d: A^%d and A^%d share a fingerprint but differ: %w", an.M, an.N0+an.A, an.N0, err)
	}
	an.Verified = fmt.Sprintf("A^%d = %d ⊗ A^%d checked entry by entry after recomputing the powers", an.N0+an.A, an.B, an.N0)
	return nil
}

// exactShift checks x = c ⊗ y entry by entry, ∞ matching ∞, by bands of
// rows in parallel (m = 13 compares 1.7e10 entries).
func exactShift(x, y *minplus.Dense, c int) error {
	n := x.N
	threads := max(1, min(runtime.GOMAXPROCS(0), n/64))
	band := (n + threads - 1) / threads
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for t := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lo, hi := min(n*n, t*band*n), min(n*n, (t+1)*band*n)
			for i, v := range x.Data[lo:hi] {
				u := y.Data[lo+i]
				if (v >= minplus.Inf) != (u >= minplus.Inf) || v < minplus.Inf && int(v) != int(u)+c {
					errs[t] = fmt.Errorf("entry (%d, %d): %d vs %d + %d", (lo+i)/n, (lo+i)%n, v, u, c)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// summarize computes a power's minimum, diagonal minimum and fingerprint
// (the statistics the GPU computes in place), by bands of rows in parallel.
func summarize(d *minplus.Dense, threads int) Power {
	n := d.N
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = max(1, min(threads, n/64))
	band := (n + threads - 1) / threads
	parts := make([]minplus.Stats, threads)
	var wg sync.WaitGroup
	for t := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[t] = minplus.StatsRows(n, d.Data, min(n, t*band), min(n, (t+1)*band))
		}()
	}
	wg.Wait()
	st := parts[0]
	for _, p := range parts[1:] {
		st = st.Add(p)
	}
	return powerOf(n, st)
}

func byteText(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB (%d bytes)", float64(b)/(1<<30), b)
	case b >= 1<<20:
		return fmt.Sprintf("%.2f MiB (%d bytes)", float64(b)/(1<<20), b)
	}
	return fmt.Sprintf("%d bytes", b)
}
