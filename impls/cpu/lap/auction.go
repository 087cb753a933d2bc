package lap

import (
	"context"
	"fmt"
	"math"

	"github.com/semibench/semibench/bench"
)

// AuctionTheta is the factor epsilon shrinks by between scaling phases.
const AuctionTheta = 5

// SolveAuction solves m by Bertsekas' forward auction (Gauss-Seidel: one
// bidder at a time) with epsilon scaling. Costs are scaled by K = c+1 and
// the last phase runs with epsilon 1, which (being below K/c) makes the
// epsilon-optimal assignment optimal for the integer costs. With r < c,
// c - r virtual rows of cost zero make the problem square. The result has
// no duals (prices satisfy epsilon-complementary slackness only). One phase,
// "auction".
func SolveAuction(ctx context.Context, m *Matrix, rec *bench.Recorder) (*Result, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	defer rec.Start("auction")()
	a, err := auction(ctx, m)
	if err != nil {
		return nil, err
	}
	return &Result{Assignment: a, Cost: m.CostOf(a)}, nil
}

// auction minimises sum c_ij·K + p_j style bids; prices only rise.
func auction(ctx context.Context, m *Matrix) ([]int, error) {
	r, n := m.Rows, m.Cols
	if n == 1 {
		return []int{0}, nil
	}
	k := int64(n) + 1
	lo, hi := int64(0), int64(0) // range of scaled costs, virtual zeros included
	if r == n {
		lo, hi = math.MaxInt64, math.MinInt64
	}
	for _, x := range m.C {
		lo, hi = min(lo, x*k), max(hi, x*k)
	}
	price := make([]int64, n)
	owner := make([]int, n)    // person holding each object, -1 if none
	assigned := make([]int, n) // object of each person (virtual ones after r), -1 if none
	queue := make([]int, 0, n)
	eps := max(1, (hi-lo)/AuctionTheta)
	bids := 0
	for {
		for j := range owner {
			owner[j] = -1
			assigned[j] = -1
		}
		queue = queue[:0]
		for i := range n {
			queue = append(queue, i)
		}
		for len(queue) > 0 {
			i := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			best, second := int64(math.MaxInt64), int64(math.MaxInt64)
			j1 := -1
			if i < r {
				row := m.C[i*n : (i+1)*n]
				for j, c := range row {
					x := c*k + price[j]
					if x < second {
						if x < best {
							best, second, j1 = x, best, j
						} else {
							second = x
						}
					}
				}
			} else {
				for j, p := range price {
					if p < second {
						if p < best {
							best, second, j1 = p, best, j
						} else {
							second = p
						}
					}
				}
			}
			price[j1] += second - best + eps
			if old := owner[j1]; old >= 0 {
				assigned[old] = -1
				queue = append(queue, old)
			}
			owner[j1], assigned[i] = i, j1
			bids++
			if bids&4095 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if price[j1] > math.MaxInt64/4 {
					return nil, fmt.Errorf("%w: auction prices beyond int64 range", ErrOverflow)
				}
			}
		}
		if eps == 1 {
			break
		}
		eps = max(1, eps/AuctionTheta)
	}
	return assigned[:r], nil
}
