package cudalap

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/semibench/semibench/problems/lap"
)

// step1Model is cuda/paper's step 1 on the CPU: the row minima u of the
// n x n costs c (row-major), then the column minima v of c - u.
func step1Model(n int, c []int64) (u, v []int64) {
	u, v = make([]int64, n), make([]int64, n)
	for r := range n {
		u[r] = math.MaxInt64
		for k := range n {
			u[r] = min(u[r], c[r*n+k])
		}
	}
	for k := range n {
		v[k] = math.MaxInt64
		for r := range n {
			v[k] = min(v[k], c[r*n+k]-u[r])
		}
	}
	return u, v
}

// forestModel is kernels/lap_forest.cu on the CPU, one level at a time, for
// tests without a GPU: the same forest, keys, rounds, claims, flips,
// settling and repairs, on an n x n integer instance (row-major c) started
// as cuda/paper's steps 1 and 2 start it (row minima, then column minima,
// then stars on zeros, greedily). A round goes on goOn levels after its
// first paths while they add columns (the kernel's goOn), its rows that
// reach a tree with a path staying candidates until the round's end. The
// rows a level processes in parallel it takes in order, so a claim goes
// to the lowest row: one of the outcomes the kernel's atomics allow. It
// returns the stars by row, the duals (c - u - v >= 0, zero on the stars)
// and what it did.
func forestModel(n int, c []int64, start []int, goOn int) (assign []int, u, v []int64, st forestModelStats) {
	cnt := &st.PaperCounts
	maxKey := &st.MaxKey
	const inf = int64(math.MaxInt64)
	u, v = step1Model(n, c)
	starCol, starRow := make([]int, n), make([]int, n) // by row, by column; -1: none
	for i := range n {
		starCol[i], starRow[i] = -1, -1
	}
	for r := range n {
		if start != nil {
			if k := start[r]; k >= 0 {
				starCol[r], starRow[k] = k, r
			}
			continue
		}
		for k := range n {
			if c[r*n+k]-u[r]-v[k] == 0 && starRow[k] < 0 {
				starCol[r], starRow[k] = k, r
				break
			}
		}
	}
	type entry struct {
		c, tree int
		off     int64 // D_c - v[c]: key(r, c) = slack0(r, c) + D_c with v[c] not yet settled
	}
	const (
		candidate = iota
		inS
		end
	)
	root, found := make([]int, n), make([]int, n)
	djoin := make([]int64, n)
	key, rjoin := make([]int64, n), make([]int64, n)
	arg, tree, state, parCol, parRow := make([]int, n), make([]int, n), make([]int, n), make([]int, n), make([]int, n)
	repair := make([]bool, n)
	var in, full []entry
	for k := range n {
		root[k], found[k] = -1, -1
		if starRow[k] < 0 {
			root[k] = k
			in = append(in, entry{k, k, -v[k]})
		}
	}
	for r := range n {
		key[r], arg[r], tree[r] = inf, -1, -1
	}
	freeLeft := len(in)
	st.FreeStart = freeLeft
	var D int64
	afterRound := false
	pathsRound, extra := 0, 0
	fold := func(r int, list []entry, live bool) {
		for _, e := range list {
			if live && found[e.tree] >= 0 {
				continue
			}
			k := c[r*n+e.c] - u[r] + e.off
			*maxKey = max(*maxKey, k)
			if k < key[r] {
				key[r], arg[r], tree[r] = k, e.c, e.tree
			}
		}
	}
	for freeLeft > 0 {
		lv := modelLevel{Free: freeLeft, New: len(in)}
		for r := range n {
			if state[r] != candidate {
				continue
			}
			lv.Candidates++
			if repair[r] {
				lv.Repairs++
				lv.Full = len(full)
				key[r] = inf
				st.RepairFolds += len(full)
				fold(r, full, false)
				repair[r] = false
			} else {
				st.LevelFolds += len(in)
				fold(r, in, afterRound)
			}
		}
		afterRound = false
		st.Levels = append(st.Levels, lv)
		cnt.ForestLevels++
		var out []entry
		paths, least := 0, inf
		for r := range n {
			if state[r] != candidate {
				continue
			}
			if key[r] != D {
				least = min(least, key[r])
				continue
			}
			a, tr := arg[r], tree[r]
			if s := starCol[r]; s < 0 {
				if found[tr] < 0 {
					found[tr], state[r] = r, end
					parCol[r], parRow[r] = a, starRow[a]
					paths++
				}
				continue
			}
			if pathsRound > 0 && found[tr] >= 0 {
				continue // going on after paths, its tree has one: repaired at the round's end
			}
			s := starCol[r]
			state[r], rjoin[r] = inS, D
			parCol[r], parRow[r] = a, starRow[a]
			root[s], djoin[s] = tr, D
			out = append(out, entry{s, tr, D - v[s]})
		}
		in = out
		pathsRound += paths
		if pathsRound > 0 && len(out) > 0 && extra < goOn {
			extra++
			continue
		}
		paths, extra = pathsRound, 0
		pathsRound = 0
		if paths == 0 {
			if len(out) == 0 {
				if least == inf {
					panic("forest model: no candidate row reaches the forest")
				}
				D = least
				cnt.ForestDuals++
			}
			continue
		}
		// The round's end: flips, then the trees with paths leave.
		st.FreeAfter = append(st.FreeAfter, [2]int{freeLeft - paths, cnt.ForestLevels})
		cnt.ForestRounds++
		freeLeft -= paths
		for r := range n {
			if state[r] != end {
				continue
			}
			for row := r; row >= 0; {
				k, prev := parCol[row], parRow[row]
				starRow[k], starCol[row] = row, k
				row = prev
			}
		}
		full = full[:0]
		for k := range n {
			if root[k] < 0 {
				continue
			}
			if found[root[k]] >= 0 {
				v[k] += D - djoin[k]
				root[k] = -1
			} else {
				full = append(full, entry{k, root[k], djoin[k] - v[k]})
			}
		}
		for r := range n {
			gone := tree[r] >= 0 && found[tree[r]] >= 0
			switch {
			case state[r] == inS && gone:
				u[r] -= D - rjoin[r]
				state[r], repair[r] = candidate, true
			case state[r] == end:
				state[r], repair[r] = candidate, true
			case state[r] == candidate && gone:
				repair[r] = true
			}
		}
		afterRound = true
	}
	return starCol, u, v, st
}

