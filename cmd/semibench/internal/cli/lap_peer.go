package cli

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/problems/lap"
)

// The checks of a published code's answers (`semibench peers record`):
// the instance it solved must be the cell's, and each objective it reports
// the optimum that SolveJV finds and Certify proves.

// PeerCell names the instance of a Hungarian cell a peer ran: n x n
// uniform integer costs of the range label ("0.1n", "n", "10n") from the
// seed; Count problems, problem k from seed+k, for hungarian/batch.
type PeerCell struct {
	N     int
	Range string
	Count int
	Seed  uint64
}

// CheckPeerCost checks that the cost matrix file at path is the cell's
// (the generator's bytes for its n, range and seed) and that cost, the
// optimum the peer reported, is the one SolveJV finds and its duals
// certify. The error is for a file that is not the cell's or cannot be
// read; a wrong cost is a failed check.
func CheckPeerCost(ctx context.Context, path string, cell PeerCell, cost int64) (*bench.Input, *bench.Check, error) {
	rng, err := lapcost.Range(cell.Range, cell.N)
	if err != nil {
		return nil, nil, fmt.Errorf("param range=%q: %w", cell.Range, err)
	}
	costs, err := lap.ReadCostsFile(path)
	if err != nil {
		return nil, nil, err
	}
	if !costs.IsInt() || costs.Rows != cell.N || costs.Cols != cell.N {
		return nil, nil, fmt.Errorf("%s: want %dx%d integer costs, got %dx%d", path, cell.N, cell.N, costs.Rows, costs.Cols)
	}
	want, err := lapcost.Generate(cell.N, cell.N, rng, cell.Seed)
	if err != nil {
		return nil, nil, err
	}
	hash := lapcost.Hash(costs.Int)
	if hash != lapcost.Hash(want) {
		return nil, nil, fmt.Errorf("%s is not the cell's instance (n=%d, range %s, seed %d): write it with `semibench gen lap --n %d --range %s --seed %d`",
			path, cell.N, cell.Range, cell.Seed, cell.N, cell.Range, cell.Seed)
	}
	m := costs.Matrix()
	ref, err := lap.SolveJV(ctx, m, nil)
	if err == nil {
		err = lap.Certify(m, ref)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("certifying the optimum of %s: %w", path, err)
	}
	in := &bench.Input{Generator: "lapcost", Seed: cell.Seed, Hash: hash,
		Description: fmt.Sprintf("%dx%d uniform integer costs in [0, %d) (range %s), from %s", cell.N, cell.N, rng, cell.Range, path)}
	chk := &bench.Check{Method: "the peer's reported cost = the optimum of the same instance found by cpu/jv and certified by its duals"}
	if cost != ref.Cost {
		chk.Detail = fmt.Sprintf("peer's cost %d, certified optimum %d", cost, ref.Cost)
		chk.MaxErr = math.Abs(float64(cost - ref.Cost))
		return in, chk, nil
	}
	chk.OK = true
	chk.Detail = fmt.Sprintf("optimal cost %d", cost)
	return in, chk, nil
}

// CheckPeerCosts checks that the batch file at path is the cell's (Count
// problems, problem k from seed+k, as hungarian/batch generates them) and
// that every objective the peer reported, costs[k] for problem k, is its
// problem's optimum found by lap.JV and certified by its duals.
func CheckPeerCosts(ctx context.Context, path string, cell PeerCell, costs []int64) (*bench.Input, *bench.Check, error) {
	rng, err := lapcost.Range(cell.Range, cell.N)
	if err != nil {
		return nil, nil, err
	}
	b, err := lap.ReadBatchFile(path)
	if err != nil {
		return nil, nil, err
	}
	if !b.IsInt() || b.Count != cell.Count || b.Rows != cell.N || b.Cols != cell.N {
		return nil, nil, fmt.Errorf("%s: want %d integer %dx%d problems, got %d of %dx%d", path, cell.Count, cell.N, cell.N, b.Count, b.Rows, b.Cols)
	}
	if len(costs) != cell.Count {
		return nil, nil, fmt.Errorf("%d objectives for %d problems", len(costs), cell.Count)
	}
	want, err := lapcost.GenerateBatch(cell.Count, cell.N, cell.N, rng, cell.Seed)
	if err != nil {
		return nil, nil, err
	}
	hash, err := lapcost.HashBatch(b.Int, cell.Count)
	if err != nil {
		return nil, nil, err
	}
	if wantHash, _ := lapcost.HashBatch(want, cell.Count); hash != wantHash {
		return nil, nil, fmt.Errorf("%s is not the cell's batch (n=%d, range %s, count %d, seed %d): write it with `semibench gen lap --n %d --range %s --count %d --seed %d`",
			path, cell.N, cell.Range, cell.Count, cell.Seed, cell.N, cell.Range, cell.Count, cell.Seed)
	}
	ref, err := lap.JV.SolveBatch(ctx, b, 0, nil)
	if err == nil {
		err = lap.CertifyBatch(b, ref, 0)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("certifying the optima of %s: %w", path, err)
	}
	in := &bench.Input{Generator: "lapcost", Seed: cell.Seed, Hash: hash,
		Description: fmt.Sprintf("%d problems of %dx%d uniform integer costs in [0, %d) (range %s), problem k from seed %d+k, from %s", cell.Count, cell.N, cell.N, rng, cell.Range, cell.Seed, path)}
	chk := &bench.Check{Method: "every objective the peer reported = its problem's optimum found by cpu/jv and certified by its duals"}
	bad := 0
	for k, c := range costs {
		if d := float64(c - ref.Int[k].Cost); d != 0 {
			if bad == 0 {
				chk.Detail = fmt.Sprintf("problem %d: peer's cost %d, certified optimum %d", k+1, c, ref.Int[k].Cost)
			}
			bad++
			chk.MaxErr = max(chk.MaxErr, math.Abs(d))
		}
	}
	if bad > 0 {
		chk.Detail = fmt.Sprintf("%d of %d objectives off the optimum; first: %s", bad, cell.Count, chk.Detail)
		return in, chk, nil
	}
	chk.OK = true
	chk.Detail = fmt.Sprintf("%d objectives, every one optimal", cell.Count)
	return in, chk, nil
}

// ReadObjectives reads count integers, one per line, from the file at
// path (a peer's reported objectives, in problem order), naming the file
// and line of a bad one.
func ReadObjectives(path string, count int) ([]int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []int64
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		v, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q is not an integer", path, i+1, line)
		}
		out = append(out, v)
	}
	if len(out) != count {
		return nil, fmt.Errorf("%s: %d objectives for %d problems", path, len(out), count)
	}
	return out, nil
}
