package lap

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// bruteForce returns the least cost of an assignment of an r x c matrix
// avoiding the forbidden cells (+Inf), and false when there is none.
func bruteForce(rows, cols int, c []float64) (float64, bool) {
	best, found := math.Inf(1), false
	used := make([]bool, cols)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == rows {
			if sum < best {
				best, found = sum, true
			}
			return
		}
		for j := range cols {
			if !used[j] && !math.IsInf(c[i*cols+j], 1) {
				used[j] = true
				rec(i+1, sum+c[i*cols+j])
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best, found
}

// TestSolveForbidden holds Solve on random matrices with forbidden cells
// (integer and float, minimising and maximising, square and rectangular)
// to brute force: the same optimum, or ErrInfeasible exactly when no
// assignment avoids them.
func TestSolveForbidden(t *testing.T) {
	ctx := context.Background()
	im := Impl{Name: "cpu/jv", Solve: SolveJV, SolveFloat: SolveJVFloat}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		rows := 1 + rng.IntN(5)
		cols := rows + rng.IntN(3)
		maximize := trial%2 == 1
		float := trial%3 == 0
		density := []float64{0.1, 0.4, 0.7}[trial%3]
		c := &Costs{Name: "t.csv", Rows: rows, Cols: cols}
		ref := make([]float64, rows*cols) // the costs as minimised, +Inf forbidden
		for k := range ref {
			if rng.Float64() < density {
				c.Inf = append(c.Inf, InfCell{K: k, Neg: maximize, Line: k/cols + 1})
				ref[k] = math.Inf(1)
				if float {
					c.Float = append(c.Float, 0)
				} else {
					c.Int = append(c.Int, 0)
				}
				continue
			}
			x := float64(rng.IntN(41) - 20)
			if float {
				x += 0.25
				c.Float = append(c.Float, x)
			} else {
				c.Int = append(c.Int, int64(x))
			}
			ref[k] = x
			if maximize {
				ref[k] = -x
			}
		}
		want, feasible := bruteForce(rows, cols, ref)
		sol, err := Solve(ctx, c, im, maximize)
		if !feasible {
			if !errors.Is(err, ErrInfeasible) || !strings.Contains(err.Error(), "t.csv") {
				t.Fatalf("trial %d: err %v, want ErrInfeasible naming the file", trial, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		got, _ := sol.Cost.Float64()
		if maximize {
			got = -got
		}
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("trial %d (%dx%d, maximize %v): cost %v, brute force %v", trial, rows, cols, maximize, got, want)
		}
		for i, j := range sol.Assignment {
			if math.IsInf(ref[i*cols+j], 1) {
				t.Fatalf("trial %d: row %d assigned to its forbidden column %d", trial, i, j)
			}
		}
	}
}

func TestSolveRefusesWrongInfinity(t *testing.T) {
	ctx := context.Background()
	im := Impl{Name: "cpu/jv", Solve: SolveJV, SolveFloat: SolveJVFloat}
	c, err := ReadCosts(strings.NewReader("1,2\n-inf,3\n"), "m.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Solve(ctx, c, im, false)
	if !errors.Is(err, ErrNotFinite) || !strings.HasPrefix(err.Error(), "m.csv:2: ") || !strings.Contains(err.Error(), "row 2, column 1") {
		t.Fatalf("minimising with -inf: %v", err)
	}
	if sol, err := Solve(ctx, c, im, true); err != nil || sol.Cost != "4" {
		t.Fatalf("maximising with -inf forbidden: %v %v, want cost 4", sol, err)
	}
}

func TestStandInOverflow(t *testing.T) {
	lim := MaxAbsCost(2)
	_, err := withStandIns([]int64{-lim, lim, 0, 0}, []int{2}, 4, 2, lim, func(int) string { return "" })
	if !errors.Is(err, ErrOverflow) || !strings.Contains(err.Error(), "stand-in") {
		t.Fatalf("err %v, want the stand-in refused", err)
	}
}

func TestSolveBatchForbidden(t *testing.T) {
	ctx := context.Background()
	im := Impl{Name: "cpu/jv", Solve: SolveJV, SolveFloat: SolveJVFloat,
		SolveBatch: func(ctx context.Context, b *Batch, workers int, _ *bench.Recorder) (*BatchOutput, error) {
			return SolveBatch(ctx, b, Impl{Name: "cpu/jv", Solve: SolveJV, SolveFloat: SolveJVFloat}, workers)
		}}
	b, err := ReadBatch(strings.NewReader("lapbatch 2 2 2\n1,inf\n2,1\n\ninf,1\n3,inf\n"), "b.txt")
	if err != nil {
		t.Fatal(err)
	}
	res, err := SolveBatchChecked(ctx, b, im, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.CostText(0, false) != "2" || res.CostText(1, false) != "4" {
		t.Fatalf("costs %s, %s; want 2 and 4", res.CostText(0, false), res.CostText(1, false))
	}
	bad, _ := ReadBatch(strings.NewReader("lapbatch 2 2 2\n1,2\n2,1\n\ninf,1\ninf,5\n"), "b.txt")
	if _, err := SolveBatchChecked(ctx, bad, im, false); !errors.Is(err, ErrInfeasible) || !strings.Contains(err.Error(), "problem 2") || !strings.HasPrefix(err.Error(), "b.txt: ") {
		t.Fatalf("infeasible problem 2: %v", err)
	}
}
