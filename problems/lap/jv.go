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

// jv returns the column of each row and the duals.
func jv[T Number](ctx context.Context, rows, cols int, c []T, rec *bench.Recorder) (rowsol []int, u, v []T, err error) {
	n := cols
	rowsol = make([]int, rows)
	colsol := make([]int, n)
	v = make([]T, n)
	free := make([]int, 0, rows)
	for i := range rowsol {
		rowsol[i] = -1
	}
	for j := range colsol {
		colsol[j] = -1
	}
	big := Inf[T]()

	if rows == cols {
		stop := rec.Start("init")
		// Column reduction. The minima are found in one row-major sweep
		// (the first minimal row of each column, as the original's
		// column scan finds it); the columns are then settled last column
		// first, as in the original.
		matches := make([]int32, rows)
		imins := make([]int32, n)
		copy(v, c[:n])
		for i := 1; i < rows; i++ {
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
		// Reduction transfer.
		for i := range rows {
			switch matches[i] {
			case 0:
				free = append(free, i)
			case 1:
				j1 := rowsol[i]
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
		stop()

		// Augmenting row reduction, two rounds.
		stop = rec.Start("arr")
		for round := 0; round < 2 && len(free) > 0; round++ {
			prv := free
			free = make([]int, 0, len(prv))
			// Immediate retries of a displaced row are capped so that a
			// round stays O(n^2) whatever the costs.
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
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
		}
		stop()
	} else {
		for i := range rows {
			free = append(free, i)
		}
	}

	// Augmentation: a shortest path from each free row to a free column.
	stop := rec.Start("augment")
	defer stop()
	d := make([]T, n)
	pred := make([]int, n)
	collist := make([]int, n)
	for f, freerow := range free {
		if f&63 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
		}
		row := c[freerow*n : (freerow+1)*n]
		for j := range n {
			d[j] = row[j] - v[j]
			pred[j] = freerow
			collist[j] = j
		}
		low, up, last := 0, 0, 0
		var minv T
		endofpath := -1
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
		// Update the prices of the scanned columns.
		for k := 0; k <= last; k++ {
			j1 := collist[k]
			v[j1] += d[j1] - minv
		}
		// Augment along the path.
		for {
			i := pred[endofpath]
			colsol[endofpath] = i
			j1 := endofpath
			endofpath = rowsol[i]
			rowsol[i] = j1
			if i == freerow {
				break
			}
		}
	}
	u = make([]T, rows)
	for i, j := range rowsol {
		u[i] = c[i*n+j] - v[j]
	}
	return rowsol, u, v, nil
}

// JV is the reference solver as an implementation: cpu/jv, integer and
// float64 costs, and batches solved in parallel over the problems.
var JV = Impl{Name: "cpu/jv", Solve: SolveJV, SolveFloat: SolveJVFloat, SolveBatch: solveJVBatch}

// solveJVBatch is JV's SolveBatch: SolveJV or SolveJVFloat per problem,
// in parallel.
func solveJVBatch(ctx context.Context, b *Batch, workers int, _ *bench.Recorder) (*BatchOutput, error) {
	return SolveBatch(ctx, b, Impl{Name: "cpu/jv", Solve: SolveJV, SolveFloat: SolveJVFloat}, workers)
}
