package domination

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/domination"
	"github.com/semibench/semibench/problems/minplus"
)

// The powers of A(D_m), shared by the domination experiments of a run.
//
// Tables 2, 3, 4 and 6 all compute Algorithm 2's K = 50 (min,+) powers of
// A(D_m) on the same products, and Table 5 and the formula the powers up
// to the first repetition; at m = 10 on two cores each computation takes a
// minute or more. Through the run's store (Options.Shared) the powers of
// one (m, product, K or "to the first repetition") are computed once per
// run, as follows.
//
//   - The first cell of the run that needs them computes them, in its own
//     timed window, in every one of its repetitions, exactly as it would
//     without the store: its record is the measurement. When its runs are
//     done (Instance.Finish) its phases are kept with the powers.
//   - A later cell of Table 2 (window: Algorithm 2) or of Table 5 (window:
//     Algorithms 2-5, the powers to n0 + a, Algorithms 3-5 reading
//     fingerprints in microseconds), whose timed window is exactly that
//     computation, times nothing itself: its record reports the computing
//     cell's samples, copied and relabelled for its own window
//     (domination.PhasesFor), and names that cell in ReusedFrom. Powers computed
//     untimed (by the checks' reference, below) it measures itself, in
//     every repetition, and becomes their measurement.
//   - A later cell of Tables 3, 4 and 6 measures only what it adds:
//     Algorithms 3, 4 and 5 run again on the powers' fingerprints
//     (domination.Analysis.SearchAgain), its window of total covering those
//     three; the formula's measures only its witnesses. ReusedFrom names
//     the cell whose record holds the powers' time (or the reference that
//     computed them untimed). A formula cell on the reference's product
//     is, for the store, a cell of the K powers (they hold the first
//     repetition): it computes them or reads them, never both.
//   - The checks' reference (the K = 50 powers on cuda/sparse with a GPU,
//     cpu/sparse without) is the same piece of the store: a cell of that
//     product reads it or computes it as above; any other cell reads it
//     before its window opens (bench.Recorder.Untimed), computing it there,
//     untimed, when no cell has yet. Its exact re-check of the repetition
//     is done once, where it is first needed.
//
// The whole-matrix implementations (cpu/whole-*, Table 5's versions) keep
// every power in host memory and compute their own. Beyond the paper
// (m >= 13, cuda/sparse only) one analysis stopped at the first
// repetition serves every experiment under the same rules.

// domKey names the powers of A(D_m) by impl in the run's store: all K of
// Algorithm 2, to the first repetition (stop), or beyond the paper.
func domKey(m int, impl string, stop, beyond bool) string {
	switch {
	case beyond:
		return fmt.Sprintf("domination powers m=%d impl=%s to the first repetition, checked exactly", m, impl)
	case stop:
		return fmt.Sprintf("domination powers m=%d impl=%s to the first repetition", m, impl)
	}
	return fmt.Sprintf("domination powers m=%d impl=%s K=%d", m, impl, domination.DefaultK)
}

// domShared is a piece of the store: an analysis of A(D_m) (Algorithms 1
// to 5 on one product) and, once a cell has measured its powers, that
// cell's Key and phases.
type domShared struct {
	an *domination.Analysis
	by string // who computed an: a cell's Key, or the reference's description

	mu      sync.Mutex
	timedBy string            // the Key of the cell whose record holds the powers' time
	phases  []bench.Phase     // its phases
	window  domination.Window // the window of their total
}

// timed returns the cell whose record measured the powers, its phases and
// their window; "" when none has.
func (d *domShared) timed() (string, []bench.Phase, domination.Window) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.timedBy, d.phases, d.window
}

// publish keeps a computing cell's phases, unless another's are kept.
func (d *domShared) publish(cell string, phases []bench.Phase, w domination.Window) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timedBy != "" {
		return
	}
	d.timedBy, d.window = cell, w
	d.phases = make([]bench.Phase, len(phases))
	for i, p := range phases {
		p.SamplesMS = slices.Clone(p.SamplesMS)
		d.phases[i] = p
	}
}

