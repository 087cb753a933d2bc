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
// the optimum that cpu/jv finds and its integer duals prove (Certify).

// PeerCell names the instance of a Hungarian cell a peer ran: N x Cols
// costs (Cols 0: N x N) from the seed, uniform integers of the range label
// ("0.1n", "n", "10n") or, with Dist lapcost.Uniform01, float32 costs
// uniform in [0, 1); Count problems, problem k from seed+k, for the batch
// experiments (hungarian/batch, hungarian/batch-float).
type PeerCell struct {
	N, Cols int
	Range   string
	Dist    string // "": integers of Range; lapcost.Uniform01
	Count   int
	Seed    uint64
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
// problems, problem k from seed+k, as the batch experiments generate them)
// and that every answer the peer reported, ans's problem k for problem k
// (ReadAnswers), is its problem's optimum, proven exactly by
// lap.CertifyOptima (cpu/jv and its integer duals; float32 costs on their
// 2^-24 grid). An assignment, where given, must cost the optimum exactly;
// a float cell's objective, the peer's float32 sum, must lie within the
// float32 rounding bound of that sum (lap.Optima.Check with
// lap.Float32Unit). The error is for a file that is not the cell's or
// cannot be read; a wrong answer is a failed check.
func CheckPeerCosts(ctx context.Context, path string, cell PeerCell, ans *lap.BatchOutput) (*bench.Input, *bench.Check, error) {
	b, err := lap.ReadBatchFile(path)
	if err != nil {
		return nil, nil, err
	}
	if b.Count != cell.Count || b.Rows != cell.N || b.Cols != cell.cols() {
		return nil, nil, fmt.Errorf("%s: want %d problems of %dx%d, got %d of %dx%d", path, cell.Count, cell.N, cell.cols(), b.Count, b.Rows, b.Cols)
	}
	if ans == nil {
		return nil, nil, fmt.Errorf("no answers for %d problems", cell.Count)
	}
	if ans.Len() != cell.Count {
		return nil, nil, fmt.Errorf("%d objectives for %d problems", ans.Len(), cell.Count)
	}
	in, err := cell.checkBatch(ctx, b, path)
	if err != nil {
		return nil, nil, err
	}
	opt, err := lap.CertifyOptima(ctx, b, 0)
	if err != nil {
		return nil, nil, err
	}
	chk := opt.Check(ans, lap.Float32Unit)
	chk.Method = "the peer's answers: " + chk.Method
	return in, &chk, nil
}

// cols is the cell's number of columns.
func (c PeerCell) cols() int {
	if c.Cols == 0 {
		return c.N
	}
	return c.Cols
}

// checkBatch checks that b, read from path, is the cell's batch (its
// digest equal to the generator's) and describes it. A Uniform01 batch's
// costs are rounded to float32 first, as the peer reads them (the file
// holds the shortest decimals that read back as its float32 values), and
// left in b as those float32 values, exactly.
func (c PeerCell) checkBatch(ctx context.Context, b *lap.Batch, path string) (*bench.Input, error) {
	if len(b.Inf) > 0 {
		return nil, fmt.Errorf("%s: infinite costs (line %d first): not the cell's batch", path, b.Inf[0].Line)
	}
	var hash, want, what, gen string
	switch c.Dist {
	case "":
		rng, err := lapcost.Range(c.Range, c.N)
		if err != nil {
			return nil, err
		}
		if !b.IsInt() {
			return nil, fmt.Errorf("%s: want integer costs (range %s), got floats", path, c.Range)
		}
		w, err := lapcost.GenerateBatchContext(ctx, c.Count, c.N, c.cols(), rng, c.Seed)
		if err != nil {
			return nil, err
		}
		if hash, err = lapcost.HashBatch(b.Int, c.Count); err != nil {
			return nil, err
		}
		want, _ = lapcost.HashBatch(w, c.Count)
		what = fmt.Sprintf("%dx%d uniform integer costs in [0, %d) (range %s)", c.N, c.cols(), rng, c.Range)
		gen = fmt.Sprintf("--n %d --range %s", c.N, c.Range)
	case lapcost.Uniform01:
		got := make([]float32, len(b.Float))
		for i, x := range b.Float {
			got[i] = float32(x)
			b.Float[i] = float64(got[i])
		}
		w, err := lapcost.GenerateUniform01Batch(ctx, c.Count, c.N, c.cols(), c.Seed)
		if err != nil {
			return nil, err
		}
		hash, want = lapcost.HashFloat32(got), lapcost.HashFloat32(w)
		what = fmt.Sprintf("%dx%d float32 costs uniform in [0, 1) (%s)", c.N, c.cols(), lapcost.Uniform01)
		gen = fmt.Sprintf("--dist %s --n %d --cols %d", lapcost.Uniform01, c.N, c.cols())
	default:
		return nil, fmt.Errorf("cell costs %q: want integer costs or %s", c.Dist, lapcost.Uniform01)
	}
	if hash != want {
		return nil, fmt.Errorf("%s is not the cell's batch (%d problems of %s, seed %d): write it with `semibench gen lap %s --count %d --seed %d`",
			path, c.Count, what, c.Seed, gen, c.Count, c.Seed)
	}
	return &bench.Input{Generator: "lapcost", Seed: c.Seed, Hash: hash,
		Description: fmt.Sprintf("%d problems of %s, problem k from seed %d+k, from %s", c.Count, what, c.Seed, path)}, nil
}

// AnswersFormat describes the file of a batch peer's answers, for help
// texts.
const AnswersFormat = "one line per problem, in problem order: the objective the peer reported, then, comma-separated, the 0-based column of each row " +
	"(the lines semibench solve lap --batch writes); integers for integer cells, where the columns may be left out; " +
	"for float cells the objective as the peer summed it (float32; written exactly, e.g. Python's repr) and the columns, required"

// ReadAnswers reads a batch peer's answers (AnswersFormat) for count
// problems from the file at path: integer objectives, or float ones when
// float is set (then every line needs its assignment). Errors name the
// file and line.
func ReadAnswers(path string, count int, float bool) (*lap.BatchOutput, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := &lap.BatchOutput{}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i, line := range lines {
		fields := strings.Split(strings.TrimSpace(line), ",")
		var a []int
		for k, f := range fields[1:] {
			j, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || j < 0 {
				return nil, fmt.Errorf("%s:%d: column %d of the assignment, %q, is not a 0-based column", path, i+1, k+1, f)
			}
			a = append(a, j)
		}
		obj := strings.TrimSpace(fields[0])
		if !float {
			v, err := strconv.ParseInt(obj, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %q is not an integer", path, i+1, obj)
			}
			out.Int = append(out.Int, &lap.Result{Cost: v, Assignment: a})
			continue
		}
		v, err := strconv.ParseFloat(obj, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("%s:%d: %q is not a finite number", path, i+1, obj)
		}
		if a == nil {
			return nil, fmt.Errorf("%s:%d: no assignment: a float cell's line is its objective, then the 0-based column of each row", path, i+1)
		}
		out.Float = append(out.Float, &lap.FloatResult{Cost: v, Assignment: a})
	}
	if out.Len() != count {
		return nil, fmt.Errorf("%s: %d objectives for %d problems", path, out.Len(), count)
	}
	return out, nil
}
