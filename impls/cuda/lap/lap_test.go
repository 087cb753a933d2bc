package cudalap

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
	"github.com/semibench/semibench/problems/lap"
)

func hasGPU() bool {
	n, err := cuda.DeviceCount()
	return err == nil && n > 0
}

// randomMatrix is an r x c matrix of costs uniform in [0, rng).
func randomMatrix(rnd *rand.Rand, r, c int, rng int64) *lap.Matrix {
	m := &lap.Matrix{Rows: r, Cols: c, C: make([]int64, r*c)}
	for k := range m.C {
		m.C[k] = rnd.Int64N(rng)
	}
	return m
}

// solvers are this package's solvers besides cuda/paper.
var solvers = []struct {
	name  string
	solve func(context.Context, *lap.Matrix, Options) (*lap.Result, error)
}{
	{"cuda/hungarian-n3", HungarianN3},
	{"cuda/fast", Fast},
	{"cuda/fast auction", forced(StrategyAuction)},
	{"cuda/fast hungarian", forced(StrategyHungarian)},
	{"cuda/fast augment", forced(StrategyAugment)},
	{"cuda/fast forest", forced(StrategyForest)},
}

// forced is Fast with its strategy forced.
func forced(strategy string) func(context.Context, *lap.Matrix, Options) (*lap.Result, error) {
	return func(ctx context.Context, m *lap.Matrix, opt Options) (*lap.Result, error) {
		fastStrategy = strategy
		defer func() { fastStrategy = "" }()
		return Fast(ctx, m, opt)
	}
}

func TestUnavailable(t *testing.T) {
	if hasGPU() {
		t.Skip("a CUDA device is present")
	}
	m := randomMatrix(rand.New(rand.NewPCG(1, 1)), 4, 5, 10)
	for _, s := range solvers {
		if _, err := s.solve(context.Background(), m, Options{}); !errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("%s: %v; want ErrUnavailable", s.name, err)
		}
	}
}

// TestArgumentChecks: what is refused before any device work.
func TestArgumentChecks(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		m    *lap.Matrix
		want error
		text string
	}{
		{"nil", nil, nil, "nil matrix"},
		{"more rows", &lap.Matrix{Rows: 3, Cols: 2, C: make([]int64, 6)}, lap.ErrShape, "rows"},
		{"short", &lap.Matrix{Rows: 2, Cols: 2, C: make([]int64, 3)}, lap.ErrShape, "values"},
		{"beyond int32 and float64's exact range", &lap.Matrix{Rows: 2, Cols: 2, C: []int64{0, ExactFloatLimit(2) + 1, 0, 0}}, lap.ErrRange, "row 1, column 2"},
	}
	for _, s := range solvers {
		for _, c := range cases {
			_, err := s.solve(ctx, c.m, Options{})
			if err == nil || errors.Is(err, driver.ErrUnavailable) || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), c.text) {
				t.Errorf("%s %s: %v", s.name, c.name, err)
			}
		}
	}
	// Beyond int32 (cuda/hungarian-n3) is refused with the reason;
	// cuda/fast takes it, and a span beyond the auction's packed bids, to
	// the float64 kernel.
	beyond := &lap.Matrix{Rows: 2, Cols: 2, C: []int64{0, 1 << 31, 0, 0}}
	if _, err := HungarianN3(ctx, beyond, Options{}); !errors.Is(err, lap.ErrRange) || !strings.Contains(err.Error(), "beyond int32") {
		t.Errorf("cuda/hungarian-n3 beyond int32: %v", err)
	}
	span := &lap.Matrix{Rows: 1, Cols: 40, C: make([]int64, 40)}
	span.C[7] = 1<<31 - 1
	for _, m := range []*lap.Matrix{beyond, span} {
		res, st, err := FastWithStats(ctx, m, Options{})
		switch {
		case !hasGPU() && !errors.Is(err, driver.ErrUnavailable):
			t.Errorf("cuda/fast %dx%d without a GPU: %v, want the float64 kernel unavailable", m.Rows, m.Cols, err)
		case hasGPU() && (err != nil || st.Strategy != StrategyFloat64 || lap.Certify(m, res) != nil):
			t.Errorf("cuda/fast %dx%d: %v, strategy %s", m.Rows, m.Cols, err, st.Strategy)
		}
	}
	// One column needs no device.
	res, err := Fast(ctx, &lap.Matrix{Rows: 1, Cols: 1, C: []int64{-7}}, Options{})
	if err != nil || res.Cost != -7 || res.Assignment[0] != 0 {
		t.Errorf("cuda/fast 1x1: %+v, %v", res, err)
	}
}