// forestModelStats is what forestModel did: the kernel's counts; the
// largest key folded (the kernel packs keys below 2^32); the rows times
// entries folded in the levels and in the repairs after rounds; the free
// columns after step 2 and, after each round, those left and the levels
// run so far.
type forestModelStats struct {
	PaperCounts
	MaxKey                  int64
	FreeStart               int
	LevelFolds, RepairFolds int
	FreeAfter               [][2]int
	Levels                  []modelLevel
}

// modelLevel is one level of forestModel: the free columns when it began,
// the entries it folded into candidate rows (the last level's new
// columns), its candidate rows, and the rows it repaired against the
// whole forest of Full entries.
type modelLevel struct{ Free, New, Candidates, Repairs, Full int }

// modelInstance is one instance of the CPU models' case tables.
type modelInstance struct {
	name string
	m    *lap.Matrix
}

// modelCases is the CPU models' case table: a random n x n instance for
// every size and range (costs in [0, rf·n)), then three structured ones of
// order k: negative costs, equal costs and c_ij = i·j.
func modelCases(rnd *rand.Rand, sizes []int, ranges []float64, k int) []modelInstance {
	var cases []modelInstance
	for _, n := range sizes {
		for _, rf := range ranges {
			cases = append(cases, modelInstance{"random", randomMatrix(rnd, n, n, max(1, int64(rf*float64(n))))})
		}
	}
	neg, same, prod := randomMatrix(rnd, k, k, 2000), &lap.Matrix{Rows: k, Cols: k, C: make([]int64, k*k)}, &lap.Matrix{Rows: k, Cols: k, C: make([]int64, k*k)}
	for i := range neg.C {
		neg.C[i] -= 1000
		same.C[i] = 5
		prod.C[i] = int64((i / k) * (i % k))
	}
	return append(cases, modelInstance{"negative", neg}, modelInstance{"equal", same}, modelInstance{"i*j", prod})
}

