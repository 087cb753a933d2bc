package lap

import (
	"context"
	"fmt"
	"math"

	"github.com/semibench/semibench/problems/lap"

	"github.com/semibench/semibench/bench"
)

// PaperStats counts what cpu/paper did, for the experiments' metrics.
type PaperStats struct {
	Step4Calls, Step5Calls, Step6Calls int
	MaxZeros                           int // the largest compressed vector of zeros
}

// SolvePaper solves m by the O(n^4) Hungarian algorithm as Lopes et al.
// formulate it (section 2.1), single thread, with the data structures of
// their section 4.1 (slack matrix; the compressed vector of its zeros, built
// in steps 1 and 6; stars by row and by column; primes by row; covered rows
// and columns). Each step is a phase, "step1".."step6", after "init".
func SolvePaper(ctx context.Context, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	a, u, v, _, err := paperHungarian(ctx, m.Rows, m.Cols, m.C, rec)
	if err != nil {
		return nil, err
	}
	return &lap.Result{Assignment: a, Cost: m.CostOf(a), U: u, V: v}, nil
}

// SolvePaperFloat is SolvePaper on float64 costs.
func SolvePaperFloat(ctx context.Context, m *lap.FloatMatrix, rec *bench.Recorder) (*lap.FloatResult, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	a, u, v, _, err := paperHungarian(ctx, m.Rows, m.Cols, m.C, rec)
	if err != nil {
		return nil, err
	}
	return &lap.FloatResult{Assignment: a, Cost: m.CostOf(a), U: u, V: v}, nil
}

// SolvePaperStats is SolvePaper returning its step counts as well.
func SolvePaperStats(ctx context.Context, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, PaperStats, error) {
	if err := m.Validate(); err != nil {
		return nil, PaperStats{}, err
	}
	a, u, v, st, err := paperHungarian(ctx, m.Rows, m.Cols, m.C, rec)
	if err != nil {
		return nil, st, err
	}
	return &lap.Result{Assignment: a, Cost: m.CostOf(a), U: u, V: v}, st, nil
}

// paperState is the paper's data (section 4.1), row-major on the CPU.
type paperState[T lap.Number] struct {
	rows, cols      int
	slack           []T
	zeros           []int32 // positions i*cols+j of the zero slacks
	coveredRow      []bool
	coveredCol      []bool
	rowOfStarAtCol  []int
	colOfStarAtRow  []int
	colOfPrimeAtRow []int
	u, v            []T
}

func paperHungarian[T lap.Number](ctx context.Context, rows, cols int, c []T, rec *bench.Recorder) (assign []int, u, v []T, st PaperStats, err error) {
	if int64(rows)*int64(cols) > math.MaxInt32 {
		return nil, nil, nil, st, fmt.Errorf("%w: cpu/paper indexes the compressed zeros with int32; %dx%d is too large", lap.ErrShape, rows, cols)
	}
	// Phase "init": allocating the data and initialising the slack matrix
	// with the costs (section 2.1, before step 1).
	stop := rec.Start("init")
	s := &paperState[T]{
		rows: rows, cols: cols,
		slack:           make([]T, len(c)),
		coveredRow:      make([]bool, rows),
		coveredCol:      make([]bool, cols),
		rowOfStarAtCol:  make([]int, cols),
		colOfStarAtRow:  make([]int, rows),
		colOfPrimeAtRow: make([]int, rows),
		u:               make([]T, rows),
		v:               make([]T, cols),
	}
	copy(s.slack, c)
	stop()
	stop = rec.Start("step1")
	s.step1()
	stop()
	st.MaxZeros = len(s.zeros)

	stop = rec.Start("step2")
	s.step2()
	stop()

	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, st, err
		}
		stop = rec.Start("step3")
		done := s.step3()
		stop()
		if done {
			break
		}
		for {
			stop = rec.Start("step4")
			pi, pj := s.step4()
			stop()
			st.Step4Calls++
			if pi >= 0 {
				stop = rec.Start("step5")
				s.step5(pi, pj)
				stop()
				st.Step5Calls++
				break
			}
			stop = rec.Start("step6")
			if !s.step6() {
				stop()
				return nil, nil, nil, st, fmt.Errorf("cpu/paper: step 6 found no uncovered entry (internal error)")
			}
			stop()
			st.Step6Calls++
			st.MaxZeros = max(st.MaxZeros, len(s.zeros))
			if st.Step6Calls&255 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, nil, nil, st, err
				}
			}
		}
	}
	return s.colOfStarAtRow, s.u, s.v, st, nil
}

