package lap

import (
	"context"

	"github.com/semibench/semibench/problems/lap"

	"github.com/semibench/semibench/bench"
)

// SolveN3 solves m by the O(n^3) Hungarian algorithm: rows are added one at
// a time, each by a shortest augmenting path grown with an array of slacks
// (the least reduced cost from the tree to each column), so that a dual
// update costs O(n) instead of a pass over the matrix. One phase,
// "augment".
func SolveN3(ctx context.Context, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	a, u, v, err := hungarianN3(ctx, m.Rows, m.Cols, m.C, rec)
	if err != nil {
		return nil, err
	}
	return &lap.Result{Assignment: a, Cost: m.CostOf(a), U: u, V: v}, nil
}

// SolveN3Float is SolveN3 on float64 costs.
func SolveN3Float(ctx context.Context, m *lap.FloatMatrix, rec *bench.Recorder) (*lap.FloatResult, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	a, u, v, err := hungarianN3(ctx, m.Rows, m.Cols, m.C, rec)
	if err != nil {
		return nil, err
	}
	return &lap.FloatResult{Assignment: a, Cost: m.CostOf(a), U: u, V: v}, nil
}

// hungarianN3 uses 1-based potentials with a virtual column 0 that holds
// the row being added (p[0]); p[j] is the 1-based row of column j, 0 when
// free.
func hungarianN3[T lap.Number](ctx context.Context, rows, cols int, c []T, rec *bench.Recorder) (assign []int, u, v []T, err error) {
	defer rec.Start("augment")()
	big := lap.Inf[T]()
	uu := make([]T, rows+1)
	vv := make([]T, cols+1)
	p := make([]int, cols+1)
	way := make([]int, cols+1)
	minv := make([]T, cols+1)
	used := make([]bool, cols+1)
	for i := 1; i <= rows; i++ {
		if i&63 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
		}
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = big
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			row := c[(i0-1)*cols : i0*cols]
			ui := uu[i0]
			delta, j1 := big, 0
			for j := 1; j <= cols; j++ {
				if used[j] {
					continue
				}
				if cur := row[j-1] - ui - vv[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				// Among equal slacks prefer a free column: the path ends
				// there (this matters on low-range costs with many ties).
				if m := minv[j]; m < delta || (m == delta && p[j] == 0) {
					delta, j1 = m, j
				}
			}
			for j := 0; j <= cols; j++ {
				if used[j] {
					uu[p[j]] += delta
					vv[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	assign = make([]int, rows)
	for j := 1; j <= cols; j++ {
		if p[j] != 0 {
			assign[p[j]-1] = j - 1
		}
	}
	return assign, uu[1:], vv[1:], nil
}