// source is what a reusing cell's ReusedFrom names: the cell that measured
// the powers, or who computed them.
func (d *domShared) source() string {
	if by, _, _ := d.timed(); by != "" {
		return by
	}
	return d.by
}

// verify checks the analysis' repetition entry by entry once (Recheck) when
// the run that computed it left that to the reference (the GPU runs with
// NoRecheck); d.mu keeps it to one.
func (d *domShared) verify(ctx context.Context, impl string, opt experiments.Options) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.an.Verified != "" {
		return nil
	}
	im, err := impls.Domination.Lookup(impl)
	if err != nil {
		return err
	}
	return d.an.Recheck(ctx, domination.Options{Impl: im, Threads: opt.Threads, GPUs: opt.GPUs})
}

// domAnalysisBytes is about the memory an analysis keeps: A(D_m) in CSR
// and its words, the powers' summaries, and a dense A(D_m) for the dense
// host products.
func domAnalysisBytes(an *domination.Analysis, impl string) uint64 {
	b := uint64(an.NNZ)*8 + uint64(an.N)*uint64(an.M+24) + uint64(len(an.Powers))*32
	if im, err := impls.Domination.Lookup(impl); err == nil && im.Product.NewSession == nil && !im.Product.Sparse {
		b += minplus.Bytes(an.N)
	}
	return b
}

// domShareable reports whether impl's analyses may be shared: the
// fingerprint search on a product of several threads (not the paper's
// versions and whole-matrix searches, which keep their own powers).
func domShareable(impl string) bool {
	im, err := impls.Domination.Lookup(impl)
	return err == nil && im.Search == domination.SearchFingerprints && !im.Sequential
}

// dominationRef is the checks' reference analysis of m: the run's K = 50
// powers on dominationRefImpl, read from the store or computed there
// (untimed: no recorder) for by, its repetition checked exactly.
func dominationRef(ctx context.Context, m int, opt experiments.Options, by string) (*domination.Analysis, error) {
	impl := dominationRefImpl()
	d, _, _, err := experiments.Obtain(ctx, opt.Shared, domKey(m, impl, false, false), "the reference of "+by,
		func(ctx context.Context) (*domShared, uint64, error) {
			im, err := impls.Domination.Lookup(impl)
			if err != nil {
				return nil, 0, err
			}
			an, err := domination.Analyze(ctx, m, domination.Options{Impl: im, Threads: opt.Threads, GPUs: opt.GPUs})
			if err != nil {
				return nil, 0, fmt.Errorf("reference analysis (%s): %w", impl, err)
			}
			return &domShared{an: an, by: fmt.Sprintf("the reference analysis (%s, untimed) computed for %s", impl, by)}, domAnalysisBytes(an, impl), nil
		})
	if err != nil {
		return nil, err
	}
	if err := d.verify(ctx, impl, opt); err != nil {
		return nil, fmt.Errorf("reference analysis (%s): %w", impl, err)
	}
	return d.an, nil
}

// domWork is how the cells of one domination case use the run's shared
// powers (see the comment at the top of this file).
type domWork struct {
	exp    string
	m      int
	opt    experiments.Options
	stop   bool              // the powers to the first repetition, not all K
	beyond bool              // m beyond the paper: one cuda/sparse analysis, checked exactly, is the work and the reference
	window domination.Window // the window of a cell that computes the powers
	// figure marks an experiment whose timed window is exactly the powers'
	// computation: a reusing cell reports the computing cell's samples.
	figure bool
	// reuse is what a reusing cell of another experiment measures on the
	// analysis it read (Tables 3, 4, 6: SearchAgain); nil: nothing.
	reuse func(ctx context.Context, an *domination.Analysis, rec *bench.Recorder) (*domination.Analysis, error)
	// after runs in every repetition on the analysis read or computed
	// (the formula's witnesses); nil: the output is the analysis.
	after func(ctx context.Context, an *domination.Analysis, rec *bench.Recorder) (any, error)
	// metrics and input are the case's, filled from the reference.
	metrics map[string]float64
	input   *bench.Input

	mu    sync.Mutex
	cells map[string]*domCell // by impl
	ref   *domination.Analysis
}

