package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
	opt := make([]int64, 4)
	var lines []string
	for k := range opt {
		opt[k] = ref.Int[k].Cost
		lines = append(lines, fmt.Sprint(opt[k]))
	}
	if _, chk, err := CheckPeerCosts(ctx, path, cell, opt); err != nil || !chk.OK {
		t.Fatalf("the optima: %+v %v", chk, err)
	}
	off := append([]int64(nil), opt...)
	off[2] += 7
	if _, chk, err := CheckPeerCosts(ctx, path, cell, off); err != nil || chk.OK || chk.MaxErr != 7 || !strings.Contains(chk.Detail, "problem 3") {
		t.Errorf("problem 3 off by 7: %+v %v", chk, err)
	}
	if _, _, err := CheckPeerCosts(ctx, path, cell, opt[:3]); err == nil {
		t.Errorf("3 objectives for 4 problems passed")
	}
	file := filepath.Join(t.TempDir(), "costs.txt")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if got, err := ReadObjectives(file, 4); err != nil || fmt.Sprint(got) != fmt.Sprint(opt) {
		t.Errorf("ReadObjectives: %v %v, want %v", got, err, opt)
	}
	lines[1] = "x"
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if _, err := ReadObjectives(file, 4); err == nil || !strings.Contains(err.Error(), file+":2:") {
		t.Errorf("a bad line: %v, want it named %s:2:", err, file)
	}
}