func TestFastEpsilons(t *testing.T) {
	for _, span := range []int64{0, 1, 5, 6, 35, 36, 1000, 8193 * 8192} {
		e := FastEpsilons(span)
		if e[len(e)-1] != 1 {
			t.Errorf("span %d: last epsilon %d, want 1", span, e[len(e)-1])
		}
		for i := 1; i < len(e); i++ {
			if e[i] >= e[i-1] || e[i] != max(1, e[i-1]/FastTheta) {
				t.Errorf("span %d: epsilons %v do not shrink by %d", span, e, FastTheta)
			}
		}
		if e[0] != max(1, span/FastTheta) {
			t.Errorf("span %d: first epsilon %d", span, e[0])
		}
	}
}

func TestPlans(t *testing.T) {
	if got, want := N3Plan(8192, 8192).Total(), uint64(4*8192*8192+8*8193+8*8193+4*8193+4*8193+8*8193+8193); got != want {
		t.Errorf("N3Plan = %d bytes, want %d", got, want)
	}
	if got, want := FastPlan(100, 200).Total(), uint64(4*100*200+(8+4+4)*200+64); got != want {
		t.Errorf("FastPlan = %d bytes, want %d", got, want)
	}
	err := cuda.Fits(FastPlan(8192, 8192), 1<<28, nil)
	if err == nil || !strings.Contains(err.Error(), "cuda/fast 8192x8192") {
		t.Errorf("Fits: %v", err)
	}
}

func TestAssignFromColumns(t *testing.T) {
	a := make([]int, 2)
	if err := assignFromColumns([]int32{9, 0, 2, 1}, a); err != nil || a[0] != 2 || a[1] != 1 {
		t.Errorf("assignFromColumns = %v, %v", a, err)
	}
	for _, p := range [][]int32{{0, 1, 1, 0}, {0, 1, 0, 0}, {0, 3, 2, 1}} {
		if err := assignFromColumns(p, a); err == nil {
			t.Errorf("p = %v accepted", p)
		}
	}
}

// TestBatchResults: floatResults over a batch of several runs of problems
// (1,000 of 3x5) gives each problem its own assignment, its duals without
// the leading slot and its cost; with two bad problems the error names
// the first.
func TestBatchResults(t *testing.T) {
	const n, r, c = 1000, 3, 5
	costs := make([]float32, n*r*c)
	for i := range costs {
		costs[i] = float32(i%7) / 8
	}
	p := make([]int32, n*(c+1))
	u, v := make([]float64, n*(r+1)), make([]float64, n*(c+1))
	for k := range n {
		for i := range r {
			p[k*(c+1)+1+(i+k)%c] = int32(i + 1) // row i in column (i+k) mod c
			u[k*(r+1)+1+i] = float64(k*10 + i)
		}
		v[k*(c+1)+1] = float64(-k)
	}
	res, err := floatResults(n, r, c, costs, p, u, v)
	if err != nil {
		t.Fatal(err)
	}
	for k, x := range res {
		var cost float64
		for i, j := range x.Assignment {
			if j != (i+k)%c {
				t.Fatalf("problem %d: assignment %v", k+1, x.Assignment)
			}
			cost += float64(costs[k*r*c+i*c+j])
		}
		if x.Cost != cost || len(x.U) != r || x.U[2] != float64(k*10+2) || len(x.V) != c || x.V[0] != float64(-k) {
			t.Fatalf("problem %d: cost %v (want %v), U %v, V %v", k+1, x.Cost, cost, x.U, x.V)
		}
	}
	res[0].Assignment[0] = -1
	if res[1].Assignment[0] != 1 {
		t.Fatal("problems share an assignment")
	}
	for _, k := range []int{899, 699} {
		p[k*(c+1)+1], p[k*(c+1)+2] = 1, 1
	}
	if _, err := floatResults(n, r, c, costs, p, u, v); err == nil || !strings.Contains(err.Error(), "problem 700:") {
		t.Fatalf("two bad problems: %v", err)
	}
}

// ---- GPU tests ----------------------------------------------------------

func needGPU(t *testing.T) {
	t.Helper()
	if !hasGPU() {
		t.Skip("no CUDA device")
	}
}