// domCell is what one cell's repetitions do: read d (reused) or compute
// their own, d being then the piece they computed or measure.
type domCell struct {
	d      *domShared
	reused bool
}

func newDomWork(exp string, m int, opt experiments.Options) *domWork {
	return &domWork{exp: exp, m: m, opt: opt, metrics: map[string]float64{}, cells: map[string]*domCell{},
		input: &bench.Input{Generator: "domination", Description: fmt.Sprintf("A(D_%d): %d correct %d-words", m, dominationRows(m), m)}}
}

// self is a cell's Key.
func (w *domWork) self(impl string) string {
	return experiments.CellKey(w.exp, impl, dominationParams(w.m))
}

// cell returns impl's cell, nil before its first repetition.
func (w *domWork) cell(impl string) *domCell {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cells[impl]
}

// reference returns the case's reference analysis (dominationRef; beyond
// the paper, the shared analysis itself), filling the case's metrics and
// input from it the first time.
func (w *domWork) reference(ctx context.Context, impl string) (*domination.Analysis, error) {
	w.mu.Lock()
	ref := w.ref
	w.mu.Unlock()
	if ref != nil {
		return ref, nil
	}
	var err error
	if w.beyond {
		c := w.cell(impl)
		if c == nil {
			return nil, fmt.Errorf("domination: m = %d: no analysis", w.m)
		}
		ref = c.d.an
	} else if ref, err = dominationRef(ctx, w.m, w.opt, w.self(impl)); err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ref == nil {
		w.ref = ref
		maps.Copy(w.metrics, dominationMetrics(ref))
		*w.input = *dominationInput(ref)
	}
	return w.ref, nil
}

// compute runs impl's analysis of m in this cell's window, timed into rec.
func (w *domWork) compute(ctx context.Context, impl string, rec *bench.Recorder) (*domination.Analysis, error) {
	if w.beyond {
		if dominationRefImpl() != "cuda/sparse" {
			return nil, fmt.Errorf("%w: m = %d runs on cuda/sparse, and no CUDA device was found", experiments.ErrUnavailable, w.m)
		}
		im, err := impls.Domination.Lookup("cuda/sparse")
		if err != nil {
			return nil, err
		}
		an, err := domination.Analyze(ctx, w.m, domination.Options{Impl: im, Threads: w.opt.Threads, GPUs: w.opt.GPUs, StopAtRepetition: true, Rec: rec})
		if err != nil {
			return nil, fmt.Errorf("m = %d (cuda/sparse, stopped at the first repetition): %w", w.m, err)
		}
		return an, nil
	}
	// The whole-matrix searches (Table 5's versions) need all K powers.
	stop := w.stop && !w.onReference(impl)
	if im, err := impls.Domination.Lookup(impl); err == nil && im.Search != domination.SearchFingerprints {
		stop = false
	}
	return analyze(ctx, w.m, impl, w.opt, rec, w.window, stop)
}

// run is one repetition of a cell: the reference first, outside the
// timed window; then the powers, computed or read; then after.
func (w *domWork) run(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
	refKey := w.onReference(impl)
	if !w.beyond && !refKey {
		var err error
		rec.Untimed(func() { _, err = w.reference(ctx, impl) })
		if err != nil {
			return nil, err
		}
	}
	an, err := w.powers(ctx, impl, rec)
	if err != nil {
		return nil, experiments.MarkUnavailable(err)
	}
	if w.beyond {
		if _, err := w.reference(ctx, impl); err != nil { // the metrics, from the one analysis
			return nil, err
		}
	}
	if w.after == nil {
		return an, nil
	}
	return w.after(ctx, an, rec)
}

