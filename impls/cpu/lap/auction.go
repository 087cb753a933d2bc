package lap

import (
	"context"
	"fmt"
	"math"

	"github.com/semibench/semibench/problems/lap"

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
func SolveAuction(ctx context.Context, m *lap.Matrix, rec *bench.Recorder) (*lap.Result, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	defer rec.Start("auction")()
	a, err := auction(ctx, m)
	if err != nil {
		return nil, err
	}
	return &lap.Result{Assignment: a, Cost: m.CostOf(a)}, nil
}

// auction minimises sum c_ij·K + p_j style bids; prices only rise.
func auction(ctx context.Context, m *lap.Matrix) ([]int, error) {
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
	// With virtual rows (r < n) a min-heap of the prices finds their
	// object in O(log n) instead of a scan of all n.
	var h *priceHeap
	if r < n {
		if n > math.MaxInt32 {
			return nil, fmt.Errorf("%w: cpu/auction indexes objects with int32; %d columns", lap.ErrShape, n)
		}
		h = newPriceHeap(price)
	}
	bids := 0
	for {
		// A uniform shift of the prices changes no bid; keeping the least
		// price at 0 bounds every price by about the cost range plus
		// epsilon (the spread of an epsilon-optimal phase's end), where
		// they would otherwise drift up by the range in every phase.
		lowest := price[0]
		for _, p := range price {
			lowest = min(lowest, p)
		}
		for j := range owner {
			owner[j] = -1
			assigned[j] = -1
			price[j] -= lowest
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
				// A virtual row: every object costs it 0, so it bids for
				// the cheapest object, found at the top of the heap.
				j1, best, second = h.top2()
			}
			price[j1] += second - best + eps
			if h != nil {
				h.raised(j1)
			}
			if old := owner[j1]; old >= 0 {
				assigned[old] = -1
				queue = append(queue, old)
			}
			owner[j1], assigned[i] = i, j1
			if price[j1] > math.MaxInt64/4 {
				// Unreachable within MaxAbsCost; a guard, never a wrap.
				return nil, fmt.Errorf("%w: auction prices beyond int64 range", lap.ErrOverflow)
			}
			bids++
			if bids&4095 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
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

// priceHeap is an indexed binary min-heap of object prices. Prices only
// rise, so an update sifts down.
type priceHeap struct {
	price []int64
	heap  []int32 // object at each heap slot
	pos   []int32 // heap slot of each object
}

func newPriceHeap(price []int64) *priceHeap {
	h := &priceHeap{price: price, heap: make([]int32, len(price)), pos: make([]int32, len(price))}
	for j := range price {
		h.heap[j], h.pos[j] = int32(j), int32(j)
	}
	for k := len(price)/2 - 1; k >= 0; k-- {
		h.down(k)
	}
	return h
}

// top2 returns the cheapest object, its price and the second lowest price
// (n >= 2).
func (h *priceHeap) top2() (j int, best, second int64) {
	j = int(h.heap[0])
	second = h.price[h.heap[1]]
	if len(h.heap) > 2 {
		second = min(second, h.price[h.heap[2]])
	}
	return j, h.price[j], second
}

// raised restores the heap after object j's price rose.
func (h *priceHeap) raised(j int) { h.down(int(h.pos[j])) }

func (h *priceHeap) down(k int) {
	n := len(h.heap)
	for {
		l := 2*k + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && h.price[h.heap[r]] < h.price[h.heap[l]] {
			c = r
		}
		if h.price[h.heap[c]] >= h.price[h.heap[k]] {
			return
		}
		h.heap[k], h.heap[c] = h.heap[c], h.heap[k]
		h.pos[h.heap[k]], h.pos[h.heap[c]] = int32(k), int32(c)
		k = c
	}
}