// check certifies res (by duals when it has them) and compares its cost
// with cpu/jv's certified optimum.
func check(t *testing.T, name string, m *lap.Matrix, res *lap.Result) {
	t.Helper()
	ref, err := lap.SolveJV(context.Background(), m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := lap.Certify(m, ref); err != nil {
		t.Fatalf("reference: %v", err)
	}
	if err := lap.Certify(m, res); err != nil {
		t.Fatalf("%s %dx%d: %v", name, m.Rows, m.Cols, err)
	}
	if err := lap.Agree(m, res, ref); err != nil {
		t.Fatalf("%s %dx%d: %v", name, m.Rows, m.Cols, err)
	}
}

func TestGPUSolvers(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(4, 2))
	shapes := [][2]int{{1, 1}, {1, 5}, {2, 2}, {3, 7}, {17, 17}, {31, 64}, {100, 100}, {257, 300}, {512, 512}, {1000, 1000}}
	for _, s := range solvers {
		for _, sh := range shapes {
			for _, rf := range []float64{0.1, 1, 10} {
				rng := max(1, int64(rf*float64(sh[1])))
				m := randomMatrix(rnd, sh[0], sh[1], rng)
				res, err := s.solve(ctx, m, Options{})
				if err != nil {
					t.Fatalf("%s %dx%d range %d: %v", s.name, sh[0], sh[1], rng, err)
				}
				check(t, s.name, m, res)
			}
		}
		// Negative costs, all equal costs, and c_ij = i·j (the Hungarian's
		// hard case).
		n := 300
		neg := randomMatrix(rnd, n, n, 2000)
		same := &lap.Matrix{Rows: n, Cols: n, C: make([]int64, n*n)}
		prod := &lap.Matrix{Rows: n, Cols: n, C: make([]int64, n*n)}
		for k := range neg.C {
			neg.C[k] -= 1000
			same.C[k] = 5
			prod.C[k] = int64((k / n) * (k % n))
		}
		for _, m := range []*lap.Matrix{neg, same, prod} {
			res, err := s.solve(ctx, m, Options{})
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			check(t, s.name, m, res)
		}
		t.Logf("%s: certified on %d random shapes x 3 ranges and 3 structured matrices", s.name, len(shapes))
	}
}

