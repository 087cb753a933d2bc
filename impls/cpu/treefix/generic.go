package treefix

import (
	"context"
	"fmt"
)

// RunGroup computes op over any abelian group g (Add, Xor, or the caller's
// own). cpu/sequential (one goroutine) and cpu/parallel (GOMAXPROCS
// goroutines, the same levels and load balancing as Run's) use only g.Op
// and g.Identity: a monoid would do. cpu/vectorial and
// cpu/vectorial-compensated run Algorithm 2 on one goroutine and need
// g.Inverse (Rootfix writes the inverse at "v)", Leaffix subtracts two
// prefixes) and commutativity (the Euler tour reorders the terms). The
// compensated variant is only meaningful for floating-point +, so over a
// general group it is the vectorial algorithm. Run is the fast path for +
// on machine numbers (RunGroup calls the group's methods through Go's
// generic dictionaries, which are not inlined).
func RunGroup[T any, G Group[T]](ctx context.Context, g G, t *Tree, impl string, op Op, w, out []T) error {
	n := t.N()
	if len(w) != n || len(out) != n {
		return fmt.Errorf("treefix: %d weights and %d outputs for %d vertices", len(w), len(out), n)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	switch impl {
	case Sequential:
		order, err := t.CSR.Order()
		if err != nil {
			return err
		}
		if op == Rootfix {
			for _, v := range order {
				if p := t.Parent[v]; p >= 0 {
					out[v] = g.Op(out[p], w[v])
				} else {
					out[v] = w[v]
				}
			}
			return nil
		}
		copy(out, w)
		for h := n - 1; h > 0; h-- {
			v := order[h]
			p := t.Parent[v]
			out[p] = g.Op(out[p], out[v])
		}
		return nil
	case Vectorial, VectorialCompensated:
		v := t.BuildVector()
		e := make([]T, 2*n)
		for i := range w {
			e[v.Open[i]] = w[i]
			if op == Rootfix {
				e[v.Close[i]] = g.Inverse(w[i])
			} else {
				e[v.Close[i]] = g.Identity()
			}
		}
		acc := g.Identity()
		for i := range e {
			acc = g.Op(acc, e[i])
			e[i] = acc
		}
		for i := range out {
			if op == Rootfix {
				out[i] = e[v.Open[i]]
			} else {
				out[i] = g.Op(g.Op(e[v.Close[i]], g.Inverse(e[v.Open[i]])), w[i])
			}
		}
		return nil
	case Parallel:
		return parallelGroup(ctx, g, t, 0, op, w, out)
	}
	return fmt.Errorf("treefix: unknown implementation %q", impl)
}
