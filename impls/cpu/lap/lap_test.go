package lap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/problems/lap"
)

// brute returns the optimal cost over all injective assignments of rows to
// columns.
func brute(m *lap.Matrix) int64 {
	best := int64(math.MaxInt64)
	used := make([]bool, m.Cols)
	var rec func(i int, s int64)
	rec = func(i int, s int64) {
		if i == m.Rows {
			best = min(best, s)
			return
		}
		for j := range m.Cols {
			if !used[j] {
				used[j] = true
				rec(i+1, s+m.C[i*m.Cols+j])
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

func maxAbs(m *lap.Matrix) int64 {
	var a int64
	for _, x := range m.C {
		a = max(a, x, -x)
	}
	return a
}

func randMatrix(rng *rand.Rand, r, c int, lo, hi int64) *lap.Matrix {
	m := &lap.Matrix{Rows: r, Cols: c, C: make([]int64, r*c)}
	for k := range m.C {
		m.C[k] = lo + rng.Int64N(hi-lo)
	}
	return m
}

// cases returns the small instances every implementation is held to.
func smallCases() []struct {
	name string
	m    *lap.Matrix
} {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []struct {
		name string
		m    *lap.Matrix
	}
	add := func(name string, m *lap.Matrix) {
		out = append(out, struct {
			name string
			m    *lap.Matrix
		}{name, m})
	}
	add("1x1", &lap.Matrix{Rows: 1, Cols: 1, C: []int64{7}})
	add("1x1-negative", &lap.Matrix{Rows: 1, Cols: 1, C: []int64{-7}})
	add("1x5", &lap.Matrix{Rows: 1, Cols: 5, C: []int64{4, 2, 9, 2, 5}})
	add("2x2", &lap.Matrix{Rows: 2, Cols: 2, C: []int64{1, 2, 3, 4}})
	for n := 2; n <= 7; n++ {
		add(fmt.Sprintf("equal-%d", n), randMatrix(rng, n, n, 5, 6))
		add(fmt.Sprintf("zeros-%d", n), randMatrix(rng, n, n, 0, 1))
		huge := randMatrix(rng, n, n, 0, 10)
		huge.C[rng.IntN(n*n)] = lap.MaxAbsCost(n)
		add(fmt.Sprintf("one-huge-%d", n), huge)
		neg := randMatrix(rng, n, n, 0, 10)
		neg.C[rng.IntN(n*n)] = -lap.MaxAbsCost(n)
		add(fmt.Sprintf("one-huge-negative-%d", n), neg)
		for rep := range 6 {
			add(fmt.Sprintf("range-0.1n-%d-%d", n, rep), randMatrix(rng, n, n, 0, max(1, int64(n)/10+1)))
			add(fmt.Sprintf("range-n-%d-%d", n, rep), randMatrix(rng, n, n, 0, int64(n)))
			add(fmt.Sprintf("range-10n-%d-%d", n, rep), randMatrix(rng, n, n, 0, 10*int64(n)))
			add(fmt.Sprintf("signed-%d-%d", n, rep), randMatrix(rng, n, n, -1000, 1000))
			add(fmt.Sprintf("extreme-%d-%d", n, rep), randMatrix(rng, n, n, -lap.MaxAbsCost(n), lap.MaxAbsCost(n)+1))
			add(fmt.Sprintf("extreme-rect-%d-%d", n, rep), randMatrix(rng, max(1, n-2), n, -lap.MaxAbsCost(n), lap.MaxAbsCost(n)+1))
		}
	}
	for r := 1; r <= 5; r++ {
		for c := r + 1; c <= 7; c++ {
			add(fmt.Sprintf("rect-%dx%d", r, c), randMatrix(rng, r, c, 0, int64(c)))
			add(fmt.Sprintf("rect-ties-%dx%d", r, c), randMatrix(rng, r, c, 0, 2))
			add(fmt.Sprintf("rect-signed-%dx%d", r, c), randMatrix(rng, r, c, -50, 50))
		}
	}
	// An anti-greedy instance: the row minima all sit in one column.
	add("same-column-minima", &lap.Matrix{Rows: 4, Cols: 4, C: []int64{
		0, 9, 9, 9,
		0, 8, 7, 9,
		0, 7, 9, 8,
		0, 9, 8, 7}})
	return out
}

func TestAgainstBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, tc := range smallCases() {
		want := brute(tc.m)
		for _, im := range Impls() {
			res, err := im.Solve(ctx, tc.m, nil)
			if err != nil {
				t.Errorf("%s %s: %v", im.Name, tc.name, err)
				continue
			}
			if err := lap.Certify(tc.m, res); err != nil {
				t.Errorf("%s %s: certificate: %v", im.Name, tc.name, err)
			}
			if res.Cost != want {
				t.Errorf("%s %s: cost %d, brute force %d", im.Name, tc.name, res.Cost, want)
			}
			if im.Name != "cpu/auction" && (res.U == nil || res.V == nil) {
				t.Errorf("%s %s: no duals", im.Name, tc.name)
			}
			if im.SolveFloat != nil && maxAbs(tc.m) <= 1<<40 { // float64 sums exact
				f := tc.m.Float()
				fr, err := im.SolveFloat(ctx, f, nil)
				if err != nil {
					t.Errorf("%s %s float: %v", im.Name, tc.name, err)
					continue
				}
				if err := lap.CertifyFloat(f, fr, 1e-12); err != nil {
					t.Errorf("%s %s float: certificate: %v", im.Name, tc.name, err)
				}
				if fr.Cost != float64(want) {
					t.Errorf("%s %s float: cost %v, brute force %d", im.Name, tc.name, fr.Cost, want)
				}
			}
		}
	}
}

// TestAgreeLarger holds every implementation to cpu/jv (certified) on
// instances too large for brute force.
func TestAgreeLarger(t *testing.T) {
	ctx := context.Background()
	sizes := []int{16, 40, 100}
	if !testing.Short() {
		sizes = append(sizes, 200)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		for _, rngHi := range []int64{max(1, int64(n)/10), int64(n), 10 * int64(n)} {
			for _, shape := range [][2]int{{n, n}, {n / 2, n}, {n - 1, n}} {
				m := randMatrix(rng, shape[0], shape[1], 0, rngHi)
				ref, err := lap.SolveJV(ctx, m, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := lap.Certify(m, ref); err != nil {
					t.Fatalf("jv %dx%d range %d: %v", m.Rows, m.Cols, rngHi, err)
				}
				for _, im := range Impls() {
					res, err := im.Solve(ctx, m, nil)
					if err != nil {
						t.Errorf("%s %dx%d: %v", im.Name, m.Rows, m.Cols, err)
						continue
					}
					if err := lap.Certify(m, res); err != nil {
						t.Errorf("%s %dx%d range %d: %v", im.Name, m.Rows, m.Cols, rngHi, err)
					}
					if err := lap.Agree(m, res, ref); err != nil {
						t.Errorf("%s %dx%d range %d: %v", im.Name, m.Rows, m.Cols, rngHi, err)
					}
				}
			}
		}
	}
}

// TestStructured holds every implementation to brute force on the classic
// hard structures: c_ij = i·j, the Machol-Wien matrix (i+1)(j+1), a single
// huge cost on the diagonal, and rectangular ties.
func TestStructured(t *testing.T) {
	ctx := context.Background()
	mk := func(r, c int, f func(i, j int) int64) *lap.Matrix {
		m := &lap.Matrix{Rows: r, Cols: c, C: make([]int64, r*c)}
		for i := range r {
			for j := range c {
				m.C[i*c+j] = f(i, j)
			}
		}
		return m
	}
	for n := 1; n <= 8; n++ {
		ms := map[string]*lap.Matrix{
			"i*j":         mk(n, n, func(i, j int) int64 { return int64(i * j) }),
			"machol-wien": mk(n, n, func(i, j int) int64 { return int64((i + 1) * (j + 1)) }),
			"huge-diagonal": mk(n, n, func(i, j int) int64 {
				if i == j {
					return lap.MaxAbsCost(n)
				}
				return int64((i + 2*j) % 3)
			}),
			"rect-equal": mk(max(1, n/2), n, func(i, j int) int64 { return 3 }),
		}
		for name, m := range ms {
			want := brute(m)
			for _, im := range Impls() {
				res, err := im.Solve(ctx, m, nil)
				if err != nil {
					t.Fatalf("%s %s n=%d: %v", im.Name, name, n, err)
				}
				if err := lap.Certify(m, res); err != nil || res.Cost != want {
					t.Errorf("%s %s n=%d: cost %d (brute force %d), certificate %v", im.Name, name, n, res.Cost, want, err)
				}
			}
		}
	}
}

func TestFloatCosts(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	for rep := range 20 {
		r, c := 1+rng.IntN(6), 0
		c = r + rng.IntN(3)
		f := &lap.FloatMatrix{Rows: r, Cols: c, C: make([]float64, r*c)}
		for k := range f.C {
			f.C[k] = rng.NormFloat64() * 100
		}
		// Brute force in float.
		best := math.Inf(1)
		used := make([]bool, c)
		var rec func(i int, s float64)
		rec = func(i int, s float64) {
			if i == r {
				best = min(best, s)
				return
			}
			for j := range c {
				if !used[j] {
					used[j] = true
					rec(i+1, s+f.C[i*c+j])
					used[j] = false
				}
			}
		}
		rec(0, 0)
		for _, im := range Impls() {
			if im.SolveFloat == nil {
				continue
			}
			res, err := im.SolveFloat(ctx, f, nil)
			if err != nil {
				t.Fatalf("%s rep %d: %v", im.Name, rep, err)
			}
			if err := lap.CertifyFloat(f, res, 1e-9); err != nil {
				t.Errorf("%s rep %d: %v", im.Name, rep, err)
			}
			if math.Abs(res.Cost-best) > 1e-9*math.Max(1, math.Abs(best)) {
				t.Errorf("%s rep %d: cost %v, brute force %v", im.Name, rep, res.Cost, best)
			}
		}
	}
}

// TestFloatNotFinite: a NaN cost is refused by every float solver. (The
// integer shape and overflow errors are in impls' lapCases, run against
// every implementation.)
func TestFloatNotFinite(t *testing.T) {
	ctx := context.Background()
	nan := &lap.FloatMatrix{Rows: 1, Cols: 2, C: []float64{1, math.NaN()}}
	for _, im := range Impls() {
		if im.SolveFloat == nil {
			continue
		}
		if _, err := im.SolveFloat(ctx, nan, nil); !errors.Is(err, lap.ErrNotFinite) {
			t.Errorf("%s NaN: err %v", im.Name, err)
		}
	}
}

func TestPaperPhases(t *testing.T) {
	m := randMatrix(rand.New(rand.NewPCG(7, 8)), 30, 30, 0, 300)
	res, st, err := SolvePaperStats(context.Background(), m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := lap.Certify(m, res); err != nil {
		t.Fatal(err)
	}
	if st.Step5Calls == 0 || st.Step6Calls == 0 {
		t.Errorf("stats %+v: expected steps 5 and 6 to run", st)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := randMatrix(rand.New(rand.NewPCG(9, 9)), 300, 300, 0, 3000)
	for _, im := range Impls() {
		if _, err := im.Solve(ctx, m, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err %v, want context.Canceled", im.Name, err)
		}
	}
}

// FuzzSolvers decodes a small matrix from the input (the first two bytes
// give its shape, each further byte a cost, the last one a scale) and holds
// every implementation to brute force.
func FuzzSolvers(f *testing.F) {
	f.Add([]byte{3, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1})
	f.Add([]byte{2, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 200})
	f.Add([]byte{1, 1, 255, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		r, c := 1+int(data[0])%6, 1+int(data[1])%7
		if r > c {
			r, c = c, r
		}
		scale := int64(data[len(data)-1]) + 1
		cells := data[2 : len(data)-1]
		m := &lap.Matrix{Rows: r, Cols: c, C: make([]int64, r*c)}
		for k := range m.C {
			var b byte
			if len(cells) > 0 {
				b = cells[k%len(cells)]
			}
			m.C[k] = (int64(b) - 128) * scale * scale * scale
		}
		want := brute(m)
		for _, im := range Impls() {
			res, err := im.Solve(context.Background(), m, nil)
			if err != nil {
				t.Fatalf("%s: %v", im.Name, err)
			}
			if err := lap.Certify(m, res); err != nil || res.Cost != want {
				t.Fatalf("%s on %dx%d %v: cost %d, brute force %d, certificate %v", im.Name, r, c, m.C, res.Cost, want, err)
			}
		}
	})
}
