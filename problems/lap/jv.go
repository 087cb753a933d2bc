package lap

import (
	"context"

	"github.com/semibench/semibench/bench"
)

// SolveJV solves m by Jonker-Volgenant (R. Jonker, A. Volgenant, "A
// shortest augmenting path algorithm for dense and sparse linear assignment
// problems", Computing 38, 1987). Phases: "init" (column reduction and
// reduction transfer), "arr" (two rounds of augmenting row reduction),
// "augment" (Dijkstra-like shortest augmenting paths). A rectangular
// problem runs the augmentation alone from v = 0.
func SolveJV(ctx context.Context, m *Matrix, rec *bench.Recorder) (*Result, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	a, u, v, err := jv(ctx, m.Rows, m.Cols, m.C, rec)
	if err != nil {
		return nil, err
	}
	return &Result{Assignment: a, Cost: m.CostOf(a), U: u, V: v}, nil
}

// SolveJVFloat is SolveJV on float64 costs.
func SolveJVFloat(ctx context.Context, m *FloatMatrix, rec *bench.Recorder) (*FloatResult, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	a, u, v, err := jv(ctx, m.Rows, m.Cols, m.C, rec)
	if err != nil {
		return nil, err
	}
	return &FloatResult{Assignment: a, Cost: m.CostOf(a), U: u, V: v}, nil
}

// jvState is what the phases of JV share: the costs (rows x n), the
// assignment both ways (-1 where unassigned) and the column duals v.
type jvState[T Number] struct {
	rows, n        int
	c              []T
	rowsol, colsol []int
	v              []T
}

// jv returns the column of each row and the duals.
func jv[T Number](ctx context.Context, rows, cols int, c []T, rec *bench.Recorder) (rowsol []int, u, v []T, err error) {
	s := &jvState[T]{rows: rows, n: cols, c: c, rowsol: make([]int, rows), colsol: make([]int, cols), v: make([]T, cols)}
	for i := range s.rowsol {
		s.rowsol[i] = -1
	}
	for j := range s.colsol {
		s.colsol[j] = -1
	}
	var free []int
	if rows == cols {
		stop := rec.Start("init")
		free = s.reductionTransfer(s.columnReduction())
		stop()
		stop = rec.Start("arr")
		free, err = s.augmentingRowReduction(ctx, free)
		stop()
		if err != nil {
			return nil, nil, nil, err
		}
	} else {
		free = make([]int, rows)
		for i := range free {
			free[i] = i
		}
	}
	stop := rec.Start("augment")
	defer stop()
	if err := s.augmentation(ctx, free); err != nil {
		return nil, nil, nil, err
	}
	u = make([]T, rows)
	for i, j := range s.rowsol {
		u[i] = c[i*cols+j] - s.v[j]
	}
	return s.rowsol, u, s.v, nil
}

// columnReduction sets v_j to the minimum of column j and assigns each
// column to its first minimal row; a row that is the minimum of several
// columns keeps the one with the smallest v. The minima are found in one
// row-major sweep (the first minimal row of each column, as the original's
// column scan finds it); the columns are then settled last column first,
// as in the original. It returns the number of columns each row won.
func (s *jvState[T]) columnReduction() (matches []int32) {
	c, n, v, rowsol, colsol := s.c, s.n, s.v, s.rowsol, s.colsol
	matches = make([]int32, s.rows)
	imins := make([]int32, n)
	copy(v, c[:n])
	for i := 1; i < s.rows; i++ {
		row := c[i*n : (i+1)*n]
		vv := v[:len(row)]
		im := imins[:len(row)]
		for j, x := range row {
			if x < vv[j] {
				vv[j], im[j] = x, int32(i)
			}
		}
	}
	for j := n - 1; j >= 0; j-- {
		imin := int(imins[j])
		matches[imin]++
		if matches[imin] == 1 {
			rowsol[imin], colsol[j] = j, imin
		} else if v[j] < v[rowsol[imin]] {
			j1 := rowsol[imin]
			rowsol[imin], colsol[j], colsol[j1] = j, imin, -1
		} else {
			colsol[j] = -1
		}
	}
	return matches
}

// reductionTransfer lowers the dual of the column each once-matched row
// holds by the row's smallest reduced cost elsewhere, and returns the
// rows that won no column: the free rows.
func (s *jvState[T]) reductionTransfer(matches []int32) (free []int) {
	c, n, v := s.c, s.n, s.v
	big := Inf[T]()
	free = make([]int, 0, s.rows)
	for i := range s.rows {
		switch matches[i] {
		case 0:
			free = append(free, i)
		case 1:
			j1 := s.rowsol[i]
			row := c[i*n : (i+1)*n]
			minv := big
			for j, x := range row {
				if j != j1 {
					minv = min(minv, x-v[j])
				}
			}
			if minv != big { // a 1x1 problem has no other column
				v[j1] -= minv
			}
		default:
			// A row that won several columns keeps only one of them
			// (rowsol); the others were left free above.
		}
	}
	return free
}

