package cudalap

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/semibench/semibench/problems/lap"
)

// Integer costs the int32 device paths cannot hold (a cost beyond int32,
// or, for the auction, a span beyond its packed bids) are solved by the
// float64 O(n^3) Hungarian (lap_n3_f64 and its batch twin): every cost
// within ExactFloatLimit keeps every dual and sum of the algorithm an
// integer below 2^53, so float64 computes them exactly; the duals are
// then taken back to int64 and the answer certified exactly (lap.Certify).
// Costs beyond the limit are refused with the reason, wrapping
// lap.ErrRange.

// ExactFloatLimit is the largest |c_ij| of an integer problem with cols
// columns that the float64 kernels solve exactly: the O(n^3) Hungarian's
// duals stay within (cols+1) times the cost span, so 2^53 / (8 (cols+1))
// leaves every sum a margin.
func ExactFloatLimit(cols int) int64 { return (1 << 53) / (8 * (int64(cols) + 1)) }

// checkExactFloat refuses costs beyond ExactFloatLimit with the reason the
// int32 path could not take them (why), naming the first such cost by
// where.
func checkExactFloat(impl string, c []int64, cols int, why string, where func(k int) string) error {
	lim := ExactFloatLimit(cols)
	for k, x := range c {
		if x > lim || x < -lim {
			return fmt.Errorf("%s: %w: %s; the float64 kernel that solves such costs exactly takes |c| up to %d with %d columns, and %s holds %d: scale the costs down, or use cpu/jv (int64)",
				impl, lap.ErrRange, why, lim, cols, where(k), x)
		}
	}
	return nil
}

// solveWide solves m with the float64 kernel and certifies the answer
// exactly (see above); why says why the int32 paths could not.
func solveWide(ctx context.Context, impl string, m *lap.Matrix, why string, opt Options) (*lap.Result, error) {
	if err := checkExactFloat(impl, m.C, m.Cols, why, func(k int) string {
		return fmt.Sprintf("row %d, column %d", k/m.Cols+1, k%m.Cols+1)
	}); err != nil {
		return nil, err
	}
	f := m.Float()
	fres, err := n3Float(ctx, impl+" (int64 costs in float64)", m.Rows, m.Cols, f.C, opt)
	if err != nil {
		return nil, err
	}
	return intResult(m, fres)
}

// intResult takes a float64 answer of an integer problem back to int64:
// duals that must be integers (any that is not is an error), the cost
// recomputed in int64, and the whole certified exactly by lap.Certify.
func intResult(m *lap.Matrix, f *lap.FloatResult) (*lap.Result, error) {
	res := &lap.Result{Assignment: f.Assignment, Cost: m.CostOf(f.Assignment)}
	var err error
	if res.U, err = integers(f.U, "u"); err == nil {
		res.V, err = integers(f.V, "v")
	}
	if err == nil {
		err = lap.Certify(m, res)
	}
	if err != nil {
		return nil, fmt.Errorf("the float64 kernel's answer on integer costs failed the exact certificate: %w", err)
	}
	return res, nil
}

// integers converts duals that hold integers exactly.
func integers(x []float64, name string) ([]int64, error) {
	out := make([]int64, len(x))
	for i, v := range x {
		if v != math.Trunc(v) || math.Abs(v) > 1<<62 {
			return nil, fmt.Errorf("dual %s[%d] = %v is not an integer within int64", name, i, v)
		}
		out[i] = int64(v)
	}
	return out, nil
}

// solveWideBatch is solveWide on an integer batch some of whose costs are
// beyond int32 (the batch kernel's integer cost type): the float64 batch
// kernel, each result taken back to int64 and certified exactly.
func solveWideBatch(ctx context.Context, impl string, b *lap.Batch, why error, opt Options) (*lap.BatchOutput, error) {
	if err := b.Validate(); err != nil { // a cost beyond MaxAbsCost after the first beyond int32
		return nil, fmt.Errorf("%s: %s: %w", impl, b.Name, err)
	}
	size := b.Size()
	if err := checkExactFloat(impl, b.Int, b.Cols, why.Error(), func(k int) string {
		return fmt.Sprintf("problem %d, row %d, column %d", k/size+1, k%size/b.Cols+1, k%b.Cols+1)
	}); err != nil {
		return nil, err
	}
	f := make([]float64, len(b.Int))
	for k, x := range b.Int {
		f[k] = float64(x)
	}
	fres, err := SolveBatchFloat(ctx, b.Count, b.Rows, b.Cols, f, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name, err)
	}
	out := &lap.BatchOutput{Int: make([]*lap.Result, b.Count)}
	err = lap.ForEachProblem(ctx, b.Count, 0, func(k int) error {
		res, err := intResult(b.Matrix(k), fres[k])
		if err != nil {
			return fmt.Errorf("problem %d: %w", k+1, err)
		}
		out.Int[k] = res
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", impl, b.Name, err)
	}
	return out, nil
}

// isRange reports whether err is a cost beyond the int32 batch kernel.
func isRange(err error) bool { return errors.Is(err, lap.ErrRange) }
