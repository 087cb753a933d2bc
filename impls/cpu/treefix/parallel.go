package cputreefix

import (
	"context"
	"slices"

	"github.com/semibench/semibench/problems/treefix"
)

// levels runs the level-synchronous breadth-first search of Algorithm 1:
// frontier L is s.order[lstart[L]:lstart[L+1]]; for each frontier a prefix
// sum over the child counts R[i+1]-R[i] (the paper's CTA-wide scan) gives
// every child its packed position in the next frontier, and the workers
// split the packed positions evenly (Merrill et al.'s gather), so no queue
// needs a lock. When rootfix, each gathered child j also gets
// out[j] = out[i] + w[j].
func (s *solver[T]) levels(ctx context.Context, rootfix bool, w, out []T) error {
	c := s.t.CSR
	n := s.t.N()
	if cap(s.order) < n {
		s.order = make([]int32, n)
	}
	order := s.order[:n]
	off := s.off[:0]
	s.lstart = append(s.lstart[:0], 0, 1)
	s.ostart = s.ostart[:0]
	order[0] = c.Root
	if rootfix {
		out[c.Root] = w[c.Root]
	}
	R, C := c.R, c.C
	for L := 0; ; L++ {
		if L&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		f := order[s.lstart[L]:s.lstart[L+1]]
		m := len(f)
		// prefix sum of the child counts
		base := len(off)
		s.ostart = append(s.ostart, int32(base))
		off = slices.Grow(off, m+1)[:base+m+1]
		o := off[base : base+m+1]
		o[0] = 0
		if m < arrayGrain { // narrow level: one goroutine, no per-level overhead
			var acc int32
			for k, i := range f {
				acc += R[i+1] - R[i]
				o[k+1] = acc
			}
		} else { // the paper's CTA-wide prefix sum, over goroutines
			parFor(s.threads, m, arrayGrain, func(_, lo, hi int) {
				for k := lo; k < hi; k++ {
					i := f[k]
					o[k+1] = R[i+1] - R[i]
				}
			})
			scan(s.threads, o[1:])
		}
		total := o[m]
		if total == 0 {
			break
		}
		next := order[s.lstart[L+1] : int(s.lstart[L+1])+int(total)]
		s.lstart = append(s.lstart, s.lstart[L+1]+total)
		parFor(s.threads, int(total), gatherGrain, func(_, lo, hi int) {
			k := segStart(o, m, lo)
			for pos := lo; pos < hi; k++ {
				i := f[k]
				end := min(hi, int(o[k+1]))
				src := C[int(R[i])+pos-int(o[k]) : int(R[i])+end-int(o[k])]
				dst := next[pos:end]
				if rootfix {
					ri := out[i]
					for x, j := range src {
						out[j] = ri + w[j]
						dst[x] = j
					}
				} else {
					copy(dst, src)
				}
				pos = end
			}
		})
	}
	s.off = off
	return nil
}

// parallel is cpu/parallel: Algorithm 1 for Rootfix; for Leaffix the same
// levels, then bottom-up each frontier reduces its children, the packed
// child positions split evenly between workers (a segmented reduction: a
// vertex whose children straddle workers gets their partial sums combined
// afterwards, in worker order).
func (s *solver[T]) parallel(ctx context.Context, op treefix.Op, w, out []T) error {
	if err := s.levels(ctx, op == treefix.Rootfix, w, out); err != nil {
		return err
	}
	if op == treefix.Rootfix {
		return nil
	}
	order := s.order
	nl := len(s.lstart) - 1 // levels
	last := order[s.lstart[nl-1]:s.lstart[nl]]
	for _, v := range last {
		out[v] = w[v]
	}
	for L := nl - 2; L >= 0; L-- {
		if L&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		f := order[s.lstart[L]:s.lstart[L+1]]
		kids := order[s.lstart[L+1]:s.lstart[L+2]]
		m := len(f)
		o := s.off[s.ostart[L] : int(s.ostart[L])+m+1]
		total := int(o[m])
		p := min(s.threads, max(1, total/gatherGrain))
		if cap(s.parts) < 2*p {
			s.parts = make([]partial[T], 2*p)
		}
		parts := s.parts[:2*p]
		for i := range parts {
			parts[i].k = -1
		}
		parFor(p, total, 1, func(part, lo, hi int) {
			k := segStart(o, m, lo)
			for ; k < m && int(o[k]) < hi; k++ {
				a, b := max(lo, int(o[k])), min(hi, int(o[k+1]))
				var sum T
				for _, j := range kids[a:b] {
					sum += out[j]
				}
				switch {
				case int(o[k]) >= lo && int(o[k+1]) <= hi:
					out[f[k]] = w[f[k]] + sum
				case int(o[k]) < lo:
					parts[2*part] = partial[T]{k, sum}
				default:
					parts[2*part+1] = partial[T]{k, sum}
				}
			}
		})
		lastK := -1
		for _, pt := range parts {
			if pt.k < 0 {
				continue
			}
			v := f[pt.k]
			if pt.k != lastK {
				out[v] = w[v]
				lastK = pt.k
			}
			out[v] += pt.sum
		}
		for k := m - 1; k >= 0 && int(o[k]) == total; k-- { // trailing leaves
			out[f[k]] = w[f[k]]
		}
	}
	return nil
}
