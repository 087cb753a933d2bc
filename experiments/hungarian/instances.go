package hungarian

import (
	"context"
	"fmt"
	"sync"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/problems/lap"
)

// The LAP costs of hungarian/table1, fig4 and fig5 (and of the tables derived
// from table1 when it is not in the run), generated, digested and certified
// once per run (Shared).

// lapShared is a LAP instance: the costs, their range and digest, and the
// certified optimum, computed once when a check first asks.
type lapShared struct {
	m    *lap.Matrix
	rng  int64
	hash string

	once sync.Once
	ref  *lap.Result
	err  error
}

// reference is the certified optimum (cpu/jv with its duals checked).
func (l *lapShared) reference() (*lap.Result, error) {
	l.once.Do(func() {
		l.ref, l.err = lap.SolveJV(context.Background(), l.m, nil)
		if l.err == nil {
			l.err = lap.Certify(l.m, l.ref)
		}
	})
	return l.ref, l.err
}

// lapInstance returns the run's n x n costs uniform in [0, range) of seed,
// generating and digesting them when no case has yet.
func lapInstance(ctx context.Context, opt experiments.Options, n int, rangeLabel string, seed uint64) (*lapShared, error) {
	key := fmt.Sprintf("lapcost n=%d range=%s seed=%d", n, rangeLabel, seed)
	l, _, _, err := experiments.Obtain(ctx, opt.Shared, key, "a hungarian case's setup", func(ctx context.Context) (*lapShared, uint64, error) {
		rng, err := lapcost.Range(rangeLabel, n)
		if err != nil {
			return nil, 0, err
		}
		c, err := lapcost.Generate(n, n, rng, seed)
		if err != nil {
			return nil, 0, err
		}
		return &lapShared{m: &lap.Matrix{Rows: n, Cols: n, C: c}, rng: rng, hash: lapcost.Hash(c)}, uint64(len(c)) * 8, nil
	})
	return l, err
}
