package cudalap

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/semibench/semibench/problems/lap"
)

// matchModel is kernels/lap_match.cu on the CPU, one level at a time, for
// tests without a GPU: after step 1 (step1Model) the same rounds of a
// breadth-first search over the zeros from every free column, with the
// same visits, claims and flips, on an n x n instance (row-major c). A
// level takes its zeros in the list's order (by column, then row, as step
// 1's segments hold them), one of the outcomes the kernel's atomics allow;
// in that order no tree claims a path after one of its zeros passed the
// test, so the kernel's released rows and repeated passes do not arise.
// It returns the stars by row (-1: none), the duals of step 1, and the
// rounds that flipped paths and the levels run.
func matchModel(n int, c []int64) (starCol []int, u, v []int64, rounds, levels int) {
	u, v = step1Model(n, c)
	type zero struct{ r, c int }
	var edges []zero
	for k := range n {
		for r := range n {
			if c[r*n+k]-u[r]-v[k] == 0 {
				edges = append(edges, zero{r, k})
			}
		}
	}
	starCol, starRow := make([]int, n), make([]int, n) // by row, by column
	level, tree, parent, end := make([]int, n), make([]int, n), make([]int, n), make([]int, n)
	for i := range n {
		starCol[i], starRow[i] = -1, -1
	}
	for {
		free := 0
		for k := range n {
			level[k], tree[k], end[k], parent[k] = -1, k, -1, -1
			if starRow[k] < 0 {
				level[k] = 0
				free++
			}
		}
		if free == 0 {
			return
		}
		paths := 0
		for L := 0; ; L++ {
			added := 0
			levels++
			for _, z := range edges {
				if level[z.c] != L {
					continue
				}
				t := tree[z.c]
				if end[t] >= 0 || parent[z.r] >= 0 {
					continue
				}
				parent[z.r] = z.c
				if s := starCol[z.r]; s < 0 {
					end[t] = z.r
					paths++
				} else {
					tree[s], level[s] = t, L+1
					added++
				}
			}
			if added == 0 {
				break
			}
		}
		if paths == 0 {
			return
		}
		for k := range n {
			r := end[k]
			if r < 0 || level[k] != 0 {
				continue
			}
			for {
				cc := parent[r]
				prev := starRow[cc]
				starRow[cc], starCol[r] = r, cc
				if prev < 0 {
					break
				}
				r = prev
			}
		}
		rounds++
	}
}

// maxZeroMatching is the size of a maximum matching of the zeros of
// c - u - v (n x n, row-major) by Kuhn's augmenting paths: the oracle for
// matchModel.
func maxZeroMatching(n int, c, u, v []int64) int {
	adj := make([][]int, n)
	for r := range n {
		for k := range n {
			if c[r*n+k]-u[r]-v[k] == 0 {
				adj[r] = append(adj[r], k)
			}
		}
	}
	rowOf := make([]int, n)
	for k := range rowOf {
		rowOf[k] = -1
	}
	var seen []bool
	var try func(r int) bool
	try = func(r int) bool {
		for _, k := range adj[r] {
			if seen[k] {
				continue
			}
			seen[k] = true
			if rowOf[k] < 0 || try(rowOf[k]) {
				rowOf[k] = r
				return true
			}
		}
		return false
	}
	size := 0
	for r := range n {
		seen = make([]bool, n)
		if try(r) {
			size++
		}
	}
	return size
}

