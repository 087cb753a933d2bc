package cudalap

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/lap"
)

// BenchmarkBatchFloat32 times SolveBatchFloat on float32 costs uniform in
// [0, 1) (multiples of 2^-24) in the shapes of hungarian/batch-float: each
// phase per op (h2d, solve, d2h, total and end_to_end among them), as
// <phase>-ms/op, after a warm-up. With -cpuprofile it shows where the host
// side of end_to_end goes. Every answer must assign each row a distinct
// column (checked outside the measured window).
func BenchmarkBatchFloat32(b *testing.B) {
	if !hasGPU() {
		b.Skip("no CUDA device")
	}
	for _, sh := range []struct{ rows, cols, count int }{{20, 40, 5000}, {100, 300, 208}, {300, 600, 208}} {
		b.Run(fmt.Sprintf("%dx%dx%d", sh.count, sh.rows, sh.cols), func(b *testing.B) {
			rnd := rand.New(rand.NewPCG(uint64(sh.rows), uint64(sh.cols)))
			costs := make([]float32, sh.count*sh.rows*sh.cols)
			for i := range costs {
				costs[i] = float32(rnd.IntN(1<<24)) / (1 << 24)
			}
			var res []*lap.FloatResult
			solve := func(rec *bench.Recorder) error {
				var err error
				res, err = SolveBatchFloat(context.Background(), sh.count, sh.rows, sh.cols, costs, Options{Rec: rec})
				return err
			}
			check := func() error {
				for k, r := range res {
					seen := make(map[int]bool, len(r.Assignment))
					for _, j := range r.Assignment {
						if j < 0 || j >= sh.cols || seen[j] {
							return fmt.Errorf("problem %d: assignment %v", k+1, r.Assignment)
						}
						seen[j] = true
					}
				}
				return nil
			}
			if err := solve(nil); err != nil {
				b.Fatalf("warm-up: %v", err)
			}
			benchPhases(b, func(_ context.Context, rec *bench.Recorder) error { return solve(rec) }, check)
		})
	}
}

// BenchmarkBatchResults times the host's building of a float32 batch's
// results from its downloaded columns and duals (floatResults), no GPU
// needed: 5,000 problems of 20x40 and 208 of 300x600, each column j of
// problem k holding row (j + k) mod cols + 1 where that is a row.
func BenchmarkBatchResults(b *testing.B) {
	for _, sh := range []struct{ rows, cols, count int }{{20, 40, 5000}, {300, 600, 208}} {
		b.Run(fmt.Sprintf("%dx%dx%d", sh.count, sh.rows, sh.cols), func(b *testing.B) {
			r, c, n := sh.rows, sh.cols, sh.count
			costs := make([]float32, n*r*c)
			p := make([]int32, n*(c+1))
			u, v := make([]float64, n*(r+1)), make([]float64, n*(c+1))
			for k := range n {
				for j := 1; j <= c; j++ {
					if i := (j + k) % c; i < r {
						p[k*(c+1)+j] = int32(i + 1)
					}
				}
			}
			for b.Loop() {
				if _, err := floatResults(n, r, c, costs, p, u, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
