package cudakleene

import (
	"context"
	"fmt"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// Paper block shape (the paper's Fig. 3): B threads over columns of W, C
// over successors of the source node.
const (
	PaperB = 64
	PaperC = 8
)

// Paper is cuda/paper, the paper's GPU design (section 4) in today's CUDA,
// on the first device: X is converted to CCS and sorted topologically on the
// host (kleene.ConvertCCS, kleene.TopoSort: phases convert_ccs, topo_sort);
// W is set to e in device memory (init_w, with -FLT_MAX for ε); X's values
// and row indices go to the device (h2d); W is updated with one kernel
// launch per source node l that has successors, in topological order, a
// grid of ceil(n/B) x ceil(s/C) blocks of B x C = 64 x 8 threads over the
// columns of W and the s successors of l, reading X and W[l,:] through the
// read-only data path (update_w, timed with CUDA events); W comes back
// (d2h). opt is ignored: the paper's design uses one GPU.
//
// Its total (rec.BeginTotal ... rec.EndTotal) is where the paper's Table 3
// puts it: X in host memory (the paper's first row, Convert CCS, reads X on
// the host; its X values and W rows go from host memory to texture memory
// inside Update W) to W complete in device memory (the phases convert_ccs,
// topo_sort, init_w, h2d and update_w; the paper's rows add up to its total
// without the transfer of W back, which it describes after the updates).
// The download of W (d2h) is outside total, inside end_to_end.
func Paper(ctx context.Context, x *maxplus.Matrix, _ kleene.Options, rec *bench.Recorder) (*maxplus.Matrix, error) {
	if err := kleene.CheckShape(x); err != nil {
		return nil, err
	}
	dev, err := cuda.Open(0)
	if err != nil {
		return nil, fmt.Errorf("cuda/paper: %w", err)
	}
	n := x.N
	if n == 0 {
		return maxplus.New(0), nil
	}
	if (n+PaperC-1)/PaperC > 65535 {
		return nil, fmt.Errorf("cuda/paper: n=%d exceeds the grid's %d successor blocks", n, 65535)
	}

	out := results.Take(n * n)
	handed := false // out goes to the caller; else it is given back
	defer func() {
		if !handed {
			results.Give(out.Wait())
		}
	}()
	rec.BeginTotal()
	if err := kleene.CheckWeights(x); err != nil {
		return nil, err
	}
	stop := rec.Start(kleene.PhaseConvertCCS)
	c := kleene.ConvertCCS(x)
	stop()
	stop = rec.Start(kleene.PhaseTopoSort)
	order, err := kleene.TopoSort(c)
	stop()
	if err != nil {
		return nil, err
	}

	m := len(c.Val)
	var w *maxplus.Matrix
	err = dev.Run(ctx, func(t *driver.Thread) error {
		if err := dev.Check(t, PaperPlan(n, m)); err != nil {
			return err
		}
		initW, err := dev.Function(t, module, "kleene_init_w")
		if err != nil {
			return err
		}
		update, err := dev.Function(t, module, "kleene_paper_update")
		if err != nil {
			return err
		}
		pw, err := dev.Buffer(t, "paper.w", 4*uint64(n)*uint64(n))
		if err != nil {
			return err
		}
		pval, err := dev.Buffer(t, "paper.val", 4*uint64(max(m, 1)))
		if err != nil {
			return err
		}
		pidx, err := dev.Buffer(t, "paper.idx", 4*uint64(max(m, 1)))
		if err != nil {
			return err
		}
		s := dev.Stream()

		// init_w
		if err := dev.StartTimer(t); err != nil {
			return err
		}
		blocks := min((n*n+255)/256, dev.Props.SMs*16)
		if err := t.Launch(initW, driver.D1(blocks), driver.D1(256), 0, s, pw, n, int64(n)); err != nil {
			return fmt.Errorf("init_w: %w", err)
		}
		d, err := dev.StopTimer(t)
		if err != nil {
			return fmt.Errorf("init_w: %w", err)
		}
		rec.Add(kleene.PhaseInitW, d)

		// h2d: the CCS arrays the kernels read.
		stop := rec.Start(PhaseH2D)
		if err := cuda.Upload(t, dev, pval, c.Val); err != nil {
			return err
		}
		if err := cuda.Upload(t, dev, pidx, c.Idx); err != nil {
			return err
		}
		stop()

		// update_w: one launch per source node with successors.
		if err := dev.StartTimer(t); err != nil {
			return err
		}
		gx := (n + PaperB - 1) / PaperB
		row := int64(n) * 4
		for k, l := range order {
			begin, end := int(c.Ptr[l]), int(c.Ptr[l+1])
			if end == begin {
				continue
			}
			if k%512 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			sc := end - begin
			if err := t.Launch(update, driver.D2(gx, (sc+PaperC-1)/PaperC), driver.D2(PaperB, PaperC), 0, s,
				pw, pw.Add(int64(l)*row), pval, pidx, begin, sc, n, int64(n)); err != nil {
				return fmt.Errorf("update_w, node %d: %w", l, err)
			}
		}
		d, err = dev.StopTimer(t)
		if err != nil {
			return fmt.Errorf("update_w: %w", err)
		}
		rec.Add(kleene.PhaseUpdateW, d)
		rec.EndTotal() // StopTimer waited for the last launch: W is complete on the device

		// d2h
		stop = rec.Start(PhaseD2H)
		defer stop()
		w = &maxplus.Matrix{N: n, Val: out.Wait()}
		return cuda.Download(t, dev, w.Val, pw)
	})
	if err != nil {
		return nil, fmt.Errorf("cuda/paper n=%d: %w", n, err)
	}
	handed = true
	return w, nil
}