// key is the piece of the store impl's powers are: a formula cell on the
// reference's product computes or reads the reference's K powers, which
// hold the first repetition and everything the formula derives from it
// (n0, a, b, γ2 below n0 + a, the α): first at its m, it computes them in
// its window (they are then the reference, and Tables 3, 4 and 6 read
// them); else it reads them and times its witnesses. Its own powers to the
// first repetition would cost the run as much again as the reference at m
// = 12.
func (w *domWork) key(impl string) string {
	if w.onReference(impl) {
		return domKey(w.m, impl, false, false)
	}
	return domKey(w.m, impl, w.stop, w.beyond)
}

// onReference reports whether impl's cell works on the reference's K
// powers (key): the reference's product in the paper's range, and the
// cell one of all K powers or the formula's.
func (w *domWork) onReference(impl string) bool {
	return !w.beyond && impl == dominationRefImpl() && (!w.stop || !w.figure)
}

// powers is a repetition's analysis: computed in this cell's window (its
// first repetition through the store) or read from the store.
func (w *domWork) powers(ctx context.Context, impl string, rec *bench.Recorder) (*domination.Analysis, error) {
	if !domShareable(impl) {
		return w.compute(ctx, impl, rec)
	}
	key := w.key(impl)
	c := w.cell(impl)
	if c == nil {
		var mine *domination.Analysis
		self := w.self(impl)
		d, _, fresh, err := experiments.Obtain(ctx, w.opt.Shared, key, self,
			func(ctx context.Context) (*domShared, uint64, error) {
				an, err := w.compute(ctx, impl, rec)
				if err != nil {
					return nil, 0, err
				}
				mine = an
				return &domShared{an: an, by: self}, domAnalysisBytes(an, impl), nil
			})
		if err != nil {
			return nil, err
		}
		c = &domCell{d: d, reused: !fresh}
		if by, _, _ := d.timed(); !fresh && w.figure && by == "" {
			c.reused = false // computed untimed: this cell measures it
		}
		w.mu.Lock()
		w.cells[impl] = c
		w.mu.Unlock()
		if fresh {
			return mine, nil
		}
	}
	switch {
	case !c.reused:
		w.opt.Shared.CountComputed(key)
		return w.compute(ctx, impl, rec)
	case w.figure || w.reuse == nil:
		return c.d.an, nil
	}
	return w.reuse(ctx, c.d.an, rec)
}

// finish is the case's Instance.Finish: a computing cell's phases go to
// the store; a reusing cell names its source and, in a figure experiment,
// reports the source's samples.
func (w *domWork) finish(impl string, rec *bench.Record) {
	c := w.cell(impl)
	if c == nil || rec.Status != bench.StatusOK {
		return
	}
	if !c.reused {
		c.d.publish(rec.Key(), rec.Phases, w.window)
		return
	}
	rec.ReusedFrom = c.d.source()
	if _, phases, win := c.d.timed(); w.figure && phases != nil {
		rec.Phases = domination.PhasesFor(phases, win, w.window, rec.Statistic)
	}
}

// how says, for a check's detail, where a cell's powers came from.
func (w *domWork) how(impl string) string {
	c := w.cell(impl)
	switch {
	case c == nil || !c.reused:
		return "powers computed in this cell"
	case w.figure:
		return "powers computed once in this run, by " + c.d.source() + ": its samples, not recomputed"
	case w.after != nil:
		return "powers computed once in this run, by " + c.d.source() + "; this cell times only what follows them"
	}
	return "powers computed once in this run, by " + c.d.source() + "; this cell times Algorithms 3-5 on them"
}

// The notes of the domination tables on cells that read shared powers.
const (
	domReusedFigure = "Their samples are the named cell's, copied (the phase of its run that spans this table's window: Algorithm 2, or Algorithms 2-5 to n0 + a), not measured again here."
	domReusedSearch = "Their own samples time Algorithms 3-5 on the powers read (their window of total covers those three); an Algorithm 2 time marked † is the named cell's."
)
