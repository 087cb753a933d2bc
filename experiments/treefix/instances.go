package treefix

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/problems/treefix"
)

// The trees of treefix/table1, fig4, fig6 and fig7, built and prepared once
// per run (Shared).

// treeShared is a tree as its builder made it (a stand-in, a SuiteSparse
// spanning tree, a star, a caterpillar), shared by treefix/table1, fig4,
// fig6 and fig7: read-only, its digest computed when first asked.
type treeShared struct {
	tr   *trees.Tree
	once sync.Once
	hash string

	shapeOnce sync.Once
	st        trees.Stats
	stErr     error
}

// digest is the tree's content digest.
func (t *treeShared) digest() string {
	t.once.Do(func() { t.hash = t.tr.Hash() })
	return t.hash
}

// shape is the tree's shape (depth, widths), the same in every numbering:
// computed once (a breadth-first pass, 2-4 s at 2^24 vertices).
func (t *treeShared) shape() (trees.Stats, error) {
	t.shapeOnce.Do(func() { t.st, t.stErr = trees.ShapeStats(t.tr.Parent) })
	return t.st, t.stErr
}

// treeRaw returns the run's tree of spec, building it when no case has yet.
func treeRaw(ctx context.Context, opt experiments.Options, spec treeSpec) (*treeShared, error) {
	t, _, _, err := experiments.Obtain(ctx, opt.Shared, "tree "+spec.key, "a treefix case's setup", func(ctx context.Context) (*treeShared, uint64, error) {
		tr, err := spec.build()
		if err != nil {
			return nil, 0, fmt.Errorf("tree %s: %w", spec.name, err)
		}
		return &treeShared{tr: tr}, uint64(tr.N()) * 12, nil
	})
	return t, err
}

// treePrepared is a timed treefix instance: the tree of a spec renumbered
// and weighted (integers in {-1, 0, 1}), its shape, its CSR and
// Euler-tour vector (each build timed once, here), the float32 weights and
// the int64 reference of +Rootfix, and its digest; shared by
// treefix/table1 and fig4 (breadth-first numbering) and fig7.
type treePrepared struct {
	tr           *trees.Tree
	st           trees.Stats
	pt           *treefix.Tree
	vec          *treefix.Vector
	w            []float32
	ref          []int64
	csrMS, vecMS float64
	hash         string
}

// treefixPrepared returns the run's prepared instance of spec in a
// numbering, preparing it when no case has yet.
func treefixPrepared(ctx context.Context, opt experiments.Options, spec treeSpec, numbering trees.Numbering, seed uint64) (*treePrepared, error) {
	key := fmt.Sprintf("treefix instance %s numbering=%s seed=%d", spec.key, numbering, seed)
	p, _, _, err := experiments.Obtain(ctx, opt.Shared, key, "a treefix case's setup", func(ctx context.Context) (*treePrepared, uint64, error) {
		raw, err := treeRaw(ctx, opt, spec)
		if err != nil {
			return nil, 0, err
		}
		// The shape, on the tree as built, while it is renumbered.
		shaped := make(chan error, 1)
		go func() { _, err := raw.shape(); shaped <- err }()
		var tr *trees.Tree
		if numbering == "file" {
			// The tree read is shared: weight a copy.
			tr = &trees.Tree{Parent: raw.tr.Parent, Weight: slices.Clone(raw.tr.Weight)}
		} else if tr, err = trees.Renumber(raw.tr, numbering, seed); err != nil {
			<-shaped
			return nil, 0, fmt.Errorf("tree %s: %w", spec.name, err)
		}
		trees.IntWeights(tr, 1, seed)
		if err := <-shaped; err != nil { // before the builds are timed, alone
			return nil, 0, fmt.Errorf("tree %s: %w", spec.name, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		p := &treePrepared{tr: tr}
		p.st, _ = raw.shape()
		t0 := time.Now()
		if p.pt, err = treefix.NewTree(tr.Parent); err != nil {
			return nil, 0, fmt.Errorf("tree %s: %w", spec.name, err)
		}
		p.csrMS = experiments.MsSince(t0)
		t0 = time.Now()
		p.vec = p.pt.BuildVector()
		p.vecMS = experiments.MsSince(t0)
		n := tr.N()
		p.w = make([]float32, n)
		wi := make([]int64, n)
		for i, x := range tr.Weight {
			p.w[i], wi[i] = float32(x), int64(x)
		}
		p.ref = make([]int64, n)
		hashed := make(chan struct{})
		go func() { p.hash = tr.Hash(); close(hashed) }() // beside the reference: both only read
		err = treefix.Reference(p.pt, treefix.Rootfix, wi, p.ref)
		<-hashed
		if err != nil {
			return nil, 0, err
		}
		return p, uint64(n) * treefixBytesPerVertex, nil
	})
	return p, err
}
