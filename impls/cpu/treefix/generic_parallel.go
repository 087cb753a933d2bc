package treefix

import "context"

// parallelGroup is cpu/parallel over any group (only Op and Identity are
// used: a monoid would do). The levels come from the same load-balanced
// level-synchronous search as Run's (without its fused +); then Rootfix
// sweeps the levels top-down, each level's vertices split evenly between
// the workers, and Leaffix bottom-up with the segmented reduction of the
// children.
func parallelGroup[T any, G Group[T]](ctx context.Context, g G, t *Tree, threads int, op Op, w, out []T) error {
	s := &Solver[int32]{t: t, threads: workers(threads)}
	if err := s.levels(ctx, false, nil, nil); err != nil {
		return err
	}
	order := s.order
	nl := len(s.lstart) - 1
	if op == Rootfix {
		root := order[0]
		out[root] = w[root]
		for L := 1; L < nl; L++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			lv := order[s.lstart[L]:s.lstart[L+1]]
			parFor(s.threads, len(lv), gatherGrain, func(_, lo, hi int) {
				for _, v := range lv[lo:hi] {
					out[v] = g.Op(out[t.Parent[v]], w[v])
				}
			})
		}
		return nil
	}
	for _, v := range order[s.lstart[nl-1]:s.lstart[nl]] {
		out[v] = w[v]
	}
	type part struct {
		k   int
		sum T
	}
	for L := nl - 2; L >= 0; L-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		f := order[s.lstart[L]:s.lstart[L+1]]
		kids := order[s.lstart[L+1]:s.lstart[L+2]]
		m := len(f)
		o := s.off[s.ostart[L] : int(s.ostart[L])+m+1]
		total := int(o[m])
		p := min(s.threads, max(1, total/gatherGrain))
		parts := make([]part, 2*p)
		for i := range parts {
			parts[i].k = -1
		}
		parFor(p, total, 1, func(pi, lo, hi int) {
			k := segStart(o, m, lo)
			for ; k < m && int(o[k]) < hi; k++ {
				a, b := max(lo, int(o[k])), min(hi, int(o[k+1]))
				sum := g.Identity()
				for _, j := range kids[a:b] {
					sum = g.Op(sum, out[j])
				}
				switch {
				case int(o[k]) >= lo && int(o[k+1]) <= hi:
					out[f[k]] = g.Op(w[f[k]], sum)
				case int(o[k]) < lo:
					parts[2*pi] = part{k, sum}
				default:
					parts[2*pi+1] = part{k, sum}
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
			out[v] = g.Op(out[v], pt.sum)
		}
		for k := m - 1; k >= 0 && int(o[k]) == total; k-- {
			out[f[k]] = w[f[k]]
		}
	}
	return nil
}
