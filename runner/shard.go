package runner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/experiments"
)

// Shard is one share of a run's plan: the K-th of N (1-based). Every shard
// of a plan computes the same partition (from the priors alone, never
// from timings), so N processes or machines of one kind, each given its
// K, run every cell exactly once between them, and their result files
// merge into one report.
type Shard struct{ K, N int }

// ParseShard reads "K/N".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("want K/N with 1 <= K <= N, got %q", s)
	}
	return Shard{k, n}, nil
}

func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// shard keeps the cells of one share. The plan's cells are first joined
// into units that must stay on one machine: a claim's cells (at both
// levels) and a case's cells (one Setup). The units, the costliest first,
// each go to the share with the least estimated cost so far (the lowest
// numbered among equals): a balanced partition, the same in every shard.
func (p *plan) shard(s Shard, price *pricer) *plan {
	idx := map[*cell]int{}
	for i, c := range p.cells {
		idx[c] = i
	}
	parent := make([]int, len(p.cells))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		if ra, rb := find(a), find(b); ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	firstOfCase := map[*experiments.Case]int{}
	for i, c := range p.cells {
		if j, ok := firstOfCase[c.cs]; ok {
			union(i, j)
		} else {
			firstOfCase[c.cs] = i
		}
	}
	for _, cp := range p.claims {
		var all []*cell
		for _, lv := range cp.levels {
			all = append(all, lv...)
		}
		for _, c := range all[min(1, len(all)):] {
			union(idx[all[0]], idx[c])
		}
	}
	// Units by their root, with the priors' cost (a fresh estimator: the
	// same numbers in every shard).
	prior := newEstimator()
	cost := map[int]float64{}
	var roots []int
	for i, c := range p.cells {
		root := find(i)
		if _, ok := cost[root]; !ok {
			roots = append(roots, root)
		}
		est := 0.0
		if c.unavailable == nil {
			est = prior.estimate(c.exp, c.impl, c.cs) * price.runs
		}
		cost[root] = saturate(cost[root] + est)
	}
	slices.SortStableFunc(roots, func(a, b int) int {
		switch {
		case cost[a] > cost[b]:
			return -1
		case cost[a] < cost[b]:
			return 1
		}
		return a - b
	})
	load := make([]float64, s.N)
	owner := map[int]int{}
	for _, root := range roots {
		k := 0
		for j := range load {
			if load[j] < load[k] {
				k = j
			}
		}
		owner[root] = k
		load[k] = saturate(load[k] + cost[root])
	}
	out := &plan{byKey: p.byKey}
	mine := map[*cell]bool{}
	for i, c := range p.cells {
		if owner[find(i)] == s.K-1 {
			out.cells = append(out.cells, c)
			mine[c] = true
		}
	}
	for _, cp := range p.claims {
		for _, lv := range cp.levels {
			if len(lv) > 0 && mine[lv[0]] {
				out.claims = append(out.claims, cp)
				break
			}
		}
	}
	return out
}
