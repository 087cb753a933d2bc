package kleene

import (
	"context"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// Paper is cpu/paper: the paper's procedure on one thread (see the package
// documentation). opt is ignored.
func Paper(ctx context.Context, x *maxplus.Matrix, _ kleene.Options, rec *bench.Recorder) (*maxplus.Matrix, error) {
	if _, err := checkInput(x); err != nil {
		return nil, err
	}
	n := x.N

	stop := rec.Start(kleene.PhaseConvertCCS)
	c := kleene.ConvertCCS(x)
	stop()

	stop = rec.Start(kleene.PhaseTopoSort)
	order, err := kleene.TopoSort(c)
	stop()
	if err != nil {
		return nil, err
	}

	stop = rec.Start(kleene.PhaseInitW)
	w := maxplus.Identity(n)
	stop()

	stop = rec.Start(kleene.PhaseUpdateW)
	defer stop()
	for _, l := range order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		wl := w.Val[int(l)*n : int(l)*n+n]
		for p := c.Ptr[l]; p < c.Ptr[l+1]; p++ {
			i, xil := int(c.Idx[p]), c.Val[p]
			wi := w.Val[i*n : i*n+n]
			wi = wi[:len(wl)]
			for j, v := range wl {
				if v != maxplus.Epsilon {
					if s := xil + v; s > wi[j] {
						wi[j] = s
					}
				}
			}
		}
	}
	return w, nil
}