// step1 subtracts the row minimum from each row and, when the matrix is
// square, the column minimum from each column (with more columns than rows
// a column reduction would change the optimum), then compresses the zeros.
func (s *paperState[T]) step1() {
	n := s.cols
	for i := range s.rows {
		row := s.slack[i*n : (i+1)*n]
		m := row[0]
		for _, x := range row[1:] {
			m = min(m, x)
		}
		for j := range row {
			row[j] -= m
		}
		s.u[i] = m
	}
	if s.rows == s.cols {
		colMin := s.v
		copy(colMin, s.slack[:n])
		for i := 1; i < s.rows; i++ {
			row := s.slack[i*n : (i+1)*n]
			for j, x := range row {
				colMin[j] = min(colMin[j], x)
			}
		}
		for i := range s.rows {
			row := s.slack[i*n : (i+1)*n]
			for j := range row {
				row[j] -= colMin[j]
			}
		}
	}
	s.compress()
	for i := range s.colOfStarAtRow {
		s.colOfStarAtRow[i] = -1
		s.colOfPrimeAtRow[i] = -1
	}
	for j := range s.rowOfStarAtCol {
		s.rowOfStarAtCol[j] = -1
	}
}

// compress rebuilds the vector of zeros.
func (s *paperState[T]) compress() {
	s.zeros = s.zeros[:0]
	for k, x := range s.slack {
		if x == 0 {
			s.zeros = append(s.zeros, int32(k))
		}
	}
}

// step2 stars each zero with no starred zero in its row or column.
func (s *paperState[T]) step2() {
	n := s.cols
	for _, z := range s.zeros {
		i, j := int(z)/n, int(z)%n
		if s.colOfStarAtRow[i] < 0 && s.rowOfStarAtCol[j] < 0 {
			s.colOfStarAtRow[i], s.rowOfStarAtCol[j] = j, i
		}
	}
}

// step3 covers each column with a starred zero and reports whether every
// row is matched.
func (s *paperState[T]) step3() bool {
	count := 0
	for j, i := range s.rowOfStarAtCol {
		s.coveredCol[j] = i >= 0
		if i >= 0 {
			count++
		}
	}
	return count == s.rows
}

// step4 primes uncovered zeros: for a primed zero with a starred zero in
// its row it covers the row and uncovers the star's column, and continues
// until no uncovered zero is left (it returns -1, -1: go to step 6) or a
// primed zero has no star in its row (it returns it: go to step 5). Zeros
// are visited in the order of the compressed vector, in passes, until a
// pass primes nothing.
func (s *paperState[T]) step4() (int, int) {
	n := s.cols
	for {
		primed := false
		for _, z := range s.zeros {
			i, j := int(z)/n, int(z)%n
			if s.coveredCol[j] || s.coveredRow[i] {
				continue
			}
			s.colOfPrimeAtRow[i] = j
			js := s.colOfStarAtRow[i]
			if js < 0 {
				return i, j
			}
			s.coveredRow[i] = true
			s.coveredCol[js] = false
			primed = true
		}
		if !primed {
			return -1, -1
		}
	}
}

// step5 flips the alternating path that starts at the primed zero (i, j):
// primes on the path become stars and the stars on it lose theirs; then all
// primes are erased and every row uncovered.
func (s *paperState[T]) step5(i, j int) {
	for {
		r := s.rowOfStarAtCol[j]
		s.colOfStarAtRow[i], s.rowOfStarAtCol[j] = j, i
		if r < 0 {
			break
		}
		i, j = r, s.colOfPrimeAtRow[r]
	}
	for k := range s.colOfPrimeAtRow {
		s.colOfPrimeAtRow[k] = -1
		s.coveredRow[k] = false
	}
}

// step6 adds the minimum uncovered slack to every covered row and subtracts
// it from every uncovered column (u_i decreases on covered rows, v_j
// increases on uncovered columns), then compresses the zeros again. It
// reports false when nothing is uncovered.
func (s *paperState[T]) step6() bool {
	n := s.cols
	big := lap.Inf[T]()
	delta := big
	for i := range s.rows {
		if s.coveredRow[i] {
			continue
		}
		row := s.slack[i*n : (i+1)*n]
		for j, x := range row {
			if !s.coveredCol[j] && x < delta {
				delta = x
			}
		}
	}
	if delta == big {
		return false
	}
	s.zeros = s.zeros[:0]
	for i := range s.rows {
		row := s.slack[i*n : (i+1)*n]
		base := int32(i * n)
		if s.coveredRow[i] {
			s.u[i] -= delta
			for j := range row {
				if s.coveredCol[j] {
					row[j] += delta
				} else if row[j] == 0 {
					s.zeros = append(s.zeros, base+int32(j))
				}
			}
			continue
		}
		for j := range row {
			if !s.coveredCol[j] {
				row[j] -= delta
			}
			if row[j] == 0 {
				s.zeros = append(s.zeros, base+int32(j))
			}
		}
	}
	for j := range s.v {
		if !s.coveredCol[j] {
			s.v[j] += delta
		}
	}
	return true
}