// augmentingRowReduction runs two rounds of augmenting row reduction over
// the free rows and returns the rows still free.
func (s *jvState[T]) augmentingRowReduction(ctx context.Context, free []int) ([]int, error) {
	for round := 0; round < 2 && len(free) > 0; round++ {
		free = s.arrRound(free)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return free, nil
}

// arrRound is one round of augmenting row reduction: each free row takes
// the column of its smallest reduced cost, lowering that column's dual to
// the second smallest, and the row it displaces is retried at once or
// left free for the next round. It returns the rows left free.
func (s *jvState[T]) arrRound(prv []int) (free []int) {
	c, n, v, rowsol, colsol := s.c, s.n, s.v, s.rowsol, s.colsol
	big := Inf[T]()
	free = make([]int, 0, len(prv))
	// Immediate retries of a displaced row are capped so that a round
	// stays O(n^2) whatever the costs.
	retries := 8 * n
	for k := 0; k < len(prv); {
		i := prv[k]
		k++
		row := c[i*n : (i+1)*n]
		umin, j1 := row[0]-v[0], 0
		usubmin, j2 := big, -1
		for j := 1; j < n; j++ {
			h := row[j] - v[j]
			if h < usubmin {
				if h >= umin {
					usubmin, j2 = h, j
				} else {
					usubmin, j2 = umin, j1
					umin, j1 = h, j
				}
			}
		}
		i0 := colsol[j1]
		if umin < usubmin {
			v[j1] -= usubmin - umin
		} else if i0 >= 0 && j2 >= 0 {
			j1 = j2
			i0 = colsol[j2]
		}
		if old := rowsol[i]; old >= 0 && colsol[old] == i {
			colsol[old] = -1
		}
		rowsol[i], colsol[j1] = j1, i
		if i0 >= 0 {
			rowsol[i0] = -1
			if umin < usubmin && retries > 0 {
				retries--
				k--
				prv[k] = i0
			} else {
				free = append(free, i0)
			}
		}
	}
	return free
}

// jvPaths is the scratch of the augmentation's shortest paths: the
// distances d, the predecessor row of each column, and the columns in the
// order the search settles them.
type jvPaths[T Number] struct {
	d       []T
	pred    []int
	collist []int
}

// augmentation assigns every free row along a shortest augmenting path
// (Dijkstra-like on the reduced costs), updating the duals of the columns
// the search settled.
func (s *jvState[T]) augmentation(ctx context.Context, free []int) error {
	n := s.n
	sp := &jvPaths[T]{d: make([]T, n), pred: make([]int, n), collist: make([]int, n)}
	for f, freerow := range free {
		if f&63 == 63 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		endofpath, last, minv := s.shortestPath(sp, freerow)
		// Update the prices of the scanned columns.
		for k := 0; k <= last; k++ {
			j1 := sp.collist[k]
			s.v[j1] += sp.d[j1] - minv
		}
		s.augment(sp.pred, freerow, endofpath)
	}
	return nil
}

// shortestPath searches from freerow for the nearest free column and
// returns it, the position in sp.collist of the last column settled
// before the final distance, and that distance.
func (s *jvState[T]) shortestPath(sp *jvPaths[T], freerow int) (endofpath, last int, minv T) {
	c, n, v, colsol := s.c, s.n, s.v, s.colsol
	d, pred, collist := sp.d, sp.pred, sp.collist
	row := c[freerow*n : (freerow+1)*n]
	for j := range n {
		d[j] = row[j] - v[j]
		pred[j] = freerow
		collist[j] = j
	}
	low, up := 0, 0
	endofpath = -1
	for endofpath < 0 {
		if up == low {
			// Collect the columns at the new minimum distance.
			last = low - 1
			minv = d[collist[up]]
			up++
			for k := up; k < n; k++ {
				j := collist[k]
				h := d[j]
				if h <= minv {
					if h < minv {
						up = low
						minv = h
					}
					collist[k] = collist[up]
					collist[up] = j
					up++
				}
			}
			for k := low; k < up; k++ {
				if colsol[collist[k]] < 0 {
					endofpath = collist[k]
					break
				}
			}
			if endofpath >= 0 {
				break
			}
		}
		// Scan a column at the minimum distance.
		j1 := collist[low]
		low++
		i := colsol[j1]
		ri := c[i*n : (i+1)*n]
		h := ri[j1] - v[j1] - minv
		ri, vv, dd := ri[:n], v[:n], d[:n]
		for k := up; k < n; k++ {
			j := collist[k]
			v2 := ri[j] - vv[j] - h
			if v2 < dd[j] {
				pred[j] = i
				if v2 == minv {
					if colsol[j] < 0 {
						endofpath = j
						break
					}
					collist[k] = collist[up]
					collist[up] = j
					up++
				}
				dd[j] = v2
			}
		}
	}
	return endofpath, last, minv
}

// augment flips the assignment along the path from freerow to the free
// column endofpath, following pred back.
func (s *jvState[T]) augment(pred []int, freerow, endofpath int) {
	for {
		i := pred[endofpath]
		s.colsol[endofpath] = i
		j1 := endofpath
		endofpath = s.rowsol[i]
		s.rowsol[i] = j1
		if i == freerow {
			break
		}
	}
}

// JV is the reference solver as an implementation: cpu/jv, integer and
// float64 costs, and batches solved in parallel over the problems.
var JV = Impl{Name: "cpu/jv", Solve: SolveJV, SolveFloat: SolveJVFloat, SolveBatch: solveJVBatch}

// solveJVBatch is JV's SolveBatch: SolveJV or SolveJVFloat per problem,
// in parallel.
func solveJVBatch(ctx context.Context, b *Batch, workers int, _ *bench.Recorder) (*BatchOutput, error) {
	return SolveBatch(ctx, b, Impl{Name: "cpu/jv", Solve: SolveJV, SolveFloat: SolveJVFloat}, workers)
}
