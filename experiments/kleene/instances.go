package kleene

import (
	"context"
	"fmt"

	"github.com/semibench/semibench/experiments"

	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// The random DAGs of kleene/table2 and table3, generated once per run with
// their reference closures (Shared).

// dagShared is a Kleene instance: the random DAG X, its digest, and the
// reference closure its checks compare with.
type dagShared struct {
	x    *maxplus.Matrix
	hash string
	ref  []float64
}

// dagInstance returns the run's random DAG of n nodes and seed (integer
// or N(0,1) weights) with its reference closure, generating and computing
// them when no case has yet.
func dagInstance(ctx context.Context, opt experiments.Options, n int, seed uint64, intWeights bool) (*dagShared, error) {
	key := fmt.Sprintf("dag n=%d seed=%d int-weights=%v", n, seed, intWeights)
	d, _, _, err := experiments.Obtain(ctx, opt.Shared, key, "a kleene case's setup", func(ctx context.Context) (*dagShared, uint64, error) {
		x, err := dag.Generate(n, seed, intWeights)
		if err != nil {
			return nil, 0, err
		}
		ref, err := kleene.Reference(ctx, x, opt.Threads)
		if err != nil {
			return nil, 0, err
		}
		return &dagShared{x: x, hash: x.Hash(), ref: ref}, 2 * uint64(n) * uint64(n) * 8, nil
	})
	return d, err
}