// TestMatchModel: the matching of the zeros' CPU model stars only zeros,
// one a row and a column, as many as a maximum matching of the zeros has
// (Kuhn's), in at most n+1 rounds; where that matching is perfect it is an
// optimum, certified by step 1's duals and costing what cpu/jv's does.
// Instances: random at spans from 0.1n (about ten zeros a row) to 10n (a
// zero a row and a column at most, no perfect matching), negative costs,
// equal costs (every entry a zero) and c_ij = i·j.
func TestMatchModel(t *testing.T) {
	cases := modelCases(rand.New(rand.NewPCG(5, 41)), []int{1, 2, 5, 17, 64, 150, 300}, []float64{0.1, 0.25, 1, 10}, 60)
	perfect := 0
	for _, tc := range cases {
		m, n := tc.m, tc.m.Cols
		starCol, u, v, rounds, _ := matchModel(n, m.C)
		size := 0
		rowOfCol := make(map[int]int)
		for r, k := range starCol {
			if k < 0 {
				continue
			}
			size++
			if m.C[r*n+k]-u[r]-v[k] != 0 {
				t.Fatalf("%s n=%d: star (%d, %d) on slack %d", tc.name, n, r, k, m.C[r*n+k]-u[r]-v[k])
			}
			if r0, dup := rowOfCol[k]; dup {
				t.Fatalf("%s n=%d: column %d starred in rows %d and %d", tc.name, n, k, r0, r)
			}
			rowOfCol[k] = r
		}
		if want := maxZeroMatching(n, m.C, u, v); size != want {
			t.Errorf("%s n=%d: %d stars, a maximum matching of the zeros has %d", tc.name, n, size, want)
		}
		if rounds > n+1 {
			t.Errorf("%s n=%d: %d rounds", tc.name, n, rounds)
		}
		if size < n {
			continue
		}
		perfect++
		res := &lap.Result{Assignment: starCol, U: u, V: v, Cost: m.CostOf(starCol)}
		if err := lap.Certify(m, res); err != nil {
			t.Fatalf("%s n=%d: %v", tc.name, n, err)
		}
		ref, err := lap.SolveJV(context.Background(), m, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Cost != ref.Cost {
			t.Errorf("%s n=%d: cost %d, cpu/jv %d", tc.name, n, res.Cost, ref.Cost)
		}
	}
	if perfect == 0 || perfect == len(cases) {
		t.Errorf("%d of %d cases with a perfect matching of the zeros: the table should hold both kinds", perfect, len(cases))
	}
}

// TestMatchDense: lap_match replaces step 2 on square instances whose span
// is at most a quarter of the order, and only in the designs that allow it
// (cuda/fast's, not the paper's).
func TestMatchDense(t *testing.T) {
	for _, c := range []struct {
		r, c int
		span int64
		want bool
	}{
		{8192, 8192, 819, true}, {8192, 8192, 2048, true}, {8192, 8192, 2049, false}, {8192, 8192, 8192, false},
		{512, 512, 0, true}, {511, 512, 51, false}, {1, 1, 0, true},
	} {
		if got := matchDense(c.r, c.c, c.span); got != c.want {
			t.Errorf("matchDense(%d, %d, %d) = %v, want %v", c.r, c.c, c.span, got, c.want)
		}
	}
	for _, d := range []paperDesign{paperTuned, paperForest, paperAsPublished} {
		d.setSpan(4096, 4096, 409)
		if d.match != (d.impl == "cuda/fast") {
			t.Errorf("%s: match %v at span 0.1n", d.impl, d.match)
		}
	}
}

// TestMatchModelCounts logs matchModel's rounds and levels, and the free
// columns step 2's greedy pass would leave, on BenchmarkSolvers' instances
// at range 0.1n (what impls/cuda/lap/NOTES.md quotes). It runs when
// SEMIBENCH_MATCH_MODEL_COUNTS is set (n = 8192 takes seconds).
func TestMatchModelCounts(t *testing.T) {
	if os.Getenv("SEMIBENCH_MATCH_MODEL_COUNTS") == "" {
		t.Skip("set SEMIBENCH_MATCH_MODEL_COUNTS to count")
	}
	for _, n := range []int{1024, 2048, 4096, 8192} {
		for _, rf := range []float64{0.1, 1, 10} {
			m := randomMatrix(rand.New(rand.NewPCG(uint64(n), 7)), n, n, int64(rf*float64(n)))
			starCol, _, _, rounds, levels := matchModel(n, m.C)
			free := 0
			for _, k := range starCol {
				if k < 0 {
					free++
				}
			}
			_, _, _, st := forestModel(n, m.C, nil, forestGoOn)
			t.Logf("n=%d range %gn: %d rounds, %d levels, %d columns left free; step 2 left %d", n, rf, rounds, levels, free, st.FreeStart)
			if rf >= 1 && n <= 4096 {
				// The forest from step 2's stars and from the matching's.
				_, _, _, mt := forestModel(n, m.C, starCol, forestGoOn)
				nn := float64(n) * float64(n)
				for _, x := range []struct {
					from string
					st   forestModelStats
				}{{"step 2", st}, {"the matching", mt}} {
					t.Logf("  the forest from %s's stars: %d rounds, %d levels, %d dual updates; folded %.2fn² in levels, %.2fn² in repairs",
						x.from, x.st.ForestRounds, x.st.ForestLevels, x.st.ForestDuals, float64(x.st.LevelFolds)/nn, float64(x.st.RepairFolds)/nn)
				}
			}
		}
	}
}