// TestGPULarge times both at n = 2048 (range n) against cpu/jv.
func TestGPULarge(t *testing.T) {
	needGPU(t)
	if testing.Short() {
		t.Skip("-short")
	}
	rnd := rand.New(rand.NewPCG(8, 8))
	for _, rf := range []float64{0.1, 1, 10} {
		n := 2048
		m := randomMatrix(rnd, n, n, int64(rf*float64(n)))
		for _, s := range solvers {
			res, err := s.solve(context.Background(), m, Options{})
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			check(t, s.name, m, res)
		}
		_, st, err := FastWithStats(context.Background(), m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("n=%d range %gn: cuda/fast %d phases, %d bids", n, rf, st.Phases, st.Bids)
	}
}

// allSolvers are cuda/paper and the others.
func allSolvers() []struct {
	name  string
	solve func(context.Context, *lap.Matrix, Options) (*lap.Result, error)
} {
	return append(slices.Clone(solvers), struct {
		name  string
		solve func(context.Context, *lap.Matrix, Options) (*lap.Result, error)
	}{"cuda/paper", Paper})
}

// measure times one solver with the timing protocol and checks its answer.
func measure(t *testing.T, name string, solve func(context.Context, *lap.Matrix, Options) (*lap.Result, error),
	m *lap.Matrix, ref *lap.Result, p bench.Protocol) []bench.Phase {
	t.Helper()
	phases, err := bench.Measure(context.Background(), p, func(ctx context.Context, rec *bench.Recorder) error {
		res, err := solve(ctx, m, Options{Rec: rec})
		if err != nil {
			return err
		}
		return lap.Agree(m, res, ref)
	})
	if err != nil {
		t.Fatalf("%s %dx%d: %v", name, m.Rows, m.Cols, err)
	}
	return phases
}

// TestGPUProtocol: every solver (each of cuda/fast's strategies forced)
// follows the timing protocol: the upload and the download lie outside the
// window (scope end_to_end), the solver's own phases inside (scope total),
// total is below end_to_end, and bench.Measure finds no overlapping phases.
func TestGPUProtocol(t *testing.T) {
	needGPU(t)
	m := randomMatrix(rand.New(rand.NewPCG(5, 5)), 700, 700, 700)
	ref, err := lap.SolveJV(context.Background(), m, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range allSolvers() {
		phases := measure(t, s.name, s.solve, m, ref, bench.Protocol{Warmup: 1, Reps: 3, Statistic: bench.StatMedian})
		scope := map[string]string{}
		ms := map[string]float64{}
		for _, p := range phases {
			scope[p.Name], ms[p.Name] = p.Scope, p.StatMS
		}
		for _, name := range []string{PhaseH2D, PhaseD2H} {
			if scope[name] != bench.ScopeEndToEnd {
				t.Errorf("%s: phase %s has scope %q, want %q (outside the window)", s.name, name, scope[name], bench.ScopeEndToEnd)
			}
		}
		inside := 0
		for name, sc := range scope {
			if sc == bench.ScopeTotal && name != bench.OtherPhase {
				inside++
			}
		}
		if inside == 0 {
			t.Errorf("%s: no phase inside the window: %v", s.name, scope)
		}
		if !(ms[bench.TotalPhase] > 0 && ms[bench.TotalPhase] < ms[bench.EndToEndPhase]) {
			t.Errorf("%s: total %.3f ms, end_to_end %.3f ms", s.name, ms[bench.TotalPhase], ms[bench.EndToEndPhase])
		}
		t.Logf("%s: %v", s.name, ms)
	}
}

// benchInstance is one n x n instance of BenchmarkSolvers, generated and
// solved by cpu/jv (the certified optimum) when a sub-benchmark first
// needs it.
type benchInstance struct {
	n    int
	rf   float64
	once sync.Once
	m    *lap.Matrix
	ref  *lap.Result
	err  error
}

// get returns the matrix and its reference.
func (in *benchInstance) get() (*lap.Matrix, *lap.Result, error) {
	in.once.Do(func() {
		in.m = randomMatrix(rand.New(rand.NewPCG(uint64(in.n), 7)), in.n, in.n, int64(in.rf*float64(in.n)))
		in.ref, in.err = lap.SolveJV(context.Background(), in.m, nil)
	})
	return in.m, in.ref, in.err
}

// BenchmarkSolvers times every solver (each of cuda/fast's strategies
// forced) on n x n instances, n = 512 .. 8192, costs uniform in [0, rf·n)
// for rf = 0.1, 1, 10: one op is one solve under the timing protocol, host
// memory to host memory, after a warm-up solve. It reports the mean of
// each phase per op, total (matrix on the device) and end_to_end among
// them, as <phase>-ms/op; every answer must cost the certified optimum.
// cuda/fast's automatic choice is logged with its auction's phases and
// bids. Select sizes with -bench, e.g. -bench 'Solvers/cuda/fast/n=2048'.
func BenchmarkSolvers(b *testing.B) {
	if !hasGPU() {
		b.Skip("no CUDA device")
	}
	if v, err := strconv.Atoi(os.Getenv("SEMIBENCH_FOREST_BLOCKS")); err == nil {
		forestBlockLimit = v // the forest kernel's blocks at most (a shape to compare)
		defer func() { forestBlockLimit = 0 }()
	}
	if v, err := strconv.Atoi(os.Getenv("SEMIBENCH_FOREST_THREADS")); err == nil {
		forestThreadsOverride = v // the forest kernel's block size, 1024, 512 or 256 (a shape to compare)
		defer func() { forestThreadsOverride = 0 }()
	}
	if os.Getenv("SEMIBENCH_MATCH_OFF") != "" {
		// step 2 everywhere, where cuda/fast matches dense zeros with lap_match
		paperTuned.matching, paperForest.matching = false, false
		defer func() { paperTuned.matching, paperForest.matching = true, true }()
	}
	if v, err := strconv.Atoi(os.Getenv("SEMIBENCH_FOREST_GOON")); err == nil {
		g0 := forestGoOn
		forestGoOn = v // the levels the forest's rounds go on after their first paths (a rule to compare)
		defer func() { forestGoOn = g0 }()
	}
	if os.Getenv("SEMIBENCH_FOREST_SLACK32") != "" {
		forestSlack16 = false // the forest reads int32 slacks throughout
		defer func() { forestSlack16 = true }()
	}
	ctx := context.Background()
	for _, n := range []int{512, 1024, 2048, 4096, 8192} {
		for _, rf := range []float64{0.1, 1, 10} {
			in := &benchInstance{n: n, rf: rf}
			for _, s := range allSolvers() {
				if (s.name == "cuda/hungarian-n3" && n > 2048) || (s.name == "cuda/fast augment" && n > 2048 && rf > 1) {
					continue
				}
				b.Run(fmt.Sprintf("%s/n=%d/range=%gn", strings.ReplaceAll(s.name, " ", "-"), n, rf), func(b *testing.B) {
					m, ref, err := in.get()
					if err != nil {
						b.Fatalf("cpu/jv: %v", err)
					}
					benchSolve(b, s.solve, m, ref)
					if s.name == "cuda/fast" {
						_, st, err := FastWithStats(ctx, m, Options{})
						if err != nil {
							b.Fatal(err)
						}
						b.Logf("auto: %s; auction %d phases, %d bids", st.Strategy, st.Phases, st.Bids)
					}
					if s.name == "cuda/fast forest" || s.name == "cuda/fast hungarian" {
						sc, err := hostcost.ScanMatrix("cuda/fast", m)
						if err != nil {
							b.Fatal(err)
						}
						d := paperTuned
						if s.name == "cuda/fast forest" {
							d, forestTimed = paperForest, 1
						}
						_, cnt, err := solvePaperScanned(ctx, m, sc, Options{}, d, func() {})
						forestTimed = 0
						if err != nil {
							b.Fatal(err)
						}
						if d.forest {
							b.Logf("forest: %d rounds, %d levels, %d dual updates; block 0's sections (fold, joins, barrier; flips, settle, barrier; repairs): %v",
								cnt.ForestRounds, cnt.ForestLevels, cnt.ForestDuals, cnt.ForestSections)
						} else {
							b.Logf("steps 3 to 6: %d, %d (%d launches, %d ran), %d, %d calls", cnt.Step3Calls, cnt.Step4Calls, cnt.Step4Launches, cnt.Step4Runs, cnt.Step5Calls, cnt.Step6Calls)
						}
						b.Logf("matching of the zeros: %d rounds, %d levels, %d columns left free (all 0: step 2 ran)", cnt.MatchRounds, cnt.MatchLevels, cnt.MatchFree)
					}
				})
			}
		}
	}
}

// benchSolve is one sub-benchmark of BenchmarkSolvers: a warm-up solve
// (kernels loaded, buffers allocated), then b.Loop's solves, each measured
// by bench.Measure (one repetition) and held to ref's cost; the mean of
// each phase is reported as <phase>-ms/op.
func benchSolve(b *testing.B, solve func(context.Context, *lap.Matrix, Options) (*lap.Result, error), m *lap.Matrix, ref *lap.Result) {
	b.Helper()
	ctx := context.Background()
	if _, err := solve(ctx, m, Options{}); err != nil {
		b.Fatalf("warm-up: %v", err)
	}
	var res *lap.Result
	benchPhases(b, func(ctx context.Context, rec *bench.Recorder) error {
		var err error
		res, err = solve(ctx, m, Options{Rec: rec})
		return err
	}, func() error { return lap.Agree(m, res, ref) })
}

// benchPhases runs b.Loop's iterations of run, each measured by
// bench.Measure (one repetition) and then checked by check (untimed), and
// reports the mean of each phase as <phase>-ms/op.
func benchPhases(b *testing.B, run func(context.Context, *bench.Recorder) error, check func() error) {
	b.Helper()
	ctx := context.Background()
	var order []string
	sum := map[string]float64{}
	ops := 0
	for b.Loop() {
		phases, err := bench.Measure(ctx, bench.Protocol{Reps: 1, Statistic: bench.StatMedian}, run)
		if err != nil {
			b.Fatal(err)
		}
		if err := check(); err != nil {
			b.Fatal(err)
		}
		for _, p := range phases {
			if _, ok := sum[p.Name]; !ok {
				order = append(order, p.Name)
			}
			sum[p.Name] += p.StatMS
		}
		ops++
	}
	for _, name := range order {
		b.ReportMetric(sum[name]/float64(ops), name+"-ms/op")
	}
}

func TestFastChoose(t *testing.T) {
	for _, c := range []struct {
		n    int
		span int64
		want string
	}{
		{512, 5120, StrategyForest}, {2048, 0, StrategyForest}, {8192, 819, StrategyHungarian}, {8192, 2048, StrategyForest},
		{8192, 81920, StrategyForest}, {8192, 262112, StrategyForest}, {8192, 262113, StrategyAuction},
		{16384, 4096, StrategyForest}, {16385, 100000, StrategyHungarian},
		{MaxPaperOrder, 10, StrategyHungarian}, {MaxPaperOrder + 1, 10, StrategyAuction},
	} {
		if got := fastChoose(c.n, c.n, c.span); got != c.want {
			t.Errorf("n=%d span %d: %s, want %s", c.n, c.span, got, c.want)
		}
	}
	fastStrategy = StrategyAuction
	defer func() { fastStrategy = "" }()
	if got := fastChoose(512, 512, 0); got != StrategyAuction {
		t.Errorf("forced: %s", got)
	}
}
