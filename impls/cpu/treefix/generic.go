package treefix

import (
	"context"
	"fmt"
)

// RunGroup computes op over any abelian group g (Add, Xor, or the caller's
// own), on one goroutine: impl cpu/sequential uses only g.Op and
// g.Identity (a monoid would do); cpu/vectorial and
// cpu/vectorial-compensated run Algorithm 2 and need g.Inverse (Rootfix
// writes the inverse at "v)", Leaffix subtracts two prefixes) and
// commutativity (the Euler tour reorders the terms). cpu/parallel has
// no generic form here: use Run with + or call it per group by hand. The
// compensated variant is only meaningful for floating-point +, so over a
// general group it is the vectorial algorithm.
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
		return fmt.Errorf("treefix: %s has no generic-group form; use Run for +", impl)
	}
	return fmt.Errorf("treefix: unknown implementation %q", impl)
}
