package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/problems/lap"
)

// writeCosts writes count n x n matrices of range label from seed as gen
// lap does (CSV for count 0, else a batch file) and returns the path.
func writeCosts(t *testing.T, n, count int, label string, seed uint64) string {
	t.Helper()
	rng, err := lapcost.Range(label, n)
	if err != nil {
		t.Fatal(err)
	}
	c, err := lapcost.GenerateBatch(max(count, 1), n, n, rng, seed)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if count > 0 {
		fmt.Fprintf(&b, "lapbatch %d %d %d\n", count, n, n)
	}
	for i := range max(count, 1) * n {
		if count > 0 && i > 0 && i%n == 0 {
			b.WriteByte('\n')
		}
		for j, v := range c[i*n : (i+1)*n] {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprint(&b, v)
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "c.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheckPeerCost: the optimum passes, a cost one off fails with its
// error, and another seed's matrix is refused as not the cell's.
func TestCheckPeerCost(t *testing.T) {
	ctx := context.Background()
	cell := PeerCell{N: 12, Range: "n", Seed: 3}
	path := writeCosts(t, 12, 0, "n", 3)
	costs, err := lap.ReadCostsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := lap.SolveJV(ctx, costs.Matrix(), nil)
	if err != nil {
		t.Fatal(err)
	}
	in, chk, err := CheckPeerCost(ctx, path, cell, ref.Cost)
	if err != nil || !chk.OK || in.Hash != lapcost.Hash(costs.Int) || in.Seed != 3 {
		t.Fatalf("the optimum: %+v %+v %v", in, chk, err)
	}
	_, chk, err = CheckPeerCost(ctx, path, cell, ref.Cost+1)
	if err != nil || chk.OK || chk.MaxErr != 1 {
		t.Errorf("one above the optimum: %+v %v", chk, err)
	}
	other := writeCosts(t, 12, 0, "n", 4)
	if _, _, err := CheckPeerCost(ctx, other, cell, ref.Cost); err == nil || !strings.Contains(err.Error(), "not the cell's instance") {
		t.Errorf("seed 4's matrix for seed 3's cell: %v", err)
	}
}

// TestCheckPeerCosts: a batch's optima pass; one objective off fails,
// naming its problem; objectives that do not match the count, or a bad
// line of their file, are errors naming the file and line.
func TestCheckPeerCosts(t *testing.T) {
	ctx := context.Background()
	cell := PeerCell{N: 5, Range: "n", Count: 4, Seed: 1}
	path := writeCosts(t, 5, 4, "n", 1)
	b, err := lap.ReadBatchFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := lap.JV.SolveBatch(ctx, b, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	objectives := func(costs ...int64) *lap.BatchOutput {
		out := &lap.BatchOutput{}
		for _, c := range costs {
			out.Int = append(out.Int, &lap.Result{Cost: c})
		}
		return out
	}
	opt := make([]int64, 4)
	var lines []string
	for k := range opt {
		opt[k] = ref.Int[k].Cost
		lines = append(lines, fmt.Sprint(opt[k]))
	}
	if _, chk, err := CheckPeerCosts(ctx, path, cell, objectives(opt...)); err != nil || !chk.OK {
		t.Fatalf("the optima: %+v %v", chk, err)
	}
	off := append([]int64(nil), opt...)
	off[2] += 7
	if _, chk, err := CheckPeerCosts(ctx, path, cell, objectives(off...)); err != nil || chk.OK || chk.MaxErr != 7 || !strings.Contains(chk.Detail, "problem 3") {
		t.Errorf("problem 3 off by 7: %+v %v", chk, err)
	}
	// An assignment, where given, must cost the optimum.
	withA := &lap.BatchOutput{Int: slices.Clone(ref.Int)}
	swapped := *ref.Int[1]
	swapped.Assignment = slices.Clone(swapped.Assignment)
	swapped.Assignment[0], swapped.Assignment[1] = swapped.Assignment[1], swapped.Assignment[0]
	withA.Int[1] = &swapped
	if b.Matrix(1).CostOf(swapped.Assignment) == opt[1] {
		t.Fatal("the swap kept the optimum: pick another problem")
	}
	if _, chk, err := CheckPeerCosts(ctx, path, cell, withA); err != nil || chk.OK || !strings.Contains(chk.Detail, "problem 2: the assignment costs") {
		t.Errorf("a swapped assignment: %+v %v", chk, err)
	}
	if _, _, err := CheckPeerCosts(ctx, path, cell, objectives(opt[:3]...)); err == nil {
		t.Errorf("3 objectives for 4 problems passed")
	}
	file := filepath.Join(t.TempDir(), "costs.txt")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if got, err := ReadAnswers(file, 4, false); err != nil || got.Len() != 4 || got.Int[3].Cost != opt[3] || got.Int[3].Assignment != nil {
		t.Errorf("ReadAnswers: %+v %v, want %v", got, err, opt)
	}
	lines[1] = "x"
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if _, err := ReadAnswers(file, 4, false); err == nil || !strings.Contains(err.Error(), file+":2:") {
		t.Errorf("a bad line: %v, want it named %s:2:", err, file)
	}
}

// TestCheckPeerCostsFloat: the fixture testdata/uniform01-3x4x5.txt is
// `semibench gen lap --dist uniform01 --n 4 --cols 5 --count 3`; the
// answers of testdata/uniform01-3x4x5.answers (each problem's optimal
// assignment and its cost summed in float32, as a peer reports them) pass;
// a suboptimal assignment, an objective beyond the float32 bound, a line
// without its assignment and another seed's batch do not.
func TestCheckPeerCostsFloat(t *testing.T) {
	ctx := context.Background()
	cell := PeerCell{N: 4, Cols: 5, Dist: lapcost.Uniform01, Count: 3, Seed: 1}
	path, answers := filepath.Join("testdata", "uniform01-3x4x5.txt"), filepath.Join("testdata", "uniform01-3x4x5.answers")
	ans, err := ReadAnswers(answers, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	in, chk, err := CheckPeerCosts(ctx, path, cell, ans)
	if err != nil || !chk.OK {
		t.Fatalf("the optima: %+v %v", chk, err)
	}
	w, err := lapcost.GenerateUniform01Batch(ctx, 3, 4, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if in.Hash != lapcost.HashFloat32(w) || in.Seed != 1 {
		t.Errorf("input %+v, want the generator's digest %s", in, lapcost.HashFloat32(w))
	}
	// The next-best assignment of problem 2: a grid step or more above.
	b, err := lap.ReadBatchFile(path)
	if err != nil {
		t.Fatal(err)
	}
	worse := *ans.Float[1]
	worse.Assignment = slices.Clone(worse.Assignment)
	free := 0
	for slices.Contains(worse.Assignment, free) {
		free++
	}
	worse.Assignment[0] = free // the only free column of a 4x5 problem
	worse.Cost = b.FloatMatrix(1).CostOf(worse.Assignment)
	bad := &lap.BatchOutput{Float: []*lap.FloatResult{ans.Float[0], &worse, ans.Float[2]}}
	if _, chk, err := CheckPeerCosts(ctx, path, cell, bad); err != nil || chk.OK || !strings.Contains(chk.Detail, "problem 2: the assignment costs") {
		t.Errorf("a suboptimal assignment: %+v %v", chk, err)
	}
	// An objective a float32 sum cannot be: 1e-3 off.
	far := *ans.Float[2]
	far.Cost += 1e-3
	bad = &lap.BatchOutput{Float: []*lap.FloatResult{ans.Float[0], ans.Float[1], &far}}
	if _, chk, err := CheckPeerCosts(ctx, path, cell, bad); err != nil || chk.OK || !strings.Contains(chk.Detail, "problem 3: reported cost") {
		t.Errorf("an objective 1e-3 off: %+v %v", chk, err)
	}
	// A float cell's line needs its assignment.
	short := filepath.Join(t.TempDir(), "objectives.txt")
	os.WriteFile(short, []byte("1.5\n1.25\n1\n"), 0o644)
	if _, err := ReadAnswers(short, 3, true); err == nil || !strings.Contains(err.Error(), short+":1: no assignment") {
		t.Errorf("objectives alone for a float cell: %v", err)
	}
	seed2 := cell
	seed2.Seed = 2
	if _, _, err := CheckPeerCosts(ctx, path, seed2, ans); err == nil || !strings.Contains(err.Error(), "not the cell's batch") ||
		!strings.Contains(err.Error(), "gen lap --dist uniform01 --n 4 --cols 5 --count 3 --seed 2") {
		t.Errorf("seed 1's batch for seed 2's cell: %v", err)
	}
}
