package impls

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/problems/lap"
)

// lapCases are assignment problems with their optimum, given as the CSV
// that `semibench solve lap` reads (inf forbids a cell) and solved through
// lap.Solve, which certifies every answer; or, with m set, a matrix handed
// to Impl.Solve directly, which must fail with err.
var lapCases = []struct {
	name     string
	csv      string
	m        *lap.Matrix
	maximize bool
	cost     string // the optimal total
	assign   []int  // the optimal assignment where it is unique
	err      error
	// float: the costs are not integers, so an implementation without
	// SolveFloat must refuse them with lap.ErrNeedsIntegers.
	float bool
}{
	{name: "1x1", csv: "7", cost: "7", assign: []int{0}},
	{name: "1x1 negative", csv: "-7", cost: "-7", assign: []int{0}},
	{name: "1x5 tie", csv: "4,2,9,2,5", cost: "2"},
	{name: "2x2 tie", csv: "1,2\n3,4", cost: "5"},
	{name: "all equal", csv: "5,5,5\n5,5,5\n5,5,5", cost: "15"},
	{name: "3x3", csv: "4,1,3\n2,0,5\n3,2,2", cost: "5", assign: []int{1, 0, 2}},
	{name: "3x3 maximised", csv: "4,1,3\n2,0,5\n3,2,2", maximize: true, cost: "11", assign: []int{0, 2, 1}},
	{name: "negative", csv: "-1,-5\n-3,-2", cost: "-8", assign: []int{1, 0}},
	{name: "rectangular", csv: "1,9,2\n9,1,3", cost: "2", assign: []int{0, 1}},
	// The row minima all sit in column 1: a greedy start must undo them.
	{name: "same-column minima", csv: "0,9,9,9\n0,8,7,9\n0,7,9,8\n0,9,8,7", cost: "21", assign: []int{0, 2, 1, 3}},
	{name: "forbidden optimum", csv: "inf,5\n5,1", cost: "10", assign: []int{1, 0}},
	{name: "forbidden, maximised", csv: "-inf,1\n1,9", maximize: true, cost: "2", assign: []int{1, 0}},
	{name: "infeasible", csv: "inf,inf\n1,2", err: lap.ErrInfeasible},
	{name: "float", csv: "0.5,1.5\n2.25,0.25", float: true, cost: "0.75", assign: []int{0, 1}},
	{name: "empty", m: &lap.Matrix{}, err: lap.ErrShape},
	{name: "more rows than columns", m: &lap.Matrix{Rows: 3, Cols: 2, C: make([]int64, 6)}, err: lap.ErrShape},
	{name: "short", m: &lap.Matrix{Rows: 2, Cols: 2, C: make([]int64, 3)}, err: lap.ErrShape},
	{name: "too large", m: &lap.Matrix{Rows: 2, Cols: 2, C: []int64{0, lap.MaxAbsCost(2) + 1, 0, 0}}, err: lap.ErrOverflow},
	{name: "too negative", m: &lap.Matrix{Rows: 2, Cols: 2, C: []int64{0, math.MinInt64, 0, 0}}, err: lap.ErrOverflow},
}

// TestLAPCases runs lapCases against every implementation in impls.LAP.
func TestLAPCases(t *testing.T) {
	for _, im := range LAP.All() {
		t.Run(im.Name, func(t *testing.T) {
			skipWithoutDevice(t, im.Name)
			for _, tc := range lapCases {
				if tc.m != nil {
					if _, err := im.Solve(t.Context(), tc.m, nil); !errors.Is(err, tc.err) {
						t.Errorf("%s: got %v, want %v", tc.name, err, tc.err)
					}
					continue
				}
				costs, err := lap.ReadCosts(strings.NewReader(tc.csv), tc.name)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				want := tc.err
				if tc.float && im.SolveFloat == nil {
					want = lap.ErrNeedsIntegers
				}
				sol, err := lap.Solve(t.Context(), costs, im, tc.maximize)
				switch {
				case want != nil:
					if !errors.Is(err, want) {
						t.Errorf("%s: got %v, want %v", tc.name, err, want)
					}
				case err != nil:
					t.Errorf("%s: %v", tc.name, err)
				case sol.Cost.String() != tc.cost:
					t.Errorf("%s: cost %s, want %s (assignment %v)", tc.name, sol.Cost, tc.cost, sol.Assignment)
				case tc.assign != nil && !slices.Equal(sol.Assignment, tc.assign):
					t.Errorf("%s: assignment %v, want %v", tc.name, sol.Assignment, tc.assign)
				}
			}
		})
	}
}

// TestLAPBatchFloat32 solves batches of float32 costs k·2^-24 (square and
// rectangular, one problem of 1 x 1) with cuda/fast's float32 batch solver
// and holds every answer to the exactly certified optima
// (lap.CertifyOptima); without a device the error matches ErrUnavailable.
func TestLAPBatchFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range []struct{ count, rows, cols int }{{1, 1, 1}, {17, 8, 8}, {9, 20, 45}, {5, 64, 64}} {
		c := make([]float32, sh.count*sh.rows*sh.cols)
		b := &lap.Batch{Name: "float32", Count: sh.count, Rows: sh.rows, Cols: sh.cols, Float: make([]float64, len(c))}
		for i := range c {
			c[i] = float32(rng.IntN(1<<24)) / (1 << 24)
			b.Float[i] = float64(c[i])
		}
		res, err := LAPBatchFloat32(t.Context(), sh.count, sh.rows, sh.cols, c, nil)
		if !hasDevice() {
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("without a device: %v, want ErrUnavailable", err)
			}
			t.Skip("cuda/fast: no CUDA device here")
		}
		if err != nil {
			t.Fatalf("%+v: %v", sh, err)
		}
		opt, err := lap.CertifyOptima(t.Context(), b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if chk := opt.Check(&lap.BatchOutput{Float: res}, 0); !chk.OK {
			t.Errorf("%+v: %s", sh, chk.Detail)
		}
	}
}