// TestForestModel: the forest search's CPU model finds certified optimal
// assignments (duals checked by lap.Certify, cost equal to cpu/jv's) on
// random instances of every range the paper uses, negative costs, equal
// costs, c_ij = i·j and rectangular instances padded with zero rows as
// cuda/paper pads them; every round augments and the key bound the kernel
// packs (keys below 2^32) holds. Rounds end at their first paths, go on
// as the kernel's do (forestGoOn levels), and go on 8 levels.
func TestForestModel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 35))
	cases := append(modelCases(rnd, []int{1, 2, 5, 17, 64, 150}, []float64{0.1, 1, 10}, 60),
		modelInstance{"rectangular", randomMatrix(rnd, 31, 64, 64)})
	for _, tc := range cases {
		m := tc.m
		k := m.Cols
		padded := make([]int64, k*k) // rows m.Rows..k-1 cost zero, as cuda/paper pads
		copy(padded, m.C)
		ref, err := lap.SolveJV(context.Background(), m, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []int{0, forestGoOn, 8} {
			assign, u, v, st := forestModel(k, padded, nil, g)
			if st.MaxKey < 0 || st.MaxKey >= 1<<32 {
				t.Errorf("%s %dx%d, go on %d: a key of %d, outside [0, 2^32)", tc.name, m.Rows, m.Cols, g, st.MaxKey)
			}
			res := &lap.Result{Assignment: assign[:m.Rows], U: u[:m.Rows], V: v}
			res.Cost = m.CostOf(res.Assignment)
			if err := lap.Certify(m, res); err != nil {
				t.Fatalf("%s %dx%d, go on %d: %v", tc.name, m.Rows, m.Cols, g, err)
			}
			if res.Cost != ref.Cost {
				t.Errorf("%s %dx%d, go on %d: cost %d, cpu/jv %d", tc.name, m.Rows, m.Cols, g, res.Cost, ref.Cost)
			}
			if st.ForestRounds > k {
				t.Errorf("%s %dx%d, go on %d: %d rounds for %d columns", tc.name, m.Rows, m.Cols, g, st.ForestRounds, k)
			}
		}
	}
}

// TestForestModelCounts logs what forestModel does on BenchmarkSolvers'
// instances at n = 4096 (the counts impls/cuda/lap/NOTES.md quotes): the
// rounds, levels and rows repaired where rounds go on 0, 1, 4 or 8 levels
// after their first paths; then, as the kernel goes on, its
// rounds, levels and dual updates, the rows times entries folded, and how
// many levels had run when the free columns fell to a half, a quarter, ...
// a hundredth. A few minutes: it runs when SEMIBENCH_FOREST_MODEL_COUNTS
// is set, at the order it names when it is a number of 2 or more
// (SEMIBENCH_FOREST_MODEL_COUNTS=8192), else at 4096.
func TestForestModelCounts(t *testing.T) {
	v := os.Getenv("SEMIBENCH_FOREST_MODEL_COUNTS")
	if v == "" {
		t.Skip("set SEMIBENCH_FOREST_MODEL_COUNTS to count")
	}
	n := 4096
	if k, err := strconv.Atoi(v); err == nil && k >= 2 {
		n = k
	}
	for _, rf := range []float64{1, 10} {
		m := randomMatrix(rand.New(rand.NewPCG(uint64(n), 7)), n, n, int64(rf*float64(n)))
		for _, g := range []int{0, 1, 4, 8} {
			_, _, _, st := forestModel(n, m.C, nil, g)
			var rep int
			for _, x := range st.Levels {
				rep += x.Repairs
			}
			t.Logf("n=%d range %gn, rounds going on %d levels after their first paths: %d rounds, %d levels, %d rows repaired", n, rf, g, st.ForestRounds, st.ForestLevels, rep)
		}
		_, _, _, st := forestModel(n, m.C, nil, forestGoOn)
		nn := float64(n) * float64(n)
		t.Logf("n=%d range %gn: %d rounds, %d levels, %d dual updates; folded %.1fn² in levels, %.1fn² in repairs",
			n, rf, st.ForestRounds, st.ForestLevels, st.ForestDuals, float64(st.LevelFolds)/nn, float64(st.RepairFolds)/nn)
		for _, tail := range []int{256, 64, 16, 4} {
			var lv, rounds, newc, rep, repFold int
			for i, x := range st.Levels {
				if x.Free > tail {
					continue
				}
				lv++
				newc += x.New
				rep += x.Repairs
				repFold += x.Repairs * x.Full
				if i+1 < len(st.Levels) && st.Levels[i+1].Free < x.Free {
					rounds++
				}
			}
			t.Logf("  at most %d free: %d levels, %d rounds, %d new columns, %d rows repaired, %d repair entries (%.2fn²)",
				tail, lv, rounds, newc, rep, repFold, float64(repFold)/nn)
		}
		free0 := st.FreeStart
		for _, frac := range []float64{0.5, 0.25, 0.1, 0.05, 0.02, 0.01} {
			for _, x := range st.FreeAfter {
				if float64(x[0]) <= frac*float64(free0) {
					t.Logf("  %d of %d free left (at most %.0f%%) after %d of %d levels", x[0], free0, 100*frac, x[1], st.ForestLevels)
					break
				}
			}
		}
	}
}
